"""Post-processors: add special tokens around the encoded sequence (``add_special_tokens``).

A post-processor exposes ``single_template() -> list[Item]`` where an item is either
``("sequence", type_id)`` (the encoded text) or ``("special", tokens, ids, type_id)``. The
tokenizer expands the template; special tokens get offsets ``(0, 0)``, word id ``None`` and
special-tokens-mask 1. A post-processor that also edits offsets (RobertaProcessing's and
ByteLevel's ``trim_offsets``) can override ``adjust`` (called before the template is
applied, with ``add_special_tokens`` either way).

To add a component: register a builder in :data:`POST_PROCESSORS`.
"""

from __future__ import annotations

from typing import Any, Callable

from core.errors import TokenizerLoadError
from core.tokenizers.components import build_component

Item = tuple


class PostProcessor:
    """Base class: a template of special tokens around the sequence."""

    type_name = "PostProcessor"

    def single_template(self) -> list[Item]:
        return [("sequence", 0)]

    def adjust(self, text: str, tokens: list[str], offsets: list[tuple[int, int]]) -> None:
        """Edit ``offsets`` in place if the component changes them (default: no change)."""

    def settings(self) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}


class BertProcessing(PostProcessor):
    """``[CLS] A [SEP]``."""

    type_name = "BertProcessing"

    def __init__(self, sep: tuple[str, int], cls: tuple[str, int]):
        self.sep, self.cls = (str(sep[0]), int(sep[1])), (str(cls[0]), int(cls[1]))

    def settings(self) -> dict[str, Any]:
        return {"cls": list(self.cls), "sep": list(self.sep)}

    def single_template(self) -> list[Item]:
        return [("special", [self.cls[0]], [self.cls[1]], 0), ("sequence", 0),
                ("special", [self.sep[0]], [self.sep[1]], 0)]


class TemplateProcessing(PostProcessor):
    """The ``single`` template of a ``TemplateProcessing`` object (pairs are not encoded)."""

    type_name = "TemplateProcessing"

    def __init__(self, single: list[dict], pair: list[dict] | None, special_tokens: dict):
        self.single, self.pair, self.special_tokens = single, pair, special_tokens
        self._items = [self._item(piece) for piece in single]

    def _item(self, piece: dict) -> Item:
        if "Sequence" in piece:
            return ("sequence", int(piece["Sequence"].get("type_id", 0)))
        spec = piece["SpecialToken"]
        name = spec["id"]
        if name not in self.special_tokens:
            raise TokenizerLoadError(f"template uses special token {name!r} that is not defined")
        tok = self.special_tokens[name]
        tokens, ids = list(map(str, tok["tokens"])), list(map(int, tok["ids"]))
        if len(tokens) != len(ids):
            raise TokenizerLoadError(f"special token {name!r} has {len(tokens)} tokens and {len(ids)} ids")
        return ("special", tokens, ids, int(spec.get("type_id", 0)))

    def settings(self) -> dict[str, Any]:
        def show(t):
            return " ".join("$" + p["Sequence"]["id"] if "Sequence" in p else p["SpecialToken"]["id"]
                            for p in t or [])
        return {"single": show(self.single), "pair": show(self.pair)}

    def single_template(self) -> list[Item]:
        return self._items


def _template(cfg: dict) -> TemplateProcessing:
    return TemplateProcessing(cfg["single"], cfg.get("pair"), cfg.get("special_tokens", {}))


class Sequence(PostProcessor):
    """Post-processors applied in turn (e.g. ByteLevel trimming, then a template).

    Raises
    ------
    TokenizerLoadError
        If more than one member adds special tokens (not supported).
    """

    type_name = "Sequence"

    def __init__(self, processors: list[PostProcessor]):
        self.processors = list(processors)
        templated = [p for p in self.processors if p.single_template() != [("sequence", 0)]]
        if len(templated) > 1:
            raise TokenizerLoadError("a post-processor Sequence with two templates is not supported")
        self._template = templated[0].single_template() if templated else [("sequence", 0)]

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "processors": [p.describe() for p in self.processors]}

    def single_template(self) -> list[Item]:
        return self._template

    def adjust(self, text, tokens, offsets) -> None:
        for p in self.processors:
            p.adjust(text, tokens, offsets)


def _steps():  # bytelevel_steps subclasses PostProcessor: imported on first use
    from core.tokenizers import bytelevel_steps
    return bytelevel_steps


#: ``tokenizer.json`` post-processor ``type`` -> builder taking the component's JSON object.
POST_PROCESSORS: dict[str, Callable[[dict], PostProcessor]] = {
    "BertProcessing": lambda cfg: BertProcessing(cfg["sep"], cfg["cls"]),
    "TemplateProcessing": _template,
    "ByteLevel": lambda cfg: _steps().ByteLevelProcessing.from_config(cfg),
    "RobertaProcessing": lambda cfg: _steps().RobertaProcessing.from_config(cfg),
    "Sequence": lambda cfg: Sequence([build_post_processor(c) for c in cfg["processors"]]),
}


def build_post_processor(cfg: dict | None) -> PostProcessor | None:
    """Build a post-processor from its ``tokenizer.json`` object (``None`` -> ``None``).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` or a template naming an undefined special token.
    """
    return build_component("post-processor", cfg, POST_PROCESSORS)
