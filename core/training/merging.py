"""Merge primitives of the incremental BPE trainer.

``merge_with_starts`` applies one merge to a word and reports which symbol indices changed;
``local_pairs`` lists the adjacent pairs around those indices — the only pairs whose counts a
merge (or its undo) can change. ``Descending`` reverses the order of pairs in a min-heap;
``replay_in_rank_order`` applies learned merges to an unseen word.
"""

from __future__ import annotations

from core.training.symbols import Pair, merge_pair, merged_symbol


class Descending:
    """Wraps a pair so that a min-heap orders pairs from largest to smallest."""

    __slots__ = ("pair",)

    def __init__(self, pair: Pair):
        self.pair = pair

    def __lt__(self, other: "Descending") -> bool:
        return self.pair > other.pair

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Descending) and self.pair == other.pair

    def __hash__(self) -> int:
        return hash(self.pair)


def merge_with_starts(symbols, starts, pair, new):
    """:func:`~core.training.symbols.merge_pair` that also keeps each symbol's start position.

    Returns the new symbols, their starts, the old indices that were merged and the new
    indices of the merged symbols.
    """
    a, b = pair
    n = len(symbols)
    out, out_starts, old_idx, new_idx = [], [], [], []
    prev = i = 0
    while True:
        try:
            j = symbols.index(a, i)
        except ValueError:
            break
        if j + 1 < n and symbols[j + 1] == b:
            out += symbols[prev:j]
            out_starts += starts[prev:j + 1]
            old_idx += (j, j + 1)
            new_idx.append(len(out))
            out.append(new)
            prev = i = j + 2
        else:
            i = j + 1
    out += symbols[prev:]
    out_starts += starts[prev:]
    return tuple(out), tuple(out_starts), old_idx, new_idx


def local_pairs(symbols: tuple[str, ...], changed: list[int]) -> list[Pair]:
    """The pairs (one entry per position) that involve a symbol at a ``changed`` index."""
    last = len(symbols) - 1
    if changed[-1] - changed[0] <= 1:  # one merged pair (old side) or merged symbol (new side)
        starts = range(max(changed[0] - 1, 0), min(changed[-1], last - 1) + 1)
    else:
        starts = sorted({j for i in changed for j in (i - 1, i) if 0 <= j < last})
    return [(symbols[i], symbols[i + 1]) for i in starts]


def replay_in_rank_order(symbols: tuple[str, ...], ranks: dict[Pair, int], merges: list[Pair],
                         marker: str) -> list[tuple[int | None, Pair | None, tuple[str, ...]]]:
    """Apply ``merges`` in rank order to ``symbols``, skipping those that do not occur.

    Returns ``(rank, pair, symbols after)`` for the initial state (``None, None``) and for
    every merge that changed the symbols. Equivalent to applying every merge in turn: the
    next merge that can change anything is the lowest-ranked present pair ranked after the
    last one applied.
    """
    states: list = [(None, None, symbols)]
    last = -1
    while True:
        later = [r for r in (ranks.get(p, -1) for p in zip(symbols, symbols[1:])) if r > last]
        if not later:
            return states
        last = min(later)
        pair = merges[last]
        symbols = merge_pair(symbols, pair, merged_symbol(*pair, marker))
        states.append((last, pair, symbols))
