"""Byte-level pipeline steps: the ByteLevel pre-tokenizer and the offset-trimming
post-processors (ByteLevel, RobertaProcessing).

The ByteLevel pre-tokenizer (GPT-2, RoBERTa; Radford et al., 2019) optionally prepends a
space (``add_prefix_space``), splits with GPT-2's pattern (``use_regex``) and rewrites every
word as its UTF-8 bytes in the byte-to-unicode alphabet of :mod:`core.tokenizers.bytelevel`.
Each byte stands for the character it belongs to, so a token's span is every character
whose bytes it contains (pieces of one character share that character's span); the
prepended space stands for the first character, as the ``tokenizers`` library's
``prepend`` has it.

``trim_offsets`` (ByteLevel and RobertaProcessing post-processors) moves a token's span past
its leading and trailing spaces (``Ġ`` or whitespace characters), except one leading space
of the first token when ``add_prefix_space`` is on — the reference's ``process_offsets``.
The pre-tokenizer's own ``trim_offsets`` setting is shown but does nothing when encoding,
as in the reference.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import numpy as np

from core.tokenizers import chars
from core.tokenizers.bytelevel import (
    GPT2_PATTERN, bytes_to_byte_level, pattern_for_text, pre_split)
from core.tokenizers.post_processors import PostProcessor
from core.tokenizers.pre_tokenizers import PreTokenizer

_MAX_CACHE = 200_000


class _ByteWords(dict):
    """Piece -> its byte-level spelling, memoized (bounded)."""

    def __missing__(self, piece: str) -> str:
        if len(self) >= _MAX_CACHE:
            self.clear()
        word = self[piece] = bytes_to_byte_level(piece.encode("utf-8", "surrogatepass"))
        return word


def byte_char_index(text: str) -> np.ndarray:
    """For every UTF-8 byte of ``text`` (surrogatepass), the index of its code point.

    Returns
    -------
    (n_bytes,) int64 ndarray
        Non-decreasing; computed from the bytes' lead/continuation bits, no Python loop.
    """
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    if len(data) == len(text):
        return np.arange(len(text), dtype=np.int64)
    return np.cumsum((data & 0xC0) != 0x80, dtype=np.int64) - 1


class ByteLevel(PreTokenizer):
    """The ByteLevel pre-tokenizer.

    Parameters
    ----------
    add_prefix_space : bool
        Prepend a space to a text (or piece between added tokens) not starting with one.
    trim_offsets : bool
        Shown only; trimming is the post-processor's job.
    use_regex : bool
        Split with ``pattern`` (GPT-2's by default) before the byte rewrite.
    pattern : str
        Split pattern (``regex`` syntax); tiktoken files pass their own.
    """

    type_name = "ByteLevel"
    transforms = True

    def __init__(self, add_prefix_space: bool = True, trim_offsets: bool = True,
                 use_regex: bool = True, pattern: str = GPT2_PATTERN):
        self.add_prefix_space = bool(add_prefix_space)
        self.trim_offsets = bool(trim_offsets)
        self.use_regex = bool(use_regex)
        self.pattern = pattern
        self._words = _ByteWords()

    @classmethod
    def from_config(cls, cfg: dict) -> "ByteLevel":
        return cls(_flag(cfg, "add_prefix_space", True), _flag(cfg, "trim_offsets", True),
                   _flag(cfg, "use_regex", True))

    def settings(self) -> dict[str, Any]:
        out = {"add_prefix_space": self.add_prefix_space, "trim_offsets": self.trim_offsets,
               "use_regex": self.use_regex}
        if self.pattern != GPT2_PATTERN:
            out["pattern"] = self.pattern
        return out

    def _pieces(self, text: str) -> list[str]:
        if not self.use_regex:
            return [text]
        pat = pattern_for_text(text, self.pattern)
        if pat.groups == 0:
            found = pat.findall(text)
            if sum(map(len, found)) == len(text):  # the usual case: matches tile the text
                return found
        return [p for p, _, _ in pre_split(text, self.pattern)]

    def split(self, text: str) -> tuple[list[str], list[int]]:
        words, starts, _ = self.split_mapped(text)
        return words, starts

    def split_mapped(self, text: str, first: bool = True):
        if not text:
            return [], [], None
        pfx = int(self.add_prefix_space and not text.startswith(" "))
        full = " " + text if pfx else text
        pieces = self._pieces(full)
        starts = [max(s - pfx, 0) for s in accumulate(map(len, pieces[:-1]), initial=0)]
        words = list(map(self._words.__getitem__, pieces))
        index = byte_char_index(full)
        if pfx:
            index = index - 1
            lo = np.maximum(index, 0)
            return words, starts, (lo, np.maximum(index + 1, 1))
        return words, starts, (index, index + 1)


    def split_many(self, words: list[str], starts: list[int], first: bool):
        """:meth:`split_mapped` of many words at once (a Sequence member after a Split):
        each word becomes one byte-level word. None (word by word) unless ``use_regex``
        and ``add_prefix_space`` are off."""
        if self.use_regex or self.add_prefix_space:
            return None
        if not words:
            return [], [], (np.zeros(0, np.int64), np.zeros(0, np.int64))
        lens = np.fromiter(map(len, words), np.int64, len(words))
        char_pos = np.repeat(np.asarray(starts, dtype=np.int64) - (np.cumsum(lens) - lens), lens)
        char_pos += np.arange(int(lens.sum()), dtype=np.int64)
        lo = char_pos[byte_char_index("".join(words))]
        return list(map(self._words.__getitem__, words)), list(starts), (lo, lo + 1)


def _flag(cfg: dict, key: str, default: bool) -> bool:
    value = cfg.get(key, default)
    if not isinstance(value, bool):
        raise TypeError(f"{key} must be true or false, not {value!r}")
    return value


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
        return cls(_flag(cfg, "trim_offsets", True), _flag(cfg, "add_prefix_space", True),
                   _flag(cfg, "use_regex", True))

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
        return cls(cfg["sep"], cfg["cls"], _flag(cfg, "trim_offsets", True),
                   _flag(cfg, "add_prefix_space", True))

    def settings(self) -> dict[str, Any]:
        return {"cls": list(self.cls), "sep": list(self.sep), "trim_offsets": self.trim,
                "add_prefix_space": self.add_prefix_space}

    def single_template(self):
        return [("special", [self.cls[0]], [self.cls[1]], 0), ("sequence", 0),
                ("special", [self.sep[0]], [self.sep[1]], 0)]

    def adjust(self, text, tokens, offsets) -> None:
        if self.trim:
            trim_offsets(tokens, offsets, self.add_prefix_space)
