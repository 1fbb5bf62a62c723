"""Unigram training by EM with pruning, and sampling segmentations (subword regularisation).

Oracles: brute-force enumeration of every segmentation; golden figures: the lecture
reading's Unigram vocabulary and candidate log-probabilities (SPEC §5)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.corpus import SENNRICH_CORPUS
from core.training.symbols import TrainingError
from core.training.unigram import NoSegmentationError, builtin_log_probs, viterbi
from core.training.unigram_em import (
    UnigramTrainer,
    expected_counts,
    log_marginal,
    sample,
    segmentation_probability,
)


def all_segmentations(word, log_probs, max_len=5):
    if not word:
        return [()]
    out = []
    for j in range(1, min(len(word), max_len) + 1):
        if word[:j] in log_probs:
            out += [(word[:j],) + rest for rest in all_segmentations(word[j:], log_probs, max_len)]
    return out


def brute(word, log_probs, alpha=1.0):
    segs = all_segmentations(word, log_probs)
    weights = [math.exp(alpha * sum(log_probs[p] for p in s)) for s in segs]
    z = sum(weights)
    return {s: w / z for s, w in zip(segs, weights)}


LP = builtin_log_probs()


def test_candidate_ratio_matches_the_printed_log_probabilities():
    p_best = segmentation_probability(("low", "est"), "lowest", LP)
    p_alt = segmentation_probability(("lo", "west"), "lowest", LP)
    p_spell = segmentation_probability(("l", "o", "w", "est"), "lowest", LP)
    assert math.log(p_best / p_alt) == pytest.approx(-3.978 + 6.329, abs=2e-3)
    assert math.log(p_best / p_spell) == pytest.approx(-3.978 + 11.272, abs=2e-3)
    assert segmentation_probability(("lowe", "st"), "lowest", LP) == 0.0  # 'st' is no piece


@pytest.mark.parametrize("word", ["lowest", "newest", "lowers", "widest"])
def test_marginal_and_expected_counts_equal_enumeration(word):
    dist = brute(word, LP)
    assert log_marginal(word, LP) == pytest.approx(
        math.log(sum(math.exp(sum(LP[p] for p in s)) for s in dist)), rel=1e-12)
    want = Counter()
    for seg, p in dist.items():
        for piece in seg:
            want[piece] += p
    got = expected_counts(word, LP)
    assert set(got) == set(want)
    for piece in want:
        assert got[piece] == pytest.approx(want[piece], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("alpha", [0.2, 1.0, 3.0])
def test_samples_follow_the_exact_distribution(alpha):
    dist = brute("lowest", LP, alpha)
    rng = random.Random(0)
    n = 4000
    seen = Counter(sample("lowest", LP, rng, alpha=alpha) for _ in range(n))
    assert set(seen) <= set(dist)
    for seg, p in dist.items():
        assert segmentation_probability(seg, "lowest", LP, alpha=alpha) == pytest.approx(p, rel=1e-9)
        assert abs(seen[seg] / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-3


def test_a_seed_repeats_its_draws_and_a_sharp_alpha_gives_viterbi():
    draw = lambda seed: [sample("lowers", LP, random.Random(seed)) for _ in range(20)]
    assert draw(7) == draw(7) and draw(7) != draw(8)
    sharp = {sample("lowers", LP, random.Random(s), alpha=200.0) for s in range(20)}
    assert sharp == {tuple(viterbi("lowers", LP)[0])} == {("low", "er", "s")}


def test_sampling_errors():
    with pytest.raises(NoSegmentationError):
        sample("lowz", LP, random.Random(0))
    for bad in (0, -1.0, math.nan, math.inf):
        with pytest.raises(TrainingError):
            sample("low", LP, random.Random(0), alpha=bad)


def test_training_on_the_golden_corpus_to_the_readings_vocabulary_size():
    trainer = UnigramTrainer(SENNRICH_CORPUS, target_size=17)
    trainer.run()
    kinds = [s.kind for s in trainer.history]
    assert kinds[0] == "seed" and kinds[1:3] == ["em", "em"] and kinds[3] == "prune"
    assert kinds[-2:] == ["em", "em"] and trainer.done
    assert len(trainer.log_probs) == 17 == trainer.history[-1].size
    assert set("lowernstid") <= set(trainer.log_probs)  # characters are never pruned
    assert viterbi("lowest", trainer.log_probs)[0] == ["low", "est"]
    assert viterbi("newest", trainer.log_probs)[0] == ["new", "est"]
    assert math.fsum(math.exp(v) for v in trainer.log_probs.values()) == pytest.approx(1.0)


def test_undo_and_run_to_are_exact():
    trainer = UnigramTrainer(SENNRICH_CORPUS, target_size=17)
    trainer.run_to(5)
    at5 = (trainer.log_probs, trainer.history)
    trainer.run_to(11)
    assert trainer.n_steps == 11
    trainer.run_to(5)
    assert (trainer.log_probs, trainer.history) == at5
    while trainer.undo() is not None:
        pass
    assert trainer.n_steps == 0 and trainer.history[0].kind == "seed"


def test_settings_are_checked():
    for kwargs in ({"target_size": 0}, {"max_len": 0}, {"em_per_round": 11}, {"shrink": 0.99}):
        with pytest.raises(TrainingError):
            UnigramTrainer(SENNRICH_CORPUS, **kwargs)


words = st.dictionaries(st.text("abc", min_size=1, max_size=6), st.integers(1, 5),
                        min_size=1, max_size=5)


@settings(max_examples=40, deadline=None)
@given(words, st.integers(3, 12))
def test_em_never_lowers_the_likelihood_and_every_word_stays_segmentable(counts, target):
    trainer = UnigramTrainer(counts, target_size=target, max_len=4)
    trainer.run()
    for before, after in zip(trainer.history, trainer.history[1:]):
        if after.kind == "em":
            assert after.log_likelihood >= before.log_likelihood - 1e-9
    lp = trainer.log_probs
    assert all(viterbi(w, lp, 4) for w in counts)
    assert len(lp) <= max(target, len(set("".join(counts))))
