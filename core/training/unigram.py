"""Unigram segmentation: the lattice of in-vocabulary pieces and the Viterbi best path.

A Unigram language model (Kudo 2018, "Subword Regularization", §2.1) scores a segmentation
``x = (x_1, ..., x_m)`` of a word by ``sum_i log p(x_i)`` and picks the best one with the
Viterbi algorithm over the lattice of every vocabulary piece found in the word. Positions are
code-point offsets into the word; spans are half-open.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Mapping

from core.training.symbols import TrainingError

#: SPEC §5: the built-in example vocabulary (piece → count).
BUILTIN_COUNTS: dict[str, int] = {
    "l": 2, "o": 2, "w": 4, "e": 5, "s": 2, "t": 2, "n": 1, "r": 2, "lo": 3, "low": 7,
    "est": 9, "er": 4, "new": 6, "wid": 3, "id": 3, "west": 2, "lowe": 1,
}
DEFAULT_MAX_LEN = 5


class NoSegmentationError(TrainingError):
    """No sequence of vocabulary pieces covers the word."""


@dataclass(frozen=True)
class LatticeEdge:
    """An in-vocabulary piece found in the word: ``word[start:end] == piece``."""

    start: int
    end: int
    piece: str
    log_prob: float


@dataclass(frozen=True)
class Segmentation:
    """A segmentation with its total log-probability (natural log)."""

    pieces: tuple[str, ...]
    score: float


def log_probs_from_counts(counts: Mapping[str, int]) -> dict[str, float]:
    """``log(count / total)`` for every piece; raises :class:`TrainingError` on counts ≤ 0."""
    total = sum(counts.values())
    if not counts or any(c <= 0 for c in counts.values()):
        raise TrainingError("every vocabulary count must be a positive number")
    return {piece: math.log(c / total) for piece, c in counts.items()}


def builtin_log_probs() -> dict[str, float]:
    """Log-probabilities of the SPEC §5 vocabulary (:data:`BUILTIN_COUNTS`)."""
    return log_probs_from_counts(BUILTIN_COUNTS)


def lattice(word: str, log_probs: Mapping[str, float],
            max_len: int = DEFAULT_MAX_LEN) -> list[LatticeEdge]:
    """Every vocabulary piece of length ≤ ``max_len`` (code points) occurring in ``word``,
    ordered by start, then end."""
    if max_len < 1:
        raise TrainingError(f"max_len must be at least 1, got {max_len}")
    edges = []
    for start in range(len(word)):
        for end in range(start + 1, min(len(word), start + max_len) + 1):
            piece = word[start:end]
            if piece in log_probs:
                edges.append(LatticeEdge(start, end, piece, float(log_probs[piece])))
    return edges


def viterbi(word: str, log_probs: Mapping[str, float],
            max_len: int = DEFAULT_MAX_LEN) -> tuple[list[str], float]:
    """The most probable segmentation of ``word`` and its log-probability.

    Parameters
    ----------
    word : str
        The word (non-empty).
    log_probs : mapping of str to float
        Log-probability of each vocabulary piece.
    max_len : int
        Longest piece considered, in code points.

    Returns
    -------
    (list of str, float)
        The pieces (concatenating to ``word``) and the summed log-probability. Among equal
        scores the path whose last piece starts earliest wins.

    Raises
    ------
    NoSegmentationError
        When no piece sequence covers the word (a character outside the vocabulary).
    """
    best = n_best(word, log_probs, 1, max_len)
    return list(best[0].pieces), best[0].score


def n_best(word: str, log_probs: Mapping[str, float], n: int = 5,
           max_len: int = DEFAULT_MAX_LEN) -> list[Segmentation]:
    """The ``n`` most probable segmentations, best first (k-best Viterbi over the lattice).

    Ties are ordered by the pieces themselves (tuple order). Raises
    :class:`NoSegmentationError` like :func:`viterbi`.
    """
    if not word:
        raise NoSegmentationError("type a word to segment")
    edges_by_end: dict[int, list[LatticeEdge]] = {}
    for edge in lattice(word, log_probs, max_len):
        edges_by_end.setdefault(edge.end, []).append(edge)
    # best[i]: up to n (score, pieces) for word[:i], best first
    best: list[list[tuple[float, tuple[str, ...]]]] = [[(0.0, ())]] + [[] for _ in word]
    for end in range(1, len(word) + 1):
        options = [(score + e.log_prob, pieces + (e.piece,))
                   for e in edges_by_end.get(end, []) for score, pieces in best[e.start]]
        best[end] = heapq.nsmallest(n, options, key=lambda t: (-t[0], t[1]))
    if not best[-1]:
        stuck = _stuck_at(word, edges_by_end)
        raise NoSegmentationError(
            f"no vocabulary pieces cover {word!r}: no piece continues at position {stuck} "
            f"({word[stuck]!r}); add that character to the vocabulary")
    return [Segmentation(pieces, score) for score, pieces in best[-1]]


def path_score(pieces: list[str] | tuple[str, ...], log_probs: Mapping[str, float]) -> float:
    """Summed log-probability of a given segmentation; raises :class:`TrainingError` when a
    piece is not in the vocabulary."""
    missing = [p for p in pieces if p not in log_probs]
    if missing:
        raise TrainingError(f"not in the vocabulary: {', '.join(map(repr, missing))}")
    return float(sum(log_probs[p] for p in pieces))


def _stuck_at(word: str, edges_by_end: dict[int, list[LatticeEdge]]) -> int:
    """The furthest position any path of pieces reaches (no piece continues from there)."""
    reachable = {0}
    for end in range(1, len(word) + 1):
        if any(e.start in reachable for e in edges_by_end.get(end, [])):
            reachable.add(end)
    return max(reachable)
