"""Token labels to entity spans (SPEC §3), and code point ↔ UTF-16 ↔ UTF-8 offsets.

Front-ends count differently: Python counts code points, JavaScript and Java count UTF-16
code units (an emoji is two), Rust and most C libraries count UTF-8 bytes. The converters
here are exact for any Python string; a lone surrogate counts as one UTF-16 unit and as
three UTF-8 bytes (its generalized UTF-8 form, as ``"surrogatepass"`` encodes it).

Public names: :class:`Entity`, :func:`entities`, :func:`utf16_offset`, :func:`utf8_offset`,
:func:`from_utf16_offset`, :func:`from_utf8_offset`, :func:`offset_tables`,
:func:`offset_arrays`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from itertools import accumulate
from typing import Sequence

import numpy as np

from core.errors import OffsetError, SubwordScopeError


class LabelError(SubwordScopeError):
    """The label list does not fit the tokens, or a label is not BIO/BIOES."""


@dataclass(frozen=True)
class Entity:
    """An entity span of the original text (code points, half-open)."""

    text: str
    label: str
    start: int
    end: int


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
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    wide = cps > 0xFFFF
    utf16 = np.zeros(n + 1, np.int64)
    np.cumsum(1 + wide, out=utf16[1:])
    utf8 = np.zeros(n + 1, np.int64)
    np.cumsum(1 + (cps >= 0x80) + (cps >= 0x800) + wide, out=utf8[1:])
    return utf16, utf8


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


def _parse(label: str, index: int) -> tuple[str, str]:
    """Split a label into (prefix, type): ``"B-PER" -> ("B", "PER")``, ``"O" -> ("O", "")``."""
    if not isinstance(label, str):
        raise LabelError(f"label {index} must be a string such as 'O' or 'B-PER', got {label!r}")
    if label == "O":
        return "O", ""
    prefix, sep, kind = label.partition("-")
    if not sep or prefix not in ("B", "I", "E", "S") or not kind:
        raise LabelError(f"label {index} {label!r} is not O, B-X, I-X, E-X or S-X")
    return prefix, kind


def _span(span, index: int, n: int) -> tuple[int, int]:
    """Token ``index``'s span as ints with ``0 <= s <= e <= n``, else :class:`OffsetError`."""
    try:
        s, e = span
        ok = all(not isinstance(v, bool) and int(v) == v for v in (s, e))
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise OffsetError(f"span {index} must be a (start, end) pair of whole numbers, got {span!r}")
    s, e = int(s), int(e)
    if not 0 <= s <= e <= n:
        raise OffsetError(
            f"span {index} ({s}, {e}) must satisfy 0 <= start <= end <= {n} (the text's length in code points)"
        )
    return s, e


def _words(tokens: Sequence[str], spans: Sequence[tuple[int, int]], labels: Sequence[str], n: int):
    """Group tokens into words: ``##`` pieces extend the previous word; empty spans
    (special tokens) are skipped. Yields ``[start, end, first_label]``. Every token, span and
    label is checked, even the ignored ones (``n`` is the text's length in code points)."""
    words: list[list] = []
    for i, (tok, span, lab) in enumerate(zip(tokens, spans, labels)):
        if not isinstance(tok, str):
            raise LabelError(f"token {i} must be a string, got {tok!r}")
        s, e = _span(span, i, n)
        parsed = _parse(lab, i)
        if s == e:
            continue
        if tok.startswith("##") and len(tok) > 2 and words:
            words[-1][1] = e
        else:
            words.append([s, e, parsed])
    return words


def entities(
    original: str,
    tokens: Sequence[str],
    spans: Sequence[tuple[int, int]],
    labels: Sequence[str],
    *,
    repair: bool = True,
) -> list[Entity]:
    """Lift per-token BIO (or BIOES) labels to entity spans of ``original`` (SPEC §3).

    A word (a token plus the ``##`` pieces after it) takes its first piece's label.
    ``B-X`` opens an entity; ``I-X`` continues an open entity of type X; ``O`` closes.
    ``I-X`` with no open entity of type X opens one when ``repair`` is true (the usual
    repair) and is treated as ``O`` when it is false (strict). ``S-X`` is a one-word
    entity, ``E-X`` continues and closes.

    Parameters
    ----------
    spans : sequence of (int, int)
        Each token's original code-point span (e.g. from :func:`core.align.align`).
    labels : sequence of str
        One label per token; labels of ``##`` pieces and of empty-span tokens are ignored.

    Raises
    ------
    LabelError
        If the three lists differ in length, a label is not a str or is malformed, or a
        token is not a str (the message names the index).
    OffsetError
        If a span is not a pair of whole numbers with ``0 <= start <= end <= len(original)``
        (the message names the index).
    """
    if not isinstance(original, str):
        raise LabelError(f"the original text must be a str, got {type(original).__name__}")
    try:
        sizes = len(tokens), len(spans), len(labels)
    except TypeError:
        raise LabelError("tokens, spans and labels must be lists (one entry per token)") from None
    if isinstance(labels, str) or isinstance(tokens, str):
        raise LabelError("tokens and labels must be lists of strings, not a single string")
    if not sizes[0] == sizes[1] == sizes[2]:
        raise LabelError(
            f"{len(labels)} labels for {len(tokens)} tokens and {len(spans)} spans; "
            "give exactly one label per token"
        )
    found: list[Entity] = []
    open_: list | None = None  # [start, end, kind]

    def close() -> None:
        nonlocal open_
        if open_ is not None:
            s, e, kind = open_
            found.append(Entity(original[s:e], kind, s, e))
            open_ = None

    for s, e, (prefix, kind) in _words(tokens, spans, labels, len(original)):
        continues = open_ is not None and open_[2] == kind and prefix in ("I", "E")
        if continues:
            open_[1] = e
        else:
            close()
            if prefix in ("B", "S") or (prefix in ("I", "E") and repair):
                open_ = [s, e, kind]
        if prefix in ("S", "E") and open_ is not None:
            close()
    close()
    return found
