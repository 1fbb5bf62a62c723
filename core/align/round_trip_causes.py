"""Why a piece of text did not come back from a round trip: the causes and their rules.

:func:`classify` names the causes of one difference (original text → decoded text) from the
Unicode data of both sides, through :func:`core.text.offset_map.change_cause` (which tries
compatibility mapping, case folding and mark removal, alone and together), after the
unknown-token and whitespace rules. Each call is O(len(original) + len(decoded)).

Public names: :class:`Cause`, :func:`classify`.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

from core.text.offset_map import change_cause


class Cause(str, Enum):
    """What made a difference; the value is the label views show."""

    LOST_ACCENT = "lost accent"
    LOST_CASE = "lost case"
    UNKNOWN = "unknown"
    COLLAPSED_WHITESPACE = "collapsed whitespace"
    ADDED_WHITESPACE = "added whitespace"
    CHANGED_WHITESPACE = "changed whitespace"
    NORMALIZATION_FORM = "normalization form"
    OTHER = "other"

    def counted(self, n: int) -> str:
        """``"1 lost accent"``, ``"3 lost accents"``, ``"2 other changes"``."""
        return f"{n} {_PLURALS.get(self, self.value) if n != 1 else _SINGULARS.get(self, self.value)}"

    @property
    def explanation(self) -> str:
        """A sentence for a legend or tooltip."""
        return _EXPLANATIONS[self]


_PLURALS = {Cause.LOST_ACCENT: "lost accents", Cause.UNKNOWN: "unknowns",
            Cause.NORMALIZATION_FORM: "normalization-form changes", Cause.OTHER: "other changes"}
_SINGULARS = {Cause.NORMALIZATION_FORM: "normalization-form change", Cause.OTHER: "other change"}
_EXPLANATIONS = {
    Cause.LOST_ACCENT: "a combining mark (category Mn) was removed after decomposition (NFD)",
    Cause.LOST_CASE: "the text was lowercased",
    Cause.UNKNOWN: "an unknown token stood for this text: the vocabulary cannot write it",
    Cause.COLLAPSED_WHITESPACE: "whitespace was removed or runs of it became one space",
    Cause.ADDED_WHITESPACE: "the decoder added whitespace (between tokens, around punctuation)",
    Cause.CHANGED_WHITESPACE: "whitespace came back as other whitespace (a tab as a space)",
    Cause.NORMALIZATION_FORM: "a compatibility mapping (NFKC/NFKD: ligatures, full-width, "
                              "superscripts) or composition (NFC/NFD) changed the characters",
    Cause.OTHER: "changed in a way none of the other causes explains",
}
_FROM_CHANGE = {  # the parts of change_cause's answer
    "accent removed": Cause.LOST_ACCENT, "case": Cause.LOST_CASE,
    "compatibility (NFKC/NFKD)": Cause.NORMALIZATION_FORM,
    "composed / decomposed (NFC/NFD)": Cause.NORMALIZATION_FORM,
    "control character dropped": Cause.OTHER,
}


def _whitespace_cause(original: str, decoded: str) -> Cause:
    """Collapsed, added or changed: fewer, more or as many whitespace characters come back."""
    n_o = sum(c.isspace() for c in original)
    n_d = sum(c.isspace() for c in decoded)
    if n_d < n_o:
        return Cause.COLLAPSED_WHITESPACE
    return Cause.ADDED_WHITESPACE if n_d > n_o else Cause.CHANGED_WHITESPACE


def _explained(original: str, decoded: str) -> tuple[Cause, ...] | None:
    """The causes :func:`change_cause` finds (in :class:`Cause` order; ``()`` for equal
    text), or None when it explains nothing."""
    if original == decoded:
        return ()
    parts = change_cause(original, decoded).split(" + ")
    if not all(p in _FROM_CHANGE for p in parts):
        return None
    found = {_FROM_CHANGE[p] for p in parts}
    return tuple(c for c in Cause if c in found)


@lru_cache(maxsize=65536)
def classify(original: str, decoded: str, unknown: bool = False) -> tuple[Cause, ...]:
    """Causes of ``original`` coming back as ``decoded`` (both differ), in :class:`Cause` order.

    Rules, first match wins: ``unknown`` (the original text lies under an unknown token, or
    the decoded text is an unknown token's surface) → UNKNOWN; whitespace on both sides →
    one whitespace cause; what :func:`change_cause` explains (lost accent, lost case,
    normalization form); the same without the whitespace of both sides, plus a whitespace
    cause; else OTHER.
    """
    if unknown:
        return (Cause.UNKNOWN,)
    if not original.strip() and not decoded.strip():
        return (_whitespace_cause(original, decoded),)
    found = _explained(original, decoded)
    if found is not None:
        return found or (Cause.OTHER,)
    bare_o = "".join(c for c in original if not c.isspace())
    bare_d = "".join(c for c in decoded if not c.isspace())
    if (bare_o, bare_d) != (original, decoded):
        found = _explained(bare_o, bare_d)
        if found is not None:
            return tuple(c for c in Cause if c in {*found, _whitespace_cause(original, decoded)})
    return (Cause.OTHER,)
