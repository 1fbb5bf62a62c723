"""The ByteLevel and RobertaProcessing post-processors and their ``trim_offsets``.

``trim_offsets`` moves a token's span (code points of the original text) past its leading
and trailing spaces (``Ġ`` or whitespace characters), except one leading space of the first
token when ``add_prefix_space`` is on — the reference's ``process_offsets``.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np

from core.tokenizers import chars
from core.tokenizers._components import config_flag
from core.tokenizers.processors.base import PostProcessor


_SPACES = "\u0120" + "".join(chars.WHITESPACE)


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


def trim_offsets_arrays(tokens: list[str], starts: np.ndarray, ends: np.ndarray,
                        add_prefix_space: bool) -> None:
    """:func:`trim_offsets` of spans held as two ``(n,) int64`` arrays, edited in place
    (the same spans). The leading and trailing spaces are counted once per distinct token;
    the rest is numpy over all tokens, :data:`TRIM_CHUNK` tokens at a time (bounded C
    calls). O(tokens)."""
    memo: dict[str, tuple[int, int]] = {}
    for k in range(0, len(tokens), TRIM_CHUNK):
        chunk = tokens[k:k + TRIM_CHUNK]
        for tok in set(chunk).difference(memo):
            memo[tok] = _space_counts(tok)
        got = np.fromiter(chain.from_iterable(map(memo.__getitem__, chunk)), np.int64, 2 * len(chunk))
        lead, trail = got[0::2], got[1::2]
        a, b = starts[k:k + len(chunk)], ends[k:k + len(chunk)]  # views: edited in place
        if add_prefix_space:  # one prefix space of the first token (or one at 0) stays
            first = (lead == 1) & (a == 0)
            if k == 0 and len(chunk):
                first[0] |= lead[0] == 1
            lead[first] = 0
        sel = lead > 0
        a[sel] = np.minimum(a[sel] + lead[sel], b[sel])
        cut = (trail > 0) & (b >= trail)
        b[cut] = np.maximum(b[cut] - trail[cut], a[cut])


def _space_counts(tok: str) -> tuple[int, int]:
    """``(leading, trailing)`` spaces :func:`trim_offsets` trims off ``tok`` (0, 0 when
    neither end is a space)."""
    if not tok or not (_is_space(tok[0]) or _is_space(tok[-1])):
        return 0, 0
    return len(tok) - len(tok.lstrip(_SPACES)), len(tok) - len(tok.rstrip(_SPACES))


TRIM_CHUNK = 65536  # tokens per vectorized step of trim_offsets_arrays


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

    def adjust_arrays(self, text, tokens, starts, ends) -> None:
        if self.trim:
            trim_offsets_arrays(tokens, starts, ends, self.add_prefix_space)


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

    def adjust_arrays(self, text, tokens, starts, ends) -> None:
        if self.trim:
            trim_offsets_arrays(tokens, starts, ends, self.add_prefix_space)
