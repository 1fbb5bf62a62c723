"""BPE over several languages at once, classic or parity-aware, with per-language costs.

Parity-aware BPE is Foroutan et al. (ACL 2026, arXiv 2508.04796, "Parity-aware Byte Pair
Encoding"): at every merge step the language with the worst current compression is found,
the most frequent pair *in that language's corpus* is chosen, and the merge is applied to every
language. Classic BPE (Sennrich et al. 2016) chooses the most frequent pair of all languages
together. The paper's compression rate of a language is its text length over its token count
(length in bytes or characters); its cost here is the inverse, in one of two normalisations:

- ``"parallel"`` — tokens of the language's text (the texts say the same thing, as the UDHR
  translations do, so token counts are directly comparable; the paper's setting on a
  multi-parallel development set);
- ``"characters"`` — tokens per character (code point, whitespace excluded) of its text.

The worst-compressed language is the one with the highest cost (ties: the first in the
order given). Its best pair follows the trainer's tie-break rule inside that language.

:class:`MultilingualBpeTrainer` holds one :class:`~core.training.bpe.BpeTrainer` per language
(and, for ``"classic"``, one over all languages together, which picks the merges); a merge is
applied with :meth:`BpeTrainer.merge` to each language whose words hold the pair. No second
BPE implementation: pair counts, ranking and undo are the incremental ones of
:mod:`core.training.pair_index`.

The fairness figure is the Gini coefficient of the per-language costs (TokEval's summary of a
tokenizer's unfairness): :func:`gini`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Callable

from core.collector import collector_paused
from core.training.bpe import BpeTrainer, run_steps
from core.training.merging import replay_in_rank_order
from core.training.symbols import (
    END_OF_WORD,
    MARKERS,
    TIE_BREAKS,
    Pair,
    TrainingError,
    check_choice,
    check_whole,
    initial_symbols,
    merged_symbol,
)

STRATEGIES = ("classic", "parity")
NORMALIZATIONS = ("parallel", "characters")

__all__ = ["MultilingualBpeTrainer", "ParityStep", "STRATEGIES", "NORMALIZATIONS", "gini"]


def gini(values: Sequence[float]) -> float:
    """The Gini coefficient of non-negative ``values``: the mean absolute difference of all
    ordered pairs over twice the mean, ``Σᵢ Σⱼ |xᵢ − xⱼ| / (2 n² x̄)``; 0 when all are equal,
    approaching 1 when one holds everything (Gini 1912; TokEval's unfairness summary).

    Computed from the sorted values as ``Σᵢ (2i − n − 1) x₍ᵢ₎ / (n Σ x)`` (i = 1..n):
    O(n log n). 0.0 for fewer than two values or an all-zero list.

    Raises :class:`TrainingError` on a negative value."""
    xs = sorted(float(v) for v in values)
    if xs and xs[0] < 0:
        raise TrainingError(f"the Gini coefficient needs non-negative values, got {xs[0]}")
    n, total = len(xs), sum(xs)
    if n < 2 or total == 0:
        return 0.0
    return sum((2 * i - n - 1) * x for i, x in enumerate(xs, 1)) / (n * total)


@dataclass(frozen=True)
class ParityStep:
    """One merge of :class:`MultilingualBpeTrainer`.

    Attributes
    ----------
    rank : int
        0 for the first merge, 1 for the second, ...
    pair : (str, str)
        The merged pair; ``new_symbol`` the symbol it creates.
    language : str or None
        The worst-compressed language whose corpus chose the pair (``"parity"``), ``None``
        for ``"classic"`` (all languages chose it together).
    count : int
        The pair's frequency in the corpus that chose it, just before the merge.
    ties : tuple of (str, str)
        The candidates tied with it in that corpus, chosen first (``MergeStep.ties``).
    languages : tuple of str
        The languages whose words the merge changed, in the order given.
    """

    rank: int
    pair: Pair
    new_symbol: str
    language: str | None
    count: int
    ties: tuple[Pair, ...]
    languages: tuple[str, ...]


class MultilingualBpeTrainer:
    """Stepped BPE over several languages' word counts, classic or parity-aware.

    Parameters
    ----------
    corpora : mapping of str to (mapping of str to int)
        Language name → word counts of its text (:func:`core.training.corpus.word_counts`),
        in display order; at least one language.
    strategy : {"classic", "parity"}
        Most frequent pair of all languages, or of the worst-compressed language (module
        docstring).
    normalization : {"parallel", "characters"}
        How a language's cost is measured (module docstring).
    tie_break, marker
        As for :class:`~core.training.bpe.BpeTrainer`.

    Each step costs O(L) to find the worst language (L languages) plus, in every language
    holding the pair, what :meth:`BpeTrainer.step` costs: the occurrences of the pair.

    Raises
    ------
    TrainingError
        No language, an unknown setting, or a corpus :class:`BpeTrainer` refuses (the message
        names the language).
    """

    def __init__(self, corpora: Mapping[str, Mapping[str, int]], *, strategy: str = "parity",
                 normalization: str = "parallel", tie_break: str = "first",
                 marker: str = END_OF_WORD):
        self.strategy = check_choice(strategy, STRATEGIES, "strategy")
        self.normalization = check_choice(normalization, NORMALIZATIONS, "normalization")
        check_choice(tie_break, TIE_BREAKS, "tie-break rule")
        self.marker = check_choice(marker, MARKERS, "marker style")
        if not isinstance(corpora, Mapping) or not corpora:
            raise TrainingError("choose at least one language to train on")
        self.languages = tuple(corpora)
        self._trainers: list[BpeTrainer] = []
        for name, counts in corpora.items():
            try:
                self._trainers.append(BpeTrainer(counts, tie_break=tie_break, marker=marker))
            except TrainingError as exc:
                raise TrainingError(f"{name}: {exc}") from exc
        self.characters = tuple(sum(len(w) * c for w, c in counts.items())
                                for counts in corpora.values())
        self._union: BpeTrainer | None = None
        if self.strategy == "classic":
            union: dict[str, int] = {}
            for counts in corpora.values():
                for w, c in counts.items():
                    union[w] = union.get(w, 0) + c
            self._union = BpeTrainer(union, tie_break=tie_break, marker=marker)
        self._merges: list[Pair] = []
        self._ranks: dict[Pair, int] = {}
        self._history: list[tuple[ParityStep, tuple[int, ...]]] = []
        self._tokens: list[tuple[int, ...]] = []
        self._ginis: list[float] = []  # the Gini after each number of merges, kept as we go
        self._record_tokens()

    # -- public state --------------------------------------------------------------------
    @property
    def merges(self) -> list[Pair]:
        """The merges so far, in rank order (a copy)."""
        return list(self._merges)

    @property
    def history(self) -> list[ParityStep]:
        """The :class:`ParityStep` of every merge so far, in rank order."""
        return [entry[0] for entry in self._history]

    def trainer(self, language: str) -> BpeTrainer:
        """The trainer of one language (its words, pair counts; read, do not step it).

        Raises :class:`TrainingError` for a language not trained on."""
        try:
            return self._trainers[self.languages.index(language)]
        except ValueError:
            raise TrainingError(f"{language!r} is not one of the languages trained on") from None

    @property
    def tokens(self) -> tuple[int, ...]:
        """Each language's token count now (its text's symbols), in language order."""
        return self._tokens[-1]

    def costs(self, k: int | None = None) -> list[float]:
        """Each language's cost after ``k`` merges (default: now), in the trainer's
        normalization: tokens, or tokens per character."""
        tokens = self._tokens[-1 if k is None else k]
        if self.normalization == "parallel":
            return [float(t) for t in tokens]
        return [t / max(1, c) for t, c in zip(tokens, self.characters)]

    def worst_language(self) -> str:
        """The language with the highest cost now (the first of equals). O(L)."""
        costs = self.costs()
        return self.languages[costs.index(max(costs))]

    def curve(self) -> tuple[list[float], list[float]]:
        """The Gini of the per-language costs and the global compression (characters per
        token, all languages together) after 0, 1, ..., ``len(merges)`` merges (each Gini
        is computed once, when its merge is made). O(steps · L)."""
        chars = sum(self.characters)
        return list(self._ginis), [chars / max(1, sum(t)) for t in self._tokens]

    def _record_tokens(self) -> None:
        """Append the token counts now and their Gini. O(L log L)."""
        self._tokens.append(tuple(t.n_tokens for t in self._trainers))
        self._ginis.append(gini(self.costs()))

    def tokens_after(self, k: int) -> tuple[int, ...]:
        """Each language's token count after ``k`` merges (0 ≤ k ≤ ``len(merges)``)."""
        return self._tokens[k]

    # -- stepping ------------------------------------------------------------------------
    def step(self) -> ParityStep | None:
        """Perform the next merge; ``None`` when no language has a pair left. O(L) plus the
        occurrences of the merged pair in every language."""
        chooser, language = self._chooser()
        if chooser is None:
            return None
        pair, ties, _ = chooser._select()
        count = chooser.pair_counts[pair]
        changed = []
        for i, t in enumerate(self._trainers):
            if t.merge(pair) is not None:
                changed.append(i)
        if self._union is not None:
            self._union.merge(pair)
        step = ParityStep(len(self._merges), pair, merged_symbol(*pair, self.marker), language,
                          count, ties, tuple(self.languages[i] for i in changed))
        self._ranks[pair] = len(self._merges)
        self._merges.append(pair)
        self._history.append((step, tuple(changed)))
        self._record_tokens()
        return step

    def _chooser(self) -> tuple[BpeTrainer | None, str | None]:
        """The trainer whose best pair is merged next and its language (``None`` for the
        union of ``"classic"``); ``(None, None)`` when no pair is left anywhere. O(L)."""
        if self._union is not None:
            return (self._union, None) if self._union.pair_counts else (None, None)
        costs = self.costs()
        order = sorted(range(len(costs)), key=lambda i: -costs[i])  # stable: first of equals
        for i in order:
            if self._trainers[i].pair_counts:
                return self._trainers[i], self.languages[i]
        return None, None

    def undo(self) -> ParityStep | None:
        """Take back the last merge exactly (``None`` when there is none). O(symbols of the
        word types the merge changed, in every language)."""
        if not self._history:
            return None
        step, changed = self._history.pop()
        for i in changed:
            self._trainers[i].undo()
        if self._union is not None:
            self._union.undo()
        del self._ranks[self._merges.pop()]
        self._tokens.pop()
        self._ginis.pop()
        return step

    def run(self, n: int, *, progress: Callable[[float], None] | None = None,
            should_stop: Callable[[], bool] | None = None) -> list[ParityStep]:
        """Perform up to ``n`` more merges (fewer when pairs run out or ``should_stop()``).

        Raises :class:`TrainingError` when ``n`` is not a whole number >= 0."""
        return run_steps(self.step, n, progress, should_stop)

    def run_to(self, n: int, *, progress: Callable[[float], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> None:
        """Step or undo until exactly ``n`` merges are done (or no pair is left, or
        ``should_stop()``). Raises :class:`TrainingError` when ``n`` is not a whole number
        >= 0."""
        n = check_whole("the number of merges", n)
        with collector_paused():
            while len(self._merges) > n:
                if should_stop is not None and should_stop():
                    return
                self.undo()
        if len(self._merges) < n:
            self.run(n - len(self._merges), progress=progress, should_stop=should_stop)

    def segment(self, word: str) -> list[str]:
        """Split ``word`` by replaying the merges so far in rank order.

        Raises :class:`TrainingError` when ``word`` is not a non-empty str."""
        if not isinstance(word, str) or not word:
            raise TrainingError(f"the word to segment must be a non-empty string, got {word!r}")
        states = replay_in_rank_order(initial_symbols(word, self.marker), self._ranks,
                                      self._merges, self.marker)
        return list(states[-1][2])
