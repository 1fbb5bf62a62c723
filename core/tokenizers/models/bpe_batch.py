"""BPE merging in numpy rounds: per word, every occurrence of its lowest-ranked pair at once.

The one-at-a-time rule (merge the lowest-ranked adjacent pair, the leftmost on ties, until
none merges) is applied in rounds over many words at once (one long word, or all the words of
a text laid end to end, pairs never crossing a word boundary). In a round every word takes
the lowest rank ``r`` among its own pairs and merges all its occurrences, leftmost first
inside overlapping runs (``a a a`` merges the first two). For a word with one occurrence that
is exactly the next step of the one-at-a-time rule. With several it is equal as long as no
merge of the round forms a pair of rank ``<= r`` — neither at the end of the round nor in
between (a merge's right neighbour before the next merge of its run); a word where that
fails merges only its leftmost occurrence in this round, which is again exactly the rule.

Rounds stop once one would merge fewer than 1/``min_share`` of the symbols still merging
(random text in one long word: many distinct pairs, one merge a round). The words still
merging are then handed back unfinished, each in a valid intermediate state of the rule, and
the caller finishes them with :func:`~core.tokenizers.models.bpe_merge.heap_merge`.

Public names: :func:`merge_segments`, :class:`PairTable`,
:func:`merge_word`, :data:`BATCH_WORD`, :data:`BATCH_WORDS`, :data:`NO_RANK`,
:data:`NO_PAIR`.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from core.errors import check_stop
from core.tokenizers.models.int_hash import IntTable

BATCH_WORD = 2048
"""Symbols from which :class:`~core.tokenizers.models.bpe.BPE` merges one word in rounds."""
BATCH_WORDS = 4096
"""Symbols (summed over the words not cached) from which a list of words is merged in rounds."""
MIN_SHARE = 64
"""A round must merge at least 1/MIN_SHARE of the symbols still merging, else rounds stop."""
NO_RANK = (1 << 31) - 1
"""The rank of a pair that does not merge (above every real rank)."""
_NO_RANK = np.int64(NO_RANK)
NO_PAIR = NO_RANK << 32 | 0xFFFFFFFF
"""The packed :class:`PairTable` entry (``rank << 32 | merged id``) of a pair that does not merge."""

STOP_CHECK_PAIRS = 1 << 16
"""Pairs ranked at a time when a word's pairs are first looked up (``should_stop`` is
asked between: a few ms each)."""

PAIRS_KEPT = 1 << 20
"""Pairs a :class:`PairTable` remembers at most (it forgets them all when past it)."""

PairLookup = Callable[[int, int], "tuple[int, int] | None"]


class PairTable:
    """``(left id, right id) → (rank, merged id)`` for whole arrays of pairs.

    Asks a many-pairs function (:meth:`from_many`) or a one-pair function
    (``PairTable(lookup)``) about each distinct pair once and remembers the answer, so the
    model (which keeps its table across calls) asks Python once per pair (up to
    :data:`PAIRS_KEPT` pairs remembered). Entries are packed ``rank << 32 | merged id``.
    """

    def __init__(self, lookup: PairLookup | None = None):
        self._seen: dict[int, int] = {}  # left << 32 | right → rank << 32 | merged id
        self._keys: np.ndarray | None = None  # (from_arrays) the distinct pair keys
        self._packed: np.ndarray | None = None  # their entries
        self._table: IntTable | None = None  # their hash table
        if lookup is not None:
            def many(left: list[int], right: list[int]) -> list[int]:
                found = map(lookup, left, right)
                return [NO_PAIR if f is None else f[0] << 32 | f[1] for f in found]
            self._many = many

    @classmethod
    def from_arrays(cls, left: np.ndarray, right: np.ndarray, rank: np.ndarray,
                    merged: np.ndarray) -> "PairTable":
        """Every pair that merges, given whole: ``left[k] right[k] → (rank[k], merged[k])``,
        int64 arrays of shape (m,), ids and ranks below 2**31; a pair given twice keeps its
        highest rank (a merge list's rule when ranks are list positions: the last one).

        :meth:`ranks` is then numpy only: an open-addressing hash table of the m pair keys
        (linear probing, Fibonacci hashing, at most a quarter full), built and probed a
        whole array at a time — each round places or looks up every key still pending at
        its next slot — so no Python runs per pair. Building is O(m) expected (a sort of
        the keys would be O(m log m) and, on Gemma 3's 514,906 merges, slower), a look-up
        O(1) expected per pair. Keys that crowd the table (a run of more than
        :data:`~core.tokenizers.models.int_hash.MAX_PROBE` filled slots: only a file crafted
        against the hash does that) are sorted instead, and looked up by binary search:
        O(m log m), O(log m) per pair (:class:`~core.tokenizers.models.int_hash.IntTable`)."""
        self = cls()
        keys = np.asarray(left, np.int64) << 32 | np.asarray(right, np.int64)
        packed = np.asarray(rank, np.int64) << 32 | np.asarray(merged, np.int64)
        table = IntTable.build(keys, packed)
        if table is None:  # crowded keys (a crafted file): sorted, for binary searches
            order = np.argsort(keys)
            keys, packed = keys[order], packed[order]
            if len(keys) > 1 and not (keys[1:] != keys[:-1]).all():  # a pair given twice
                first = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
                keys, packed = keys[first], np.maximum.reduceat(packed, first)
            self._keys, self._packed = keys, packed
        self._table = table
        return self

    @classmethod
    def from_many(cls, many: Callable[[list[int], list[int]], Sequence[int]]) -> "PairTable":
        """From ``many(left ids, right ids) → packed entries`` (a list or int64 array; for
        a pair that does not merge, rank ``NO_RANK`` and any merged id, e.g. ``NO_PAIR``)."""
        self = cls()
        self._many = many
        return self

    def ranks(self, left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Ranks (``NO_RANK``: no merge) and merged ids of the pairs, shape (k,) each.

        Built :meth:`from_arrays`: O(k) numpy, expected (hash probes; O(k log m) binary
        searches for a crafted merge list's crowded keys). Otherwise O(k log k)
        numpy (a sort), one dict look-up per distinct pair and one ``many`` entry per pair
        never seen before.
        """
        if not len(left):
            return np.empty(0, np.int64), np.empty(0, np.int64)
        keys = left << 32 | right
        if self._table is not None:  # every merging pair known: the hash table
            table = self._table.get(keys, NO_PAIR)
            return table >> 32, table & 0xFFFFFFFF
        if self._keys is not None:  # every merging pair known, sorted: a binary search
            known = self._keys
            if not len(known):
                return np.full(len(keys), _NO_RANK), np.full(len(keys), 0xFFFFFFFF)
            at = np.searchsorted(known, keys)
            at[at == len(known)] = 0
            table = np.where(known[at] == keys, self._packed[at], NO_PAIR)
            return table >> 32, table & 0xFFFFFFFF
        uniq = _sorted_unique(keys)
        seen = self._seen
        wanted = uniq.tolist()
        got = list(map(seen.get, wanted))
        if None in got:
            asked = uniq[np.equal(got, None)]
            found = self._many((asked >> 32).tolist(), (asked & 0xFFFFFFFF).tolist())
            if len(seen) > PAIRS_KEPT:
                seen.clear()
            seen.update(zip(asked.tolist(), np.asarray(found, np.int64).tolist()))
            got = list(map(seen.__getitem__, wanted))
        table = np.fromiter(got, np.int64, len(got))
        if len(uniq) > 1:
            table = table[np.searchsorted(uniq, keys)]
        else:
            table = np.broadcast_to(table, keys.shape)
        return table >> 32, table & 0xFFFFFFFF


def merge_segments(sym: np.ndarray, seg: np.ndarray, pairs: PairTable,
                   min_share: int = MIN_SHARE, should_stop: Callable[[], bool] | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge many words in rounds (see the module docstring).

    Parameters
    ----------
    sym : numpy.ndarray of int64, shape (n,)
        Symbol ids (below 2**31) of all words, laid end to end.
    seg : numpy.ndarray of int64, shape (n,)
        The word index of each symbol, non-decreasing (a word's symbols are contiguous).
    pairs : PairTable
        The model's pair ranks.
    min_share : int
        Rounds stop once one would merge fewer than 1/``min_share`` of the symbols of the
        words still merging.
    should_stop : callable, optional
        Asked before every round; True raises :class:`core.errors.Cancelled`.

    Returns
    -------
    sym : numpy.ndarray of int64, shape (m,)
        The symbols after the rounds, words in order.
    seg : numpy.ndarray of int64, shape (m,)
        Their word indices (non-decreasing).
    unfinished : numpy.ndarray of int64
        Sorted indices of the words the rounds did not finish (they must be finished with
        the one-at-a-time rule; their symbols are a valid intermediate state of it).

    Notes
    -----
    A round costs O(a log a) numpy for the a symbols of the words still merging (finished
    words leave the working arrays) and merges at least a / ``min_share`` of them, so the
    a's shrink geometrically: O(min_share · n log n) in all, O(n log n) per word.
    """
    sym = np.asarray(sym, dtype=np.int64)
    seg = np.asarray(seg, dtype=np.int64)
    done_sym: list[np.ndarray] = []
    done_seg: list[np.ndarray] = []
    unfinished = np.empty(0, np.int64)
    rank, new = _pair_ranks(sym, seg, pairs, should_stop)
    while len(sym):
        check_stop(should_stop)
        flags = np.empty(len(sym), bool)
        flags[0] = True
        np.not_equal(seg[1:], seg[:-1], out=flags[1:])
        local = np.cumsum(flags) - 1  # word index within the working arrays
        segmin = np.minimum.reduceat(rank, np.flatnonzero(flags))
        live = segmin != _NO_RANK
        if not live.all():  # finished words leave the working arrays
            gone = ~live[local]
            done_sym.append(sym[gone])
            done_seg.append(seg[gone])
            keep = ~gone
            sym, seg, rank, new = sym[keep], seg[keep], rank[keep], new[keep]
            segmin, local = segmin[live], (np.cumsum(live) - 1)[local[keep]]
            if not len(sym):
                break
        sel = _leftmost_runs(np.flatnonzero(rank == segmin[local]))
        if len(sel) * min_share < len(sym):
            unfinished = _sorted_unique(seg)
            done_sym.append(sym)
            done_seg.append(seg)
            break
        sym, seg, rank, new = _round(sym, seg, rank, new, sel, local, segmin, pairs)
    if len(done_sym) == 1:
        return done_sym[0], done_seg[0], unfinished
    out_sym, out_seg = np.concatenate(done_sym or [sym]), np.concatenate(done_seg or [seg])
    order = np.argsort(out_seg, kind="stable")  # a word leaves in one piece: order is kept
    return out_sym[order], out_seg[order], unfinished


def merge_word(sym: np.ndarray, pairs: PairTable, min_share: int = MIN_SHARE,
               should_stop: Callable[[], bool] | None = None
               ) -> tuple[np.ndarray, np.ndarray, bool]:
    """:func:`merge_segments` of one word, without the word bookkeeping.

    Parameters
    ----------
    sym : numpy.ndarray of int64, shape (n,)
        The word's symbol ids (below 2**31).
    pairs, min_share, should_stop
        As for :func:`merge_segments` (``should_stop`` asked before every round).

    Returns
    -------
    sym : numpy.ndarray of int64, shape (m,)
        The symbols after the rounds.
    starts : numpy.ndarray of int64, shape (m,)
        Where each starts among the n input symbols (increasing, ``starts[0] == 0``).
    done : bool
        True when no pair merges any more; False when the caller must finish the word with
        the one-at-a-time rule.

    Notes
    -----
    O(n log n) for n symbols (rounds as in :func:`merge_segments`).
    """
    starts = np.arange(len(sym), dtype=np.int64)
    if len(sym) < 2:
        return sym, starts, True
    rank, new = np.empty(len(sym), np.int64), np.empty(len(sym), np.int64)
    for a in range(0, len(sym) - 1, STOP_CHECK_PAIRS):
        check_stop(should_stop)
        b = min(a + STOP_CHECK_PAIRS, len(sym) - 1)
        rank[a:b], new[a:b] = pairs.ranks(sym[a:b], sym[a + 1:b + 1])
    rank[-1], new[-1] = _NO_RANK, -1
    while len(sym) > 1:
        check_stop(should_stop)
        r = rank.min()
        if r == _NO_RANK:
            return sym, starts, True
        sel = _leftmost_runs(np.flatnonzero(rank == r))
        if len(sel) * min_share < len(sym):
            return sym, starts, False
        step = _merge(sym, None, rank, new, sel, pairs)
        if len(sel) > 1:
            chained = sel[:-1][np.diff(sel) == 2]
            bad = (step[6] <= r).any()
            if not bad and len(chained):
                bad = (pairs.ranks(new[chained], sym[chained + 2])[0] <= r).any()
            if bad:
                step = _merge(sym, None, rank, new, sel[:1], pairs)
        sym, _, rank, new, keep = step[:5]
        starts = starts[keep]
    return sym, starts, True


def _sorted_unique(a: np.ndarray) -> np.ndarray:
    """The distinct values of ``a``, sorted. O(k log k)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) > 1 else a


def _pair_ranks(sym: np.ndarray, seg: np.ndarray, pairs: PairTable,
                should_stop: Callable[[], bool] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Rank and merged id of the pair starting at each symbol, shape (n,) each; ``NO_RANK``
    (and -1) for a word's last symbol. O(n log n); ``should_stop`` asked every
    :data:`STOP_CHECK_PAIRS` pairs."""
    rank = np.full(len(sym), _NO_RANK)
    new = np.full(len(sym), -1, np.int64)
    inner = np.flatnonzero(seg[1:] == seg[:-1])
    for a in range(0, len(inner), STOP_CHECK_PAIRS):
        check_stop(should_stop)
        at = inner[a:a + STOP_CHECK_PAIRS]
        rank[at], new[at] = pairs.ranks(sym[at], sym[at + 1])
    return rank, new


def _leftmost_runs(pos: np.ndarray) -> np.ndarray:
    """Of sorted pair positions, those the one-at-a-time rule merges: in each run of
    consecutive positions the first, third, fifth, … (overlapping pairs share a symbol;
    consecutive positions are always in one word). O(k)."""
    if len(pos) < 2:
        return pos
    starts = np.ones(len(pos), bool)
    starts[1:] = np.diff(pos) != 1
    run_start = np.maximum.accumulate(np.where(starts, np.arange(len(pos)), 0))
    return pos[(np.arange(len(pos)) - run_start) % 2 == 0]


def _merge(sym, seg, rank, new, sel, pairs):
    """Merge the pairs at ``sel`` (``seg`` None: one word). Returns the merged symbols,
    words, pair ranks and merged ids, the kept-symbol mask, and the positions (in the
    merged arrays) of the pairs that changed with their new ranks. O(n) numpy plus the
    look-up of the changed pairs."""
    merged = sym.copy()
    merged[sel] = new[sel]
    keep = np.ones(len(sym), bool)
    keep[sel + 1] = False
    out = merged[keep]
    out_seg = None if seg is None else seg[keep]
    at = np.cumsum(keep)[sel] - 1  # where each merged symbol lands, increasing
    both = np.empty(2 * len(at), np.int64)  # the pairs left and right of each: sorted
    both[0::2], both[1::2] = at - 1, at
    both = both[(both >= 0) & (both < len(out) - 1)]
    changed = both[np.concatenate(([True], both[1:] != both[:-1]))] if len(both) else both
    if out_seg is None:
        c_rank, c_new = pairs.ranks(out[changed], out[changed + 1])
    else:
        inner = out_seg[changed] == out_seg[changed + 1]
        c_rank = np.full(len(changed), _NO_RANK)
        c_new = np.full(len(changed), -1, np.int64)
        c = changed[inner]
        c_rank[inner], c_new[inner] = pairs.ranks(out[c], out[c + 1])
    out_rank, out_new = rank[keep], new[keep]
    out_rank[changed], out_new[changed] = c_rank, c_new
    out_rank[-1], out_new[-1] = _NO_RANK, -1
    return out, out_seg, out_rank, out_new, keep, changed, c_rank


def _round(sym, seg, rank, new, sel, local, segmin, pairs):
    """One round: merge at ``sel``; a word where a pair formed on the way ranks ``<= r``
    (its own lowest rank) and that merges more than once merges only its first selected
    pair instead. O(n log n) numpy."""
    step = _merge(sym, seg, rank, new, sel, pairs)
    sel_word = local[sel]
    several = np.flatnonzero(np.bincount(sel_word, minlength=len(segmin)) > 1)
    if not len(several):
        return step[:4]
    out, out_seg, out_rank, out_new, keep, changed, c_rank = step
    bad = np.zeros(len(segmin), bool)
    c_word = local[keep][changed]
    bad[c_word[c_rank <= segmin[c_word]]] = True
    # in between: a merged symbol beside its right neighbour before that one merged too
    chained = sel[:-1][(np.diff(sel) == 2) & (sel_word[1:] == sel_word[:-1])]
    if len(chained):
        t_rank, _ = pairs.ranks(new[chained], sym[chained + 2])
        t_word = local[chained]
        bad[t_word[t_rank <= segmin[t_word]]] = True
    single = np.ones(len(segmin), bool)
    single[several] = False
    bad &= ~single
    if not bad.any():
        return step[:4]
    first = np.concatenate(([True], sel_word[1:] != sel_word[:-1]))
    return _merge(sym, seg, rank, new, sel[first | ~bad[sel_word]], pairs)[:4]
