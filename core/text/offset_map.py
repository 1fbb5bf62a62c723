"""The offset map of a normalization: which original code points produced which normalized
characters, and why.

For a span of the original text, one :class:`OffsetRow` per group of normalized characters that
share an origin: a ligature gives one original code point → several normalized characters,
a folded accent several original code points → one character, collapsed whitespace or a
removed mark gives original code points → nothing. :func:`change_cause` names the cause of a
change from the Unicode data of both sides. All positions are code points.

Public names: :class:`OffsetRow`, :func:`offset_rows`, :func:`change_cause`, :data:`MAX_ROWS`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from core.text.normalize import NormalizedText

MAX_ROWS = 300
"""Default cap on the rows :func:`offset_rows` returns."""


@dataclass(frozen=True)
class OffsetRow:
    """Original ``[start, end)`` (code points) produced normalized ``[norm_start, norm_end)``."""

    start: int
    end: int
    norm_start: int
    norm_end: int
    original: str
    normalized: str

    @property
    def kind(self) -> str:
        """What happened, by cause (see :func:`change_cause`)."""
        return change_cause(self.original, self.normalized)

    @property
    def shape(self) -> str:
        """How many code points became how many: one → one, one → many, many → one, … → none."""
        n_orig, n_norm = self.end - self.start, self.norm_end - self.norm_start
        if n_norm == 0:
            return "dropped"
        if n_orig == 1 and n_norm > 1:
            return "one → many"
        if n_orig > 1:
            return "many → one" if n_norm == 1 else "many → many"
        return "one → one"


_CONTROL = ("Cc", "Cf")
_STEPS = (  # (compatibility, case, accents): the smallest set that explains a change wins
    (False, False, False), (True, False, False), (False, True, False), (False, False, True),
    (True, True, False), (True, False, True), (False, True, True), (True, True, True),
)


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) == "Mn"


def _apply(text: str, compat: bool, case: bool, accents: bool) -> str:
    out = unicodedata.normalize("NFKD" if compat else "NFD", text)
    if case:
        out = unicodedata.normalize("NFD", out.lower())
    if accents:
        out = "".join(c for c in out if not _is_mark(c))
    return out


def change_cause(original: str, normalized: str) -> str:
    """Why normalization turned ``original`` into ``normalized``, from the Unicode data of
    both sides: "accent removed" (decomposition, then the combining marks (Mn) dropped),
    "case", "compatibility (NFKC/NFKD)" (ligatures, full-width and other compatibility
    mappings), "composed / decomposed (NFC/NFD)", "whitespace mapped to a space",
    "whitespace collapsed" (or stripped), "control character dropped"; causes that act together are
    joined with " + ". "unchanged" when both are equal, "changed" when nothing explains it.
    """
    if original == normalized:
        return "unchanged"
    if original and original.isspace() and (not normalized or normalized.isspace()):
        if len(normalized) < len(original):
            return "whitespace collapsed" if normalized else "whitespace collapsed or stripped"
        return "whitespace mapped to a space"
    if not normalized and all(unicodedata.category(c) in _CONTROL for c in original):
        return "control character dropped"
    if not normalized and all(_is_mark(c) for c in original):
        return "accent removed"
    target = unicodedata.normalize("NFD", normalized)
    for compat, case, accents in _STEPS:
        if _apply(original, compat, case, accents) == target:
            causes = [name for name, on in (("accent removed", accents), ("case", case),
                                            ("compatibility (NFKC/NFKD)", compat)) if on]
            return " + ".join(causes) or "composed / decomposed (NFC/NFD)"
    return "dropped" if not normalized else "changed"


def offset_rows(nt: NormalizedText, start: int, end: int, limit: int = MAX_ROWS) -> list[OffsetRow]:
    """Rows of the offset map for original ``[start, end)``, in original order, at most ``limit``."""
    lo, hi = nt.to_normalized(start, end)
    rows: list[OffsetRow] = []
    covered_to = start
    j = lo
    while j < hi and len(rows) < limit:
        s, e = nt.starts[j], nt.ends[j]
        k = j
        while k < hi and (nt.starts[k], nt.ends[k]) == (s, e):
            k += 1
        if s > covered_to:
            rows.append(OffsetRow(covered_to, s, j, j, nt.original[covered_to:s], ""))
        rows.append(OffsetRow(s, e, j, k, nt.original[s:e], nt.text[j:k]))
        covered_to = max(covered_to, e)
        j = k
    if covered_to < end and len(rows) < limit:
        rows.append(OffsetRow(covered_to, end, hi, hi, nt.original[covered_to:end], ""))
    return rows
