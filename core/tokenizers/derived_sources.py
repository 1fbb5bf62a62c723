"""Every source of a composed character, for derived offsets.

The reference gives a character that composition made from several (é from ``e`` +
U+0301, a Bengali ো from its two parts, a Hangul syllable from its jamo) the span of its
*first* source only (:class:`core.tokenizers.normalizers.UnicodeForm`), so the other
sources belong to no normalized character. :func:`covering_ends` widens the span of such a
character over them (and over a mark the canonical reordering put between them), so that a
token holding it is derived to cover all of it.

Public names: :func:`covering_ends`.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

import numpy as np

MAX_ABSORBED = 32
"""At most this many uncovered code points after a character are tried as its sources."""


@lru_cache(maxsize=4096)
def _canonical(s: str) -> str:
    """``s`` compared up to compatibility decomposition and case (a composed character may
    have been lower-cased or NFKC-mapped after composing). Kept for the few thousand
    strings seen last: the same characters come back on every encode of a text."""
    return unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", s).casefold())


def _sources_end(char: str, original: str, s: int, e: int) -> int | None:
    """Where the sources of normalized ``char`` (covering ``original[s:e]``) end: the first
    ``f > e`` such that ``original[s:f]`` holds every piece of ``char``'s decomposition
    (compared as multisets: canonical reordering may have put another mark in between);
    None when ``original[s:e]`` already holds them all (nothing was absorbed) or no ``f``
    within :data:`MAX_ABSORBED` does. O(MAX_ABSORBED)."""
    wanted, held = _canonical(char), _canonical(original[s:e])
    if wanted == held:  # the common case (a letter whose marks were dropped): no Counter
        return None
    need, have = Counter(wanted), Counter(held)
    if not need - have:
        return None
    for f in range(e, min(len(original), e + MAX_ABSORBED)):
        have.update(_canonical(original[f]))
        if not need - have:
            return f + 1
    return None


def covering_ends(nt, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``ends`` (``(len(nt.text),) int64``, the normalized text's map) with the end of every
    character that is followed by uncovered code points widened to where its sources end
    (:func:`_sources_end`), then made non-decreasing again; ``ends`` itself when no
    character widens.

    O(n) in numpy, plus O(:data:`MAX_ABSORBED`) Python work per character at or above
    U+00C0 followed by uncovered code points.
    """
    text, original = nt.text, nt.original
    n = len(text)
    if not n or len(starts) != n:
        return ends
    following = np.empty(n, np.int64)
    following[:-1] = starts[1:]
    following[-1] = len(original)
    gap = following > ends
    if not gap.any():
        return ends
    at = np.flatnonzero(gap)
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)[at]
    at = at[codes >= 0xC0]  # no composed character is below U+00C0
    widened = None
    for j in at.tolist():
        f = _sources_end(text[j], original, int(starts[j]), int(ends[j]))
        if f is not None:
            if widened is None:
                widened = ends.copy()
            widened[j] = f
    if widened is None:
        return ends
    np.maximum.accumulate(widened, out=widened)
    return widened
