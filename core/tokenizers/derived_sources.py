"""Every source of a composed character, for derived offsets.

The reference gives a character that composition made from several (é from ``e`` +
U+0301, a Bengali ো from its two parts, a Hangul syllable from its jamo) the span of its
*first* source only (:class:`core.tokenizers.normalizers.UnicodeForm`), so the other
sources belong to no normalized character. :func:`covering_ends` widens the span of such a
character over them, so that a token holding it is derived to cover all of it.

Public names: :func:`covering_ends`.
"""

from __future__ import annotations

import unicodedata

import numpy as np

MAX_ABSORBED = 32
"""At most this many uncovered code points after a character are tried as its sources."""


def _canonical(s: str) -> str:
    """``s`` compared up to compatibility decomposition and case (a composed character may
    have been lower-cased or NFKC-mapped after composing)."""
    return unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", s).casefold())


def covering_ends(nt, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``ends`` (``(len(nt.text),) int64``, the normalized text's map) with the end of every
    character widened over the uncovered code points right after its source when they are
    its other sources: the character's decomposition (NFKD, case-folded) equals that of its
    source plus them. ``ends`` itself when no character widens.

    O(n) in numpy, plus O(1) Python work per non-ASCII character followed by uncovered
    code points (at most :data:`MAX_ABSORBED` of them).
    """
    text, original = nt.text, nt.original
    n = len(text)
    if not n or len(starts) != n:
        return ends
    following = np.empty(n, np.int64)
    following[:-1] = starts[1:]
    following[-1] = len(original)
    gap = (following > ends) & (following - ends <= MAX_ABSORBED)
    if not gap.any():
        return ends
    at = np.flatnonzero(gap)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)[at]
    at = at[codes >= 0xC0]  # no composed character is below U+00C0
    widened = None
    for j in at.tolist():
        s, e, f = int(starts[j]), int(ends[j]), int(following[j])
        if _canonical(text[j]) == _canonical(original[s:f]) != _canonical(original[s:e]):
            if widened is None:
                widened = ends.copy()
            widened[j] = f
    return ends if widened is None else widened
