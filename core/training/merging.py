"""Merge primitives of the incremental BPE trainer.

``Descending`` reverses the order of pairs in a min-heap; ``replay_in_rank_order`` applies
learned merges to an unseen word; ``merged_starts`` and ``diff_pairs`` work on one encoded
word (a ``str`` of symbol characters, :mod:`core.training.pair_index`).
"""

from __future__ import annotations

from collections import defaultdict

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


def merged_starts(word: str, starts: str, ab: str) -> str:
    """The start positions of the symbols left when every occurrence of ``ab`` in the
    encoded ``word`` is merged, left to right without overlap (as ``str.replace``).
    O(len(word))."""
    kept, i = [], 0
    while (j := word.find(ab, i)) >= 0:
        kept.append(starts[i : j + 1])  # the merged symbol starts where its left part did
        i = j + 2
    kept.append(starts[i:])
    return "".join(kept)


def diff_pairs(old: str, old_starts: str, new: str, new_starts: str, w: int, c: int,
               delta: defaultdict[str, int], grown: defaultdict[str, list[int]]) -> None:
    """Add to ``delta`` the change of word ``w`` (count ``c``) going from ``old`` to ``new``
    symbols: ``-c`` for every pair occurrence (pair and start position) only ``old`` has,
    ``+c`` for every one only ``new`` has; list ``w`` in ``grown`` under each pair it gained.
    O(len(old) + len(new))."""
    before = set(zip(map(str.__add__, old, old[1:]), old_starts))
    after = set(zip(map(str.__add__, new, new[1:]), new_starts))
    for p, _ in before - after:
        delta[p] -= c
    gained = after - before
    for p, _ in gained:
        delta[p] += c
    for p in {p for p, _ in gained}:
        grown[p].append(w)
