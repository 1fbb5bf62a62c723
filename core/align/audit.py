"""Where a tokenizer's offsets mislead (SPEC §8): flags per token and per character.

The reference libraries' offsets are reported as they are, never "fixed"; this module says
where they surprise a person: a span that starts or ends inside a grapheme cluster, a
character that no token covers, a character that several tokens share (byte-level pieces of
one character), a token whose span is empty. For byte-level tokens it also says which UTF-8
bytes of which character a token owns ("bytes 3–4 of 😀"). Given each token's derived span
(``Encoding.derived_offsets``: the span its own content occupies, see
:mod:`core.tokenizers.derived`), it flags the tokens whose reference span differs
(:attr:`TokenFlags.misleading`) and gives both spans.

The token ↔ character alignment is kept as two ragged index lists (spaCy-style): which
characters each token covers and which tokens cover each character. Flags are computed as
numpy arrays (one pass over 10,000 characters takes about a millisecond); the per-token
:class:`TokenFlags` objects and the ragged lists are built only when asked for.

Grapheme clusters come from :mod:`core.text.graphemes`, UTF-8 offsets from
:mod:`core.text.offsets`.

Public names: :func:`audit`, :class:`Audit`, :class:`TokenFlags`.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import chain
from typing import Callable, Sequence

import numpy as np

from core.errors import OffsetError, check_stop
from core.text.columns import SpanArray
from core.text.graphemes import grapheme_bounds
from core.text.offsets import byte_part_label, offset_arrays


@lru_cache(maxsize=1 << 16)
def _part_label(key: int) -> str:
    """:func:`byte_part_label` of a :meth:`Audit.partial_notes` key (code point << 6 | first
    byte << 3 | last byte), kept: a long text's pieces ask for the same few thousand."""
    return byte_part_label(chr(key >> 6), key >> 3 & 7, key & 7)


@dataclass(frozen=True)
class TokenFlags:
    """What is surprising about one token's span.

    Attributes
    ----------
    cuts_grapheme : bool
        The span starts or ends strictly inside an extended grapheme cluster.
    empty : bool
        The span is empty (special tokens, a dummy-prefix marker, or a lost character).
    shares_chars : bool
        Another token's span overlaps this one (byte-level pieces of one character).
    partial_chars : tuple[str, ...]
        For byte-level tokens that own only some bytes of a character:
        e.g. ``("bytes 3–4 of 😀 (U+1F600)",)``; bytes are numbered from 1.
    byte_start, byte_end : int | None
        The UTF-8 byte range of the original text the token owns, when known.
    misleading : bool
        The reference span differs from the span the token's own content occupies
        (``derived_span``): it misplaces characters the token holds or does not hold.
    derived_span : tuple[int, int] | None
        That derived code-point span, when derived spans were given.
    """

    cuts_grapheme: bool = False
    empty: bool = False
    shares_chars: bool = False
    partial_chars: tuple[str, ...] = ()
    byte_start: int | None = None
    byte_end: int | None = None
    misleading: bool = False
    derived_span: tuple[int, int] | None = None

    @property
    def any(self) -> bool:
        return (self.cuts_grapheme or self.empty or self.shares_chars or bool(self.partial_chars)
                or self.misleading)


@dataclass(frozen=True)
class Audit:
    """Flags for one encoding of one text.

    Array attributes have one entry per token (``(t,)``) or per code point (``(n,)``);
    special tokens are never flagged and cover no character.

    Attributes
    ----------
    text : str
        The original text.
    starts, ends : np.ndarray
        ``(t,) int64`` code-point spans as given.
    cuts_grapheme, empty, shares_chars : np.ndarray
        ``(t,) bool``: see :class:`TokenFlags`.
    partial : np.ndarray
        ``(t,) bool``: the token owns only some UTF-8 bytes of a character (byte-level only).
    byte_starts, byte_ends : np.ndarray or None
        ``(t,) int64`` UTF-8 byte range each token owns, when byte lengths were given.
    cover : np.ndarray
        ``(n,) int32``: how many (non-special) tokens cover each code point.
    derived_starts, derived_ends : np.ndarray or None
        ``(t,) int64`` derived code-point spans, when given.
    misleading : np.ndarray
        ``(t,) bool``: the span differs from the derived span (all False without them).
    """

    text: str
    starts: np.ndarray = field(repr=False)
    ends: np.ndarray = field(repr=False)
    special: np.ndarray = field(repr=False)
    cuts_grapheme: np.ndarray = field(repr=False)
    empty: np.ndarray = field(repr=False)
    shares_chars: np.ndarray = field(repr=False)
    partial: np.ndarray = field(repr=False)
    cover: np.ndarray = field(repr=False)
    byte_starts: np.ndarray | None = field(default=None, repr=False)
    byte_ends: np.ndarray | None = field(default=None, repr=False)
    utf8: np.ndarray | None = field(default=None, repr=False)
    derived_starts: np.ndarray | None = field(default=None, repr=False)
    derived_ends: np.ndarray | None = field(default=None, repr=False)
    misleading: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.misleading is None:
            object.__setattr__(self, "misleading", np.zeros(len(self.starts), bool))

    def __len__(self) -> int:
        return len(self.starts)

    def token_flags(self, j: int) -> TokenFlags:
        """The flags of token ``j`` (the partial-character notes are built here, lazily)."""
        if self.special[j]:
            return TokenFlags()
        b0 = b1 = None
        notes: tuple[str, ...] = ()
        if self.byte_starts is not None:
            b0, b1 = int(self.byte_starts[j]), int(self.byte_ends[j])
            if self.partial[j]:
                notes = self._notes_of(j, b0, b1)
        derived = None
        if self.derived_starts is not None:
            derived = (int(self.derived_starts[j]), int(self.derived_ends[j]))
        return TokenFlags(bool(self.cuts_grapheme[j]), bool(self.empty[j]),
                          bool(self.shares_chars[j]), notes, b0, b1, bool(self.misleading[j]),
                          derived)

    _SHORT_SPAN = 64  # code points of a span whose notes one token's flags build in Python

    def _notes_of(self, j: int, b0: int, b1: int) -> tuple[str, ...]:
        """:meth:`partial_notes` of token ``j`` alone (bytes ``[b0, b1)``), character by
        character for a short span (the numpy passes cost ~0.1 ms whatever the size: a
        table page of such tokens asks for them row by row). O(span length)."""
        s, e = int(self.starts[j]), int(self.ends[j])
        if e - s > self._SHORT_SPAN or self.utf8 is None:
            return self.partial_notes([j])[0]
        notes = []
        for c in range(s, e):
            c0, c1 = int(self.utf8[c]), int(self.utf8[c + 1])
            lo, hi = max(b0, c0), min(b1, c1)
            if hi > lo and (lo > c0 or hi < c1):
                notes.append(byte_part_label(self.text[c], lo - c0 + 1, hi - c0))
        return tuple(notes)

    def partial_notes(self, tokens: Sequence[int]) -> list[tuple[str, ...]]:
        """For each token index in ``tokens``: which bytes of which characters it holds only
        partly (``"bytes 1–2 of म (U+092E)"``, one note a character, in text order); ``()``
        without byte ranges. Vectorized over the (token, character) pairs of the tokens'
        spans: O(sum of their span lengths), one label built per distinct (character, bytes)."""
        out: list[tuple[str, ...]] = [() for _ in tokens]
        if self.byte_starts is None or self.utf8 is None or not len(tokens):
            return out
        js = np.asarray(tokens, np.int64)
        s, e = self.starts[js], self.ends[js]
        n = np.maximum(e - s, 0)
        owner = np.repeat(np.arange(len(js)), n)  # one entry per (token, character) pair
        first = np.repeat(np.cumsum(n) - n, n)
        chars = np.repeat(s, n) + np.arange(int(n.sum())) - first
        starts8 = self.utf8  # an ndarray: indexed, never converted whole
        c0, c1 = starts8[chars].astype(np.int64), starts8[chars + 1].astype(np.int64)
        lo = np.maximum(np.repeat(self.byte_starts[js], n), c0)
        hi = np.minimum(np.repeat(self.byte_ends[js], n), c1)
        keep = np.flatnonzero((hi > lo) & ((lo > c0) | (hi < c1)))
        owners = owner[keep]
        codes = np.fromiter(map(ord, map(self.text.__getitem__, chars[keep].tolist())), np.int64, len(keep))
        key = (codes << 6) | ((lo - c0 + 1)[keep] << 3) | (hi - c0)[keep]  # a, b <= 4 bytes
        uniq, inverse = np.unique(key, return_inverse=True)
        labels = list(map(_part_label, uniq.tolist()))
        texts = list(map(labels.__getitem__, inverse.reshape(-1).tolist()))
        many = np.bincount(owners, minlength=len(tokens))[owners] > 1  # notes of a token with several
        if not many.any():  # one note a token (the usual case)
            for k, label in zip(owners.tolist(), texts):
                out[k] = (label,)
            return out
        grouped: dict[int, list[str]] = {}
        for k, label, several in zip(owners.tolist(), texts, many.tolist()):  # in (token, character) order
            if several:
                grouped.setdefault(k, []).append(label)
            else:
                out[k] = (label,)
        for k, labels in grouped.items():
            out[k] = tuple(labels)
        return out

    @property
    def misleading_count(self) -> int:
        """How many tokens' spans differ from their derived spans."""
        return int(self.misleading.sum())

    @cached_property
    def tokens(self) -> list[TokenFlags]:
        """One :class:`TokenFlags` per token."""
        return [self.token_flags(j) for j in range(len(self))]

    @cached_property
    def token_chars(self) -> list[range]:
        """For each token, the code points its span covers."""
        return [range(s, e) for s, e in zip(self.starts.tolist(), self.ends.tolist())]

    @cached_property
    def char_tokens(self) -> list[list[int]]:
        """For each code point, the indices of the (non-special) tokens covering it."""
        out: list[list[int]] = [[] for _ in range(len(self.text))]
        for j in np.flatnonzero(~self.special & (self.ends > self.starts)).tolist():
            for i in range(int(self.starts[j]), int(self.ends[j])):
                out[i].append(j)
        return out

    @cached_property
    def uncovered(self) -> list[int]:
        """Code points covered by no token, whitespace excluded."""
        return [i for i in np.flatnonzero(self.cover == 0).tolist() if not self.text[i].isspace()]

    @cached_property
    def uncovered_whitespace(self) -> list[int]:
        """Whitespace code points covered by no token (normal for most tokenizers)."""
        return [i for i in np.flatnonzero(self.cover == 0).tolist() if self.text[i].isspace()]

    @property
    def shared(self) -> list[int]:
        """Code points covered by more than one token."""
        return np.flatnonzero(self.cover > 1).tolist()


def _byte_ranges(starts8, starts, ends, lengths, sequential, should_stop=None):
    """Assign each token a UTF-8 byte range inside its span, in order.

    A token that starts in the same character where the previous token (with bytes) stopped
    mid-way continues from that token's last byte. Only tokens in ``sequential`` (those
    overlapping another token) can continue; their ranges are updated together until they
    settle, one round per token in the longest run of pieces of one character: O(R · T) for
    R rounds, each vectorized; ``should_stop`` is polled every round.
    """
    lo = starts8[starts].astype(np.int64, copy=False)
    hi = starts8[ends].astype(np.int64, copy=False)
    b0 = lo
    b1 = np.where(lengths > 0, np.minimum(lo + lengths, hi), lo)
    todo = np.flatnonzero(sequential)
    if not len(todo):
        return b0, b1
    last = np.arange(len(lo))  # the last token with bytes up to each (a continuation keeps bytes)
    last[(lengths <= 0) | (hi <= lo)] = -1
    np.maximum.accumulate(last, out=last)
    prev = np.where(todo > 0, last[np.maximum(todo - 1, 0)], -1)
    del last
    t_lo, t_hi, t_n = lo[todo], hi[todo], lengths[todo]  # b0 (lo) and b1 are fresh: edited in place
    for _ in range(len(todo) + 1):
        check_stop(should_stop)
        prev_end = np.where(prev >= 0, b1[np.maximum(prev, 0)], 0)
        new0 = np.where((t_lo < prev_end) & (prev_end < t_hi), prev_end, t_lo)
        new1 = np.where(t_n > 0, np.minimum(new0 + t_n, t_hi), new0)
        if np.array_equal(new0, b0[todo]) and np.array_equal(new1, b1[todo]):
            break
        b0[todo], b1[todo] = new0, new1
    return b0, b1


def _flat(values, n: int) -> np.ndarray:
    """``values`` (a sequence of numbers or of pairs) as a flat int64 array of ``n`` entries."""
    if isinstance(values, np.ndarray):
        return values.astype(np.int64).reshape(-1)
    first = values[0] if len(values) else 0
    items = chain.from_iterable(values) if isinstance(first, (tuple, list)) else values
    return np.fromiter(items, np.int64, n)


def _table(values) -> np.ndarray:
    """An offset table as an ndarray: an ``array("i")``'s own memory (int32, no copy)."""
    if isinstance(values, array) and values.typecode == "i":
        return np.frombuffer(values, np.int32) if len(values) else np.zeros(0, np.int32)
    return np.asarray(values, np.int64)


def _as_mask(values, n: int, what: str) -> np.ndarray:
    """A 0/1 mask of ``n`` entries as ``(n,) bool`` (a bool ndarray is copied, not widened)."""
    if isinstance(values, np.ndarray) and values.dtype == bool and values.ndim == 1:
        if len(values) != n:
            raise OffsetError(f"{len(values)} {what} for {n} tokens")
        return values.copy()
    return _as_array(values, n, what).astype(bool)


def _as_array(values, n: int, what: str) -> np.ndarray:
    if len(values) != n:
        raise OffsetError(f"{len(values)} {what} for {n} tokens")
    arr = _flat(values, n)
    if len(arr) != n:
        raise OffsetError(f"{len(arr)} {what} for {n} tokens")
    return arr


def audit(
    text: str,
    offsets: Sequence[tuple[int, int]],
    *,
    byte_lengths: Sequence[int] | None = None,
    special_tokens_mask: Sequence[int] | None = None,
    graphemes: Sequence[int] | None = None,
    derived_offsets: Sequence[tuple[int, int]] | None = None,
    should_stop: Callable[[], bool] | None = None,
    utf8: Sequence[int] | None = None,
) -> Audit:
    """Flag the misleading parts of an encoding's offsets (SPEC §8).

    Parameters
    ----------
    text : str
        The original text.
    offsets : sequence of (int, int)
        Each token's half-open code-point span of ``text`` (as the tokenizer reports it).
    byte_lengths : sequence of int, optional
        For byte-level tokenizers, how many UTF-8 bytes each token stands for; enables
        :attr:`TokenFlags.partial_chars` and the byte ranges.
    special_tokens_mask : sequence of int, optional
        1 for special tokens; their empty spans are expected and not flagged.
    graphemes : sequence of int, optional
        ``grapheme_bounds(text)`` when the caller already has it (e.g. kept across edits).
    derived_offsets : sequence of (int, int), optional
        Each token's derived span (``Encoding.derived_offsets``); a token whose span
        differs is flagged :attr:`TokenFlags.misleading` (special tokens never are).
    should_stop : callable, optional
        Polled between the steps (each vectorized, O(T + N)) and in every round of the byte
        ranges; True raises :class:`~core.errors.Cancelled`.
    utf8 : sequence of int, optional
        ``offset_arrays(text)[1]`` (the UTF-8 byte offset of every code point, length
        ``len(text) + 1``) when the caller already has it: an int64 ndarray, or an
        ``array("i")`` (:func:`core.text.offsets.int_table`, read through without a copy).
        Only byte-level audits (``byte_lengths``) read it; it is trusted, not checked.

    Raises
    ------
    OffsetError
        If a span (given or derived) is out of bounds or reversed, or the lists differ in
        length.
    Cancelled
        If ``should_stop()`` returned True.
    """
    n, t = len(text), len(offsets)
    starts, ends = _pairs(offsets, t, n, "offsets")
    lengths = None if byte_lengths is None else _as_array(byte_lengths, t, "byte lengths")
    special = (np.zeros(t, bool) if special_tokens_mask is None
               else _as_mask(special_tokens_mask, t, "special-tokens mask entries"))
    counted = ~special
    any_special = bool(special.any())
    delta = np.bincount(starts[counted] if any_special else starts, minlength=n + 1)
    delta -= np.bincount(ends[counted] if any_special else ends, minlength=n + 1)
    cover = np.cumsum(delta[:n], dtype=np.int32)
    del delta
    many = np.zeros(n + 1, np.int32)  # code points covered more than once, before each
    np.cumsum(cover > 1, dtype=np.int32, out=many[1:])
    nonempty = ends > starts
    check_stop(should_stop)
    boundary = np.zeros(n + 1, bool)
    boundary[np.asarray(grapheme_bounds(text) if graphemes is None else graphemes, np.int64)] = True
    cuts = counted & nonempty & ~(boundary[starts] & boundary[ends])
    shares = counted & (many[ends] > many[starts])
    b0 = b1 = starts8 = None
    partial = np.zeros(t, bool)
    if lengths is not None:
        starts8 = offset_arrays(text)[1] if utf8 is None else _table(utf8)
        check_stop(should_stop)
        b0, b1 = _byte_ranges(starts8, starts, ends, lengths, shares | (special & nonempty), should_stop)
        is_start = np.zeros(int(starts8[-1]) + 1, bool)
        is_start[starts8] = True
        partial = counted & (b1 > b0) & ~(is_start[b0] & is_start[b1])
    d0 = d1 = misleading = None
    if derived_offsets is not None:
        if len(derived_offsets) != t:
            raise OffsetError(f"{len(derived_offsets)} derived spans for {t} tokens")
        d0, d1 = _pairs(derived_offsets, t, n, "derived offsets")
        misleading = counted & ((d0 != starts) | (d1 != ends))
    return Audit(text, starts, ends, special, cuts, counted & ~nonempty, shares, partial, cover,
                 b0, b1, starts8, d0, d1, misleading)


def _pairs(offsets, t: int, n: int, what: str) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, ends)`` int64 arrays of ``t`` spans, checked to lie inside ``0..n``
    (a :class:`~core.text.columns.SpanArray`'s own columns, read-only, when given one)."""
    if isinstance(offsets, SpanArray) and None not in offsets:
        starts, ends = offsets.arrays()
    else:
        try:
            pairs = _flat(offsets, 2 * t).reshape(-1, 2)
        except (TypeError, ValueError):
            raise OffsetError(f"{what} must be (start, end) pairs of integers") from None
        starts, ends = pairs[:, 0], pairs[:, 1]
    bad = np.flatnonzero((starts < 0) | (starts > ends) | (ends > n))
    if len(bad):
        j = int(bad[0])
        raise OffsetError(f"token {j} span ({starts[j]}, {ends[j]}) is outside the text of {n} code points")
    return starts, ends
