"""Cosine scores equal exact search; raw dot products change the ranking (the seed's
mistake), an unnormalized query only the scores."""

from __future__ import annotations

import numpy as np
import pytest

from core.retrieval import RetrievalError, scored_search, search


@pytest.fixture
def corpus():
    rng = np.random.default_rng(7)
    raw = rng.standard_normal((200, 16)) * rng.uniform(0.2, 5.0, size=(200, 1))  # very different lengths
    norms = np.linalg.norm(raw, axis=1)
    q_raw = rng.standard_normal(16) * 3.0
    return raw / norms[:, None], norms, q_raw / np.linalg.norm(q_raw), float(np.linalg.norm(q_raw)), raw, q_raw


def test_cosine_is_exact_search(corpus):
    E, norms, q, qn, _, _ = corpus
    ids, scores = scored_search(E, norms, q, qn, 10)
    want_ids, want_scores = search(E, q, 10)
    assert np.array_equal(ids, want_ids) and np.allclose(scores, want_scores)


def test_an_unnormalized_query_keeps_the_ranking_and_scales_the_scores(corpus):
    E, norms, q, qn, _, _ = corpus
    ids, scores = scored_search(E, norms, q, qn, 10, "query not normalized")
    cos_ids, cos = search(E, q, 10)
    assert np.array_equal(ids, cos_ids)
    assert np.allclose(scores, cos * qn, rtol=1e-5) and scores[0] > 1


def test_a_raw_dot_product_ranks_by_length_too(corpus):
    E, norms, q, qn, raw, q_raw = corpus
    ids, scores = scored_search(E, norms, q, qn, 10, "raw dot")
    direct = raw @ q_raw
    assert np.array_equal(ids, np.argsort(-direct, kind="stable")[:10])
    assert np.allclose(scores, direct[ids], rtol=1e-4)
    assert not np.array_equal(ids, search(E, q, 10)[0])  # a different ranking from cosine
    assert norms[ids].mean() > norms.mean()  # long vectors win


def test_bad_arguments(corpus):
    E, norms, q, qn, _, _ = corpus
    with pytest.raises(RetrievalError, match="unknown scoring"):
        scored_search(E, norms, q, qn, 3, "dot")
    with pytest.raises(RetrievalError, match="one per vector"):
        scored_search(E, norms[:5], q, qn, 3, "raw dot")
