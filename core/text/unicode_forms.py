"""The Unicode normalization forms NFC, NFD, NFKC and NFKD, with the alignment the
``tokenizers`` library gives each output character.

The algorithm is UAX #15 (https://www.unicode.org/reports/tr15/) written out on top of
:mod:`unicodedata`'s data (``decomposition``, ``combining``):

1. full decomposition of every code point (canonical, or compatibility for the K forms;
   Hangul syllables algorithmically, Unicode §3.12);
2. canonical ordering: every run of characters with a non-zero combining class is sorted
   (stably) by class;
3. for NFC/NFKC, canonical composition: each character is combined with the last starter
   when a primary composite of the two exists and nothing between them blocks it (a
   character in between with a class of 0 or of at least its own), Hangul L+V and LV+T
   algorithmically.

Alignment. Every output character carries a *change*, as the reference's
``unicode-normalization-alignments`` crate gives it to ``NormalizedString::transform``
(see :meth:`core.text.normalize.NormalizedText.transform`): the first piece of a
decomposition is 0 (it replaces its source), the next pieces +1 (inserted after it); a
composition of ``k`` and ``ch`` gets ``change(k) + change(ch) - 1``; changes travel with
their characters through the canonical reordering. So a composed character takes the span
of its first source only (é from ``e`` + U+0301 spans the ``e``), as in the reference.

Segments. Text is cut before every *boundary* code point: one whose decomposition starts
with a character of class 0 that is never the second part of a primary composite (for the
D forms: class 0 is enough). Nothing before a boundary can reorder or compose with anything
from it on, so each segment is normalized on its own, and only the segments that contain a
non-boundary code point or a code point the form changes are looked at (found by one
regular-expression scan); those that :func:`unicodedata.is_normalized` accepts are left as
they are. The cost is O(n) for n code points (each segment is O(m log m) for its m marks,
and a segment's marks are bounded by the text's).

Public names: :data:`FORMS`, :func:`aligned`, :func:`changed_segments`,
:func:`next_boundary`, :func:`normalize_form`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterator

FORMS = ("NFC", "NFD", "NFKC", "NFKD")

SCAN_END = 0x32400
"""No code point from here on has a decomposition or a non-zero combining class in
:mod:`unicodedata` (checked for every code point by the tests), so the tables below are
built from the code points before it."""

_S_BASE, _L_BASE, _V_BASE, _T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
_L_COUNT, _V_COUNT, _T_COUNT = 19, 21, 28
_N_COUNT = _V_COUNT * _T_COUNT
_S_COUNT = _L_COUNT * _N_COUNT


def _mapping(c: str, compat: bool) -> str | None:
    """The one-level decomposition mapping of ``c`` (None when it has none for the form)."""
    code = ord(c)
    if _S_BASE <= code < _S_BASE + _S_COUNT:
        s = code - _S_BASE
        lv = chr(_L_BASE + s // _N_COUNT) + chr(_V_BASE + (s % _N_COUNT) // _T_COUNT)
        return lv + chr(_T_BASE + s % _T_COUNT) if s % _T_COUNT else lv
    fields = unicodedata.decomposition(c).split()
    if not fields or (fields[0].startswith("<") and not compat):
        return None
    return "".join(chr(int(f, 16)) for f in fields if not f.startswith("<"))


@lru_cache(maxsize=65536)
def full_decomposition(c: str, compat: bool) -> str:
    """The full (recursive) decomposition of code point ``c``, in mapping order (before
    canonical ordering); ``c`` itself when it has none."""
    mapped = _mapping(c, compat)
    if mapped is None:
        return c
    return "".join(full_decomposition(d, compat) for d in mapped)


class _Tables:
    """Primary composites and the segment scanners, built once from :mod:`unicodedata`
    over the code points below :data:`SCAN_END` (about 0.1 s)."""

    def __init__(self) -> None:
        self.compose: dict[tuple[str, str], str] = {}
        decomposable: list[str] = []
        marks: list[str] = []
        for code in range(SCAN_END):
            c = chr(code)
            if unicodedata.combining(c):
                marks.append(c)
            fields = unicodedata.decomposition(c)
            if not fields:
                continue
            decomposable.append(c)
            parts = fields.split()
            # a primary composite: a canonical pair that NFC keeps (not an exclusion)
            if len(parts) == 2 and not parts[0].startswith("<") \
                    and unicodedata.normalize("NFC", c) == c:
                self.compose[chr(int(parts[0], 16)), chr(int(parts[1], 16))] = c
        seconds = {b for _, b in self.compose}
        seconds.update(map(chr, range(_V_BASE, _V_BASE + _V_COUNT)))
        seconds.update(map(chr, range(_T_BASE + 1, _T_BASE + _T_COUNT)))
        self.seconds = frozenset(seconds)
        hangul = (_S_BASE, _S_BASE + _S_COUNT - 1)  # the syllables, decomposed by D forms
        self.scanners: dict[str, re.Pattern[str]] = {}
        self.boundaries: dict[str, re.Pattern[str]] = {}  # form -> finds a boundary
        self.classes: dict[str, tuple[str, str]] = {}  # form -> (body, also) class bodies
        for form in FORMS:
            compat, composes = form.startswith("NFK"), form.endswith("C")
            inner = set(marks) | (self.seconds if composes else set())
            for c in decomposable:
                first = full_decomposition(c, compat)[0]
                if unicodedata.combining(first) or (composes and first in self.seconds):
                    inner.add(c)
            changed = {c for c in decomposable if unicodedata.normalize(form, c) != c}
            changed -= inner
            body = _char_class(inner)
            also = _char_class(changed, [] if composes else [hangul])
            # a run of non-boundary code points (group 1; :func:`changed_segments` adds the
            # code point before it), or a lone code point the form changes
            self.classes[form] = body, also
            self.scanners[form] = re.compile(f"([{body}]+)|[{also}]")
            self.boundaries[form] = re.compile(f"[^{body}]")


def _char_class(chars: set[str], ranges: list[tuple[int, int]] | tuple = ()) -> str:
    """The body of a regular-expression class matching ``chars`` and the inclusive code-point
    ``ranges``, as merged ranges."""
    codes = sorted([(ord(c), ord(c)) for c in chars] + list(ranges))
    merged: list[list[int]] = []
    for a, b in codes:
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in merged)


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    return _Tables()


def _compose_pair(a: str, b: str) -> str | None:
    """The primary composite of ``a`` and ``b``, or None (Hangul L+V and LV+T by formula)."""
    ca, cb = ord(a), ord(b)
    if _L_BASE <= ca < _L_BASE + _L_COUNT and _V_BASE <= cb < _V_BASE + _V_COUNT:
        return chr(_S_BASE + ((ca - _L_BASE) * _V_COUNT + cb - _V_BASE) * _T_COUNT)
    if _S_BASE <= ca < _S_BASE + _S_COUNT and (ca - _S_BASE) % _T_COUNT == 0 \
            and _T_BASE < cb < _T_BASE + _T_COUNT:
        return chr(ca + cb - _T_BASE)
    return _tables().compose.get((a, b))


def aligned(text: str, form: str) -> list[tuple[str, int]]:
    """``text`` in normalization ``form`` as ``(character, change)`` pairs (see the module
    docstring), whole-text semantics: ``"".join(c for c, _ in aligned(t, f))`` equals
    ``unicodedata.normalize(f, t)``.

    O(n + m log m) for n code points and runs of at most m combining marks.

    Raises
    ------
    ValueError
        If ``form`` is not one of :data:`FORMS`.
    """
    if form not in FORMS:
        raise ValueError(f"unknown normalization form {form!r}; use one of {FORMS}")
    compat = form.startswith("NFK")
    ccc = unicodedata.combining
    # 1-2. full decomposition, then each run of non-starters sorted by class (stable)
    pieces: list[tuple[str, int]] = []
    run: list[tuple[int, str, int]] = []  # (class, char, change) of the pending marks
    for c in text:
        for k, d in enumerate(full_decomposition(c, compat)):
            cls = ccc(d)
            if cls:
                run.append((cls, d, 1 if k else 0))
                continue
            if run:
                run.sort(key=lambda item: item[0])
                pieces.extend((d2, ch2) for _, d2, ch2 in run)
                run.clear()
            pieces.append((d, 1 if k else 0))
    if run:
        run.sort(key=lambda item: item[0])
        pieces.extend((d2, ch2) for _, d2, ch2 in run)
    if form in ("NFD", "NFKD"):
        return pieces
    # 3. canonical composition with the last starter
    out: list[tuple[str, int]] = []
    starter = -1  # index in out of the last starter, -1: none yet
    last = -1  # class of the last character after the starter, -1: none
    for d, change in pieces:
        cls = ccc(d)
        if starter >= 0 and (last < 0 or last < cls):
            s, s_change = out[starter]
            composite = _compose_pair(s, d)
            if composite is not None:
                out[starter] = (composite, s_change + change - 1)
                continue
        if cls == 0:
            starter, last = len(out), -1
        elif starter >= 0:
            last = cls
        out.append((d, change))
    return out


def next_boundary(text: str, at: int, form: str) -> int | None:
    """The first position ``p >= at`` before a boundary code point of ``form`` (module
    docstring), or None: ``text[:p]`` and ``text[p:]`` normalize apart, spans included.
    O(p - at) at C level.

    Raises
    ------
    KeyError
        If ``form`` is not one of :data:`FORMS`.
    """
    m = _tables().boundaries[form].search(text, at)
    return None if m is None else m.start()


def changed_segments(text: str, form: str) -> Iterator[tuple[int, int, list[tuple[str, int]]]]:
    """The segments of ``text`` (see the module docstring) that ``form`` changes, as
    ``(start, end, aligned pairs)`` in text order; every other code point is unchanged
    with change 0. Only the lines :func:`_unnormalized_ranges` finds are scanned: O(n log n)
    at C level, plus O(length of those lines) Python steps (a segment met again is looked
    up: natural text repeats its syllables).

    Raises
    ------
    ValueError
        If ``form`` is not one of :data:`FORMS`.
    """
    if form not in FORMS:
        raise ValueError(f"unknown normalization form {form!r}; use one of {FORMS}")
    scanner = _tables().scanners[form]
    for lo, hi in _unnormalized_ranges(text, form):
        held = -1  # a lone changed code point not yet given out: a run right after it joins it
        for m in scanner.finditer(text, lo, hi):
            a, b = m.span()
            if m.lastindex is None:  # a lone code point the form changes
                if held >= 0:
                    yield from _changed(text, held, held + 1, form)
                held = a
                continue
            # a maximal run of non-boundary code points, with the boundary before it (never part
            # of an earlier segment but a lone code point just before: then they are one)
            if held >= 0 and held != a - 1:
                yield from _changed(text, held, held + 1, form)
            yield from _changed(text, a - 1 if a else 0, b, form)
            held = -1
        if held >= 0:
            yield from _changed(text, held, held + 1, form)


_RANGE = 2048  # code points: a range this short is scanned, not cut further


def _unnormalized_ranges(text: str, form: str) -> Iterator[tuple[int, int]]:
    """``[lo, hi)`` ranges of ``text``, in order, that ``form`` changes; the rest of the
    text is normalized. Ranges are cut just after a line feed, and normalizing a text
    cut there is normalizing each piece (U+000A is a starter that composes with nothing
    and has no decomposition, so no reordering or composition crosses it): a piece
    ``unicodedata.is_normalized`` passes is left out. Halving at a line feed near the
    middle until a range is :data:`_RANGE` long or has no line feed: O(n log n) at C
    level, O(ranges · log n) Python steps; a normalized text costs one check."""
    stack = [(0, len(text))]
    while stack:
        lo, hi = stack.pop()
        if unicodedata.is_normalized(form, text[lo:hi]):
            continue
        mid = (lo + hi) // 2
        cut = text.find("\n", mid, hi - 1) + 1 if hi - lo > _RANGE else 0
        if cut <= 0:
            cut = text.rfind("\n", lo, mid) + 1 if hi - lo > _RANGE else 0
        if cut <= lo:
            yield lo, hi
            continue
        stack.append((cut, hi))
        stack.append((lo, cut))


def _changed(text: str, a: int, b: int, form: str) -> Iterator[tuple[int, int, list[tuple[str, int]]]]:
    """The segment ``text[a:b]`` as :func:`changed_segments` gives it, when ``form`` changes it."""
    pairs = _segment(text[a:b], form)
    if pairs is not None:
        yield a, b, pairs


@lru_cache(maxsize=8192)
def _segment(seg: str, form: str) -> list[tuple[str, int]] | None:
    """:func:`aligned` of one segment, None when ``form`` leaves it as it is (shared: not
    to be edited)."""
    return None if unicodedata.is_normalized(form, seg) else aligned(seg, form)


def normalize_form(text: str, form: str) -> str:
    """``text`` in normalization ``form``, by segments (equal to
    ``unicodedata.normalize(form, text)``). O(n)."""
    out: list[str] = []
    pos = 0
    for a, b, pairs in changed_segments(text, form):
        out.append(text[pos:a])
        out.extend(c for c, _ in pairs)
        pos = b
    out.append(text[pos:])
    return "".join(out)
