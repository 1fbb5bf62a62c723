"""Which of a few ``regex`` character classes each code point of a text is in, by table.

A ``regex`` class such as ``\\p{L}`` tested with ``findall`` costs about 0.1 µs a code point
and, on a worker thread, gives the interpreter lock up and takes it back around its
matching (a 10,000-character keystroke spent milliseconds waiting there). A
:class:`CharClasses` matches its classes once against every code point of the Basic
Multilingual Plane (on first use, ~30 ms) and then reads a text's code points from that
table with numpy; the few code points above U+FFFF are matched by the classes
themselves. The answer is the classes' own, code point by code point.

Public names: :class:`CharClasses`, :func:`capped_lookup`.
"""

from __future__ import annotations

import threading

import numpy as np
import regex

from core.text.offsets import code_points

_BMP = 0x10000


class CharClasses:
    """Up to 8 single-code-point ``regex`` classes (``r"\\p{L}"``, ``r"[\\s\\u1361]"``),
    looked up per code point.

    Parameters
    ----------
    *patterns : str
        Each matches exactly one code point (a class, no quantifier); class ``k`` is bit
        ``1 << k`` of :meth:`flags`.
    """

    def __init__(self, *patterns: str):
        if not 0 < len(patterns) <= 8:
            raise ValueError("CharClasses takes 1 to 8 patterns")
        self._classes = [regex.compile(p, regex.DOTALL) for p in patterns]
        self._table: np.ndarray | None = None
        self._lock = threading.Lock()

    def _bmp_table(self) -> np.ndarray:
        """``(0x10000,) uint8``: the class bits of every BMP code point (built once)."""
        if self._table is None:
            with self._lock:
                if self._table is None:
                    every = "".join(map(chr, range(_BMP)))  # lone surrogates included
                    table = np.zeros(_BMP, np.uint8)
                    for k, cls in enumerate(self._classes):
                        table[[m.start() for m in cls.finditer(every, concurrent=False)]] |= 1 << k
                    self._table = table
        return self._table

    def flags(self, text: str) -> np.ndarray:
        """``(len(text),) uint8``: per code point, bit ``k`` set when class ``k`` matches it.
        O(n) at C level (plus the regex classes over the code points above U+FFFF)."""
        codes = code_points(text)
        table = self._bmp_table()
        astral = codes >= _BMP
        if not astral.any():
            return table[codes]
        out = np.zeros(len(codes), np.uint8)
        low = ~astral
        out[low] = table[codes[low]]
        at = np.flatnonzero(astral)
        high = codes[at].tobytes().decode("utf-32-le")
        for k, cls in enumerate(self._classes):
            hits = [m.start() for m in cls.finditer(high, concurrent=False)]
            out[at[hits]] |= 1 << k
        return out


def capped_lookup(table: np.ndarray, text: str) -> np.ndarray:
    """``table[c]`` for every code point ``c`` of ``text`` (``(len(text),)``, the table's
    dtype); a code point past the table reads its last entry, which stands for all of them
    (a whitespace table that ends after U+3000). O(n) at C level."""
    return table[np.minimum(code_points(text), len(table) - 1)]
