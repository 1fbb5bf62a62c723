"""BPE merging of many strings side by side in numpy: a rank file's merge list, and which
vocabulary words a merge list builds whole.

The rule (tiktoken's and ``tokenizers``' alike): merge the adjacent pair of lowest rank,
leftmost on ties, until no pair merges. Here every string (a *segment* of flat arrays) takes
one merge per round, so the per-round work is numpy over the segments still merging and the
Python work is one lookup per distinct pair a round creates (none for a merge list, whose
pairs are a sorted table).

- :func:`rank_merges`: a rank file has no merge list. The merge that builds a token of rank
  ``r`` is what re-encoding its bytes with the tokens of rank ``< r`` leaves when that leaves
  two parts (a token left in three or more has none). Equal to
  :func:`core.tokenizers.models.bpe_merge.merges_from_ranks` (the tests compare them), which
  re-encodes the tokens one after the other in pure Python.
- :func:`merged_whole`: for a merge-list model (GPT-2), the words that merging builds into
  one symbol, i.e. the ones the model returns as that single token.

Public names: :func:`rank_merges`, :func:`merged_whole`, :func:`merge_table`.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

import numpy as np

from core.errors import check_stop

NO_RANK = np.int64(1 << 62)  # "this pair does not merge"
_CACHE: "weakref.WeakKeyDictionary[Any, list[tuple[str, str]]]" = weakref.WeakKeyDictionary()
Pairs = Callable[[np.ndarray, np.ndarray], "tuple[np.ndarray, np.ndarray]"]


def rank_merges(vocab: dict[str, int], should_stop: Callable[[], bool] | None = None,
                owner: Any = None) -> list[tuple[str, str]]:
    """Merge pairs of a rank vocabulary (token string -> rank, ranks the ids), in rank order.

    Parameters
    ----------
    vocab : dict[str, int]
        Every single symbol must be a token (the loaders check it for rank files).
    should_stop : callable, optional
        Asked before every round; True stops.
    owner : object, optional
        The result is remembered for this object (e.g. the model) while it lives.

    Returns
    -------
    list of (str, str)
        One pair per token of two or more symbols that a merge builds.

    Cost: R rounds for the longest token of R symbols, each O(S) numpy work over the S
    symbols of the tokens still merging, and one dict lookup per distinct new pair.

    Raises
    ------
    core.errors.Cancelled
        When ``should_stop()`` returns True.
    """
    if owner is not None and owner in _CACHE:
        return list(_CACHE[owner])
    by_rank = sorted((r, t) for t, r in vocab.items() if len(t) > 1)
    found: dict[int, tuple[str, str]] = {r: (t[0], t[1]) for r, t in by_rank if len(t) == 2}
    longer = [(r, t) for r, t in by_rank if len(t) > 2]
    if longer:
        back = _by_id(vocab)
        limit = np.array([r for r, _ in longer], dtype=np.int64)
        count, first, second = _merge_all([t for _, t in longer], vocab, limit,
                                          _rank_pairs(vocab, back), should_stop)
        for k in np.flatnonzero(count == 2).tolist():
            found[longer[k][0]] = (back[first[k]], back[second[k]])
    out = [found[r] for r, _ in by_rank if r in found]
    if owner is not None:
        _CACHE[owner] = out
    return list(out)


def merged_whole(vocab: dict[str, int], table: Pairs, words: list[str],
                 should_stop: Callable[[], bool] | None = None) -> list[int | None]:
    """For each word of at least two symbols, all of them tokens: its id when merging by
    ``table`` (:func:`merge_table`) builds it into one symbol, else None. O(R) rounds of
    numpy work for the longest word of R symbols."""
    count, first, _ = _merge_all(words, vocab, np.full(len(words), NO_RANK), table, should_stop)
    return [f if c == 1 else None for c, f in zip(count.tolist(), first.tolist())]


def _by_id(vocab: dict[str, int]) -> list:
    back: list = [None] * (max(vocab.values()) + 1)
    for t, i in vocab.items():
        back[i] = t
    return back


def _rank_pairs(vocab: dict[str, int], back: list) -> Pairs:
    """Pair rule of a rank file: the concatenation's rank, which is also its id; one dict
    lookup per distinct pair."""
    get, width = vocab.get, len(back)

    def pairs(a: np.ndarray, b: np.ndarray):
        keys, where = np.unique(a * width + b, return_inverse=True)
        left, right = np.divmod(keys, width)
        found = [get(back[x] + back[y], NO_RANK) for x, y in zip(left.tolist(), right.tolist())]
        ranks = np.array(found, dtype=np.int64)[where.reshape(-1)]
        return ranks, ranks
    return pairs


def merge_table(vocab: dict[str, int], merges: list[tuple[str, str]]) -> Pairs:
    """The pair rule of a merge list (rank = position; a pair listed twice keeps its last
    rank; merged tokens are ``a + b``, no continuing-subword prefix): a sorted table of
    pair keys looked up in numpy. O(M log M) to build."""
    width = np.int64(max(vocab.values()) + 1)
    a = np.fromiter((vocab[x] for x, _ in merges), np.int64, len(merges))
    b = np.fromiter((vocab[y] for _, y in merges), np.int64, len(merges))
    new = np.fromiter((vocab[x + y] for x, y in merges), np.int64, len(merges))
    keys = a * width + b
    # the last rank of a pair listed twice: unique over the reversed list keeps it
    keys, at = np.unique(keys[::-1], return_index=True)
    at = len(merges) - 1 - at
    ranks, new = at.astype(np.int64), new[at]

    def pairs(x: np.ndarray, y: np.ndarray):
        q = x * width + y
        k = np.minimum(np.searchsorted(keys, q), len(keys) - 1)
        hit = keys[k] == q
        return np.where(hit, ranks[k], NO_RANK), np.where(hit, new[k], -1)
    return pairs


def _merge_all(strings: list[str], vocab: dict[str, int], limit: np.ndarray, pairs: Pairs,
               should_stop) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge every string (each of two or more symbols, all of them tokens), forming only
    pairs of rank below its ``limit``. Returns, per string, how many symbols are left and
    the ids of the first two (-1 where there is no second)."""
    lengths = np.fromiter(map(len, strings), np.int64, len(strings))
    joined = "".join(strings)
    sym = np.fromiter(map(vocab.__getitem__, joined), np.int64, len(joined))
    seg = np.repeat(np.arange(len(strings), dtype=np.int64), lengths)
    pr, nid = pairs(sym[:-1], sym[1:])
    pr, nid = np.r_[pr, NO_RANK], np.r_[nid, -1]
    pr[np.cumsum(lengths) - 1] = NO_RANK  # no pair across two strings
    pr[pr >= limit[seg]] = NO_RANK
    count = np.zeros(len(strings), dtype=np.int64)
    first = np.full(len(strings), -1, dtype=np.int64)
    second = first.copy()
    while len(sym):
        check_stop(should_stop)
        starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
        ends = np.r_[starts[1:], len(sym)]
        low = np.minimum.reduceat(pr, starts)
        done = low == NO_RANK
        if done.any():
            s, e = starts[done], ends[done]
            count[seg[s]], first[seg[s]] = e - s, sym[s]
            two = e - s > 1
            second[seg[s[two]]] = sym[s[two] + 1]
            keep = np.repeat(~done, ends - starts)
            sym, seg, pr, nid = sym[keep], seg[keep], pr[keep], nid[keep]
            if not len(sym):
                break
            starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
            low = low[~done]
        sym, seg, pr, nid = _merge_round(sym, seg, pr, nid, starts, low, limit, pairs)
    return count, first, second


def _merge_round(sym, seg, pr, nid, starts, low, limit, pairs):
    """Merge, in every segment, its lowest-ranked pair (leftmost on ties). O(S)."""
    hit = np.flatnonzero(pr == np.repeat(low, np.diff(np.r_[starts, len(sym)])))
    _, first = np.unique(seg[hit], return_index=True)
    at = hit[first]  # one position per segment, in order
    sym = sym.copy()
    sym[at] = nid[at]
    keep = np.ones(len(sym), dtype=bool)
    keep[at + 1] = False
    sym, seg, pr, nid = sym[keep], seg[keep], pr[keep], nid[keep]
    at = at - np.arange(len(at))  # positions after the deletions
    n = len(sym)
    pr[at] = NO_RANK
    right = at[(at + 1 < n) & (seg[np.minimum(at + 1, n - 1)] == seg[at])]
    left = at[(at > 0) & (seg[np.maximum(at - 1, 0)] == seg[at])] - 1
    for k in (right, left):
        if len(k):
            r, new = pairs(sym[k], sym[k + 1])
            r[r >= limit[seg[k]]] = NO_RANK
            pr[k], nid[k] = r, new
    return sym, seg, pr, nid
