"""The ByteLevel and RobertaProcessing post-processors and their ``trim_offsets``.

``trim_offsets`` moves a token's span (code points of the original text) past its leading
and trailing spaces (``Ġ`` or whitespace characters), except one leading space of the first
token when ``add_prefix_space`` is on — the reference's ``process_offsets``.
"""

from __future__ import annotations

from typing import Any

from core.tokenizers import chars
from core.tokenizers._components import config_flag
from core.tokenizers.processors.base import PostProcessor


def _is_space(c: str) -> bool:
    return c == "\u0120" or c in chars.WHITESPACE


def trim_offsets(tokens: list[str], offsets: list[tuple[int, int]],
                 add_prefix_space: bool) -> None:
    """Move spans past leading/trailing spaces of their tokens, in place (the reference's
    ``process_offsets``; a prefix space the pre-tokenizer added to the first token stays)."""
    for i, tok in enumerate(tokens):
        if not tok or not (_is_space(tok[0]) or _is_space(tok[-1])):
            continue
        lead = len(tok) - len(tok.lstrip("\u0120" + "".join(chars.WHITESPACE)))
        trail = len(tok) - len(tok.rstrip("\u0120" + "".join(chars.WHITESPACE)))
        a, b = offsets[i]
        if lead:
            if (i == 0 or a == 0) and add_prefix_space and lead == 1:
                lead = 0
            a = min(a + lead, b)
        if trail and b >= trail:
            b = max(b - trail, a)
        offsets[i] = (a, b)


class ByteLevelProcessing(PostProcessor):
    """The ByteLevel post-processor: no special tokens; trims offsets if asked."""

    type_name = "ByteLevel"

    def __init__(self, trim_offsets: bool = True, add_prefix_space: bool = True,
                 use_regex: bool = True):
        self.trim, self.add_prefix_space, self.use_regex = (
            bool(trim_offsets), bool(add_prefix_space), bool(use_regex))

    @classmethod
    def from_config(cls, cfg: dict) -> "ByteLevelProcessing":
        return cls(config_flag(cfg, "trim_offsets", True),
                   config_flag(cfg, "add_prefix_space", True), config_flag(cfg, "use_regex", True))

    def settings(self) -> dict[str, Any]:
        return {"trim_offsets": self.trim, "add_prefix_space": self.add_prefix_space}

    def adjust(self, text, tokens, offsets) -> None:
        if self.trim:
            trim_offsets(tokens, offsets, self.add_prefix_space)


class RobertaProcessing(PostProcessor):
    """``<s> A </s>``, with the ByteLevel offset trimming when ``trim_offsets``."""

    type_name = "RobertaProcessing"

    def __init__(self, sep: tuple[str, int], cls: tuple[str, int], trim_offsets: bool = True,
                 add_prefix_space: bool = True):
        self.sep, self.cls = (str(sep[0]), int(sep[1])), (str(cls[0]), int(cls[1]))
        self.trim, self.add_prefix_space = bool(trim_offsets), bool(add_prefix_space)

    @classmethod
    def from_config(cls, cfg: dict) -> "RobertaProcessing":
        return cls(cfg["sep"], cfg["cls"], config_flag(cfg, "trim_offsets", True),
                   config_flag(cfg, "add_prefix_space", True))

    def settings(self) -> dict[str, Any]:
        return {"cls": list(self.cls), "sep": list(self.sep), "trim_offsets": self.trim,
                "add_prefix_space": self.add_prefix_space}

    def single_template(self):
        return [("special", [self.cls[0]], [self.cls[1]], 0), ("sequence", 0),
                ("special", [self.sep[0]], [self.sep[1]], 0)]

    def adjust(self, text, tokens, offsets) -> None:
        if self.trim:
            trim_offsets(tokens, offsets, self.add_prefix_space)
