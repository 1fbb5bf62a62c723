"""Unicode normalizers: Lowercase, StripAccents, the normalization forms NFC/NFD/NFKC/NFKD
(:class:`UnicodeForm`, with the reference's offsets), and SentencePiece's NMT clean-up rule."""

from __future__ import annotations

import unicodedata
from array import array
from functools import lru_cache, partial

import numpy as np

from core.text.normalize import NormalizedText
from core.text.unicode_forms import FORMS, changed_segments, next_boundary, normalize_form
from core.tokenizers import chars
from core.tokenizers.normalizers.base import CharMapNormalizer, Normalizer


class Lowercase(CharMapNormalizer):
    """Full lowercase mapping, character by character."""

    type_name = "Lowercase"

    def char_map(self, c: str) -> str:
        return chars.lower(c)


class StripAccents(CharMapNormalizer):
    """Removes every combining mark (category M); meant to follow NFD/NFKD."""

    type_name = "StripAccents"

    def char_map(self, c: str) -> str:
        return "" if chars.is_combining_mark(c) else c


class Nmt(CharMapNormalizer):
    """SentencePiece's NMT rule: drop control characters, turn odd spaces into a space."""

    type_name = "Nmt"
    _DROP = frozenset(map(chr, [*range(0x1, 0x9), 0xB, *range(0xE, 0x20), 0x7F, 0x8F, 0x9F]))
    _SPACE = frozenset(map(chr, [0x9, 0xA, 0xC, 0xD, 0x1680, *range(0x200B, 0x2010), 0x2028,
                                 0x2029, 0x2581, 0xFEFF, 0xFFFD]))

    def char_map(self, c: str) -> str:
        return "" if c in self._DROP else " " if c in self._SPACE else c


class UnicodeForm(Normalizer):
    """A Unicode normalization form (NFC, NFD, NFKC or NFKD) over the whole text, with the
    reference's offsets.

    The text equals ``unicodedata.normalize(form, text)`` (canonical ordering and
    composition included: Bengali U+09C7 U+09BE gives U+09CB, conjoining jamo give Hangul
    syllables). Offsets are those ``tokenizers``' ``NormalizedString::nfc`` (…) gives: a
    decomposition's pieces all take their source's span, a composed character takes the
    span of its *first* source (é from ``e`` + U+0301 spans the ``e``), marks moved by the
    canonical ordering take the span at the position they move to. The algorithm and its
    segments: :mod:`core.text.unicode_forms`. O(n) for n code points; a text already in
    the form costs one :func:`unicodedata.is_normalized`; NFD/NFKD first decompose code
    point by code point with a translation table, exact unless marks need reordering
    across code points (checked with :func:`unicodedata.is_normalized`).
    """

    def __init__(self, form: str):
        if form not in FORMS:
            raise ValueError(f"unknown normalization form {form!r}; use one of {FORMS}")
        self.form = self.type_name = form
        self._pieces: dict[str, str] = {}  # D forms: code point -> its decomposition

    def safe_cut(self, text: str, at: int) -> int | None:
        return next_boundary(text, at, self.form)  # (where the segments of its algorithm start)

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        text = nt.text
        if unicodedata.is_normalized(self.form, text):
            return nt
        if self.form in ("NFD", "NFKD"):
            # each code point decomposed on its own, every piece with its span (what the
            # reference gives) is the answer unless marks must be reordered across them
            per_char = nt.map_chars_cached(partial(normalize_form, form=self.form), self._pieces)
            if unicodedata.is_normalized(self.form, per_char.text):
                return per_char
        out: list[str] = []
        src = array("q")  # per output character: the character whose span it takes
        pos = 0
        for a, b, pairs in changed_segments(text, self.form):
            out.append(text[pos:a])
            src.extend(range(pos, a))
            out.extend(c for c, _ in pairs)
            src.extend([a + r for r in _sources(tuple(pairs))])
            pos = b
        if not pos:
            return nt
        out.append(text[pos:])
        src.extend(range(pos, len(text)))
        idx = np.frombuffer(src, np.int64)
        old_s, old_e = nt.arrays()
        starts, ends = old_s[idx], old_e[idx]
        before = idx < 0  # inserted before any character: (0, 0), as the reference
        if before.any():
            starts[before] = ends[before] = 0
        return NormalizedText.from_arrays(nt.original, "".join(out), starts, ends)


@lru_cache(maxsize=8192)
def _sources(pairs: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    """The source character of every ``(char, change)`` pair rewriting a segment, relative
    to its start, with :meth:`NormalizedText.transform`'s rule: ``change <= 0`` takes the
    current character and consumes ``1 - change``; ``change > 0`` (inserted) takes the one
    consumed before it (-1: the one before the segment). O(len(pairs))."""
    out = []
    at = 0
    for _, change in pairs:
        if change > 0:
            out.append(at - 1)
        else:
            out.append(at)
            at += 1 - change
    return tuple(out)


class Decompose(UnicodeForm):
    """NFD or NFKD (see :class:`UnicodeForm`)."""


class Compose(UnicodeForm):
    """NFC or NFKC (see :class:`UnicodeForm`)."""
