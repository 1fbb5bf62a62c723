"""Extended grapheme clusters (UAX #29): the one ``\\X`` segmentation every part uses.

A grapheme cluster is what a reader sees as one character: ``"e\\u0301"``, a Devanagari
consonant with its vowel sign, a flag (two regional indicators), an emoji ZWJ family. A token
boundary inside one is what the app flags as "cuts a grapheme". Segmentation is the ``regex``
module's ``\\X`` with DOTALL (so ``"\\r\\n"`` is one cluster), keeping the interpreter
lock while it matches as :mod:`core.text.regex_lock` says.

Public names: :func:`grapheme_bounds`, :func:`grapheme_clusters`, :func:`grapheme_interior`,
:func:`count_graphemes`,
:class:`GraphemeBounds` (the same bounds, recomputed only where a text changed).
"""

from __future__ import annotations

import threading
from array import array
from typing import Iterator

import numpy as np
import regex

from core.text.edits import common_affixes
from core.text.regex_lock import concurrency

_CLUSTER = regex.compile(r"\X", regex.DOTALL)
_NONSPACE_CLUSTER = regex.compile(r"(?!\s)\X", regex.DOTALL)


def grapheme_bounds(text: str) -> list[int]:
    """Code-point offsets where extended grapheme clusters start, plus ``len(text)``.

    One pass over the text: O(n) in code points. ``""`` gives ``[0]``.
    """
    bounds = [m.start() for m in _CLUSTER.finditer(text, concurrent=False)]
    bounds.append(len(text))
    return bounds


def grapheme_clusters(text: str) -> Iterator[tuple[int, str]]:
    """``(start, cluster)`` for every extended grapheme cluster of ``text``, in order (O(n))."""
    return ((m.start(), m.group()) for m in _CLUSTER.finditer(text, concurrent=False))


def grapheme_interior(text: str) -> np.ndarray:
    """``inside : (len(text) + 1,) bool ndarray`` — position i lies strictly inside a cluster."""
    inside = np.ones(len(text) + 1, dtype=bool)
    lengths = np.fromiter(map(len, _CLUSTER.findall(text, concurrent=concurrency(text))), dtype=np.int64)
    inside[0] = False
    inside[np.cumsum(lengths)] = False
    return inside


def count_graphemes(text: str, *, spaces: bool = True) -> int:
    """Number of extended grapheme clusters of ``text``; ``spaces=False`` leaves out the
    clusters that start with a whitespace character (the word unit of scripts written
    without spaces)."""
    return len((_CLUSTER if spaces else _NONSPACE_CLUSTER).findall(text, concurrent=concurrency(text)))


def _resegment(text: str, start: int, old: np.ndarray, old_n: int, suffix: int) -> np.ndarray:
    """``(k,) int64``: boundaries of ``text`` from boundary ``start`` on; stops early, copying
    ``old`` (the boundaries of the previous text, ``old_n`` code points long), as soon as a
    boundary in the common ``suffix`` was also one before the edit (with no common suffix,
    the clusters' lengths are summed instead, no Python per cluster). O(changed length +
    clusters copied). The boundaries are gathered in an ``array("q")`` (8 bytes each, no
    int object kept per cluster), which the result shares."""
    n, shift = len(text), len(text) - old_n
    if not suffix:  # nothing to reuse: every cluster's length at C level, then their sums
        lengths = np.fromiter(map(len, _CLUSTER.findall(text, start, concurrent=concurrency(text))), np.int64)
        out_fast = np.empty(len(lengths) + 1, np.int64)
        out_fast[0] = start
        np.cumsum(lengths, out=out_fast[1:])
        out_fast[1:] += start
        return out_fast
    out = array("q")
    add = out.append
    tail = None
    for m in _CLUSTER.finditer(text, start, concurrent=False):
        b = m.start()
        if b >= n - suffix and b > start:
            i = int(np.searchsorted(old, b - shift))
            if i < len(old) and old[i] == b - shift:
                tail = old[i:-1] + shift
                break
        add(b)
    if tail is None:
        add(n)
        return np.frombuffer(out, np.int64)
    head = np.frombuffer(out, np.int64) if len(out) else np.zeros(0, np.int64)
    return np.concatenate((head, tail, np.array([n], np.int64)))


class GraphemeBounds:
    """:func:`grapheme_bounds` of the last text asked for, reused for the next one.

    A keystroke changes a few characters of a long text; the boundaries of the unchanged
    prefix and (once segmentation falls back in step) of the unchanged suffix are kept from
    the previous text. Whether ``b`` is a boundary depends only on the characters before and
    at ``b`` (UAX #29 rules GB3–GB13 look backwards only), and the clusters after a boundary
    depend only on the text after it, so reuse gives exactly :func:`grapheme_bounds`.
    Thread-safe: one instance may serve a worker thread per request.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._text = ""
        self._bounds = np.zeros(1, np.int64)  # sorted code-point offsets, ending with len(text)

    def bounds(self, text: str) -> np.ndarray:
        """``(k,) int64``: offsets where extended grapheme clusters start, plus ``len(text)``."""
        with self._lock:
            old_text, old = self._text, self._bounds
        if text == old_text:
            return old
        p, q = common_affixes(old_text, text)
        keep = int(np.searchsorted(old, p, side="left"))  # old boundaries < p stay boundaries
        start = int(old[keep - 1]) if keep and old_text else 0  # ... the last one starts a cluster
        keep = keep - 1 if keep and old_text else 0
        tail = _resegment(text, start, old, len(old_text), q) if text else np.zeros(1, np.int64)
        bounds = np.concatenate((old[:keep], tail)) if keep else tail
        with self._lock:
            self._text, self._bounds = text, bounds
        return bounds

    def starts(self, text: str) -> np.ndarray:
        """``(len(text) + 1,) bool``: True where a grapheme cluster starts (and at the end)."""
        mask = np.zeros(len(text) + 1, bool)
        mask[self.bounds(text)] = True
        return mask
