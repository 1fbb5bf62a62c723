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


class SeparatorSplit(PreTokenizer):
    """Split on separators: runs of ``removed`` characters vanish, each ``isolated``
    character becomes its own word (BertPreTokenizer, WhitespaceSplit).

    Long texts: one ``re.split`` and C-level bookkeeping, no per-word Python code; short
    ones (under :data:`SHORT_TEXT` code points): one ``finditer`` over the words, which
    costs less set-up.
    """

    def __init__(self, type_name: str, removed: str, isolated: str = ""):
        self.type_name = type_name
        alts = [f"[{removed}]+"] + ([f"[{isolated}]"] if isolated else [])
        self._split = re.compile("(" + "|".join(alts) + ")").split
        self._removed = re.compile(f"[{removed}]").match
        words = f"[^{removed}{isolated}]+" + (
            f"|(?![{removed}])[{isolated}]" if isolated else "")
        self._finditer = re.compile(words).finditer

    def split(self, text: str) -> Words:
        return self.split_short(text) if len(text) < SHORT_TEXT else self.split_long(text)

    def split_short(self, text: str) -> Words:
        """:meth:`split` by one ``finditer`` over the words (less set-up)."""
        found = list(self._finditer(text))
        return [m.group() for m in found], [m.start() for m in found]

    def split_long(self, text: str) -> Words:
        """:meth:`split` by one ``re.split`` over the separators (less per-word work)."""
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
