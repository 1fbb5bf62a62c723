"""Separator pre-tokenizers: BertPreTokenizer, WhitespaceSplit and Whitespace.

Spans are code points of the normalized text.
"""

from __future__ import annotations

import re
from itertools import accumulate
from operator import itemgetter

from core.tokenizers import chars
from core.tokenizers.pre_tokenizers.base import PreTokenizer, Words

_WS = chars.WHITESPACE_CLASS
_PUNCT = chars.BERT_PUNCTUATION_CLASS
SHORT_TEXT = 4096
"""Below this many code points :meth:`SeparatorSplit.split` uses ``finditer``."""
LONG_CHUNK = 65536
""":meth:`SeparatorSplit.split_long` splits longer texts this many code points at a time
(cut after a removed character): each ``re.split`` call holds the GIL only that long."""


class SeparatorSplit(PreTokenizer):
    """Split on separators: runs of ``removed`` characters vanish, each ``isolated``
    character becomes its own word (BertPreTokenizer, WhitespaceSplit).

    Long texts: one ``re.split`` and C-level bookkeeping, no per-word Python code; short
    ones (under :data:`SHORT_TEXT` code points): one ``finditer`` over the words, which
    costs less set-up, or without isolated characters (WhitespaceSplit) one ``re.split``
    whose even parts are the words (:meth:`split_removed`), less still.
    """

    def __init__(self, type_name: str, removed: str, isolated: str = ""):
        self.type_name = type_name
        alts = [f"[{removed}]+"] + ([f"[{isolated}]"] if isolated else [])
        self._split = re.compile("(" + "|".join(alts) + ")").split
        self._removed = re.compile(f"[{removed}]").match
        self._next_removed = re.compile(f"[{removed}]").search
        words = f"[^{removed}{isolated}]+" + (
            f"|(?![{removed}])[{isolated}]" if isolated else "")
        self._finditer = re.compile(words).finditer
        self._isolates = bool(isolated)

    def safe_cut(self, text: str, at: int) -> int | None:
        m = self._next_removed(text, at)  # no word runs across a removed character
        return None if m is None else m.start()

    def split(self, text: str) -> Words:
        if len(text) >= SHORT_TEXT:
            return self.split_long(text)
        return self.split_short(text) if self._isolates else self.split_removed(text)

    def split_removed(self, text: str) -> Words:
        """:meth:`split` of a short text when no character is isolated: ``re.split``
        alternates words and separator runs (a run is maximal, so only the first and the
        last word can be empty); the starts are running sums of the parts' lengths.
        O(n), C-level."""
        parts = self._split(text)
        pos = list(accumulate(map(len, parts), initial=0))
        words, starts = parts[::2], pos[:-1:2]
        if not words[-1]:
            words.pop()
            starts.pop()
        if words and not words[0]:
            del words[0], starts[0]
        return words, starts

    def split_short(self, text: str) -> Words:
        """:meth:`split` by one ``finditer`` over the words (less set-up)."""
        found = list(self._finditer(text))
        return [m.group() for m in found], [m.start() for m in found]

    def split_long(self, text: str) -> Words:
        """:meth:`split` by one ``re.split`` over the separators (less per-word work), per
        :data:`LONG_CHUNK` code points: a cut just after a removed character changes no
        word (runs of them vanish either way). O(n)."""
        if len(text) > LONG_CHUNK:
            words: list[str] = []
            starts: list[int] = []
            a = 0
            while a < len(text):
                m = self._next_removed(text, a + LONG_CHUNK) if a + LONG_CHUNK < len(text) else None
                b = m.end() if m else len(text)
                w, s = self._split_part(text[a:b])
                words += w
                starts += [x + a for x in s] if a else s
                a = b
            return words, starts
        return self._split_part(text)

    def _split_part(self, text: str) -> Words:
        parts = self._split(text)
        pos = list(accumulate(map(len, parts), initial=0))
        removed = self._removed
        keep = [k for k in range(0, len(parts), 2) if parts[k]]
        keep += [k for k in range(1, len(parts), 2) if not removed(parts[k])]
        keep.sort()
        if not keep:
            return [], []
        if len(keep) == 1:
            return [parts[keep[0]]], [pos[keep[0]]]
        return list(itemgetter(*keep)(parts)), list(itemgetter(*keep)(pos))


def bert_pre_tokenizer() -> SeparatorSplit:
    """BertPreTokenizer: split on whitespace (removed) and punctuation (each isolated)."""
    return SeparatorSplit("BertPreTokenizer", _WS, _PUNCT)


def whitespace_split() -> SeparatorSplit:
    """WhitespaceSplit: runs of non-whitespace."""
    return SeparatorSplit("WhitespaceSplit", _WS)


class Whitespace(PreTokenizer):
    """Whitespace: the reference's ``\\w+|[^\\w\\s]+``.

    Word characters are decided per character with :func:`chars.is_word_char` (Python's
    own ``\\w`` differs from the reference's), then one regex built from the distinct
    characters of the text does the split.
    """

    type_name = "Whitespace"

    def __init__(self) -> None:
        self._kinds: dict[str, str] = {}

    def split(self, text: str) -> Words:
        word, other = [], []
        kinds = self._kinds
        for c in set(text):
            k = kinds.get(c)
            if k is None:
                k = kinds[c] = ("s" if c in chars.WHITESPACE else
                                "w" if chars.is_word_char(c) else "o")
            if k != "s":
                (word if k == "w" else other).append(re.escape(c))
        alts = [f"[{''.join(cls)}]+" for cls in (word, other) if cls]
        if not alts:
            return [], []
        ms = list(re.finditer("|".join(alts), text))
        return [m.group() for m in ms], [m.start() for m in ms]


def whitespace() -> Whitespace:
    """Whitespace: ``\\w+|[^\\w\\s]+`` (Unicode word characters)."""
    return Whitespace()
