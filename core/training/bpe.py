"""BPE training one merge at a time, incremental, with exact undo.

The algorithm is Sennrich et al. (2016), "Neural Machine Translation of Rare Words with
Subword Units", Algorithm 1: count adjacent symbol pairs weighted by word frequency, merge the
most frequent pair everywhere, repeat. Ties are resolved by a rule the user picks:

- ``"first"`` — the pair whose first occurrence comes first in corpus order (word types in the
  order they were given, positions left to right; what a recount that scans the corpus and
  keeps the first maximum picks);
- ``"smallest"`` / ``"largest"`` — the alphabetically smallest / largest ``(left, right)``
  tuple (Python string order: by code point).

Each step costs time in proportion to the occurrences of the merged pair, not to the corpus:
the pair counts, the pair → word-types index and the ranking of candidates (a max-heap with
lazy invalidation, tie keys kept exact for ``"first"``) are kept up to date by
:class:`~core.training.pair_index.PairIndex`, which :class:`BpeTrainer` builds on; this
module changes the words and keeps the history that makes undo exact.
"""

from __future__ import annotations

from collections import defaultdict
from operator import mul
from typing import Any, Callable, Mapping

from core.training.records import (  # re-exported: callers import them from here
    MAX_TIES,
    Candidate,
    MergeStep,
    SegmentStep,
    WordSegmentation,
)
from core.collector import collector_paused
from core.training.merging import diff_pairs, merged_starts, replay_in_rank_order
from core.training.pair_index import PairIndex
from core.training.symbols import (
    END_OF_WORD,
    MARKERS,
    TIE_BREAKS,
    Pair,
    TrainingError,
    check_choice,
    check_whole,
    encode_initial,
    initial_symbols,
    merged_symbol,
    validated_counts,
)

__all__ = ["BpeTrainer", "Candidate", "MergeStep", "SegmentStep", "WordSegmentation",
           "MAX_TIES", "PairIndex", "train_bpe"]


class BpeTrainer(PairIndex):
    """Stepped BPE trainer over word counts.

    Parameters
    ----------
    word_counts : mapping of str to int
        Word types (in corpus order: the mapping's order) and their frequencies (> 0).
    tie_break : {"first", "smallest", "largest"}
        How ties between equally frequent pairs are resolved (module docstring).
    marker : {"</w>", "##", "byte"}
        How words are split into initial symbols (:mod:`core.training.symbols`).

    The pair statistics, :meth:`candidates` and :meth:`tie_key` come from
    :class:`~core.training.pair_index.PairIndex`.

    Raises
    ------
    TrainingError
        Empty corpus, an empty word, a count that is not a positive integer, or an unknown
        setting.
    """

    def __init__(self, word_counts: Mapping[str, int], *, tie_break: str = "first",
                 marker: str = END_OF_WORD):
        tie_break = check_choice(tie_break, TIE_BREAKS, "tie-break rule")
        self.marker = check_choice(marker, MARKERS, "marker style")
        self._words, counts = validated_counts(word_counts)
        with collector_paused():
            super().__init__(*encode_initial(self._words, marker), counts, tie_break)
        self.alphabet = tuple(self._names)  # the initial symbols, sorted
        self._merges: list[Pair] = []
        self._ranks: dict[Pair, int] = {}
        self._history: list[tuple[MergeStep, tuple[list, list, list], int]] = []
        lengths = list(map(len, self._symbols))
        self._n_tokens = [sum(map(mul, self._counts, lengths))]
        self._n_slots = [sum(lengths)]

    # -- public state --------------------------------------------------------------------
    @property
    def merges(self) -> list[tuple[str, str]]:
        """The merges so far, in rank order (a copy)."""
        return list(self._merges)

    @property
    def history(self) -> list[MergeStep]:
        """The :class:`MergeStep` of every merge so far, in rank order."""
        return [entry[0] for entry in self._history]

    @property
    def words(self) -> list[WordSegmentation]:
        """Every word type in corpus order with its count and current segmentation."""
        decode = self._decode
        return [WordSegmentation(w, c, decode(s))
                for w, c, s in zip(self._words, self._counts, self._symbols)]

    @property
    def n_words(self) -> int:
        """Number of word types."""
        return len(self._words)

    def word(self, i: int) -> WordSegmentation:
        """Word type ``i`` (corpus order) with its count and current segmentation.

        Raises :class:`TrainingError` when ``i`` is not in ``0 .. n_words-1``."""
        i = check_whole("the word index", i)
        if i >= len(self._words):
            raise TrainingError(f"word index {i} is out of range: there are {len(self._words)} word types")
        return WordSegmentation(self._words[i], self._counts[i], self._decode(self._symbols[i]))

    @property
    def vocab_size(self) -> int:
        """Initial alphabet plus one symbol per merge."""
        return len(self.alphabet) + len(self._merges)

    @property
    def n_tokens(self) -> int:
        """Corpus length in symbols (each word type's symbols times its count)."""
        return self._n_tokens[-1]

    @property
    def avg_symbols_per_type(self) -> float:
        """Mean number of symbols per word type (unweighted)."""
        return self._n_slots[-1] / len(self._words)

    def curve(self) -> tuple[list[int], list[int], list[float]]:
        """Vocabulary size, corpus tokens and average symbols per word type after 0, 1, ...,
        ``len(merges)`` merges (three lists of length ``len(merges) + 1``)."""
        n = len(self._words)
        sizes = [len(self.alphabet) + k for k in range(len(self._n_tokens))]
        return sizes, list(self._n_tokens), [s / n for s in self._n_slots]

    # -- stepping ------------------------------------------------------------------------
    def step(self) -> MergeStep | None:
        """Perform the next merge; ``None`` when no pair is left (every word is one symbol).

        O(symbols of the word types holding the pair) plus the re-ranking of the pairs
        next to its occurrences (:meth:`~core.training.pair_index.PairIndex._apply`)."""
        chosen = self._select()
        if chosen is None:
            return None
        return self._merge(*chosen)

    def merge(self, pair: tuple[str, str]) -> MergeStep | None:
        """Perform ``pair`` as the next merge, whatever its rank (the parity-aware trainer,
        :mod:`core.training.parity`, picks merges from another corpus); ``None`` and nothing
        changes when no word holds the pair now. Same cost as :meth:`step`."""
        key = self._key(tuple(pair))
        if key is None or key not in self._pair_counts:
            return None
        return self._merge(tuple(pair), (tuple(pair),), None)

    def _merge(self, pair: Pair, ties: tuple[Pair, ...], score) -> MergeStep:
        """Merge ``pair`` (present in :attr:`pair_counts`) everywhere and record it."""
        new = merged_symbol(pair[0], pair[1], self.marker)
        key = self._key(pair)
        count = self._pair_counts.pop(key)
        self._word_heaps.pop(key, None)
        record, merged, delta, grown = self._merge_everywhere(key, self._code(new))
        delta[key] = 0  # every occurrence is merged now: _refresh forgets the pair
        ws, olds = record[0], record[1]
        slots = sum(map(len, olds)) - sum(map(len, map(self._symbols.__getitem__, ws)))
        self._count_symbols(pair, new, merged, 1)
        self._apply(delta, grown, set(ws))
        step = MergeStep(len(self._merges), pair, count, new, ties,
                         tuple(map(self._words.__getitem__, ws)), score)
        self._ranks[pair] = len(self._merges)
        self._merges.append(pair)
        self._history.append((step, record, merged))
        self._n_tokens.append(self._n_tokens[-1] - merged)
        self._n_slots.append(self._n_slots[-1] - slots)
        return step

    def undo(self) -> MergeStep | None:
        """Take back the last merge exactly; returns it (``None`` when there is none).

        O(symbols of the word types the merge changed)."""
        if not self._history:
            return None
        step, (ws, olds, old_starts), merged = self._history.pop()
        pair = self._merges.pop()
        del self._ranks[pair]
        self._n_tokens.pop()
        self._n_slots.pop()
        delta: defaultdict[str, int] = defaultdict(int)
        grown: defaultdict[str, list[int]] = defaultdict(list)
        symbols, starts = self._symbols, self._starts
        for w, old, old_st in zip(reversed(ws), reversed(olds), reversed(old_starts)):
            diff_pairs(symbols[w], starts[w], old, old_st, w, self._counts[w], delta, grown)
            symbols[w], starts[w] = old, old_st
        self._count_symbols(pair, step.new_symbol, merged, -1)
        self._apply(delta, grown, set(ws))
        return step

    def run(self, n: int, *, progress: Callable[[float], None] | None = None,
            should_stop: Callable[[], bool] | None = None) -> list[MergeStep]:
        """Perform up to ``n`` more merges (fewer when pairs run out or ``should_stop()``).

        Raises
        ------
        TrainingError
            ``n`` is not a whole number >= 0.
        """
        return run_steps(self.step, n, progress, should_stop)

    def run_to(self, n: int) -> None:
        """Step or undo until exactly ``n`` merges are done (or no pair is left).

        Raises
        ------
        TrainingError
            ``n`` is not a whole number >= 0.
        """
        n = check_whole("the number of merges", n)
        with collector_paused():
            while len(self._merges) > n:
                self.undo()
            while len(self._merges) < n and self.step() is not None:
                pass

    # -- applying merges to unseen words -------------------------------------------------
    def segment(self, word: str) -> list[str]:
        """Split an unseen ``word`` by replaying the merges in rank order."""
        return list(self.segment_steps(word)[-1].symbols)

    def segment_steps(self, word: str) -> list[SegmentStep]:
        """Every state of :meth:`segment`: the initial split, then one entry per merge that
        changed the word (each merge applies to all its occurrences, left to right).

        Raises :class:`TrainingError` when ``word`` is not a non-empty str."""
        if not isinstance(word, str) or not word:
            raise TrainingError(f"the word to segment must be a non-empty string, got {word!r}")
        states = replay_in_rank_order(initial_symbols(word, self.marker), self._ranks,
                                      self._merges, self.marker)
        return [SegmentStep(rank, pair, symbols) for rank, pair, symbols in states]

    # -- internals -----------------------------------------------------------------------
    def _merge_everywhere(self, ab: str, new: str) -> tuple[tuple[list, list, list], int, dict,
                                                            dict]:
        """Merge the pair ``ab`` (a 2-character key) into the symbol ``new`` (its character)
        in every word type that holds it, in corpus order.

        Returns the undo record (three parallel lists: the indices of the changed words,
        ascending, their old symbols and their old starts), the occurrences merged weighted
        by word count, the net count change of every pair next to a merge, and the word
        indices that gained each pair. The merged pair's own index entry is consumed.

        O(symbols of the indexed words), in C but for a few dict updates per word: a word
        holding the pair once (the common case) is merged by ``str.replace`` and only its
        two neighbouring pairs change; a word with several occurrences goes through
        :func:`~core.training.merging.merged_starts` and
        :func:`~core.training.merging.diff_pairs`. Words the index lists but that lost the
        pair are skipped.
        """
        a, b = ab
        symbols, starts, counts = self._symbols, self._starts, self._counts
        ws: list[int] = []
        olds: list[str] = []
        old_starts: list[str] = []
        delta: defaultdict[str, int] = defaultdict(int)
        grown: defaultdict[str, list[int]] = defaultdict(list)
        merged = 0
        for w in sorted(self._pair_words.pop(ab)):
            old = symbols[w]
            j = old.find(ab)
            if j < 0:
                continue  # stale index entry
            c, st = counts[w], starts[w]
            syms = old.replace(ab, new)
            if len(syms) + 1 == len(old):  # one occurrence: two neighbouring pairs change
                if j:
                    left = old[j - 1]
                    delta[left + a] -= c
                    p = left + new
                    delta[p] += c
                    grown[p].append(w)
                if j + 2 < len(old):
                    right = old[j + 2]
                    delta[b + right] -= c
                    p = new + right
                    delta[p] += c
                    grown[p].append(w)
                starts[w] = st[: j + 1] + st[j + 2 :]
                merged += c
            else:
                sts = merged_starts(old, st, ab)
                diff_pairs(old, st, syms, sts, w, c, delta, grown)
                starts[w] = sts
                merged += c * (len(old) - len(syms))
            symbols[w] = syms
            ws.append(w)
            olds.append(old)
            old_starts.append(st)
        return (ws, olds, old_starts), merged, delta, grown


def train_bpe(word_counts: Mapping[str, int], n_merges: int, *, tie_break: str = "first",
              marker: str = END_OF_WORD, progress: Callable[[float], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> BpeTrainer:
    """Build a :class:`BpeTrainer` and run ``n_merges`` merges (worker-friendly).

    Raises
    ------
    TrainingError
        Bad word counts or settings (see :class:`BpeTrainer`), or ``n_merges`` not a whole
        number >= 0.
    """
    check_whole("the number of merges", n_merges)
    trainer = BpeTrainer(word_counts, tie_break=tie_break, marker=marker)
    trainer.run(n_merges, progress=progress, should_stop=should_stop)
    return trainer


def run_steps(step: Callable[[], Any], n: int, progress: Callable[[float], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> list:
    """Call ``step()`` up to ``n`` times (a trainer's :meth:`run`): stops early when it
    returns None (no pair left) or ``should_stop()`` is True; ``progress(share)`` every 50
    steps and at the end. Returns the steps taken. O(n) calls.

    Raises
    ------
    TrainingError
        ``n`` is not a whole number >= 0.
    """
    n = check_whole("the number of merges", n)
    steps = []
    with collector_paused():
        for i in range(n):
            if should_stop is not None and should_stop():
                break
            taken = step()
            if taken is None:
                break
            steps.append(taken)
            if progress is not None and (i % 50 == 49 or i == n - 1):
                progress((i + 1) / n)
    return steps
