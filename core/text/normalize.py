"""An offset-carrying normalized string, and the teaching normalizer of SPEC §1.

Every normalized character remembers the half-open span of original code points it came
from, so any span of normalized text maps back to the original text. All positions here are
Python code-point indices. The map is kept in two compact columns
(:class:`core.text.columns.IntArray`, 8 bytes an entry) that index, iterate and compare
like lists of ints.

Public names: :class:`NormalizedText`, :func:`normalize`, :func:`normalize_by_units`,
:func:`image_chars`, :data:`FORMS`.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from array import array
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate, repeat
from typing import Callable, Iterable, Literal, Sequence

import numpy as np

from core.errors import OffsetError
from core.text.columns import IntArray, int_array
from core.text.unicode_forms import FORMS, changed_segments, normalize_form

COMPACT_FROM = 256
"""Offset lists at least this long are stored as compact :class:`IntArray` columns."""
_COUNT = np.arange(COMPACT_FROM + 1, dtype=np.int64)  # the arrays() of short identity maps
_COUNT.flags.writeable = False
_IDENTITY_LISTS: dict[int, tuple[list[int], list[int]]] = {}
"""The ``(starts, ends)`` lists of the identity map of each length under
:data:`COMPACT_FROM`, shared by every :meth:`NormalizedText.identity` of that length (maps
are never edited in place)."""


def _view(values) -> np.ndarray:
    """A read-only int64 array of a column (:meth:`IntArray.view`) or of a short list."""
    if type(values) is IntArray:
        return values.view()
    out = np.fromiter(values, np.int64, len(values))
    out.flags.writeable = False
    return out
Form = Literal["NFC", "NFD", "NFKC", "NFKD"]


@dataclass
class NormalizedText:
    """A normalized string with its offset map back to the original.

    Attributes
    ----------
    original : str
        The text as the user gave it.
    text : str
        The normalized text.
    starts, ends : Sequence[int]
        One entry per character of ``text``: normalized character ``j`` came from
        ``original[starts[j]:ends[j]]`` (code points). Both are non-decreasing for every
        normalizer in this project. Given as any sequences of ints (lists, ranges, int
        ndarrays), they are kept as compact :class:`~core.text.columns.IntArray` columns
        (8 bytes an entry), except that a list shorter than :data:`COMPACT_FROM` is kept as
        given (cheapest for the many short texts of a batch). Either way indexing and
        iterating give ints and ``len`` and ``==`` with a list work as for a list. They are
        never edited in place (every edit builds a new NormalizedText).
    truthful : NormalizedText or None
        The same text with the map its characters really come from, where ``starts`` /
        ``ends`` follow a reference library that misplaces them on purpose, for offset
        parity (the ``Precompiled`` normalizer next to characters it deletes); None when
        the map is truthful itself. Read through :meth:`true_map`; not compared.
    """

    original: str
    text: str
    starts: Sequence[int] = field(repr=False)
    ends: Sequence[int] = field(repr=False)
    truthful: "NormalizedText | None" = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (type(self.starts) is list and len(self.starts) < COMPACT_FROM):
            self.starts = int_array(self.starts)
        if not (type(self.ends) is list and len(self.ends) < COMPACT_FROM):
            self.ends = int_array(self.ends)
        if not (len(self.text) == len(self.starts) == len(self.ends)):
            raise OffsetError(
                f"offset map has {len(self.starts)} starts and {len(self.ends)} ends "
                f"for {len(self.text)} normalized characters"
            )

    @classmethod
    def identity(cls, original: str) -> "NormalizedText":
        """The unnormalized text: character ``i`` maps to ``(i, i+1)``."""
        n = len(original)
        if n >= COMPACT_FROM:
            starts, ends = int_array(range(n)), int_array(range(1, n + 1))
        else:
            lists = _IDENTITY_LISTS.get(n)
            if lists is None:
                lists = _IDENTITY_LISTS[n] = (list(range(n)), list(range(1, n + 1)))
            starts, ends = lists
        # the fields set directly (the map is right by construction): a text cut by many
        # added tokens makes one of these per piece
        nt = object.__new__(cls)
        nt.__dict__.update(original=original, text=original, starts=starts, ends=ends,
                           truthful=None, _identity=True)  # (kept by same_map: maps_in_place)
        return nt

    def __len__(self) -> int:
        return len(self.text)

    @property
    def maps_in_place(self) -> bool:
        """Whether normalized character ``j`` is known to come from original character
        ``j`` alone, for every ``j``: a text made by :meth:`identity`, or :meth:`same_map`
        of one (O(1); False does not say the map is not so)."""
        return "_identity" in self.__dict__

    def true_map(self) -> "NormalizedText":
        """This text with the map its characters really come from: :attr:`truthful`, or
        ``self`` when that is None."""
        return self if self.truthful is None else self.truthful

    @classmethod
    def from_arrays(cls, original: str, text: str, starts: np.ndarray,
                    ends: np.ndarray) -> "NormalizedText":
        """A map given as two ``(len(text),)`` int arrays (copied once into the columns)."""
        return cls(original, text, int_array(starts), int_array(ends))

    def same_map(self, text: str) -> "NormalizedText":
        """A new text over the same offset map (a one-to-one rewrite), sharing the columns
        and their arrays.

        Raises
        ------
        OffsetError
            If ``text`` is not as long as this text.
        """
        if len(text) != len(self.text):
            raise OffsetError(f"same_map of {len(self.text)} characters given {len(text)}")
        nt = object.__new__(NormalizedText)  # (the fields set directly: the map is checked)
        fields = nt.__dict__
        fields.update(original=self.original, text=text, starts=self.starts, ends=self.ends,
                      truthful=None)
        for kept in ("_arrays", "_identity"):
            if kept in self.__dict__:
                fields[kept] = self.__dict__[kept]
        return nt

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, ends)`` as read-only ``(len(text),) int64`` arrays sharing the
        columns' memory (O(1); a short list is copied once, O(n)), kept while the columns
        are the same objects."""
        kept = self.__dict__.get("_arrays")
        if kept is not None and kept[0] is self.starts and kept[1] is self.ends:
            return kept[2], kept[3]
        n = len(self.starts)
        if "_identity" in self.__dict__ and n <= COMPACT_FROM:  # a short identity map
            starts, ends = _COUNT[:n], _COUNT[1:n + 1]
        else:
            starts, ends = _view(self.starts), _view(self.ends)
        self.__dict__["_arrays"] = (self.starts, self.ends, starts, ends)
        return starts, ends

    @property
    def spans(self) -> list[tuple[int, int]]:
        """``[(starts[j], ends[j]) for each normalized character j]``."""
        return list(zip(self.starts, self.ends))

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map the normalized span ``[start, end)`` to a span of the original text.

        An empty span maps to an empty span at the original position of normalized
        character ``start`` (or the end of the last character when ``start == len``).

        Raises
        ------
        OffsetError
            If ``0 <= start <= end <= len(self.text)`` does not hold.
        """
        n = len(self.text)
        if not 0 <= start <= end <= n:
            raise OffsetError(f"normalized span ({start}, {end}) is outside 0..{n}")
        if start == end:
            if start < n:
                return self.starts[start], self.starts[start]
            pos = self.ends[-1] if n else len(self.original)
            return pos, pos
        return self.starts[start], self.ends[end - 1]

    def to_normalized(self, start: int, end: int) -> tuple[int, int]:
        """Map the original span ``[start, end)`` to the normalized characters it produced.

        Returns the smallest normalized span whose characters' origins overlap the
        original span (an empty span where none does).

        Raises
        ------
        OffsetError
            If ``0 <= start <= end <= len(self.original)`` does not hold.
        """
        if not 0 <= start <= end <= len(self.original):
            raise OffsetError(
                f"original span ({start}, {end}) is outside 0..{len(self.original)}"
            )
        lo = bisect.bisect_right(self.ends, start)
        hi = bisect.bisect_left(self.starts, end)
        return (lo, max(lo, hi))

    def map_chars(
        self,
        fn: Callable[[str], str],
        *,
        on_empty: Literal["drop", "widen"] = "drop",
    ) -> "NormalizedText":
        """Apply ``fn`` to every normalized character; the one edit primitive.

        Each character ``fn`` returns inherits the span of the character it came from.
        A character that maps to ``""`` is removed; with ``on_empty="widen"`` its span is
        folded into the previous output character (an accent stays inside its base letter's
        span), with ``"drop"`` it simply disappears (what the reference libraries do).
        """
        text: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        for ch, s, e in zip(self.text, self.starts, self.ends):
            out = fn(ch)
            if out:
                text.append(out)
                starts.extend([s] * len(out))
                ends.extend([e] * len(out))
            elif on_empty == "widen" and ends:
                ends[-1] = max(ends[-1], e)
        return NormalizedText(self.original, "".join(text), starts, ends)

    def replace_segments(
        self, segments: Iterable[tuple[int, int, str]]
    ) -> "NormalizedText":
        """Replace normalized ranges ``[a, b)`` by new strings, keeping the offset map.

        ``segments`` are sorted, non-overlapping ``(a, b, replacement)`` triples over the
        current normalized text. Replacement character ``k`` takes the span of source
        character ``a + k`` while there is one, the span of the last source character
        after that; an insertion (``a == b``) takes the span of the character before it
        (or after it, at the very start).
        """
        text: list[str] = []
        src = array("q")  # per output character: its source character, -1: the one before
        first_insert = None  # where an insertion before any output character is
        n = len(self.text)
        pos = 0
        for a, b, rep in segments:
            if a < pos or b < a or b > n:
                raise OffsetError(f"segment ({a}, {b}) overlaps or is out of range")
            text.append(self.text[pos:a])
            src.extend(range(pos, a))
            if b > a:
                k = min(len(rep), b - a)
                src.extend(range(a, a + k))
                src.extend([b - 1] * (len(rep) - k))
            elif rep:
                if not src and first_insert is None:
                    first_insert = a
                src.extend([-1] * len(rep))
            text.append(rep)
            pos = b
        text.append(self.text[pos:])
        src.extend(range(pos, n))
        return NormalizedText.from_arrays(self.original, "".join(text), *self._spans_of(src, first_insert))

    def _spans_of(self, src: array, first_insert: int | None) -> tuple[np.ndarray, np.ndarray]:
        """``(starts, ends)`` of output characters whose source characters are ``src``
        (``-1``: the span of the output character before; none before: the empty span at
        source character ``first_insert``, or at the end of the original). O(len(src))."""
        idx = np.frombuffer(src, np.int64) if len(src) else np.zeros(0, np.int64)
        old_s, old_e = self.arrays()
        if not len(idx) or idx.min() >= 0:
            return old_s[idx], old_e[idx]
        at = np.where(idx >= 0, np.arange(len(idx)), -1)
        np.maximum.accumulate(at, out=at)  # the last output character with a source
        lead = at < 0
        idx = idx[np.maximum(at, 0)]
        idx[lead] = 0
        starts = old_s[idx] if len(old_s) else np.zeros(len(idx), np.int64)
        ends = old_e[idx] if len(old_e) else np.zeros(len(idx), np.int64)
        if lead.any():
            fi = first_insert if first_insert is not None else len(old_s)
            pos = int(old_s[fi]) if fi < len(old_s) else len(self.original)
            starts[lead] = ends[lead] = pos
        return starts, ends

    # -- fast, HF-compatible edit primitives used by core.tokenizers -------------------------

    def map_chars_cached(
        self, fn: Callable[[str], str], cache: dict[str, str]
    ) -> "NormalizedText":
        """:meth:`map_chars` with ``on_empty="drop"``, fast for long texts.

        ``fn`` must be a pure per-character function (``cache`` memoizes it across calls),
        called once per distinct character. The whole text is translated at once with
        :meth:`str.translate`; when some image has another length than one, every
        character's span is repeated by its image's length with numpy (O(n log n): the
        distinct characters are found by sorting). Every character ``fn`` returns inherits
        the span of its source character, as the reference ``tokenizers`` library does for
        per-character normalizers; a character mapped to ``""`` is dropped.
        """
        text = self.text
        table: dict[int, str] = {}
        resized: list[str] = []
        for c in set(text):
            out = cache.get(c)
            if out is None:
                out = cache[c] = fn(c)
            if out != c:
                if len(out) == 1:
                    table[ord(c)] = out
                else:
                    resized.append(c)
        if not resized:
            new = _translate(text, table) if table else text
            return self.same_map(new)
        for c in resized:
            table[ord(c)] = cache[c]
        # every character's image length, through the distinct characters: O(n log n)
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
        distinct, inverse = np.unique(codes, return_inverse=True)
        sizes = np.fromiter((len(cache[chr(c)]) for c in distinct.tolist()), np.int64, len(distinct))
        repeats = sizes[inverse.reshape(-1)]
        old_s, old_e = self.arrays()
        return NormalizedText.from_arrays(self.original, _translate(text, table),
                                          np.repeat(old_s, repeats), np.repeat(old_e, repeats))

    def transform(
        self, changes: Iterable[tuple[str, int]], initial_offset: int = 0
    ) -> "NormalizedText":
        """Rebuild the text from ``(char, change)`` pairs, as ``tokenizers``' ``transform``.

        Walks the current normalized text from character ``initial_offset`` (the first
        ``initial_offset`` characters are removed). ``change == 0``: ``char`` replaces the
        current character (and takes its span); ``change == -n``: it replaces the current
        character and the ``n`` characters after it are removed; ``change == 1``: ``char``
        is inserted and takes the span of the character consumed just before it (``(0, 0)``
        at the very start). Characters after the last pair are removed.
        """
        old_s, old_e = self.starts, self.ends
        out: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        idx = initial_offset
        for ch, change in changes:
            if change > 0:
                s, e = (old_s[idx - 1], old_e[idx - 1]) if idx >= 1 else (0, 0)
            else:
                if idx >= len(old_s):
                    raise OffsetError(f"transform consumes past the end ({idx})")
                s, e = old_s[idx], old_e[idx]
                idx += 1 - change
            out.append(ch)
            starts.append(s)
            ends.append(e)
        return NormalizedText(self.original, "".join(out), starts, ends)

    def compose(self, inner: "NormalizedText") -> "NormalizedText":
        """Chain two maps: ``inner`` normalizes ``self.text``; result maps ``self.original``.

        Raises
        ------
        OffsetError
            If ``inner.original`` is not ``self.text``.
        """
        if inner.original != self.text:
            raise OffsetError("compose: the inner map does not start from this text")
        starts, ends = [], []
        for s, e in zip(inner.starts, inner.ends):
            a, b = self.to_original(s, e)
            starts.append(a)
            ends.append(b)
        return NormalizedText(self.original, inner.text, starts, ends)

    def slice(self, start: int, end: int) -> "NormalizedText":
        """Normalized characters ``[start, end)`` with their (absolute) original spans."""
        if not 0 <= start <= end <= len(self.text):
            raise OffsetError(f"slice ({start}, {end}) is outside 0..{len(self.text)}")
        starts, ends = self.arrays()
        return NormalizedText.from_arrays(self.original, self.text[start:end], starts[start:end],
                                          ends[start:end])

    @classmethod
    def concat(
        cls, original: str, parts: Iterable[tuple[int, "NormalizedText"]]
    ) -> "NormalizedText":
        """Join maps of consecutive pieces of ``original``.

        ``parts`` are ``(shift, piece)`` pairs: ``piece`` normalizes
        ``original[shift:shift + len(piece.original)]``; its spans are shifted by ``shift``.
        When a piece has a :attr:`truthful` map, so has the result (the pieces' true maps
        joined). Pieces that are all one-to-one (:meth:`identity`, or :meth:`same_map` of
        it) and cover the whole text end to end give its identity map directly. O(n).
        """
        parts = list(parts)
        if not parts:
            return cls(original, "", IntArray(), IntArray())
        shifts, pieces = zip(*parts)
        if all(["_identity" in p.__dict__ for p in pieces]):  # one-to-one pieces
            texts = [p.text for p in pieces]
            lens = list(map(len, texts))
            if sum(lens) == len(original) and list(shifts) == list(
                    accumulate(lens[:-1], initial=0)):
                # laid end to end over the whole text: its identity map (O(n), C-level
                # passes over the pieces — a text cut by tens of thousands of added tokens)
                whole = cls.identity(original)
                text = "".join(texts)
                return whole if text == original else whole.same_map(text)
        columns = list(map(cls.arrays, pieces))
        # each piece's columns laid end to end, then shifted in one pass (O(n) numpy; no
        # small-array arithmetic per piece)
        shift = np.repeat(np.asarray(shifts, np.int64),
                          np.fromiter(map(len, pieces), np.int64, len(pieces)))
        starts = np.concatenate([c[0] for c in columns]) + shift
        ends = np.concatenate([c[1] for c in columns]) + shift
        out = cls.from_arrays(original, "".join([p.text for p in pieces]), starts, ends)
        if any(piece.truthful is not None for _, piece in parts):
            out.truthful = cls.concat(original, [(shift, piece.true_map()) for shift, piece in parts])
        return out


def _units(text: str, form: Form | None) -> list[tuple[int, int]]:
    """Split ``text`` into the units normalized one at a time.

    A unit is one code point (SPEC §1), except where ``form`` rewrites a segment as a
    whole (:mod:`core.text.unicode_forms`: marks put in canonical order, a letter and its
    accent or a vowel sign's two parts composed), which is one unit, so the unit's
    normal form is the text's. O(n).
    """
    units: list[tuple[int, int]] = []
    pos = 0
    for a, b, pairs in changed_segments(text, form) if form else ():
        units.extend((i, i + 1) for i in range(pos, a))
        whole = "".join(c for c, _ in pairs)
        if b - a > 1 and text[a].isspace():
            # a segment opened by the whitespace before its marks: the whitespace composes
            # and reorders with nothing, so it is its own unit (as in the word-by-word fast
            # path, where it is no part of a word)
            units.append((a, a + 1))
            a, whole = a + 1, normalize_form(text[a + 1:b], form)
        if whole == "".join(normalize_form(c, form) for c in text[a:b]):
            units.extend((i, i + 1) for i in range(a, b))
        else:
            units.append((a, b))
        pos = b
    units.extend((i, i + 1) for i in range(pos, len(text)))
    return units


def normalize(
    text: str,
    *,
    form: Form | None = "NFKD",
    strip_accents: bool = True,
    lowercase: bool = True,
    collapse_whitespace: bool = True,
) -> NormalizedText:
    """The teaching normalizer of SPEC §1, with every step selectable.

    Steps, in order: Unicode normalization ``form`` (or none), removal of every
    nonspacing mark (category ``Mn``; the mark's span folds into the preceding emitted
    character), full-case-mapping lowercase, whitespace collapse (runs of ``str.isspace``
    characters become one space, leading and trailing whitespace removed). O(N) for N code
    points: a word that no step reshapes is emitted whole (checks in C per word), the
    other words unit by unit, each distinct unit (see ``_units``) normalized once; the
    result equals :func:`normalize_by_units` (property-tested).

    Parameters
    ----------
    text : str
        Any string, including lone surrogates and control characters (they pass through).
    form : {"NFC", "NFD", "NFKC", "NFKD"} or None

    Returns
    -------
    NormalizedText
        With one original span (code points) per normalized character.

    Raises
    ------
    OffsetError
        If ``form`` is not one of :data:`FORMS` or None.

    Examples
    --------
    >>> normalize("Ze\\u0301 \\ufb01x").text
    'ze fix'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    if form is not None and form not in FORMS:
        raise OffsetError(f"unknown normalization form {form!r}; use one of {FORMS} or None")
    runs = _plain_runs(text, form, strip_accents, lowercase, collapse_whitespace)
    if runs is None:
        return normalize_by_units(text, form=form, strip_accents=strip_accents,
                                  lowercase=lowercase, collapse_whitespace=collapse_whitespace)
    out: list[str] = []  # images of units, each non-empty
    starts: list[int] = []
    ends: list[int] = []
    images: dict[str, str] = {}  # unit -> its image: each distinct unit normalized once
    steps = (form, strip_accents, lowercase, collapse_whitespace)
    last = ""
    words: dict[str, tuple[str, list[int], list[int], int, str]] = {}  # each distinct word once
    for a, b, lowered in runs:
        if lowered is None:  # not plain: unit by unit, through the word's image
            word = text[a:b]
            done = words.get(word)
            if done is None:
                done = words[word] = _word_image(word, steps, images)
            image, rel_starts, rel_ends, lead, tail = done
            if lead >= 0 and ends:  # leading units with no image fold into what came before
                ends[-1] = a + lead
            if image:
                out.append(image)
                starts += [a + k for k in rel_starts]
                ends += [a + k for k in rel_ends]
                last = tail
        elif type(lowered) is _Line:  # whole plain words and the whitespace between them
            last = _emit_line(lowered, a, out, starts, ends, last)
        elif lowered is _SPACE:  # whitespace between words: one space, the first's span
            if out and last != " ":
                out.append(" ")
                starts.append(a)
                ends.append(a + 1)
                last = " "
        else:
            out.append(lowered)
            starts += range(a, b)
            ends += range(a + 1, b + 1)
            last = lowered[-1]
    return _finished(text, out, starts, ends, last, collapse_whitespace)


def normalize_by_units(text: str, *, form: Form | None = "NFKD", strip_accents: bool = True,
                       lowercase: bool = True, collapse_whitespace: bool = True
                       ) -> NormalizedText:
    """:func:`normalize` written plainly, one unit (:func:`_units`) at a time: the
    definition its fast path is tested equal to, and what it runs when the fast path does
    not apply. Same parameters and result (arguments not checked). O(N) Python steps for
    N code points."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    last = _emit_units(text, 0, _units(text, form),
                       (form, strip_accents, lowercase, collapse_whitespace), {},
                       out, starts, ends, "")
    return _finished(text, out, starts, ends, last, collapse_whitespace)


def image_chars(text: str, *, form: Form | None = "NFKD", strip_accents: bool = True,
                lowercase: bool = True) -> frozenset[str] | None:
    """Every character :func:`normalize` (whitespace collapsed, the same steps) can put in
    the normalized text of ``text``: a superset of ``set(normalize(text, ...).text)``, made
    from the images of its distinct characters (a decomposing ``form`` acts per character
    up to the order of marks, and the other steps per character, so a unit's image holds
    exactly its characters' images' characters). None for a composing ``form`` (NFC, NFKC),
    where a pair can become a character neither image holds. Used to rule out a token that
    no normalization of the text can match without normalizing it (property-tested).
    O(n) in C plus O(distinct characters) Python steps."""
    if form in ("NFC", "NFKC"):
        return None
    out = {" "}
    for c in set(text):
        out.update(_image(c, form, strip_accents, lowercase))
    return frozenset(out)


def _finished(text: str, out: list[str], starts: list[int], ends: list[int], last: str,
              collapse_whitespace: bool) -> NormalizedText:
    """The NormalizedText of the emitted images, a trailing collapsed space removed."""
    if collapse_whitespace and out and last == " ":
        out[-1] = out[-1][:-1]
        starts.pop()
        ends.pop()
    return NormalizedText(text, "".join(out), starts, ends)


_WORDS = re.compile(r"\S+")
MARK_PLANES = (range(0x20000), range(0xE0000, 0xE1000))
"""Where ``unicodedata`` has nonspacing marks (category Mn): planes 0 and 1 and the
variation selectors of plane 14 (a test checks every other code point)."""


@lru_cache(maxsize=1)
def _marks() -> re.Pattern:
    """A pattern matching any nonspacing mark (``unicodedata``'s category Mn, so the fast
    path strips exactly what :func:`_image` strips). Built on first use: O(|MARK_PLANES|)."""
    category = unicodedata.category
    marks = "".join(chr(c) for plane in MARK_PLANES for c in plane if category(chr(c)) == "Mn")
    return re.compile("[" + re.escape(marks) + "]")


def _plain_runs(text: str, form: Form | None, strip_accents: bool, lowercase: bool,
                collapse_whitespace: bool) -> list[tuple[int, int, str | None]] | None:
    """``text`` cut into runs for :func:`normalize`'s fast path: ``(a, b, image)`` where
    ``image`` is what the steps make of a word that none of them reshapes (already in
    ``form``, no nonspacing mark when accents are stripped, every character lowercased to
    one character: the image has one character per code point, spans ``(i, i + 1)``),
    else None (the word is normalized unit by unit); whitespace between words has the
    image :data:`_SPACE`.
    None for the whole text when a word starts with a combining mark (a unit could then
    reach across the whitespace before it) or whitespace is not collapsed. O(n), the
    checks in C per word."""
    if not collapse_whitespace or not text:
        return None
    runs: list[tuple[int, int, str | None]] = []
    pos = 0
    combining = unicodedata.combining
    steps = (form, strip_accents, lowercase)
    for line in _LINES.finditer(text):
        ls, le = line.span()
        image = _plain_image(line.group(), *steps)
        if image is not None:  # every word of the line is plain: the line is one run
            if not line.group().isascii() and _initial_combining().search(line.group()):
                return None
            if ls > pos:
                runs.append((pos, ls, _SPACE))
            runs.append((ls, le, _Line(image)))
            pos = le
            continue
        for m in _WORDS.finditer(text, ls, le):
            a, b = m.span()
            word = m.group()
            if combining(word[0]):
                return None
            if a > pos:
                runs.append((pos, a, _SPACE))
            runs.append((a, b, _plain_image(word, *steps)))
            pos = b
    if pos < len(text):
        runs.append((pos, len(text), _SPACE))
    return runs


_LINES = re.compile(r"[^\n]*\n?")


class _Line(str):
    """The image of a run of whole words and the whitespace between them (a line) that
    no step reshapes: one character per code point, whitespace not yet collapsed."""


def _plain_image(chunk: str, form: Form | None, strip_accents: bool, lowercase: bool) -> str | None:
    """What the steps make of ``chunk`` when none of them reshapes it (already in
    ``form``, no nonspacing mark when accents are stripped, every character lowercased to
    one character), else None. O(len(chunk)), the checks in C."""
    if not chunk:
        return None
    ascii_ = chunk.isascii()
    if form is not None and not ascii_ and not unicodedata.is_normalized(form, chunk):
        return None
    if strip_accents and not ascii_ and _marks().search(chunk) is not None:
        return None
    if not lowercase:
        return chunk
    image = chunk.lower() if ascii_ else "".join(map(str.lower, chunk))
    return image if len(image) == len(chunk) else None


@lru_cache(maxsize=1)
def _initial_combining() -> re.Pattern:
    """A pattern matching a combining character (``unicodedata.combining`` not 0) at the
    start of a word. Built on first use: O(|MARK_PLANES|)."""
    combining = unicodedata.combining
    chars = "".join(chr(c) for plane in MARK_PLANES for c in plane if combining(chr(c)))
    return re.compile(r"(?<!\S)[" + re.escape(chars) + "]")


_IS_SPACE = np.array([chr(c).isspace() for c in range(0x3001)] + [False])  # none from U+3001 on


def _emit_line(image: str, a: int, out: list[str], starts: list[int], ends: list[int],
               last: str) -> str:
    """:func:`normalize`'s output for a :class:`_Line` run at ``a``: each non-space
    character as it is, each whitespace run as one space with its first character's span
    (none at the start of the text or after a space). Returns the last character emitted.
    O(len(image)) at numpy speed."""
    codes = np.frombuffer(image.encode("utf-32-le", "surrogatepass"), np.uint32)
    space = _IS_SPACE[np.minimum(codes, len(_IS_SPACE) - 1)]
    before = np.empty(len(space), bool)  # a space (or nothing) before each character
    before[0] = not out or last == " "
    before[1:] = space[:-1]
    keep = ~space | ~before
    at = np.flatnonzero(keep)
    if not len(at):
        return last
    kept = np.where(space, np.uint32(32), codes)[at]
    piece = kept.tobytes().decode("utf-32-le", "surrogatepass")
    out.append(piece)
    at += a
    starts.extend(at.tolist())
    at += 1
    ends.extend(at.tolist())
    return piece[-1]


_SPACE = " "
"""The image :func:`_plain_runs` gives a run of whitespace: collapsed to one space."""


def _emit_units(text: str, shift: int, units: list[tuple[int, int]], steps: tuple,
                images: dict[str, str], out: list[str], starts: list[int], ends: list[int],
                last: str) -> str:
    """:func:`normalize`'s unit loop over ``units`` of ``text[shift:]`` (spans relative to
    ``shift``), appending to ``out``/``starts``/``ends``; returns the last character
    emitted. O(units) Python steps."""
    form, strip_accents, lowercase, collapse_whitespace = steps
    for a, b in units:
        unit = text[shift + a:shift + b]
        a, b = a + shift, b + shift
        if collapse_whitespace and b - a == 1 and unit.isspace():
            if out and last != " ":
                out.append(" ")
                starts.append(a)
                ends.append(b)
                last = " "
            continue
        image = images.get(unit)
        if image is None:
            image = images[unit] = _image(unit, form, strip_accents, lowercase)
        if image:
            out.append(image)
            starts.extend([a] * len(image))
            ends.extend([b] * len(image))
            last = image[-1]
        elif ends:
            ends[-1] = b
    return last


def _word_image(word: str, steps: tuple, images: dict[str, str]
                ) -> tuple[str, list[int], list[int], int, str]:
    """:func:`_emit_units` of one word (no whitespace in it) on its own: its image, the spans
    of the image's characters relative to the word, where units with no image before the
    first emitted one end (-1: none; they extend the previous character's span), and the
    last character emitted. O(len(word))."""
    form = steps[0]
    plain = not any(map(str.isspace, word))
    if plain and form in _DECOMPOSING and (  # one unit per code point unless marks reorder
            form is None or unicodedata.is_normalized(form, word)
            or unicodedata.normalize(form, word) == "".join(map(unicodedata.normalize, repeat(form), word))):
        return _char_images(word, steps, images)
    units = _units(word, form)
    if plain and len(units) == len(word):
        return _char_images(word, steps, images)
    out, starts, ends = [""], [-1], [-1]  # a stand-in for the character before the word
    tail = _emit_units(word, 0, units, steps, images, out, starts, ends, "")
    return "".join(out), starts[1:], ends[1:], ends[0], tail


_DECOMPOSING = (None, "NFD", "NFKD")
"""Forms (and no form) under which a word whose whole normal form is the concatenation of
its code points' normal forms is one unit per code point (:func:`_units`: only canonical
reordering of marks joins code points into a unit; nothing composes)."""


def _char_images(word: str, steps: tuple, images: dict[str, str]
                 ) -> tuple[str, list[int], list[int], int, str]:
    """:func:`_word_image` of a word whose units are its code points and that holds no
    whitespace: each character's image (memoized in ``images``, the same as
    :func:`_emit_units` gives the one-character unit) laid end to end; a character with an
    empty image extends the span of the last character emitted before it (or, before the
    first, the ``lead``). O(len(word)): the images in C-level passes, one Python step per
    code point on integers only."""
    form, strip_accents, lowercase, _ = steps
    imgs = list(map(images.get, word))
    if None in imgs:
        for c in set(word).difference(images):
            images[c] = _image(c, form, strip_accents, lowercase)
        imgs = list(map(images.__getitem__, word))
    image = "".join(imgs)
    n = len(word)
    if len(image) == n and "" not in imgs:  # one character per code point
        return image, list(range(n)), list(range(1, n + 1)), -1, image[-1] if image else ""
    starts: list[int] = []
    ends: list[int] = []
    lead = -1
    for i, k in enumerate(map(len, imgs)):
        if k == 1:
            starts.append(i)
            ends.append(i + 1)
        elif k:
            starts += [i] * k
            ends += [i + 1] * k
        elif ends:
            ends[-1] = i + 1
        else:
            lead = i + 1
    return image, starts, ends, lead, image[-1] if image else ""


def _image(unit: str, form: Form | None, strip_accents: bool, lowercase: bool) -> str:
    """What :func:`normalize` emits for one unit: its ``form``, without nonspacing marks,
    each piece lowercased."""
    pieces = normalize_form(unit, form) if form else unit
    if strip_accents:
        pieces = "".join(p for p in pieces if unicodedata.category(p) != "Mn")
    return "".join(p.lower() for p in pieces) if lowercase else pieces


def _translate(text: str, table: dict[int, str], chunk: int = 65536) -> str:
    """``text.translate(table)``, ``chunk`` code points per call (each call holds the GIL
    only that long; the result is the same: translation is per character). O(n)."""
    if len(text) <= chunk:
        return text.translate(table)
    return "".join([text[i:i + chunk].translate(table) for i in range(0, len(text), chunk)])
