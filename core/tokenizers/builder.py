"""The last stage of the encode pipeline: splits in, one ``Encoding`` out.

:class:`EncodingBuilder` takes the :class:`~core.tokenizers.pipeline.TextSplit` records of
a text in order (:meth:`~EncodingBuilder.add`), maps their tokens' normalized spans back to
the original text and numbers their words; :func:`build_encoding` applies the
post-processor (its offset edits, then its template of special tokens) and assembles the
``Encoding``. It is the one post-process path: ``Tokenizer.encode`` and the batch paths
(:mod:`core.tokenizers.batch`, :mod:`core.tokenizers.batch_bulk`) all end in it.

Representation: offsets and word ids are gathered as lists for short texts and as numpy
chunks (:class:`Chunks`) from :data:`COLUMN_CHARS` code points on (about 24 bytes a token
instead of ~160, no per-token objects); the Encoding then gets compact columns (lists
below :data:`~core.tokenizers.encoding.COMPACT_TOKENS` tokens). Either way the Encoding is
the same, field for field.

Spans are code points of the original text.

Public names: :class:`EncodingBuilder`, :func:`build_encoding`, :class:`Chunks`,
:data:`COLUMN_CHARS`.
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Any, Callable

import numpy as np

from core.errors import check_stop
from core.text.columns import OptionalIntArray, SpanArray
from core.text.normalize import NormalizedText
from core.tokenizers.encoding import COMPACT_TOKENS, Encoding
from core.tokenizers.pipeline import STOP_CHECK_SPLITS, TextSplit

__all__ = ["COLUMN_CHARS", "Chunks", "EncodingBuilder", "build_encoding"]

COLUMN_CHARS = 32768
"""Texts of at least this many code points gather offsets and word ids as :class:`Chunks`."""


class Chunks:
    """Rows of ``k`` int64 columns gathered as numpy chunks (offsets: ``k = 2``; word ids:
    ``k = 1``). ``len`` reads like the list it replaces; :meth:`add` adds a chunk of
    columns (arrays), :meth:`extend` rows given as lists and :meth:`append` one row —
    those two are kept in lists until the next chunk or :meth:`columns` (a text cut by
    thousands of added tokens costs no numpy call per token); :meth:`columns` concatenates
    them (O(rows))."""

    __slots__ = ("parts", "n", "pending")

    def __init__(self):
        self.parts: list[tuple[np.ndarray, ...]] = []
        self.n = 0
        self.pending: tuple[list[int], ...] | None = None

    def __len__(self) -> int:
        return self.n

    def add(self, *cols: np.ndarray) -> None:
        if len(cols[0]):
            self._flush()
            self.parts.append(cols)
            self.n += len(cols[0])

    def extend(self, *cols: list[int]) -> None:
        if self.pending is None:
            self.pending = tuple([] for _ in cols)
        for kept, col in zip(self.pending, cols):
            kept += col
        self.n += len(cols[0])

    def append(self, row) -> None:
        """One row: an int (``k = 1``) or a tuple of ``k`` ints."""
        row = row if type(row) is tuple else (row,)
        if self.pending is None:
            self.pending = tuple([] for _ in row)
        for kept, value in zip(self.pending, row):
            kept.append(value)
        self.n += 1

    def _flush(self) -> None:
        if self.pending is not None:
            if self.pending[0]:
                self.parts.append(tuple(np.asarray(c, np.int64) for c in self.pending))
            self.pending = None

    def columns(self, k: int) -> tuple[np.ndarray, ...]:
        """The ``k`` columns, each one ``(rows,) int64`` array (fresh, writable)."""
        self._flush()
        if not self.parts:
            return tuple(np.zeros(0, np.int64) for _ in range(k))
        return tuple(np.concatenate([np.asarray(p[c], np.int64) for p in self.parts])
                     for c in range(k))


def _matched(split: TextSplit) -> tuple[str, tuple[int, int]]:
    """An added token's string as matched (the whitespace ``lstrip``/``rstrip`` absorbed
    included, as the reference reports it) and its span in the original text. O(its
    length)."""
    nt, a, b, shift = split.normalized, split.start, split.end, split.shift
    if not nt.maps_in_place:  # matched in the normalized text
        a, b = nt.to_original(a, b)
    return split.surface, (a + shift, b + shift)


def _shifted_spans(splits: list[TextSplit]) -> tuple[Any, list[tuple[int, int]] | None,
                                                     list[int] | None]:
    """The run that the splits of few words share (:class:`~core.tokenizers.pipeline.RunPart`),
    the spans of all its tokens each shifted by its own split's ``shift`` (what the original
    offsets of a stretch of a piece mapped in place are), and each token's word in the run.
    ``(None, None, None)`` when no split has a part, or the parts do not lay the run out in
    order. O(splits + tokens) in C-level passes and numpy."""
    parts = [s.part for s in splits if s.part is not None]
    if not parts:
        return None, None, None
    runs, t0s, t1s, _, _ = zip(*parts)
    run = runs[0]
    if (runs.count(run) != len(runs) or t0s[0] or t1s[-1] != len(run.tokens)
            or t0s[1:] != t1s[:-1]):
        return None, None, None
    shift = np.repeat(np.array([s.shift for s in splits if s.part is not None], np.int64),
                      np.subtract(t1s, t0s))
    word_of = np.repeat(np.arange(len(run.counts)), run.counts).tolist()
    return run, list(zip((run.lo + shift).tolist(), (run.hi + shift).tolist())), word_of


class EncodingBuilder:
    """Tokens, ids, original offsets and word ids of a text's splits, in order.

    Parameters
    ----------
    n_chars : int
        The text's length in code points (picks lists or :class:`Chunks`).
    """

    __slots__ = ("tokens", "ids", "offsets", "word_ids", "_wid", "_last", "_maps_of")

    def __init__(self, n_chars: int = 0):
        self.tokens: list[str] = []
        self.ids: list[int] = []
        columns = n_chars >= COLUMN_CHARS
        self.offsets: Any = Chunks() if columns else []
        self.word_ids: Any = Chunks() if columns else []
        self._wid = 0  # the next word's id
        self._last = -1  # the last token's word id (-1: no token yet)
        self._maps_of: tuple[Any, Any] = (None, None)  # (NormalizedText, its arrays)

    def add_many(self, splits: list[TextSplit],
                 should_stop: Callable[[], bool] | None = None) -> None:
        """:meth:`add` of every split in order, asking ``should_stop`` before every
        :data:`~core.tokenizers.pipeline.STOP_CHECK_SPLITS` splits.

        Added tokens, and splits whose tokens are a stretch of a shared run
        (:class:`~core.tokenizers.pipeline.RunPart`) over a piece mapped in place (its
        spans shifted), are added in one loop that keeps the builder's counters in locals;
        the rest by :meth:`add`. A chat prompt cut into hundreds of splits costs about a
        microsecond a split. O(splits + tokens).

        Raises
        ------
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        if type(self.offsets) is not list:  # columns (a long text): few, large splits
            for k, split in enumerate(splits):
                if not k % STOP_CHECK_SPLITS:
                    check_stop(should_stop)
                self.add(split)
            return
        tokens, ids, offsets, word_ids = self.tokens, self.ids, self.offsets, self.word_ids
        shared, pairs, word_of = _shifted_spans(splits)
        wid, last = self._wid, self._last
        for k, split in enumerate(splits):
            if not k % STOP_CHECK_SPLITS:
                check_stop(should_stop)
            if split.opens_piece:
                wid = last + 1
            nt = split.normalized
            token = split.token
            if token is not None:
                surface, span = _matched(split)
                tokens.append(surface)
                ids.append(token.id)
                offsets.append(span)
                word_ids.append(wid)
                last = wid
                wid += 1
                continue
            part = split.part
            if part is None or part.run is not shared or not nt.maps_in_place:
                self._wid, self._last = wid, last
                self._add_runs(split)
                wid, last = self._wid, self._last
                continue
            run, t0, t1, w0, w1 = part  # a stretch of the shared run: its spans shifted
            if t1 > t0:
                tokens += run.tokens[t0:t1]
                ids += run.ids[t0:t1]
                offsets += pairs[t0:t1]
                if w1 - w0 == 1:
                    word_ids += [wid] * (t1 - t0)
                else:
                    word_ids += map((wid - w0).__add__, word_of[t0:t1])
                last = wid + word_of[t1 - 1] - w0
            wid += w1 - w0
        self._wid, self._last = wid, last

    def add(self, split: TextSplit) -> None:
        """Append a split's tokens: an added token as matched (its string the matched
        text, with the whitespace ``lstrip``/``rstrip`` absorbed, as the reference
        reports it), or its words' tokens. Word ids restart at the last token's + 1 where
        a piece of the original text opens. O(tokens)."""
        if split.opens_piece:
            self._wid = self._last + 1
        self._add_runs(split)

    def _add_runs(self, split: TextSplit) -> None:
        """:meth:`add` past the word-id restart."""
        nt = split.normalized
        if split.token is not None:
            surface, span = _matched(split)
            self.tokens.append(surface)
            self.ids.append(split.token.id)
            self.offsets.append(span)
            self.word_ids.append(self._wid)
            self._last = self._wid
            self._wid += 1
            return
        runs = split.token_runs()
        if not runs:
            return
        known, maps = self._maps_of
        for run in runs:
            self.tokens += run.tokens
            self.ids += run.ids
            if type(run.lo) is list:  # a short run: no numpy
                wid, n_words = self._wid, len(run.counts)
                wids_list = list(chain.from_iterable(
                    map(repeat, range(wid, wid + n_words), run.counts)))
                if wids_list:
                    self._last = wids_list[-1]
                self._add_wids(wids_list)
                self._wid = wid + n_words
                self._add_offsets(small_original_spans(nt, run.lo, run.hi, split.shift))
                continue
            if known is not nt:
                known, maps = nt, nt.arrays()
                self._maps_of = (nt, maps)
            n_words = len(run.counts)
            wids = np.repeat(np.arange(self._wid, self._wid + n_words), run.counts)
            if len(wids):
                self._last = int(wids[-1])
            self._wid += n_words
            starts, ends = original_spans(nt, maps, run.lo, run.hi, split.shift)
            if type(self.offsets) is list:
                self.offsets += zip(starts.tolist(), ends.tolist())
                self.word_ids += wids.tolist()
            else:
                self.offsets.add(starts, ends)
                self.word_ids.add(wids)

    def _add_wids(self, wids: list[int]) -> None:
        if type(self.word_ids) is list:
            self.word_ids += wids
        else:
            self.word_ids.extend(wids)

    def _add_offsets(self, spans: tuple[list[int], list[int]]) -> None:
        if type(self.offsets) is list:
            self.offsets += zip(*spans)
        else:
            self.offsets.extend(*spans)

    def build(self, tokenizer: Any, text: str, normalized: NormalizedText,
              add_special_tokens: bool) -> Encoding:
        """The Encoding (:func:`build_encoding`)."""
        return build_encoding(tokenizer, text, normalized, self.tokens, self.ids, self.offsets,
                              self.word_ids, add_special_tokens)


def build_encoding(tokenizer: Any, text: str, normalized: NormalizedText, tokens: list[str],
                   ids: list[int], offsets: Any, word_ids: Any,
                   add_special_tokens: bool) -> Encoding:
    """The post-processor applied and the Encoding assembled: the one path every encode
    ends in.

    Parameters
    ----------
    tokenizer
        Read: ``post_processor``, ``is_byte_level``, ``token_rules``.
    text : str
        The original text (the post-processor's offset edits read it).
    normalized : NormalizedText
        The whole normalized text.
    tokens, ids : list
        The sequence's tokens and ids (used, and extended, in place).
    offsets, word_ids : list or Chunks
        The sequence's original code-point spans and word ids.
    add_special_tokens : bool
        Apply the post-processor's template (special tokens get offsets ``(0, 0)``, word
        id None, special-tokens-mask 1).

    Returns
    -------
    Encoding
        O(tokens).
    """
    post = tokenizer.post_processor
    columns = type(offsets) is Chunks
    if columns:
        starts, ends = offsets.columns(2)
        (wids,) = word_ids.columns(1)
        if post is not None:
            post.adjust_arrays(text, tokens, starts, ends)
        seq_offsets: Any = (starts, ends)
        seq_words: Any = wids
    else:
        if post is not None:
            post.adjust(text, tokens, offsets)
        seq_offsets, seq_words = offsets, word_ids
    n = len(ids)
    missing = 0
    if not add_special_tokens or post is None:
        mask, types = [0] * n, [0] * n
    else:
        all_tokens: list[str] = []
        all_ids: list[int] = []
        mask, types = [], []
        offset_parts: list[Any] = []
        word_parts: list[Any] = []
        for item in post.single_template():
            if item[0] == "sequence":
                part_tokens, part_ids, special, type_id = tokens, ids, 0, item[1]
                offset_parts.append(seq_offsets)
                word_parts.append(seq_words)
            else:
                _, part_tokens, part_ids, type_id = item
                special = 1
                k = len(part_ids)
                missing += k
                if columns:
                    offset_parts.append((np.zeros(k, np.int64), np.zeros(k, np.int64)))
                    word_parts.append(np.full(k, -1, np.int64))
                else:
                    offset_parts.append([(0, 0)] * k)
                    word_parts.append([None] * k)
            all_tokens += part_tokens
            all_ids += part_ids
            mask += [special] * len(part_ids)
            types += [type_id] * len(part_ids)
        tokens, ids = all_tokens, all_ids
        if columns:
            seq_offsets = (np.concatenate([p[0] for p in offset_parts]),
                           np.concatenate([p[1] for p in offset_parts]))
            seq_words = np.concatenate(word_parts)
        else:
            seq_offsets = list(chain.from_iterable(offset_parts))
            seq_words = list(chain.from_iterable(word_parts))
    if columns:
        spans: Any = SpanArray(seq_offsets[0], seq_offsets[1], 0)
        word_col: Any = OptionalIntArray(seq_words, missing)
        if len(ids) < COMPACT_TOKENS:  # as short encodings are: lists
            spans, word_col = list(spans), list(word_col)
        seq_offsets, seq_words = spans, word_col
    return Encoding(tokens, ids, seq_offsets, seq_words, mask, normalized, types,
                    tokenizer.is_byte_level, tokenizer.token_rules)


def small_original_spans(nt: NormalizedText, lo: list[int], hi: list[int], shift: int
                         ) -> tuple[list[int], list[int]]:
    """:func:`original_spans` in lists, for short runs (the same spans). O(T); for an
    unnormalized text (``NormalizedText.identity``, as Gemma 3's many lines are) the spans
    are the normalized ones, shifted."""
    if nt.maps_in_place:
        return ([a + shift for a in lo], [b + shift for b in hi]) if shift else (list(lo), list(hi))
    starts, ends = nt.starts, nt.ends
    out_a: list[int] = []
    out_b: list[int] = []
    for a, b in zip(lo, hi):
        if b <= a:
            x, _ = nt.to_original(a, a)
            out_a.append(x + shift)
            out_b.append(x + shift)
        else:
            out_a.append(starts[a] + shift)
            out_b.append(ends[b - 1] + shift)
    return out_a, out_b


def original_spans(nt: NormalizedText, maps, lo: np.ndarray, hi: np.ndarray, shift: int):
    """``(starts, ends)`` (two ``(T,) int64`` arrays) in the original text of normalized
    token spans ``[lo, hi)`` of ``nt`` (``maps``: ``nt.arrays()``) plus ``shift``; an
    empty span sits at its start. O(T)."""
    n = len(nt.text)
    empty = hi <= lo
    safe_lo = np.minimum(lo, max(n - 1, 0))
    out_a = maps[0][safe_lo] if n else np.zeros_like(lo)
    out_b = maps[1][np.maximum(hi - 1, 0)] if n else np.zeros_like(lo)
    if empty.any():
        for k in np.flatnonzero(empty):
            out_a[k], out_b[k] = nt.to_original(int(lo[k]), int(lo[k]))
    if shift:
        out_a, out_b = out_a + shift, out_b + shift
    return out_a, out_b
