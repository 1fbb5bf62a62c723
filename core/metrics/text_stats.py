"""Tokenizer-independent counts of a text: words, code points, UTF-8 bytes, grapheme clusters.

Computed once per text and shared by every tokenizer's metrics (:mod:`core.metrics.per_encoding`).

- words: runs separated by whitespace or the Ethiopic wordspace ``፡`` (U+1361); for a text
  mostly in a script written without spaces (:func:`core.text.scripts.writes_without_spaces`:
  Chinese, Japanese, Thai, ...) the unit is the non-space grapheme cluster instead and
  ``words_are_characters`` is set;
- grapheme clusters: extended grapheme clusters (:mod:`core.text.graphemes`, UAX #29).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.text.char_classes import CharClasses
from core.text.graphemes import count_graphemes, grapheme_interior
from core.text.scripts import writes_without_spaces

_SEPARATOR = CharClasses(r"[\s\u1361]")  # what separates words: their runs are ``[^\s\u1361]+``


def count_words(text: str) -> tuple[int, bool]:
    """Word count of ``text`` and whether the unit is the character.

    Returns
    -------
    (int, bool)
        Words separated by whitespace or U+1361 and ``False``; or, for text mostly in a
        script written without spaces, non-space grapheme clusters and ``True``.
    """
    if writes_without_spaces(text):
        return count_graphemes(text, spaces=False), True
    return len(word_spans(text)), False


@dataclass(frozen=True)
class TextStats:
    """Counts of one text; ``inside`` is its :func:`grapheme_interior`."""

    characters: int  # code points
    utf8_bytes: int
    words: int
    words_are_characters: bool
    inside: np.ndarray = field(repr=False, compare=False)
    #: ``(n_words, 2) int64`` code-point spans of the whitespace-separated words (empty when
    #: ``words_are_characters``): what the continued-word rate looks at.
    word_spans: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64),
                                   repr=False, compare=False)


def word_spans(text: str) -> np.ndarray:
    """``(n_words, 2) int64 ndarray`` of the code-point spans of the runs separated by
    whitespace or U+1361 (the words :func:`count_words` counts in a spaced script). O(n)."""
    word = _SEPARATOR.flags(text) == 0
    edges = np.flatnonzero(np.diff(word, prepend=False, append=False))  # starts and ends alternate
    return edges.astype(np.int64).reshape(-1, 2)


def text_stats(text: str) -> TextStats:
    """All tokenizer-independent counts of ``text`` (lone surrogates count 3 bytes each)."""
    words, per_char = count_words(text)
    spans = np.zeros((0, 2), np.int64) if per_char else word_spans(text)
    return TextStats(len(text), len(text.encode("utf-8", "surrogatepass")), words, per_char,
                     grapheme_interior(text), spans)
