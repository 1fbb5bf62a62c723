"""Cross-lingual share of translations in the top k, and their mean rank."""

from __future__ import annotations

import numpy as np
import pytest

from core.retrieval import (
    RetrievalError,
    crosslingual_table,
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
