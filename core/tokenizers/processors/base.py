"""The post-processor interface: special tokens around the encoded sequence
(``add_special_tokens``) and optional offset edits.

A post-processor exposes ``single_template() -> list[Item]`` where an item is either
``("sequence", type_id)`` (the encoded text) or ``("special", tokens, ids, type_id)``. The
tokenizer expands the template; special tokens get offsets ``(0, 0)``, word id ``None`` and
special-tokens-mask 1. A post-processor that also edits offsets (RobertaProcessing's and
ByteLevel's ``trim_offsets``) overrides ``adjust`` (called before the template is applied,
with ``add_special_tokens`` either way; offsets are code points of the original text) and
``adjust_arrays`` (the same edit of offsets held as two numpy arrays: long texts).
"""

from __future__ import annotations

from typing import Any

Item = tuple


class PostProcessor:
    """Base class: a template of special tokens around the sequence."""

    type_name = "PostProcessor"

    def single_template(self) -> list[Item]:
        return [("sequence", 0)]

    def adjust(self, text: str, tokens: list[str], offsets: list[tuple[int, int]]) -> None:
        """Edit ``offsets`` in place if the component changes them (default: no change)."""

    def adjust_arrays(self, text: str, tokens: list[str], starts, ends) -> None:
        """:meth:`adjust` of offsets given as two ``(n,) int64`` arrays (``starts``,
        ``ends``: code points), edited in place; the same result (default: no change)."""

    def settings(self) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}
