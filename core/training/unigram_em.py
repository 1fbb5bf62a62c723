"""Unigram training by EM with pruning, stepped; sampling a segmentation from the lattice.

Kudo (2018), "Subword Regularization", §3.2 (training) and §2.2 (sampling):

- the *seed* vocabulary is every substring of the corpus words up to ``max_len`` code points
  (the :data:`SEED_SIZE` most frequent multi-character ones, weighted by word count, and every
  character), with probabilities proportional to those frequencies;
- an *EM* step computes, with the forward-backward algorithm over each word's lattice, the
  expected number of times each piece is used (weighted by word count), and sets
  ``p(piece) = expected / total`` (multi-character pieces expected 0 times are dropped; a
  character keeps at least :data:`CHAR_FLOOR`);
- a *prune* step removes the multi-character pieces whose loss is smallest: the loss of a
  piece is how much the corpus log-likelihood of the Viterbi segmentations falls when every
  use of it is replaced by the best segmentation of its own string without it
  (``uses · (log p(piece) − Σ log p(alternative pieces))``, SentencePiece's approximation);
  characters are never removed, so every corpus word stays segmentable.

Training alternates :attr:`UnigramTrainer.em_per_round` EM steps and one prune step until
the vocabulary is at most ``target_size`` pieces, then ends with the EM steps of a last round.
Sampling draws a segmentation ``x`` with probability ``p(x)^α / Σ_x' p(x')^α`` by forward
filtering, backward sampling (exact, O(lattice edges)). Log-probabilities are natural logs.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable, Mapping

from core.errors import check_stop
from core.training.symbols import TrainingError, check_whole, validated_counts
from core.training.unigram import DEFAULT_MAX_LEN, NoSegmentationError, lattice, n_best

SEED_SIZE = 2000  # most multi-character seed pieces kept (by weighted frequency)
NEG_INF = -math.inf
CHAR_FLOOR = 1e-6  # least expected count an EM step gives a character (in word occurrences)


def _logsumexp(values: list[float]) -> float:
    top = max(values, default=NEG_INF)
    if top == NEG_INF:
        return NEG_INF
    return top + math.log(sum(math.exp(v - top) for v in values))


def _edges_by_end(word: str, log_probs: Mapping[str, float], max_len: int):
    by_end: dict[int, list] = defaultdict(list)
    for e in lattice(word, log_probs, max_len):
        by_end[e.end].append(e)
    return by_end


def forward(word: str, log_probs: Mapping[str, float], max_len: int = DEFAULT_MAX_LEN,
            alpha: float = 1.0) -> list[float]:
    """``f[i] = log Σ exp(α · score)`` over the segmentations of ``word[:i]`` (``f[0] = 0``;
    ``-inf`` where no path reaches). O(len(word) · max_len)."""
    f = [0.0] + [NEG_INF] * len(word)
    by_end = _edges_by_end(word, log_probs, max_len)
    for end in range(1, len(word) + 1):
        f[end] = _logsumexp([f[e.start] + alpha * e.log_prob for e in by_end.get(end, ())
                             if f[e.start] > NEG_INF])
    return f


def log_marginal(word: str, log_probs: Mapping[str, float], max_len: int = DEFAULT_MAX_LEN) -> float:
    """``log Σ_x p(x)`` over every segmentation ``x`` of ``word`` (the word's likelihood).

    Raises :class:`~core.training.unigram.NoSegmentationError` when no segmentation exists."""
    total = forward(word, log_probs, max_len)[-1]
    if not word or total == NEG_INF:
        raise NoSegmentationError(f"no vocabulary pieces cover {word!r}")
    return total


def expected_counts(word: str, log_probs: Mapping[str, float],
                    max_len: int = DEFAULT_MAX_LEN) -> dict[str, float]:
    """Expected number of uses of each piece in a segmentation of ``word`` drawn with
    probability ``p(x) / Σ p(x')`` (forward-backward). O(len(word) · max_len).

    Raises :class:`~core.training.unigram.NoSegmentationError` like :func:`log_marginal`."""
    edges = lattice(word, log_probs, max_len)
    f = forward(word, log_probs, max_len)
    total = f[-1]
    if not word or total == NEG_INF:
        raise NoSegmentationError(f"no vocabulary pieces cover {word!r}")
    n = len(word)
    b = [NEG_INF] * n + [0.0]  # b[i]: log Σ over segmentations of word[i:]
    by_start: dict[int, list] = defaultdict(list)
    for e in edges:
        by_start[e.start].append(e)
    for start in range(n - 1, -1, -1):
        b[start] = _logsumexp([e.log_prob + b[e.end] for e in by_start.get(start, ())
                               if b[e.end] > NEG_INF])
    out: dict[str, float] = defaultdict(float)
    for e in edges:
        if f[e.start] > NEG_INF and b[e.end] > NEG_INF:
            out[e.piece] += math.exp(f[e.start] + e.log_prob + b[e.end] - total)
    return dict(out)


def sample(word: str, log_probs: Mapping[str, float], rng: random.Random, *, alpha: float = 1.0,
           max_len: int = DEFAULT_MAX_LEN) -> tuple[str, ...]:
    """One segmentation of ``word`` drawn with probability ``p(x)^α / Σ p(x')^α``.

    ``alpha`` > 0 sharpens (large: nearly always the Viterbi path) or flattens (small:
    nearly uniform over segmentations) the distribution. Forward filtering, backward
    sampling: O(len(word) · max_len) per draw.

    Raises
    ------
    TrainingError
        ``alpha`` is not a positive finite number.
    NoSegmentationError
        No segmentation of ``word`` exists.
    """
    check_alpha(alpha)
    f = forward(word, log_probs, max_len, alpha)
    if not word or f[-1] == NEG_INF:
        raise NoSegmentationError(f"no vocabulary pieces cover {word!r}")
    by_end = _edges_by_end(word, log_probs, max_len)
    pieces: list[str] = []
    end = len(word)
    while end > 0:
        options = [e for e in by_end[end] if f[e.start] > NEG_INF]
        weights = [math.exp(f[e.start] + alpha * e.log_prob - f[end]) for e in options]
        edge = rng.choices(options, weights)[0]
        pieces.append(edge.piece)
        end = edge.start
    return tuple(reversed(pieces))


def segmentation_probability(pieces, word: str, log_probs: Mapping[str, float], *,
                             alpha: float = 1.0, max_len: int = DEFAULT_MAX_LEN) -> float:
    """The probability :func:`sample` draws ``pieces`` for ``word`` (exact)."""
    check_alpha(alpha)
    if "".join(pieces) != word or any(p not in log_probs or len(p) > max_len for p in pieces):
        return 0.0
    z = forward(word, log_probs, max_len, alpha)[-1]
    return math.exp(alpha * sum(log_probs[p] for p in pieces) - z)


def check_alpha(alpha: float) -> float:
    """``alpha`` as a float; raises :class:`TrainingError` unless it is positive and finite."""
    if not isinstance(alpha, (int, float)) or not math.isfinite(alpha) or alpha <= 0:
        raise TrainingError(f"the sampling exponent α must be a positive number, got {alpha!r}")
    return float(alpha)


@dataclass(frozen=True)
class UnigramStep:
    """One training step: ``kind`` is ``"seed"``, ``"em"`` or ``"prune"``; ``size`` the
    vocabulary after it, ``log_likelihood`` the corpus's ``Σ count · log Σ_x p(x)`` after it;
    ``removed`` the pieces it took out (pruned, or dropped by EM with expectation 0)."""

    index: int
    kind: str
    size: int
    log_likelihood: float
    removed: tuple[str, ...] = ()


class UnigramTrainer:
    """Stepped Unigram training (module notes) with exact undo.

    Parameters
    ----------
    word_counts : mapping of str to int
        Word types and their counts (> 0).
    target_size : int
        Stop pruning once the vocabulary has at most this many pieces (never fewer than the
        characters of the corpus).
    max_len : int
        Longest piece, in code points (1 .. 32).
    em_per_round : int
        EM steps before each prune (1 .. 10).
    shrink : float
        Share of the vocabulary kept by a prune step (0.5 .. 0.95; at least one piece goes).

    Raises
    ------
    TrainingError
        Bad word counts, or a setting out of its range.
    """

    def __init__(self, word_counts: Mapping[str, int], *, target_size: int = 30,
                 max_len: int = DEFAULT_MAX_LEN, em_per_round: int = 2, shrink: float = 0.8):
        words, counts = validated_counts(word_counts)
        self.target_size = check_whole("the target vocabulary size", target_size, 1)
        self.max_len = check_whole("the longest piece", max_len, 1)
        self.em_per_round = check_whole("EM steps per round", em_per_round, 1)
        if self.max_len > 32 or self.em_per_round > 10 or not 0.5 <= shrink <= 0.95:
            raise TrainingError("longest piece 1–32, EM steps per round 1–10, share kept by a "
                                f"prune 0.5–0.95 (got {max_len}, {em_per_round}, {shrink})")
        self.shrink = float(shrink)
        self._words, self._counts = words, counts
        self.characters = frozenset(ch for w in words for ch in w)
        seed = self._seed_counts()
        total = sum(seed.values())
        lp = {p: math.log(c / total) for p, c in seed.items()}
        self._states: list[dict[str, float]] = [lp]
        self._steps: list[UnigramStep] = [UnigramStep(0, "seed", len(lp), self._likelihood(lp))]

    # -- state ---------------------------------------------------------------------------
    @property
    def log_probs(self) -> dict[str, float]:
        """The current vocabulary: piece → log-probability (a copy)."""
        return dict(self._states[-1])

    @property
    def history(self) -> list[UnigramStep]:
        """The seed step and every step since, in order."""
        return list(self._steps)

    @property
    def n_steps(self) -> int:
        """Steps done after the seed."""
        return len(self._steps) - 1

    @property
    def done(self) -> bool:
        """Whether :meth:`step` has nothing left to do."""
        return self._next_kind() is None

    # -- stepping ------------------------------------------------------------------------
    def step(self) -> UnigramStep | None:
        """The next EM or prune step; ``None`` when training is over.

        An EM step costs O(Σ word length · max_len) plus one pass over the pieces; a prune
        step as much plus one small Viterbi per multi-character piece."""
        kind = self._next_kind()
        if kind is None:
            return None
        lp = self._states[-1]
        new, removed = (self._em(lp) if kind == "em" else self._prune(lp))
        step = UnigramStep(len(self._steps), kind, len(new), self._likelihood(new), removed)
        self._states.append(new)
        self._steps.append(step)
        return step

    def undo(self) -> UnigramStep | None:
        """Take back the last step exactly; returns it (``None`` at the seed)."""
        if len(self._steps) == 1:
            return None
        self._states.pop()
        return self._steps.pop()

    def run_to(self, n: int, should_stop: Callable[[], bool] | None = None) -> None:
        """Step or undo until ``n`` steps after the seed are done (or training is over);
        ``should_stop`` is asked before every step (True raises
        :class:`core.errors.Cancelled`, the steps done so far kept).

        Raises :class:`TrainingError` when ``n`` is not a whole number >= 0."""
        n = check_whole("the number of steps", n)
        while self.n_steps > n:
            self.undo()
        while self.n_steps < n:
            check_stop(should_stop)
            if self.step() is None:
                break

    def run(self) -> None:
        """Train to the end."""
        while self.step() is not None:
            pass

    # -- internals -----------------------------------------------------------------------
    def _next_kind(self) -> str | None:
        since_prune = 0
        for s in reversed(self._steps):
            if s.kind != "em":
                break
            since_prune += 1
        if since_prune < self.em_per_round:
            return "em"
        if len(self._states[-1]) > self.target_size and self._prunable(self._states[-1]):
            return "prune"
        return None

    def _prunable(self, lp: Mapping[str, float]) -> list[str]:
        return [p for p in lp if len(p) > 1]

    def _seed_counts(self) -> dict[str, int]:
        """Every substring up to ``max_len`` weighted by word count: the most frequent
        :data:`SEED_SIZE` multi-character ones and every character. O(Σ len · max_len)."""
        freq: Counter[str] = Counter()
        for w, c in zip(self._words, self._counts):
            for i in range(len(w)):
                for j in range(i + 1, min(len(w), i + self.max_len) + 1):
                    freq[w[i:j]] += c
        multi = sorted((p for p in freq if len(p) > 1), key=lambda p: (-freq[p], p))[:SEED_SIZE]
        keep = set(multi) | self.characters
        return {p: freq[p] for p in sorted(keep)}

    def _likelihood(self, lp: Mapping[str, float]) -> float:
        return sum(c * log_marginal(w, lp, self.max_len) for w, c in zip(self._words, self._counts))

    def _em(self, lp: Mapping[str, float]) -> tuple[dict[str, float], tuple[str, ...]]:
        expected: dict[str, float] = defaultdict(float)
        for w, c in zip(self._words, self._counts):
            for piece, e in expected_counts(w, lp, self.max_len).items():
                expected[piece] += c * e
        kept = {p: expected[p] for p in lp if expected.get(p, 0.0) > 0.0}
        for ch in self.characters:  # a character is never dropped: every word stays segmentable
            kept[ch] = max(kept.get(ch, 0.0), CHAR_FLOOR)
        total = sum(kept.values())
        new = {p: math.log(e / total) for p, e in kept.items()}
        return new, tuple(sorted(p for p in lp if p not in new))

    def _prune(self, lp: Mapping[str, float]) -> tuple[dict[str, float], tuple[str, ...]]:
        uses: Counter[str] = Counter()
        for w, c in zip(self._words, self._counts):
            for piece in n_best(w, lp, 1, self.max_len)[0].pieces:
                uses[piece] += c
        losses = []
        for piece in self._prunable(lp):
            alt = n_best(piece, _Without(lp, piece), 1, self.max_len)[0].score
            losses.append((uses[piece] * (lp[piece] - alt), piece))
        losses.sort()
        n_remove = max(1, len(lp) - max(self.target_size, math.ceil(len(lp) * self.shrink)))
        removed = {p for _, p in losses[:n_remove]}
        kept = {p: v for p, v in lp.items() if p not in removed}
        z = _logsumexp(list(kept.values()))
        return {p: v - z for p, v in kept.items()}, tuple(sorted(removed))


class _Without(Mapping):
    """``log_probs`` as if ``piece`` were not in it (no copy)."""

    def __init__(self, log_probs: Mapping[str, float], piece: str):
        self._lp, self._piece = log_probs, piece

    def __getitem__(self, key: str) -> float:
        if key == self._piece:
            raise KeyError(key)
        return self._lp[key]

    def __contains__(self, key: object) -> bool:
        return key != self._piece and key in self._lp

    def __iter__(self):
        return (p for p in self._lp if p != self._piece)

    def __len__(self) -> int:
        return len(self._lp) - (self._piece in self._lp)
