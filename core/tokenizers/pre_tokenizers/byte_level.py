"""The ByteLevel pre-tokenizer (GPT-2, RoBERTa; Radford et al., 2019).

It optionally prepends a space (``add_prefix_space``), splits with GPT-2's pattern
(``use_regex``; :mod:`core.tokenizers.pre_tokenizers.split_patterns`) and rewrites every word
as its UTF-8 bytes in the byte-to-unicode alphabet of :mod:`core.text.byte_alphabet`. Each
byte stands for the code point it belongs to, so a token's span is every character whose
bytes it contains (pieces of one character share that character's span); the prepended
space stands for the first character, as the ``tokenizers`` library's ``prepend`` has it.

The pre-tokenizer's own ``trim_offsets`` setting is shown but does nothing when encoding,
as in the reference: trimming is the ByteLevel / RobertaProcessing post-processors' job
(:mod:`core.tokenizers.processors.byte_level`).
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

import numpy as np

from core.text.byte_alphabet import byte_char_index, bytes_to_byte_level
from core.text.regex_lock import concurrency
from core.tokenizers._components import config_flag
from core.tokenizers.pre_tokenizers.base import PreTokenizer, char_places
from core.tokenizers.pre_tokenizers.split_patterns import (
    GPT2_PATTERN, cut_before_spaced_word, pattern_for_text, pre_split)

_MAX_CACHE = 200_000
_SLICE_WORDS = 256  # from this many words an ASCII text is spelled once and sliced


class _ByteWords(dict):
    """Piece -> its byte-level spelling, memoized (bounded)."""

    def __missing__(self, piece: str) -> str:
        if len(self) >= _MAX_CACHE:
            self.clear()
        word = self[piece] = bytes_to_byte_level(piece.encode("utf-8", "surrogatepass"))
        return word


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
    byte_level = True
    batch_split = "byte_level"  # type: ignore[assignment]

    @property
    def rewrites_only(self) -> bool:
        """It only spells each word in the byte alphabet (no regex split, no prefix space)."""
        return not self.use_regex and not self.add_prefix_space

    def __init__(self, add_prefix_space: bool = True, trim_offsets: bool = True,
                 use_regex: bool = True, pattern: str = GPT2_PATTERN):
        self.add_prefix_space = bool(add_prefix_space)
        self.trim_offsets = bool(trim_offsets)
        self.use_regex = bool(use_regex)
        self.pattern = pattern
        self._words = _ByteWords()

    @classmethod
    def from_config(cls, cfg: dict) -> "ByteLevel":
        return cls(config_flag(cfg, "add_prefix_space", True),
                   config_flag(cfg, "trim_offsets", True), config_flag(cfg, "use_regex", True))

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
            found = pat.findall(text, concurrent=concurrency(text))
            if sum(map(len, found)) == len(text):  # the usual case: matches tile the text
                return found
        return [p for p, _, _ in pre_split(text, self.pattern)]

    def split(self, text: str) -> tuple[list[str], list[int]]:
        words, starts, _ = self.split_mapped(text)
        return words, starts

    def safe_cut(self, text: str, at: int) -> int | None:
        # (a piece starting with a space has no space prepended)
        return cut_before_spaced_word(self.pattern, text, at) if self.use_regex else None

    def source_pieces(self, text: str) -> tuple[list[str], int]:
        """The pieces of ``text`` before the byte rewrite (they tile the text with the
        prepended space, if any) and 1 if a space was prepended, else 0. The piece at
        offset ``p`` of the prepended text starts at normalized ``max(p - prefix, 0)``."""
        pfx = int(self.add_prefix_space and not text.startswith(" "))
        return self._pieces(" " + text if pfx else text), pfx

    def split_mapped(self, text: str, first: bool = True):
        if not text:
            return [], [], None
        pfx = int(self.add_prefix_space and not text.startswith(" "))
        full = " " + text if pfx else text
        pieces = self._pieces(full)
        ends = list(accumulate(map(len, pieces)))
        starts = [0, *ends[:-1]]
        if len(pieces) > _SLICE_WORDS and full.isascii():  # one byte a character: slice
            spelled = bytes_to_byte_level(full.encode("ascii"))
            words = list(map(spelled.__getitem__, map(slice, starts, ends)))
        else:
            words = list(map(self._words.__getitem__, pieces))
        if pfx:
            starts = [max(s - 1, 0) for s in starts]
        elif full.isascii():  # one byte a character, in place: no map
            return words, starts, None
        index = byte_char_index(full)
        if pfx:
            index = index - 1
            lo = np.maximum(index, 0)
            return words, starts, (lo, np.maximum(index + 1, 1))
        return words, starts, (index, index + 1)

    def split_many(self, words: list[str], starts: list[int], first: bool):
        """:meth:`split_mapped` of many words at once (a Sequence member after a Split):
        each word becomes one byte-level word (no map for ASCII words: each byte-level
        character stands at its own place). None (word by word) unless ``use_regex`` and
        ``add_prefix_space`` are off."""
        if self.use_regex or self.add_prefix_space:
            return None
        if not words:
            return [], [], (np.zeros(0, np.int64), np.zeros(0, np.int64))
        spelled = list(map(self._words.__getitem__, words))
        if all(map(str.isascii, words)):  # one byte a character, in place: no map
            return spelled, list(starts), None
        lo = char_places(words, starts)[byte_char_index("".join(words))]
        return spelled, list(starts), (lo, lo + 1)
