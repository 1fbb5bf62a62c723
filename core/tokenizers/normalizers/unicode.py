"""Unicode normalizers: Lowercase, StripAccents, the normalization forms NFD/NFKD (per code
point) and NFC/NFKC (per starter + marks), and SentencePiece's NMT clean-up rule."""

from __future__ import annotations

import unicodedata

from core.text.normalize import NormalizedText
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


class Decompose(CharMapNormalizer):
    """NFD or NFKD, character by character (canonical reordering of marks is not applied)."""

    def __init__(self, form: str):
        super().__init__()
        self.form = self.type_name = form

    def char_map(self, c: str) -> str:
        return unicodedata.normalize(self.form, c)


class Compose(Normalizer):
    """NFC or NFKC over units of a starter plus its combining marks.

    A unit that changes is rewritten as the reference does: a shorter output gives its
    first (composed) character the first input character's span and drops the next ones;
    a longer output gives the extra characters the last input character's span.
    """

    def __init__(self, form: str):
        self.form = self.type_name = form

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        text = nt.text
        if unicodedata.is_normalized(self.form, text):
            return nt
        changes: list[tuple[str, int]] = []
        start = 0
        for i in range(1, len(text) + 1):
            if i < len(text) and unicodedata.combining(text[i]):
                continue
            unit = text[start:i]
            out = unicodedata.normalize(self.form, unit)
            changes.extend(_unit_changes(out, len(unit)))
            start = i
        return nt.transform(changes)


def _unit_changes(out: str, n_in: int) -> list[tuple[str, int]]:
    """``transform`` pairs rewriting ``n_in`` characters as ``out``."""
    if not out:
        return []  # pragma: no cover - normalization never empties a unit
    pairs = [(ch, 0 if k < n_in else 1) for k, ch in enumerate(out)]
    if len(out) < n_in:  # the composed starter absorbs the marks right after it
        pairs[0] = (out[0], len(out) - n_in)
    return pairs
