"""recall@k and the synthetic corpus generator."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.retrieval import RetrievalError, recall_at_k, synthetic_corpus


def test_recall_counts_the_overlap_per_query():
    exact = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    assert recall_at_k(exact, exact) == 1.0
    assert recall_at_k(exact[:, ::-1], exact) == 1.0
    assert recall_at_k(np.array([[1, 9, -1, -1], [8, 7, 6, 0]]), exact) == (1 / 4 + 3 / 4) / 2
    assert recall_at_k(np.array([0, 1, 2]), np.array([2, 3, 4])) == pytest.approx(1 / 3)
    assert recall_at_k(np.array([[5, 6, 7, 8], [1, 2, 3, 4]]), exact) == 0.0  # rows never mix


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sets(st.integers(0, 30), min_size=5, max_size=5),
                          st.lists(st.integers(-1, 30), min_size=5, max_size=5)), min_size=1, max_size=6))
def test_recall_equals_set_arithmetic(rows):
    exact = np.array([sorted(e) for e, _ in rows])
    approx = np.array([a for _, a in rows])
    ref = np.mean([len(set(e) & set(a)) / 5 for e, a in rows])
    assert recall_at_k(approx, exact) == pytest.approx(ref)


@pytest.mark.parametrize("approx, exact", [(np.zeros((2, 3), int), np.zeros((2, 4), int)),
                                           (np.zeros((2, 0), int), np.zeros((2, 0), int)),
                                           (np.zeros(3), np.zeros(3)),
                                           (np.zeros((0, 3), int), np.zeros((0, 3), int))])
def test_recall_rejects_mismatched_inputs(approx, exact):
    with pytest.raises(RetrievalError):
        recall_at_k(approx, exact)


def test_synthetic_corpus_is_unit_length_seeded_and_queries_are_near_duplicates():
    E, Q = synthetic_corpus(3000, 64, n_queries=20, seed=5)
    assert E.shape == (3000, 64) and Q.shape == (20, 64) and E.dtype == Q.dtype == np.float32
    assert np.allclose(np.linalg.norm(E, axis=1), 1, atol=1e-5)
    assert np.allclose(np.linalg.norm(Q, axis=1), 1, atol=1e-5)
    E2, Q2 = synthetic_corpus(3000, 64, n_queries=20, seed=5)
    assert np.array_equal(E, E2) and np.array_equal(Q, Q2)
    assert not np.array_equal(E, synthetic_corpus(3000, 64, n_queries=20, seed=6)[0])
    nearest = (Q @ E.T).max(axis=1)  # 0.05 noise per component on a unit vector: cos ≈ 0.93
    assert (nearest > 0.85).all()
    assert synthetic_corpus(10, 4, n_queries=0)[1].shape == (0, 4)


@pytest.mark.parametrize("kwargs", [dict(n=0, dim=4), dict(n=5, dim=1), dict(n=5, dim=4, n_queries=6),
                                    dict(n=5, dim=4, noise=-1.0), dict(n=5, dim=4, noise=float("nan")),
                                    dict(n=10**7, dim=384), dict(n=5, dim=4, topics=0)])
def test_synthetic_corpus_rejects_bad_sizes(kwargs):
    with pytest.raises(RetrievalError):
        synthetic_corpus(**kwargs)
