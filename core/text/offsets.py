"""Code point ↔ UTF-16 ↔ UTF-8 offsets: the one place these tables are built.

Front-ends count differently: Python counts code points, JavaScript, Java and Qt count UTF-16
code units (an emoji is two), Rust and most C libraries count UTF-8 bytes. The converters
here are exact for any Python string; a lone surrogate counts as one UTF-16 unit and as
three UTF-8 bytes (its generalized UTF-8 form, as ``"surrogatepass"`` encodes it).

Public names: :func:`code_points`, :func:`utf16_offset`, :func:`utf8_offset`,
:func:`from_utf16_offset`, :func:`from_utf8_offset`, :func:`offset_tables`,
:func:`offset_arrays`, :func:`utf16_table`, :func:`int_table`, :func:`byte_part_label`.
"""

from __future__ import annotations

import bisect
from array import array
from itertools import accumulate

import numpy as np

from core.errors import OffsetError


def code_points(text: str) -> np.ndarray:
    """``(len(text),) uint32``: the code points of ``text`` (lone surrogates included)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _utf16_units(ch: str) -> int:
    return 2 if ord(ch) > 0xFFFF else 1


def _utf8_bytes(ch: str) -> int:
    o = ord(ch)
    return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4


def offset_tables(text: str) -> tuple[list[int], list[int]]:
    """Cumulative UTF-16 and UTF-8 offsets of every code-point boundary.

    Returns
    -------
    utf16, utf8 : list[int], each of length ``len(text) + 1``
        ``utf16[i]`` is the UTF-16 unit offset of code point ``i``; ``utf8[i]`` its byte
        offset. Use these for many conversions on one text.
    """
    utf16 = [0, *accumulate(_utf16_units(c) for c in text)]
    utf8 = [0, *accumulate(_utf8_bytes(c) for c in text)]
    return utf16, utf8


def offset_arrays(text: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`offset_tables` as numpy arrays, computed without a per-character Python loop.

    Returns
    -------
    utf16, utf8 : np.ndarray of int64, each of shape ``(len(text) + 1,)``
        ``utf16[i]`` is the UTF-16 unit offset of code point ``i``, ``utf8[i]`` its UTF-8
        byte offset (a lone surrogate: 1 unit, 3 bytes), exactly as :func:`offset_tables`.
    """
    n = len(text)
    if text.isascii():
        same = np.arange(n + 1, dtype=np.int64)
        return same, same.copy()
    cps = code_points(text)
    wide = cps > 0xFFFF
    utf16 = np.zeros(n + 1, np.int64)
    np.cumsum(1 + wide, out=utf16[1:])
    utf8 = np.zeros(n + 1, np.int64)
    np.cumsum(1 + (cps >= 0x80) + (cps >= 0x800) + wide, out=utf8[1:])
    return utf16, utf8


def int_table(values: np.ndarray) -> array:
    """``values`` (non-negative offsets below 2**31) as a compact ``array("i")``: indexing
    gives Python ints, as a list does, at 4 bytes an entry instead of a list's ~36 (a
    1,000,000-character text's table: 4 MB, not 36 MB). O(n), a copy in C.

    Raises
    ------
    OffsetError
        If a value does not fit in 32 bits.
    """
    values = np.asarray(values)
    if len(values) and (values.min() < 0 or values.max() >= 2**31):
        raise OffsetError("an offset table holds values outside 0..2**31-1")
    return array("i", values.astype(np.int32).tobytes())


def utf16_table(text: str) -> array:
    """:func:`offset_arrays`' UTF-16 table as an :func:`int_table`: the UTF-16 offset of
    every code-point boundary, length ``len(text) + 1`` (what a Qt text position is)."""
    if text.isascii():
        return int_table(np.arange(len(text) + 1))
    return int_table(offset_arrays(text)[0])


def _check_index(text: str, i: int) -> None:
    if not 0 <= i <= len(text):
        raise OffsetError(f"code-point offset {i} is outside 0..{len(text)}")


def utf16_offset(text: str, i: int) -> int:
    """UTF-16 code-unit offset of code-point offset ``i`` in ``text``.

    Raises
    ------
    OffsetError
        If ``i`` is not in ``0..len(text)``.
    """
    _check_index(text, i)
    return i + sum(1 for c in text[:i] if ord(c) > 0xFFFF)


def utf8_offset(text: str, i: int) -> int:
    """UTF-8 byte offset of code-point offset ``i`` in ``text`` (lone surrogates: 3 bytes).

    Raises
    ------
    OffsetError
        If ``i`` is not in ``0..len(text)``.
    """
    _check_index(text, i)
    return len(text[:i].encode("utf-8", "surrogatepass"))


def _from_table(table: list[int], value: int, unit: str) -> int:
    i = bisect.bisect_left(table, value)
    if i == len(table) or table[i] != value:
        if 0 <= value <= table[-1]:
            raise OffsetError(f"{unit} offset {value} falls inside a character")
        raise OffsetError(f"{unit} offset {value} is outside 0..{table[-1]}")
    return i


def from_utf16_offset(text: str, units: int) -> int:
    """Code-point offset of UTF-16 offset ``units``.

    Raises
    ------
    OffsetError
        If ``units`` is out of range or falls between the two halves of a surrogate pair.
    """
    return _from_table(offset_tables(text)[0], units, "UTF-16")


def from_utf8_offset(text: str, byte: int) -> int:
    """Code-point offset of UTF-8 byte offset ``byte``.

    Raises
    ------
    OffsetError
        If ``byte`` is out of range or falls inside a character's encoding.
    """
    return _from_table(offset_tables(text)[1], byte, "UTF-8")


def byte_part_label(char: str, first_byte: int, last_byte: int) -> str:
    """How a token holding some of ``char``'s UTF-8 bytes is described:
    ``"bytes 1–2 of म (U+092E)"``, ``"byte 3 of म (U+092E)"`` (bytes numbered from 1,
    inclusive)."""
    which = f"byte {first_byte}" if first_byte == last_byte else f"bytes {first_byte}\u2013{last_byte}"
    return f"{which} of {char} (U+{ord(char):04X})"
