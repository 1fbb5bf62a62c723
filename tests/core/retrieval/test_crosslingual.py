"""Cross-lingual share of translations in the top k, and their mean rank."""

from __future__ import annotations

import numpy as np
import pytest

from core.retrieval import (
    RetrievalError,
    compare_encoders,
    crosslingual_table,
    rank_correlation,
    top_k,
    translation_ranks,
    translation_recall,
)


def direct_ranks(english, other, targets):
    """Reference: position of the target in the full stable sort of each query's scores."""
    order = np.argsort(-(english @ other.T), axis=1, kind="stable")
    return np.array([int(np.flatnonzero(row == t)[0]) + 1 for row, t in zip(order, targets)])


def test_identical_languages_rank_every_translation_first():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 8))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    r = translation_recall(X, X, k=1)
    assert r.hit_share == 1.0 and r.mean_rank == 1.0 and r.ranks.tolist() == [1] * 30


def test_ranks_match_a_full_sort_and_top_k_including_ties():
    rng = np.random.default_rng(1)
    english = rng.integers(-2, 3, size=(25, 4)).astype(float)  # integer scores: many ties
    other = rng.integers(-2, 3, size=(40, 4)).astype(float)
    targets = rng.permutation(40)[:25]
    ranks = translation_ranks(english, other, targets=targets)
    assert ranks.tolist() == direct_ranks(english, other, targets).tolist()
    found = top_k(other, english, 5)
    assert [(t in row) for row, t in zip(found, targets)] == (ranks <= 5).tolist()
    r = translation_recall(english, other, 5, targets=targets)
    assert r.hit_share == pytest.approx((ranks <= 5).mean()) and r.mean_rank == pytest.approx(ranks.mean())


def test_table_per_language_with_distractor_rows_and_explicit_alignment():
    rng = np.random.default_rng(2)
    eng = rng.standard_normal((10, 16))
    near = eng + 0.01 * rng.standard_normal((10, 16))
    noise = rng.standard_normal((10, 16))
    padded = np.vstack([rng.standard_normal((3, 16)), near])  # four header lines, say
    table = crosslingual_table(eng, {"near": near, "noise": noise, "shifted": padded}, k=1,
                               targets={"shifted": np.arange(3, 13)})
    assert list(table) == ["near", "noise", "shifted"]
    assert table["near"].hit_share == 1.0 and table["shifted"].hit_share == 1.0
    assert table["noise"].mean_rank > 1.0


def test_misaligned_inputs_are_typed_errors():
    with pytest.raises(RetrievalError, match="row ids"):
        translation_ranks(np.ones((5, 3)), np.ones((4, 3)))  # fewer rows than queries, no targets
    with pytest.raises(RetrievalError, match="width"):
        translation_ranks(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(RetrievalError, match="whole number"):
        translation_recall(np.ones((2, 3)), np.ones((2, 3)), k=0)


def test_the_same_ranks_measured_at_another_k():
    rng = np.random.default_rng(5)
    english, other = rng.standard_normal((20, 6)), rng.standard_normal((30, 6))
    r1 = translation_recall(english, other, 1)
    for k in (1, 3, 30):
        direct = translation_recall(english, other, k)
        again = r1.at(k)
        assert again.k == k and again.hit_share == direct.hit_share and again.mean_rank == direct.mean_rank
    with pytest.raises(RetrievalError, match="whole number"):
        r1.at(0)


# -- two encoders on the same pairs ----------------------------------------------------------
def brute_spearman(x, y):
    """Reference: Pearson of average ranks, ranks counted one value at a time."""
    def ranks(v):
        return np.array([1 + (v < a).sum() + ((v == a).sum() - 1) / 2 for a in v])
    return float(np.corrcoef(ranks(np.asarray(x, float)), ranks(np.asarray(y, float)))[0, 1])


def test_rank_correlation_matches_its_definition_with_and_without_ties():
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal(30), rng.standard_normal(30)
    n = 30
    d = np.argsort(np.argsort(x)) - np.argsort(np.argsort(y))
    assert rank_correlation(x, y) == pytest.approx(1 - 6 * (d * d).sum() / (n * (n * n - 1)))  # no ties
    tx, ty = rng.integers(0, 4, 40), rng.integers(0, 3, 40)
    assert rank_correlation(tx, ty) == pytest.approx(brute_spearman(tx, ty))
    assert rank_correlation([1, 2, 3, 4], [10, 20, 30, 45]) == pytest.approx(1.0)
    assert rank_correlation([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert rank_correlation([1, 2, np.nan, 3, 4], [1, 2, 9, 3, 4]) == pytest.approx(1.0)  # NaN pair left out
    assert np.isnan(rank_correlation([1, 2], [2, 1])) and np.isnan(rank_correlation([1, 1, 1], [1, 2, 3]))
    with pytest.raises(RetrievalError, match="1-D"):
        rank_correlation([1, 2, 3], [1, 2])


def test_two_encoders_compared_pair_by_pair_on_the_same_pairs():
    rng = np.random.default_rng(3)
    eng = rng.standard_normal((20, 8))
    good = eng + 0.05 * rng.standard_normal((20, 8))  # a model that maps translations together
    poor = rng.standard_normal((20, 8))
    a, b = translation_recall(eng, poor, 3), translation_recall(eng, good, 3)
    c = compare_encoders(a, b)
    assert c.share_gain == pytest.approx(b.hit_share - a.hit_share) and c.share_gain > 0.5
    assert c.improved == int((b.ranks < a.ranks).sum()) and c.worsened == int((b.ranks > a.ranks).sum())
    assert c.improved + c.worsened + int((b.ranks == a.ranks).sum()) == 20
    again = c.at(1)
    assert again.base.k == again.other.k == 1
    assert again.share_gain == pytest.approx(translation_recall(eng, good, 1).hit_share
                                             - translation_recall(eng, poor, 1).hit_share)
    with pytest.raises(RetrievalError, match="different pairs"):
        compare_encoders(a, translation_recall(eng[:10], good[:10], 3))
    with pytest.raises(RetrievalError, match="k = 3 and k = 1"):
        compare_encoders(a, b.at(1))
    with pytest.raises(RetrievalError, match="TranslationRecall"):
        compare_encoders(a, b.ranks)
