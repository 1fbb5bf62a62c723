"""BPE merging for very long words: every occurrence of the lowest-ranked pair in one numpy pass.

The one-at-a-time rule (merge the lowest-ranked adjacent pair, the leftmost on ties, until
none merges) is applied in rounds: a round takes the lowest rank ``r`` among the current
pairs and merges all its occurrences at once, leftmost first inside overlapping runs (``a a a``
merges the first two). That equals the one-at-a-time rule as long as no merge of the round
forms a pair of rank ``<= r`` — neither at the end of the round nor in between (a merge's
right neighbour before the next merge of its run). A round where that fails is not applied:
the word, a valid intermediate state of the one-at-a-time rule, is handed back and the caller
finishes it with :func:`~core.tokenizers.models.bpe_merge.heap_merge`. So is a word whose
rounds merge few pairs each (random text: many distinct pairs), where rounds would cost more
than the heap.

Public names: :func:`batch_merge`, :data:`BATCH_WORD`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

BATCH_WORD = 2048
"""Symbols from which :class:`~core.tokenizers.models.bpe.BPE` tries the rounds first."""
MIN_SHARE = 64
"""A round must merge at least 1/MIN_SHARE of the symbols, else the heap finishes the word."""
_NO_RANK = np.int64(1 << 62)

PairLookup = Callable[[int, int], "tuple[int, int] | None"]


class _Pairs:
    """``(left id, right id) → (rank, merged id)`` through ``lookup``, remembered per key."""

    def __init__(self, lookup: PairLookup):
        self._lookup = lookup
        self._seen: dict[int, tuple[int, int]] = {}

    def ranks(self, left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Ranks (``_NO_RANK``: no merge) and merged ids of the pairs, shape (k,) each.

        O(k log k) numpy plus one lookup per distinct pair never seen before.
        """
        if not len(left):
            return np.empty(0, np.int64), np.empty(0, np.int64)
        keys = left.astype(np.int64) << 32 | right.astype(np.int64)
        uniq, inverse = np.unique(keys, return_inverse=True)
        seen, lookup = self._seen, self._lookup
        out = np.empty((len(uniq), 2), np.int64)
        for n, key in enumerate(uniq.tolist()):
            hit = seen.get(key)
            if hit is None:
                found = lookup(key >> 32, key & 0xFFFFFFFF)
                hit = seen[key] = (int(_NO_RANK), -1) if found is None else found
            out[n] = hit
        return out[inverse, 0], out[inverse, 1]


def batch_merge(ids: np.ndarray, lookup: PairLookup, min_share: int = MIN_SHARE
                ) -> tuple[np.ndarray, bool]:
    """Merge a word's symbol ids in rounds (see the module docstring).

    Parameters
    ----------
    ids : numpy.ndarray of int, shape (n,)
        Symbol ids (below 2**32).
    lookup : callable
        ``(left id, right id) → (rank, merged id)``, or None when the pair never merges.
    min_share : int
        The rounds stop once one would merge fewer than n / ``min_share`` of n symbols.

    Returns
    -------
    ids : numpy.ndarray of int64, shape (m,)
        The symbols after the rounds applied.
    done : bool
        True when no pair merges any more; False when the caller must finish the word with
        the one-at-a-time rule (a round broke the precondition or merged too few pairs).

    Notes
    -----
    O(n) numpy per round plus O(k log k) for the k pairs a round changes; the rounds stop
    (``done`` False) once one would merge fewer than n / ``min_share`` symbols, so their
    number stays small for the repetitive words this is for.
    """
    sym = np.asarray(ids, dtype=np.int64)
    pairs = _Pairs(lookup)
    rank, new = pairs.ranks(sym[:-1], sym[1:])
    while len(sym) > 1:
        r = rank.min()
        if r == _NO_RANK:
            return sym, True
        sel = _leftmost_runs(np.flatnonzero(rank == r))
        if len(sel) * min_share < len(sym):
            return sym, False
        step = _round(sym, rank, new, sel, r, pairs)
        if step is None:
            return sym, False
        sym, rank, new = step
    return sym, True


def _leftmost_runs(pos: np.ndarray) -> np.ndarray:
    """Of sorted pair positions, those the one-at-a-time rule merges: in each run of
    consecutive positions the first, third, fifth, … (overlapping pairs share a symbol)."""
    if len(pos) < 2:
        return pos
    starts = np.ones(len(pos), bool)
    starts[1:] = np.diff(pos) != 1
    run_start = np.maximum.accumulate(np.where(starts, np.arange(len(pos)), 0))
    return pos[(np.arange(len(pos)) - run_start) % 2 == 0]


def _round(sym: np.ndarray, rank: np.ndarray, new: np.ndarray, sel: np.ndarray, r: np.int64,
           pairs: _Pairs) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Merge the pairs at ``sel`` (all of rank ``r``); None when a pair formed on the way has
    a rank ``<= r``. O(n) numpy."""
    n = len(sym)
    merged = sym.copy()
    merged[sel] = new[sel]
    keep = np.ones(n, bool)
    keep[sel + 1] = False
    out = merged[keep]
    # where each selected pair's merged symbol lands, and the pairs it forms there
    at = np.cumsum(keep)[sel] - 1
    changed = np.unique(np.concatenate([at[at > 0] - 1, at[at < len(out) - 1]]))
    c_rank, c_new = pairs.ranks(out[changed], out[changed + 1])
    # in between: the merged symbol beside its right neighbour before that one merged too
    chained = sel[:-1][np.diff(sel) == 2]
    t_rank, _ = pairs.ranks(merged[chained], sym[chained + 2])
    if (c_rank <= r).any() or (t_rank <= r).any():
        return None
    kept_pairs = keep[:-1].copy()  # the pair starting at each kept symbol but the last
    kept_pairs[np.flatnonzero(keep)[-1]:] = False
    rank_out, new_out = rank[kept_pairs], new[kept_pairs]
    rank_out[changed], new_out[changed] = c_rank, c_new
    return out, rank_out, new_out
