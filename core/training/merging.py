"""Merge primitives of the incremental BPE trainer.

``Descending`` reverses the order of pairs in a min-heap; ``replay_in_rank_order`` applies
learned merges to an unseen word.
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
