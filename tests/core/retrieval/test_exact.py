"""Exact top-k (SPEC §10): argpartition + sort of the k equals a full stable argsort."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import core.retrieval.exact as exact
from core.errors import SubwordScopeError
from core.retrieval import RetrievalError, search, top_k


def full_sort(E, q, k):
    """The obviously correct reference: stable argsort of all negated scores."""
    return np.argsort(-(np.atleast_2d(q) @ E.T), axis=1, kind="stable")[:, :k]


# Small integers as float32: products and sums are exact, and ties are everywhere.
ints = st.integers(-3, 3).map(float)


@st.composite
def corpus_and_queries(draw):
    n = draw(st.integers(1, 40))
    d = draw(st.integers(1, 6))
    E = draw(hnp.arrays(np.float32, (n, d), elements=ints))
    Q = draw(hnp.arrays(np.float32, (draw(st.integers(1, 5)), d), elements=ints))
    k = draw(st.integers(1, n + 5))
    return E, Q, k


@settings(max_examples=300, deadline=None)
@given(corpus_and_queries())
def test_top_k_equals_full_stable_sort_with_ties(case):
    E, Q, k = case
    assert np.array_equal(top_k(E, Q, k), full_sort(E, Q, k))
    assert np.array_equal(top_k(E, Q[0], k), full_sort(E, Q[0], k)[0])


@settings(max_examples=100, deadline=None)
@given(corpus_and_queries(), st.integers(1, 64))
def test_chunked_batches_equal_one_block(case, cap):
    E, Q, k = case
    ids, scores = search(E, Q, k, cap=cap)  # cap in bytes: down to one query per chunk
    assert np.array_equal(ids, full_sort(E, Q, k))
    assert np.array_equal(scores, np.take_along_axis(Q @ E.T, ids, axis=1))


def test_random_floats_and_k_at_least_n():
    rng = np.random.default_rng(1)
    E = rng.standard_normal((500, 24)).astype(np.float32)
    Q = rng.standard_normal((7, 24)).astype(np.float32)
    for k in (1, 10, 499, 500, 501, 10_000):
        assert np.array_equal(top_k(E, Q, k), full_sort(E, Q, k))
    assert top_k(E, Q[0], 10_000).shape == (500,)
    assert sorted(top_k(E, Q[0], 500)) == list(range(500))


def test_all_equal_scores_come_back_in_id_order():
    E = np.ones((9, 3), dtype=np.float32)
    assert top_k(E, np.ones(3), 4).tolist() == [0, 1, 2, 3]


def test_score_block_never_exceeds_the_cap(monkeypatch):
    seen = []
    real = exact.score_matrix

    def spy(E, Qm, scales=None):
        S = real(E, Qm, scales)
        seen.append(S.nbytes)
        return S

    monkeypatch.setattr(exact, "score_matrix", spy)
    rng = np.random.default_rng(0)
    E = rng.standard_normal((1000, 8)).astype(np.float32)
    Q = rng.standard_normal((50, 8)).astype(np.float32)
    cap = 4 * 1000 * 7  # seven queries' scores
    ids, _ = search(E, Q, 5, cap=cap)
    assert max(seen) <= cap and len(seen) == 8  # ceil(50 / 7)
    assert np.array_equal(ids, full_sort(E, Q, 5))
    seen.clear()
    search(E, Q, 5)  # default cap: 32 MiB holds 8,388 queries of 1,000 scores
    assert len(seen) == 1 and max(seen) <= exact.MAX_SCORE_BYTES


def test_float32_corpus_is_not_upcast_and_float64_stays_float64():
    rng = np.random.default_rng(0)
    E = rng.standard_normal((20, 4)).astype(np.float32)
    assert search(E, rng.standard_normal(4), 3)[1].dtype == np.float32
    assert search(E.astype(np.float64), rng.standard_normal(4), 3)[1].dtype == np.float64
    assert np.array_equal(top_k(E.astype(int), np.ones(4), 5), full_sort(E.astype(int).astype(float), np.ones(4), 5)[0])


@pytest.mark.parametrize("k", [0, -1, 1.5, True, "3", None])
def test_bad_k_is_a_typed_error(k):
    with pytest.raises(RetrievalError, match="k must be a whole number"):
        top_k(np.eye(3), np.ones(3), k)


@pytest.mark.parametrize(
    "E, q, message",
    [
        (np.zeros((0, 3)), np.ones(3), "empty"),
        (np.zeros((4, 0)), np.ones(0), "empty"),
        (np.ones(3), np.ones(3), r"\(N, d\) matrix"),
        (np.ones((2, 3, 4)), np.ones(4), r"\(N, d\) matrix"),
        (np.eye(3), np.ones(4), "match the corpus"),
        (np.eye(3), np.ones((2, 2, 3)), "match the corpus"),
        (np.eye(3), np.array([1.0, np.nan, 0.0]), "NaN or infinity"),
        (np.array([[1.0, np.nan], [0.0, 1.0]]), np.ones(2), "NaN or infinite"),
        (np.array([["a", "b"]]), np.ones(2), "real numbers"),
        (np.eye(2), np.array(["a", "b"]), "real numbers"),
    ],
)
def test_bad_inputs_are_typed_errors(E, q, message):
    with pytest.raises(RetrievalError, match=message) as err:
        top_k(E, q, 2)
    assert isinstance(err.value, SubwordScopeError) and isinstance(err.value, ValueError)


def test_same_ids_as_faiss_index_flat_ip():
    faiss = pytest.importorskip("faiss")
    from core.retrieval import faiss_flat_search, synthetic_corpus

    E, Q = synthetic_corpus(5000, 48, n_queries=40, seed=3)
    index = faiss.IndexFlatIP(48)
    index.add(E)
    _, ref = index.search(Q, 10)
    assert np.array_equal(top_k(E, Q, 10), ref)
    assert np.array_equal(faiss_flat_search(E, Q, 10)[0], ref)
