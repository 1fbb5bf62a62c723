"""Pair statistics of the stepped trainers, kept up to date merge by merge.

:class:`PairIndex` holds what the trainers know about adjacent symbol pairs: their counts
weighted by word frequency, a pair → word-types index, the symbol counts, and a min-heap of
entries ordered as ``(-count, tie key)`` that ranks the candidates for the next merge (under
``"first"`` an entry is one integer ``-count << 106 | key << 42 | pair codes``, which the heap
compares in one step; under the other rules a tuple ``(-count, key, pair)``).
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
The entries a ranking read last (the tied candidates of a step, the pane's top ``k``) wait
in ``_top``, a short sorted list beside the heap, so that the next read does not pop and
push them again.

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

from core.training.merging import Descending
from core.training.pair_build import count_pairs
from core.training.records import MAX_TIES, Candidate
from core.training.symbols import Pair, TrainingError, check_whole

_POSITION_BITS = 32  # a "first" tie key is word index << 32 | start position
_KEY_MASK = (1 << 2 * _POSITION_BITS) - 1
_CODE_BITS = 21  # a symbol code (a code point) fits in 21 bits
_CODE_MASK = (1 << _CODE_BITS) - 1
_PAIR_BITS = 2 * _CODE_BITS  # a "first" heap entry: -count << 106 | key << 42 | pair codes
_COUNT_SHIFT = 2 * _POSITION_BITS + _PAIR_BITS
_TOP_SIZE = 2 * MAX_TIES  # live entries kept out of the heap, sorted, between selections
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
    names : list of str
        The distinct initial symbols, sorted; symbol id ``i`` is ``names[i]``.
    encoded : list of str
        Each word type's initial symbols, one character ``chr(id)`` per symbol, in corpus
        order (:func:`~core.training.symbols.encode_initial`).
    counts : list of int
        Each word type's frequency (> 0), in the same order.
    tie_break : {"first", "smallest", "largest"}
        How ties between equally frequent pairs are resolved (already validated).

    Raises
    ------
    TrainingError
        A word of more than ``sys.maxunicode`` symbols, or 2**32 word types or more.
    """

    def __init__(self, names: list[str], encoded: list[str], counts: list[int], tie_break: str):
        self.tie_break = tie_break
        self._counts = counts
        self._names = names
        self._ids = {s: i for i, s in enumerate(names)}
        self._symbols = encoded
        if len(encoded) >> _POSITION_BITS:
            raise TrainingError(f"{len(encoded):,} word types are too many to train on "
                                f"(fewer than {1 << _POSITION_BITS:,})")
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
        self._live: dict[str, int | tuple] = {}  # the one valid heap entry of each pair
        self._overrated: set[str] = set()  # pairs whose live entry ranks them too high
        self._heap: list = []  # entries (ints under "first", else tuples), a min-heap
        self._top: list = []  # entries taken by _pop_live, sorted, none of them in _heap
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
        taken = self._pop_live(k)
        return [Candidate(self._pair(p), count) for count, p in taken]

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
        pc, first, words, sc, codes = count_pairs(self._symbols, self._counts, len(self._names))
        self._pair_counts = pc
        self._pair_words = {p: set(ws) for p, ws in words.items()}
        self._sym_counts = dict(zip(self._names, sc))
        if self.tie_break == "first":
            self._word_heaps = words  # ascending lists are min-heaps
            self._heap = [(-count << _COUNT_SHIFT) + (key << _PAIR_BITS) + code  # _first_entry
                          for count, key, code in zip(pc.values(), first.values(), codes)]
            self._live = dict(zip(pc, self._heap))
        else:
            self._heap = [(-count, self._static_key(p), p) for p, count in pc.items()]
            self._live = {e[2]: e for e in self._heap}
        heapq.heapify(self._heap)

    def _static_key(self, key: str):
        """Tie key under ``"smallest"`` / ``"largest"`` (string order of the pair)."""
        pair = self._pair(key)
        return pair if self.tie_break == "smallest" else Descending(pair)

    def _apply(self, delta: Mapping[str, int], grown: Mapping[str, list[int]],
               changed: set[int]) -> None:
        """Index the words in ``grown`` (pair → word indices that gained it), add the net
        count change ``delta`` of each pair and re-rank every pair of ``delta`` (``changed``:
        the word indices whose symbols changed).

        O(len(delta) + total length of ``grown``) dict operations, plus a heap push per pair
        whose count or key changed. The index only grows here: a word that lost a pair stays
        listed until a lookup (``step``, :meth:`_first_key`) finds it stale."""
        index, heaps = self._pair_words, self._word_heaps
        first = self.tie_break == "first"
        for p, ws in grown.items():
            words = index.get(p)
            if words is None:  # a new pair: its words in one go
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
        if first:
            self._refresh_first(delta, changed)
        else:
            self._refresh_static(delta)

    def _count_symbols(self, pair: Pair, new: str, count: int, sign: int) -> None:
        """A merge (``sign=1``) or its undo (``-1``) of ``count`` occurrences of ``pair``
        (occurrences actually merged: ``a a a`` merges ``(a, a)`` once, though it counts
        the pair twice)."""
        sc = self._sym_counts
        for s, delta in ((pair[0], -sign * count), (pair[1], -sign * count), (new, sign * count)):
            sc[s] = sc.get(s, 0) + delta
            if not sc[s]:
                del sc[s]

    def _forget(self, p: str) -> None:
        """Drop pair ``p``, which no word holds any more, from every table."""
        for table in (self._pair_counts, self._pair_words, self._word_heaps, self._live):
            table.pop(p, None)
        self._overrated.discard(p)

    def _refresh_first(self, delta: Mapping[str, int], changed: set[int]) -> None:
        """Add ``delta`` to the pair counts and re-rank its pairs under ``"first"``; forget
        those no word holds any more.

        A pair that moved up (higher count, or the same count and an earlier first
        occurrence) gets a fresh live entry. One that moved down keeps its entry, which now
        overrates it, and is put in ``_overrated``; :meth:`_pop_live` re-ranks it when it
        reaches the top. The key is recomputed (:meth:`_first_key`) only when the pair was
        overrated, the word of its first occurrence is in ``changed``, or a word before it
        gained the pair (then that word is the top of the pair's word heap).
        O(len(delta)) plus the key recomputations."""
        pc, live, overrated, heaps = self._pair_counts, self._live, self._overrated, self._word_heaps
        heap, first_key, push = self._heap, self._first_key, heapq.heappush
        for p, d in delta.items():
            count = pc.get(p, 0) + d
            if count <= 0:
                self._forget(p)
                continue
            pc[p] = count
            entry = live.get(p)
            if entry is None:
                key = first_key(p)
            else:
                old_count = -(entry >> _COUNT_SHIFT)
                if count < old_count:
                    overrated.add(p)  # ranked lower than its entry says: re-ranked lazily
                    continue
                old_key = entry >> _PAIR_BITS & _KEY_MASK
                w0 = old_key >> _POSITION_BITS
                key = old_key
                if p in overrated or w0 in changed or heaps[p][0] != w0:
                    key = first_key(p)
                if count == old_count and key >= old_key:
                    if key > old_key:
                        overrated.add(p)
                    else:
                        overrated.discard(p)  # the entry is exact again
                    continue
            # _push, inlined: the pair moved up, or is new
            live[p] = entry = (-count << _COUNT_SHIFT) + (key << _PAIR_BITS) + (
                ord(p[0]) << _CODE_BITS | ord(p[1]))
            push(heap, entry)
            overrated.discard(p)

    def _refresh_static(self, delta: Mapping[str, int]) -> None:
        """:meth:`_refresh_first` for ``"smallest"`` / ``"largest"``, whose keys never
        change. O(len(delta))."""
        pc, live, overrated = self._pair_counts, self._live, self._overrated
        for p, d in delta.items():
            count = pc.get(p, 0) + d
            if count <= 0:
                self._forget(p)
                continue
            pc[p] = count
            entry = live.get(p)
            if entry is None or count > -entry[0]:
                self._push(p, count, self._static_key(p) if entry is None else entry[1])
            elif count < -entry[0]:
                overrated.add(p)
            else:
                overrated.discard(p)

    def _push(self, p: str, count: int, key) -> None:
        """Make an entry of ``p`` with ``count`` and tie ``key`` its live entry (no longer
        overrated)."""
        self._overrated.discard(p)
        if self.tie_break == "first":
            entry = _first_entry(p, count, key)
        else:
            entry = (-count, key, p)
        self._live[p] = entry
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

    def _pop_live(self, limit: int, tied: bool = False) -> list[tuple[int, str]]:
        """``(count, pair key)`` of up to ``limit`` live entries, best first (with ``tied``:
        only those with the best count), from the heap and the short sorted list ``_top``.

        The entries taken go to the front of ``_top`` rather than back into the heap: the
        next call (the next step's tied candidates are mostly this step's) reads them there
        without O(log heap) pops and pushes. An overrated entry met on the way is re-ranked
        (pushed again with its current count and key) instead of taken; a stale one is
        dropped. O(taken + stale + overrated entries) of O(log heap) each."""
        heap, top, live, overrated = self._heap, self._top, self._live, self._overrated
        first = self.tie_break == "first"
        taken: list[tuple[int, str]] = []
        entries = []
        i, n_top = 0, len(top)
        while len(taken) < limit:
            if i < n_top and (not heap or top[i] < heap[0]):
                entry = top[i]
                i += 1
            elif heap:
                entry = heapq.heappop(heap)
            else:
                break
            if first:
                p = chr(entry >> _CODE_BITS & _CODE_MASK) + chr(entry & _CODE_MASK)
                count = -(entry >> _COUNT_SHIFT)
            else:
                count, p = -entry[0], entry[2]
            if live.get(p) is not entry:
                continue  # stale
            if p in overrated:
                self._push(p, self._pair_counts[p], self._first_key(p) if first else entry[1])
                continue
            entries.append(entry)
            if tied and taken and count != taken[0][0]:
                break
            taken.append((count, p))
        entries += top[i:]  # all ranked after the entries taken: still sorted
        for entry in entries[_TOP_SIZE:]:
            heapq.heappush(heap, entry)
        self._top = entries[:_TOP_SIZE]
        return taken

    def _select(self) -> tuple[Pair, tuple[Pair, ...], None] | None:
        """The pair to merge next, its tied rivals (chosen first, at most ``MAX_TIES``) and
        no score (BPE ranks by count). O(ties + stale entries) heap pops."""
        names = self._names
        ties = tuple([(names[ord(p[0])], names[ord(p[1])])  # _pair, inlined
                      for _, p in self._pop_live(MAX_TIES, tied=True)])
        return (ties[0], ties, None) if ties else None


def _first_entry(p: str, count: int, key: int) -> int:
    """The heap entry of pair key ``p`` under ``"first"``: one integer ordered as
    ``(-count, key)``, with the pair's two symbol codes in its low bits."""
    return (-count << _COUNT_SHIFT) + (key << _PAIR_BITS) + (ord(p[0]) << _CODE_BITS | ord(p[1]))
