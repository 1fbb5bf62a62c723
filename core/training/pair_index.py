"""Pair statistics of the stepped trainers, kept up to date merge by merge.

:class:`PairIndex` holds what the trainers know about adjacent symbol pairs: their counts
weighted by word frequency, a pair → word-types index, the symbol counts, and a max-heap of
``(count, tie key, pair)`` entries that ranks the candidates for the next merge.
:class:`~core.training.bpe.BpeTrainer` builds on it (it changes the words; this class keeps
the statistics in step).

Each step costs time in proportion to the occurrences of the merged pair, not to the corpus:
the heap uses lazy invalidation (an entry is stale once the pair's count or tie key has moved
on; stale entries are discarded when they reach the top).

For ``"first"`` a pair's tie key is ``(word index, position)`` of its first occurrence, the
position counted in the word's *initial* symbols, so it does not move when merges elsewhere in
the word shorten it. Only the pairs next to a merge can gain or lose occurrences, so only their
keys are recomputed (from a per-pair min-heap of the word indices that contain the pair).
Ordering candidates by ``(-count, key)`` is then exactly what a recount picks when it scans
the corpus in order and keeps the first maximum.
"""

from __future__ import annotations

import heapq
from fractions import Fraction
from types import MappingProxyType
from typing import Iterable, Mapping

from core.training.merging import Descending
from core.training.records import MAX_TIES, Candidate
from core.training.symbols import Pair, check_whole


class PairIndex:
    """Incremental pair statistics over a list of segmented word types.

    Parameters
    ----------
    symbols : list of tuple of str
        Each word type's initial symbols, in corpus order (the list is kept and shared with
        the subclass, which replaces its items as words are merged).
    counts : list of int
        Each word type's frequency (> 0), in the same order.
    tie_break : {"first", "smallest", "largest"}
        How ties between equally frequent pairs are resolved (already validated).
    """

    def __init__(self, symbols: list[tuple[str, ...]], counts: list[int], tie_break: str):
        self.tie_break = tie_break
        self._symbols, self._counts = symbols, counts
        self._starts = [tuple(range(len(s))) for s in symbols]
        self._pair_counts: dict[Pair, int] = {}
        self._pair_words: dict[Pair, set[int]] = {}  # may hold words that lost the pair
        self._word_heaps: dict[Pair, list[int]] = {}  # the same word indices as a min-heap
        self._sym_counts: dict[str, int] = {}
        self._entry: dict[Pair, tuple[int, object]] = {}
        self._heap: list[tuple[int, object, Pair]] = []
        self._build_index()

    @property
    def pair_counts(self) -> Mapping[Pair, int]:
        """Current frequency of every adjacent pair (a read-only live view; pairs with
        count 0 are absent)."""
        return MappingProxyType(self._pair_counts)

    @property
    def symbol_counts(self) -> Mapping[str, int]:
        """Current frequency of every symbol, weighted by word count (a read-only live view)."""
        return MappingProxyType(self._sym_counts)

    def candidates(self, k: int = 10) -> list[Candidate]:
        """The ``k`` best pairs for the next merge, in the order BPE would pick them.

        Raises :class:`TrainingError` when ``k`` is not a whole number >= 0."""
        k = check_whole("k", k)
        taken, seen = [], set()
        while self._heap and len(taken) < k:
            entry = heapq.heappop(self._heap)
            if entry[2] not in seen and self._entry.get(entry[2]) == (-entry[0], entry[1]):
                seen.add(entry[2])
                taken.append(entry)
        for entry in taken:
            heapq.heappush(self._heap, entry)
        return [Candidate(p, -negc) for negc, _, p in taken]

    def tie_key(self, pair: Pair):
        """The key that orders tied pairs under this trainer's rule (smaller = preferred)."""
        if self.tie_break == "first":
            return self._first_key(pair)
        return pair if self.tie_break == "smallest" else Descending(pair)

    def _build_index(self) -> None:
        pc, index, heaps = self._pair_counts, self._pair_words, self._word_heaps
        sc, first = self._sym_counts, {}
        for w, (syms, c) in enumerate(zip(self._symbols, self._counts)):
            for s in syms:
                sc[s] = sc.get(s, 0) + c
            for i, p in enumerate(zip(syms, syms[1:])):
                pc[p] = pc.get(p, 0) + c
                words = index.get(p)
                if words is None:
                    index[p], heaps[p] = {w}, [w]
                    first[p] = (w, i)  # initial start positions are the indices
                elif w not in words:
                    words.add(w)
                    heaps[p].append(w)  # ascending, hence a valid heap
        keys = first if self.tie_break == "first" else {p: self.tie_key(p) for p in pc}
        self._entry = {p: (count, keys[p]) for p, count in pc.items()}
        self._heap = [(-count, keys[p], p) for p, count in pc.items()]
        heapq.heapify(self._heap)

    def _apply(self, w: int, removed: list[Pair], added: list[Pair], touched: set[Pair]) -> None:
        """Update pair counts and the pair → words index for word ``w`` losing one occurrence
        of each ``removed`` pair and gaining one of each ``added`` pair; collect them in
        ``touched`` (symbol counts are updated once per merge by :meth:`_count_symbols`).

        The index only grows here: a word that lost a pair stays listed until a lookup
        (``step``, :meth:`_first_key`) finds it stale."""
        c = self._counts[w]
        pc, index, heaps = self._pair_counts, self._pair_words, self._word_heaps
        for p in removed:
            pc[p] -= c
        for p in added:
            pc[p] = pc.get(p, 0) + c
            words = index.get(p)
            if words is None:
                index[p], heaps[p] = {w}, [w]
            elif w not in words:
                words.add(w)
                heapq.heappush(heaps[p], w)
        touched.update(removed)
        touched.update(added)

    def _count_symbols(self, pair: Pair, new: str, count: int, sign: int) -> None:
        """A merge (``sign=1``) or its undo (``-1``) of ``count`` occurrences of ``pair``
        (occurrences actually merged: ``a a a`` merges ``(a, a)`` once, though it counts
        the pair twice)."""
        sc = self._sym_counts
        for s, delta in ((pair[0], -sign * count), (pair[1], -sign * count), (new, sign * count)):
            sc[s] = sc.get(s, 0) + delta
            if not sc[s]:
                del sc[s]

    def _refresh(self, pairs: Iterable[Pair]) -> None:
        """Re-key ``pairs`` after their counts or occurrences changed (push fresh entries)."""
        first_key = self._first_key if self.tie_break == "first" else None
        smallest = self.tie_break == "smallest"
        for p in pairs:
            count = self._pair_counts.get(p, 0)
            if count <= 0:  # no word holds the pair any more
                for table in (self._pair_counts, self._pair_words, self._word_heaps, self._entry):
                    table.pop(p, None)
                continue
            key = first_key(p) if first_key else (p if smallest else Descending(p))
            if self._entry.get(p) != (count, key):
                self._entry[p] = (count, key)
                heapq.heappush(self._heap, (-count, key, p))

    def _first_key(self, pair: Pair) -> tuple[int, int]:
        """(word index, start position) of the pair's first occurrence in corpus order.

        Words at the top of the pair's heap that no longer hold it are dropped on the way."""
        words, heap = self._pair_words[pair], self._word_heaps[pair]
        a, b = pair
        while True:
            w = heap[0]
            syms = self._symbols[w]
            for i in range(len(syms) - 1):
                if syms[i] == a and syms[i + 1] == b:
                    return (w, self._starts[w][i])
            heapq.heappop(heap)
            words.discard(w)

    def _select(self) -> tuple[Pair, tuple[Pair, ...], Fraction | None] | None:
        """The pair to merge next, its tied rivals (chosen first) and its score."""
        taken: list = []
        while self._heap and len(taken) < MAX_TIES:
            entry = heapq.heappop(self._heap)
            if self._entry.get(entry[2]) != (-entry[0], entry[1]):
                continue  # stale
            if taken and entry[2] == taken[-1][2]:
                continue  # a duplicate of the entry just taken
            taken.append(entry)
            if entry[0] != taken[0][0]:
                break  # the first entry that is not a tie (pushed back below)
        for entry in taken:
            heapq.heappush(self._heap, entry)
        ties = tuple(e[2] for e in taken if e[0] == taken[0][0]) if taken else ()
        return (ties[0], ties, None) if ties else None
