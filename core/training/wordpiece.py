"""WordPiece-style pair selection, and next-merge rankings under both criteria.

WordPiece (Schuster & Nakajima 2012, "Japanese and Korean Voice Search"; the scoring used by
Hugging Face's WordPiece course chapter) merges the pair with the highest likelihood gain,
computed here as ``score(a, b) = count(ab) / (count(a) · count(b))`` with every count weighted
by word frequency. Unlike BPE's raw frequency, the score favours pairs whose parts are rare on
their own. Scores are compared exactly (as fractions), so ties are real ties.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from core.training.bpe import MAX_TIES, BpeTrainer, Candidate
from core.training.symbols import END_OF_WORD, Pair


def score(pair_count: int, count_a: int, count_b: int) -> Fraction:
    """WordPiece score ``pair_count / (count_a · count_b)`` as an exact fraction."""
    return Fraction(pair_count, count_a * count_b)


def rank_by_score(pair_counts: Mapping[Pair, int], symbol_counts: Mapping[str, int],
                  k: int = 10, tie_key=None) -> list[Candidate]:
    """The ``k`` pairs with the highest WordPiece score, best first.

    Parameters
    ----------
    pair_counts : mapping of (str, str) to int
        Frequency of each adjacent pair.
    symbol_counts : mapping of str to int
        Frequency of each symbol (both parts of every pair must be present).
    k : int
        How many candidates to return.
    tie_key : callable or None
        Orders pairs with equal scores (smaller first); default: the pair itself
        (alphabetical).

    Returns
    -------
    list of Candidate
        Each with ``pair``, ``count`` and the exact ``score``.
    """
    key = tie_key or (lambda p: p)
    approx = [(c / (symbol_counts[p[0]] * symbol_counts[p[1]]), p, c)
              for p, c in pair_counts.items()]
    if not approx or k <= 0:
        return []
    cutoff = heapq.nlargest(k, approx, key=lambda t: t[0])[-1][0] * (1 - 1e-9)
    near = [(score(c, symbol_counts[p[0]], symbol_counts[p[1]]), p, c)
            for s, p, c in approx if s >= cutoff]
    near.sort(key=lambda t: (-t[0], key(t[1])))
    return [Candidate(p, c, s) for s, p, c in near[:k]]


class WordPieceTrainer(BpeTrainer):
    """A stepped trainer that picks the pair with the highest WordPiece score.

    Same interface, data structures, undo and replay as :class:`~core.training.bpe.BpeTrainer`
    (only the choice of pair differs); ``tie_break`` defaults to ``"smallest"``
    (alphabetical). Each :class:`~core.training.bpe.MergeStep` carries the exact ``score``.
    A step scans every current pair once (fine for teaching-size corpora).
    """

    def __init__(self, word_counts: Mapping[str, int], *, tie_break: str = "smallest",
                 marker: str = END_OF_WORD):
        super().__init__(word_counts, tie_break=tie_break, marker=marker)

    def scored_candidates(self, k: int = 10) -> list[Candidate]:
        """The ``k`` best pairs by WordPiece score, in the order this trainer would pick them."""
        return rank_by_score(self.pair_counts, self._sym_counts, k, self.tie_key)

    def _select(self):
        top = self.scored_candidates(MAX_TIES)
        if not top:
            return None
        ties = tuple(c.pair for c in top if c.score == top[0].score)
        return ties[0], ties, top[0].score


@dataclass(frozen=True)
class CandidateComparison:
    """Next-merge candidates of one state under both criteria, best first."""

    bpe: tuple[Candidate, ...]
    wordpiece: tuple[Candidate, ...]


def compare_candidates(trainer: BpeTrainer, k: int = 10) -> CandidateComparison:
    """Rank the next merge of ``trainer``'s current state by frequency and by WordPiece score
    (ties in both lists resolved by the trainer's tie-break rule)."""
    counts, symbols = trainer.pair_counts, trainer.symbol_counts
    wordpiece = rank_by_score(counts, symbols, k, trainer.tie_key)
    bpe = [Candidate(c.pair, c.count, score(c.count, symbols[c.pair[0]], symbols[c.pair[1]]))
           for c in trainer.candidates(k)]
    return CandidateComparison(tuple(bpe), tuple(wordpiece))
