"""Grapheme-cluster boundaries of the alignment pane's text, recomputed only where it changed.

A keystroke changes a few characters of a long text; the boundaries of the unchanged prefix
and (once segmentation falls back in step) of the unchanged suffix are kept from the previous
text. Whether ``b`` is a boundary depends only on the characters before and at ``b``
(UAX #29 rules GB3–GB13 look backwards only), and the clusters after a boundary depend only on
the text after it, so reuse gives exactly :func:`core.audit.grapheme_bounds`. No Qt here:
:func:`~app.panes.alignment_state.compute` calls it on a worker thread.
"""

from __future__ import annotations

import threading

import numpy as np
import regex

from app.widgets.span_segments import common_affixes

_CLUSTER = regex.compile(r"\X", regex.DOTALL)  # the pattern core.audit.grapheme_bounds uses


def _resegment(text: str, start: int, old: np.ndarray, old_n: int, suffix: int) -> list[int]:
    """Boundaries of ``text`` from boundary ``start`` on; stops early, copying ``old`` (the
    boundaries of the previous text, ``old_n`` code points long), as soon as a boundary in
    the common ``suffix`` was also one before the edit."""
    n, shift = len(text), len(text) - old_n
    out: list[int] = []
    for m in _CLUSTER.finditer(text, start):
        b = m.start()
        if b >= n - suffix and b > start:
            i = int(np.searchsorted(old, b - shift))
            if i < len(old) and old[i] == b - shift:
                out.extend((old[i:-1] + shift).tolist())
                break
        out.append(b)
    out.append(n)
    return out


class GraphemeBounds:
    """Boundaries of the last text asked for, reused for the next one (thread-safe)."""

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
        tail = _resegment(text, start, old, len(old_text), q) if text else [0]
        bounds = np.concatenate((old[:keep], np.asarray(tail, np.int64)))
        with self._lock:
            self._text, self._bounds = text, bounds
        return bounds

    def starts(self, text: str) -> np.ndarray:
        """``(len(text) + 1,) bool``: True where a grapheme cluster starts (and at the end)."""
        mask = np.zeros(len(text) + 1, bool)
        mask[self.bounds(text)] = True
        return mask
