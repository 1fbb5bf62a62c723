"""What an edit leaves untouched: the common prefix and suffix of two texts or sequences.

Used wherever work is redone only where a text changed (grapheme bounds across keystrokes,
the views' changed paragraphs, the token table's changed rows).

Public names: :func:`common_affixes`, :func:`common_prefix`.
"""

from __future__ import annotations

from itertools import compress, count, islice
from operator import ne
from typing import Sequence


_BLOCK = 256  # list items compared as one slice by common_prefix


def common_affixes(a: str, b: str) -> tuple[int, int]:
    """Lengths ``(p, q)`` of the longest common prefix and suffix, with ``p + q`` at most
    the shorter length (binary search on slice equality: fast for long strings)."""
    n = min(len(a), len(b))
    p = common_prefix(a, b)
    lo, hi = 0, n - p
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return p, lo


def common_prefix(a: Sequence, b: Sequence, limit: int | None = None) -> int:
    """Length of the longest common prefix of two sequences, at most ``limit``. Strings:
    binary search on slices (memcmp); two lists (or two tuples): blocks of
    :data:`_BLOCK` items compared as slices at C level (items are equal as the sequences
    compare them: the same object, or ``==``), then the differing block item by item;
    other sequences: one pass that stops at the first difference, without copying."""
    n = min(len(a), len(b), len(a) if limit is None else limit)
    if not isinstance(a, str):
        if type(a) is type(b) and type(a) in (list, tuple):
            i = 0
            while i < n and a[i:min(i + _BLOCK, n)] == b[i:min(i + _BLOCK, n)]:
                i += _BLOCK
            if i >= n:
                return n
            return next((k for k in range(i, min(i + _BLOCK, n)) if not (a[k] is b[k] or a[k] == b[k])), n)
        return next(compress(count(), map(ne, islice(a, n), b)), n)
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo
