"""Pair statistics of the stepped trainers, kept up to date merge by merge.

:class:`PairIndex` holds what the trainers know about adjacent symbol pairs: their counts
weighted by word frequency, a pair → word-types index, the symbol counts, and a max-heap of
``(-count, tie key, pair)`` entries that ranks the candidates for the next merge.
:class:`~core.training.bpe.BpeTrainer` builds on it (it changes the words and hands the net
change of every pair to :meth:`PairIndex._apply`).

Internally every distinct symbol has an integer id, written as the one character
``chr(id)``: a word is a ``str`` of such characters, a pair is a 2-character ``str``. Finding
and merging a pair are then ``str.find`` / ``str.replace`` (left to right, no overlap, as BPE
merges), and words cost the garbage collector nothing (strings are never tracked). The
public API speaks symbol strings and ``(left, right)`` tuples only.

Each step costs time in proportion to the occurrences of the merged pair, not to the corpus:
the heap uses lazy invalidation (each pair has one *live* entry, the object stored in
``_live``; any other entry of the pair is stale and is discarded when it reaches the top).

For ``"first"`` a pair's tie key is its first occurrence in corpus order, ``(word index,
position)`` packed into one integer ``w << 32 | position``, the position counted in the
word's *initial* symbols (kept per word as a ``str`` of ``chr(start)``), so it does not move
when merges elsewhere in the word shorten it. Only the pairs next to a merge can gain or lose
occurrences, so only their keys are recomputed (from a per-pair min-heap of the word indices
that contain the pair). Ordering candidates by ``(-count, key)`` is then exactly what a
recount picks when it scans the corpus in order and keeps the first maximum.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import ItemsView, Iterator, Mapping
from types import MappingProxyType
from typing import Iterable

from core.training.merging import Descending
from core.training.pair_build import count_pairs
from core.training.records import MAX_TIES, Candidate
from core.training.symbols import Pair, TrainingError, check_whole

_POSITION_BITS = 32  # a "first" tie key is word index << 32 | start position
_MAX_CODE = sys.maxunicode  # symbol ids and start positions are characters


class PairCounts(Mapping):
    """Read-only live view of the pair counts, keyed by ``(left, right)`` symbol strings."""

    def __init__(self, index: "PairIndex"):
        self._index = index

    def __getitem__(self, pair: Pair) -> int:
        key = self._index._key(pair)
        if key is None or key not in self._index._pair_counts:
            raise KeyError(pair)
        return self._index._pair_counts[key]

    def __iter__(self) -> Iterator[Pair]:
        return map(self._index._pair, self._index._pair_counts)

    def __len__(self) -> int:
        return len(self._index._pair_counts)

    def items(self) -> ItemsView:
        return _PairItems(self)


class _PairItems(ItemsView):
    def __iter__(self):
        pair = self._mapping._index._pair
        return ((pair(k), c) for k, c in self._mapping._index._pair_counts.items())


class PairIndex:
    """Incremental pair statistics over a list of segmented word types.

    Parameters
    ----------
    symbols : list of tuple of str
        Each word type's initial symbols, in corpus order.
    counts : list of int
        Each word type's frequency (> 0), in the same order.
    tie_break : {"first", "smallest", "largest"}
        How ties between equally frequent pairs are resolved (already validated).

    Raises
    ------
    TrainingError
        A word of more than ``sys.maxunicode`` symbols.
    """

    def __init__(self, symbols: list[tuple[str, ...]], counts: list[int], tie_break: str):
        self.tie_break = tie_break
        self._counts = counts
        self._names: list[str] = sorted({s for syms in symbols for s in syms})
        self._ids = {s: i for i, s in enumerate(self._names)}
        code = {s: chr(i) for s, i in self._ids.items()}
        self._symbols = ["".join([code[s] for s in syms]) for syms in symbols]
        longest = max(map(len, self._symbols))
        if longest > _MAX_CODE:
            raise TrainingError(f"a word of {longest:,} symbols is too long to train on "
                                f"(at most {_MAX_CODE:,}); split it")
        every_start = "".join(map(chr, range(longest)))
        self._starts = [every_start[: len(s)] for s in self._symbols]
        self._pair_counts: dict[str, int] = {}
        self._pair_words: dict[str, set[int]] = {}  # may hold words that lost the pair
        self._word_heaps: dict[str, list[int]] = {}  # "first" only: the same words, a min-heap
        self._sym_counts: dict[str, int] = {}
        self._live: dict[str, tuple] = {}  # the one valid heap entry of each pair
        self._overrated: set[str] = set()  # pairs whose live entry ranks them too high
        self._heap: list[tuple] = []
        self._build_index()

    # -- public --------------------------------------------------------------------------
    @property
    def pair_counts(self) -> Mapping[Pair, int]:
        """Current frequency of every adjacent pair (a read-only live view; pairs with
        count 0 are absent)."""
        return PairCounts(self)

    @property
    def symbol_counts(self) -> Mapping[str, int]:
        """Current frequency of every symbol, weighted by word count (a read-only live view)."""
        return MappingProxyType(self._sym_counts)

    def candidates(self, k: int = 10) -> list[Candidate]:
        """The ``k`` best pairs for the next merge, in the order BPE would pick them.

        O(k + stale entries) heap pops. Raises :class:`TrainingError` when ``k`` is not a
        whole number >= 0."""
        k = check_whole("k", k)
        taken = self._pop_live(lambda taken: len(taken) < k)
        return [Candidate(self._pair(p), -negc) for negc, _, p in taken]

    def tie_key(self, pair: Pair):
        """The key that orders tied pairs under this trainer's rule (smaller = preferred).

        Raises ``KeyError`` for a pair that is not in :attr:`pair_counts` under ``"first"``."""
        if self.tie_break == "first":
            key = self._key(pair)
            if key is None or key not in self._pair_counts:
                raise KeyError(pair)
            return self._first_key(key)
        return tuple(pair) if self.tie_break == "smallest" else Descending(tuple(pair))

    # -- symbol codes --------------------------------------------------------------------
    def _code(self, symbol: str) -> str:
        """The character of ``symbol``, giving it the next id when it is new.

        Raises :class:`TrainingError` past ``sys.maxunicode + 1`` distinct symbols."""
        i = self._ids.get(symbol)
        if i is None:
            i = len(self._names)
            if i > _MAX_CODE:
                raise TrainingError(f"the trainer holds at most {_MAX_CODE + 1:,} distinct "
                                    "symbols; train fewer merges")
            self._ids[symbol] = i
            self._names.append(symbol)
        return chr(i)

    def _key(self, pair: Pair) -> str | None:
        """The 2-character key of ``pair`` (``None`` when a part is not a known symbol)."""
        a, b = self._ids.get(pair[0]), self._ids.get(pair[1])
        return None if a is None or b is None else chr(a) + chr(b)

    def _pair(self, key: str) -> Pair:
        """The ``(left, right)`` symbol strings of a pair key."""
        return self._names[ord(key[0])], self._names[ord(key[1])]

    def _decode(self, word: str) -> tuple[str, ...]:
        """The symbol strings of an encoded word. O(len(word))."""
        names = self._names
        return tuple([names[ord(ch)] for ch in word])

    # -- statistics ----------------------------------------------------------------------
    def _build_index(self) -> None:
        """Count every pair and index its words (:func:`~core.training.pair_build.count_pairs`):
        O(S log S) in numpy for S symbols of all word types, plus O(pairs) in Python."""
        pc, first, words, sc = count_pairs(self._symbols, self._counts, len(self._names))
        self._pair_counts = pc
        self._pair_words = {p: set(ws) for p, ws in words.items()}
        self._sym_counts = dict(zip(self._names, sc))
        if self.tie_break == "first":
            keys = first
            self._word_heaps = words  # ascending lists are min-heaps
        else:
            keys = {p: self._static_key(p) for p in pc}
        self._heap = [(-count, keys[p], p) for p, count in pc.items()]
        self._live = {e[2]: e for e in self._heap}
        heapq.heapify(self._heap)

    def _static_key(self, key: str):
        """Tie key under ``"smallest"`` / ``"largest"`` (string order of the pair)."""
        pair = self._pair(key)
        return pair if self.tie_break == "smallest" else Descending(pair)

    def _apply(self, delta: Mapping[str, int], grown: Mapping[str, list[int]],
               changed: set[int]) -> None:
        """Add the net count change ``delta`` of each pair, index the words in ``grown``
        (pair → word indices that gained it), and re-rank every pair of ``delta``
        (``changed``: the word indices whose symbols changed).

        O(len(delta) + total length of ``grown``) dict operations, plus a heap push per pair
        whose count or key changed. The index only grows here: a word that lost a pair stays
        listed until a lookup (``step``, :meth:`_first_key`) finds it stale."""
        pc, index, heaps = self._pair_counts, self._pair_words, self._word_heaps
        for p, d in delta.items():
            pc[p] = pc.get(p, 0) + d
        first = self.tie_break == "first"
        for p, ws in grown.items():
            words = index.get(p)
            if words is None:
                index[p] = set(ws)
                if first:
                    heapq.heapify(ws)
                    heaps[p] = ws
            else:
                for w in ws:
                    if w not in words:
                        words.add(w)
                        if first:
                            heapq.heappush(heaps[p], w)
        self._refresh(delta, grown, changed)

    def _count_symbols(self, pair: Pair, new: str, count: int, sign: int) -> None:
        """A merge (``sign=1``) or its undo (``-1``) of ``count`` occurrences of ``pair``
        (occurrences actually merged: ``a a a`` merges ``(a, a)`` once, though it counts
        the pair twice)."""
        sc = self._sym_counts
        for s, delta in ((pair[0], -sign * count), (pair[1], -sign * count), (new, sign * count)):
            sc[s] = sc.get(s, 0) + delta
            if not sc[s]:
                del sc[s]

    def _refresh(self, pairs: Iterable[str], grown: Mapping[str, list[int]],
                 changed: set[int]) -> None:
        """Re-rank ``pairs`` after their counts or occurrences changed; forget those no word
        holds any more.

        A pair that moved up (higher count, or the same count and an earlier first
        occurrence) gets a fresh live entry. One that moved down keeps its entry, which now
        overrates it, and is put in ``_overrated``; :meth:`_pop_live` re-ranks it when it
        reaches the top. For ``"first"`` the key is kept when the word of the first
        occurrence is not in ``changed`` and no word before it gained the pair (``grown``);
        otherwise it is recomputed by :meth:`_first_key`. O(len(pairs) + total length of
        ``grown``)."""
        pc, live, overrated = self._pair_counts, self._live, self._overrated
        first = self.tie_break == "first"
        for p in pairs:
            count = pc.get(p, 0)
            if count <= 0:  # no word holds the pair any more
                for table in (pc, self._pair_words, self._word_heaps, live):
                    table.pop(p, None)
                overrated.discard(p)
                continue
            entry = live.get(p)
            if entry is None:
                self._push(p, count, self._first_key(p) if first else self._static_key(p))
                continue
            if count < -entry[0]:
                overrated.add(p)  # ranked lower than its entry says: re-ranked lazily
                continue
            key = entry[1]
            if first:
                w0 = key >> _POSITION_BITS
                if p in overrated or w0 in changed or (p in grown and min(grown[p]) < w0):
                    key = self._first_key(p)
            if count > -entry[0] or key < entry[1]:
                self._push(p, count, key)
            elif key != entry[1]:
                overrated.add(p)

    def _push(self, p: str, count: int, key) -> None:
        """Make ``(-count, key, p)`` the live entry of ``p`` (no longer overrated)."""
        self._overrated.discard(p)
        self._live[p] = entry = (-count, key, p)
        heapq.heappush(self._heap, entry)

    def _first_key(self, p: str) -> int:
        """``w << 32 | start`` of pair ``p``'s first occurrence in corpus order.

        Words at the top of the pair's heap that no longer hold it are dropped on the way
        (amortised O(1) pops; one ``str.find`` over the top word)."""
        words, heap, symbols = self._pair_words[p], self._word_heaps[p], self._symbols
        while True:
            w = heap[0]
            i = symbols[w].find(p)
            if i >= 0:
                return w << _POSITION_BITS | ord(self._starts[w][i])
            heapq.heappop(heap)
            words.discard(w)

    def _pop_live(self, more) -> list[tuple]:
        """Pop live heap entries, best first, while ``more(taken)`` holds; push them back.

        An overrated entry reaching the top is re-ranked (pushed again with its current
        count and key) instead of taken. O(taken + stale + overrated entries) pops of
        O(log heap) each."""
        heap, live, overrated, taken = self._heap, self._live, self._overrated, []
        while heap and more(taken):
            entry = heapq.heappop(heap)
            p = entry[2]
            if live.get(p) is not entry:
                continue  # stale
            if p in overrated:
                key = self._first_key(p) if self.tie_break == "first" else entry[1]
                self._push(p, self._pair_counts[p], key)
                continue
            taken.append(entry)
        for entry in taken:
            heapq.heappush(heap, entry)
        return taken

    def _select(self) -> tuple[Pair, tuple[Pair, ...], None] | None:
        """The pair to merge next, its tied rivals (chosen first, at most ``MAX_TIES``) and
        no score (BPE ranks by count). O(ties + stale entries) heap pops."""
        taken = self._pop_live(lambda t: not t or (len(t) < MAX_TIES and t[-1][0] == t[0][0]))
        ties = tuple(self._pair(e[2]) for e in taken if e[0] == taken[0][0]) if taken else ()
        return (ties[0], ties, None) if ties else None
