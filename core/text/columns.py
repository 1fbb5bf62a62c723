"""Compact columns of integers and of spans, read like Python lists.

A 1,000,000-character text gives offset maps and token spans with millions of entries; as
lists of Python ints (36 bytes an entry) and of tuples (~130 bytes a span) they take hundreds
of MB and take long to free. These columns keep 8 bytes an integer (``int64``) and hand out
Python ints and ``(start, end)`` tuples when read, so code that indexes, iterates, takes
``len`` or compares with ``==`` against a list works unchanged.

Public names: :class:`IntArray`, :class:`SpanArray`, :class:`OptionalIntArray`, :func:`int_array`.
"""

from __future__ import annotations

import operator
from array import array
from itertools import chain
from typing import Iterable, Iterator, Sequence

import numpy as np

_CHUNK = 8192  # iteration converts this many entries at a time (C speed, bounded memory)
_COUNT = np.arange(4097, dtype=np.int64)  # short ranges are copied from here


def _list_eq(column, other):
    """``column == other`` for a list or tuple: same length, item by item equal; else
    NotImplemented. O(n)."""
    if isinstance(other, (list, tuple)):
        return len(other) == len(column) and all(map(operator.eq, column, other))
    return NotImplemented


def _ne(self, other):
    eq = self.__eq__(other)
    return eq if eq is NotImplemented else not eq


class IntArray(array):
    """An ``array("q")`` (signed 64-bit ints) that compares equal to a list or tuple with
    the same items, as a list does. Indexing gives a Python int; a slice gives a plain
    ``array("q")``; ``numpy.asarray`` / :meth:`view` share its memory (no copy). Not hashable.

    Build one with :func:`int_array` (any sequence of ints or an integer ndarray).
    """

    __slots__ = ()

    def __new__(cls, values: Iterable[int] = ()):
        return super().__new__(cls, "q", values)

    def __eq__(self, other):
        if isinstance(other, array):
            return array.__eq__(self, other)
        return _list_eq(self, other)

    __ne__ = _ne

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"IntArray({self.tolist()!r})"

    def __reduce__(self):
        return int_array, (self.view().copy(),)

    def view(self) -> np.ndarray:
        """The items as a read-only ``(len,) int64`` ndarray sharing this memory, O(1).
        (While a view lives the array cannot grow or shrink: nothing here resizes one.)"""
        out = np.frombuffer(self, np.int64) if len(self) else np.zeros(0, np.int64)
        out.flags.writeable = False
        return out


def int_array(values) -> IntArray:
    """``values`` (an :class:`IntArray`, returned as is; an ndarray, an ``array``, a list,
    a ``range`` or any iterable of ints) as an :class:`IntArray`. O(n), at C speed for an
    ndarray, an array, a list or a range.

    Raises
    ------
    OverflowError
        If a value does not fit in 64 bits.
    TypeError
        If an item is not an int.
    """
    if type(values) is IntArray:
        return values
    if isinstance(values, range) and values.step == 1:
        if 0 <= values.start <= values.stop <= len(_COUNT):
            out = IntArray()
            out.frombytes(memoryview(_COUNT[values.start:values.stop]).cast("B"))
            return out
        values = np.arange(values.start, values.stop, dtype=np.int64)
    if isinstance(values, np.ndarray):
        out = IntArray()
        if len(values):
            out.frombytes(memoryview(np.ascontiguousarray(values, dtype=np.int64).reshape(-1)).cast("B"))
        return out
    if isinstance(values, array) and values.typecode == "q":
        out = IntArray()
        out.frombytes(memoryview(values).cast("B"))
        return out
    return IntArray(values if isinstance(values, list) else list(values))


class SpanArray(Sequence):
    """A sequence of ``(start, end)`` int pairs, some of them possibly None, stored as two
    :class:`IntArray` columns (a missing span has start ``-1``): 16 bytes a span instead of a
    list entry and a tuple of two ints (~130 bytes).

    ``spans[i]`` gives a fresh ``(start, end)`` tuple of Python ints (or None); a slice gives
    a SpanArray (the same one for a slice of all of it, as nothing can change it); iteration
    yields the tuples (converted in chunks, at C speed); ``==`` holds
    with a list or tuple of the same pairs (and Nones) and with another SpanArray;
    ``None in spans`` and ``spans.index(None)`` take O(1) / one numpy scan.
    :attr:`starts` / :attr:`ends` are the columns (a missing span reads ``(-1, -1)`` there).
    Immutable; not hashable.
    """

    __slots__ = ("starts", "ends", "_missing")

    def __init__(self, starts, ends, missing: int | None = None):
        self.starts, self.ends = int_array(starts), int_array(ends)
        if len(self.starts) != len(self.ends):
            raise ValueError(f"{len(self.starts)} starts for {len(self.ends)} ends")
        if missing is None:
            s = self.starts.view()
            missing = int((s < 0).sum()) if len(s) else 0
        self._missing = missing

    @classmethod
    def from_pairs(cls, pairs: Sequence[tuple[int, int] | None]) -> "SpanArray":
        """A SpanArray of a sequence of pairs (tuples or lists) and Nones. O(n) at C speed
        when no pair is None."""
        if isinstance(pairs, SpanArray):
            return pairs
        n = len(pairs)
        missing = sum(1 for p in pairs if p is None) if None in pairs else 0
        items = chain.from_iterable(pairs if not missing else ((-1, -1) if p is None else p for p in pairs))
        flat = np.fromiter(items, np.int64, 2 * n).reshape(n, 2)
        return cls(flat[:, 0], flat[:, 1], missing)

    @classmethod
    def from_arrays(cls, starts, ends, missing: Sequence[int] = ()) -> "SpanArray":
        """Spans ``(starts[i], ends[i])`` (two ``(n,)`` integer arrays), None at the indices
        in ``missing``. O(n)."""
        starts = np.array(starts, np.int64)
        ends = np.array(ends, np.int64)
        if len(missing):
            starts[list(missing)] = ends[list(missing)] = -1
        return cls(starts, ends, len(set(missing)))

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i):
        if isinstance(i, slice):
            if i.indices(len(self)) == (0, len(self), 1):
                return self  # immutable: the whole of it is itself (no copy)
            return SpanArray(self.starts[i], self.ends[i], None if self._missing else 0)
        s = self.starts[i]
        return None if s < 0 else (s, self.ends[i])

    def __iter__(self) -> Iterator[tuple[int, int] | None]:
        s, e, n = self.starts, self.ends, len(self.starts)
        for k in range(0, n, _CHUNK):
            chunk = zip(s[k:k + _CHUNK].tolist(), e[k:k + _CHUNK].tolist())
            if self._missing:
                yield from (None if p[0] < 0 else p for p in chunk)
            else:
                yield from chunk

    def __contains__(self, item) -> bool:
        if item is None:
            return self._missing > 0
        return any(p == item for p in self)

    def index(self, item, start: int = 0, stop: int | None = None) -> int:
        if item is None:
            lo, hi, _ = slice(start, stop).indices(len(self))
            hit = np.flatnonzero(self.starts.view()[lo:hi] < 0)
            if not len(hit):
                raise ValueError("None is not in the spans")
            return lo + int(hit[0])
        return super().index(item, start, len(self) if stop is None else stop)

    def __eq__(self, other):
        if isinstance(other, SpanArray):
            return self.starts == other.starts and self.ends == other.ends
        return _list_eq(self, other)

    __ne__ = _ne

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SpanArray({list(self)!r})"

    def __reduce__(self):
        return SpanArray, (self.starts.view().copy(), self.ends.view().copy(), self._missing)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, ends)`` as read-only ``(n,) int64`` views (missing spans: ``-1``), O(1)."""
        return self.starts.view(), self.ends.view()

    def __array__(self, dtype=None, copy=None):
        out = np.stack(self.arrays(), axis=1) if len(self) else np.zeros((0, 2), np.int64)
        return out if dtype is None else out.astype(dtype)


class OptionalIntArray(Sequence):
    """A sequence of non-negative ints and Nones (e.g. word ids), stored as one
    :class:`IntArray` (None is ``-1``): 8 bytes an entry. Indexing gives an int or None;
    a slice gives an OptionalIntArray; ``==`` holds with a list or tuple of the same items;
    ``numpy.asarray(x, float)`` gives NaN for None (as numpy does for a list), any other
    dtype ``-1``. Immutable; not hashable.
    """

    __slots__ = ("values", "_missing")

    def __init__(self, values, missing: int | None = None):
        self.values = int_array(values)
        self._missing = int((self.values.view() < 0).sum()) if missing is None else missing

    @classmethod
    def from_list(cls, items: Sequence[int | None]) -> "OptionalIntArray":
        """From a sequence of non-negative ints and Nones. O(n) at C speed without None."""
        if isinstance(items, OptionalIntArray):
            return items
        if None not in items:
            return cls(items if isinstance(items, list) else list(items), 0)
        return cls([-1 if v is None else v for v in items])

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i):
        if isinstance(i, slice):
            if i.indices(len(self)) == (0, len(self), 1):
                return self  # immutable: the whole of it is itself (no copy)
            return OptionalIntArray(self.values[i], None if self._missing else 0)
        v = self.values[i]
        return None if v < 0 else v

    def __iter__(self) -> Iterator[int | None]:
        v, n = self.values, len(self.values)
        for k in range(0, n, _CHUNK):
            chunk = v[k:k + _CHUNK].tolist()
            if self._missing:
                yield from (None if x < 0 else x for x in chunk)
            else:
                yield from chunk

    def __contains__(self, item) -> bool:
        if item is None:
            return self._missing > 0
        return isinstance(item, int) and item >= 0 and item in self.values

    def __eq__(self, other):
        if isinstance(other, OptionalIntArray):
            return self.values == other.values
        return _list_eq(self, other)

    __ne__ = _ne

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"OptionalIntArray({list(self)!r})"

    def __reduce__(self):
        return OptionalIntArray, (self.values.view().copy(), self._missing)

    def __array__(self, dtype=None, copy=None):
        v = self.values.view()
        if dtype is not None and np.dtype(dtype).kind in "fc":
            return np.where(v < 0, np.nan, v).astype(dtype)
        return v.copy() if dtype is None else v.astype(dtype)
