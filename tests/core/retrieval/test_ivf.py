"""IVF with numpy k-means: search, recall and fraction scanned against a direct computation."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from core.retrieval import (
    IVFIndex,
    RetrievalError,
    faiss_ivf_sweep,
    ivf_sweep,
    kmeans,
    synthetic_corpus,
    top_k,
)


@pytest.fixture(scope="module")
def small():
    E, Q = synthetic_corpus(6000, 16, topics=40, n_queries=30, seed=7)
    return E, Q, IVFIndex(E, 48, seed=1)


def brute_force_ivf(index, E, q, k, nprobe):
    """Direct IVF: nearest cells by full sort, every vector of those cells, full stable sort."""
    d2 = ((index.centroids - q) ** 2).sum(axis=1)
    cells = np.argsort(d2, kind="stable")[:nprobe]
    members = np.flatnonzero(np.isin(index.labels, cells))  # ascending ids
    order = np.argsort(-(E[members] @ q), kind="stable")[:k]
    ids = np.full(k, -1)
    ids[: order.size] = members[order]
    return ids, members.size


def test_cells_are_nearest_centroids(small):
    E, _, index = small
    d2 = ((E[:, None, :] - index.centroids[None]) ** 2).sum(axis=2)
    assert np.array_equal(index.labels, d2.argmin(axis=1))
    assert index.sizes.sum() == len(E) and index.sizes.min() > 0


@pytest.mark.parametrize("nprobe", [1, 3, 8])
def test_search_equals_direct_computation(small, nprobe):
    E, Q, index = small
    ids, scanned = index.search(Q, 10, nprobe)
    for i, q in enumerate(Q):
        ref_ids, ref_scanned = brute_force_ivf(index, E, q, 10, nprobe)
        assert ids[i].tolist() == ref_ids.tolist()
        assert scanned[i] == ref_scanned
    one, n_one = index.search(Q[0], 10, nprobe)
    assert one.tolist() == ids[0].tolist() and n_one == scanned[0]


def test_sweep_recall_and_fraction_match_a_direct_count(small):
    E, Q, index = small
    nprobes = (1, 2, 6, 48)
    sweep = ivf_sweep(E, Q, 48, nprobes, k=10, index=index)
    exact = np.argsort(-(Q @ E.T), axis=1, kind="stable")[:, :10]
    for p, recall, fraction in zip(nprobes, sweep.recall, sweep.fraction_scanned):
        found, scanned = [], []
        for q, ex in zip(Q, exact):
            ids, n = brute_force_ivf(index, E, q, 10, p)
            found.append(len(set(ids.tolist()) & set(ex.tolist())) / 10)
            scanned.append(n / len(E))
        assert recall == pytest.approx(np.mean(found), abs=1e-12)
        assert fraction == pytest.approx(np.mean(scanned), abs=1e-12)
    assert sweep.recall[-1] == 1.0 and sweep.fraction_scanned[-1] == 1.0  # every cell = exact
    assert list(sweep.recall) == sorted(sweep.recall)
    assert list(sweep.fraction_scanned) == sorted(sweep.fraction_scanned)


def test_the_seed_shape_on_a_small_clustered_corpus():
    """Few cells probed find almost all of the exact top 10 (the seed: 0.924 at 0.5 %)."""
    E, Q = synthetic_corpus(20_000, 32, n_queries=40, seed=0)
    sweep = ivf_sweep(E, Q, 64, (1, 4, 16))
    assert sweep.recall[0] >= 0.8 and sweep.recall[2] >= 0.98
    assert sweep.fraction_scanned[0] < 0.04 < sweep.fraction_scanned[1] < 0.12 < sweep.fraction_scanned[2] < 0.4


def test_all_cells_give_exact_search_and_short_lists_pad_with_minus_one():
    E, Q = synthetic_corpus(500, 8, topics=5, n_queries=6, seed=3)
    index = IVFIndex(E, 25)
    assert np.array_equal(index.search(Q, 10, 25)[0], top_k(E, Q, 10))
    ids, scanned = index.search(Q, 600, 1)
    for row, n in zip(ids, scanned):
        assert (row[:n] >= 0).all() and (row[n:] == -1).all()


def test_kmeans_is_seeded_and_handles_duplicates():
    E, _ = synthetic_corpus(2000, 8, n_queries=0, seed=0)
    a, b = kmeans(E, 16, seed=3), kmeans(E, 16, seed=3)
    assert np.array_equal(a.centroids, b.centroids) and a.iterations == b.iterations
    assert not np.array_equal(a.centroids, kmeans(E, 16, seed=4).centroids)
    dup = np.repeat(np.eye(4, dtype=np.float32), 5, axis=0)  # 4 distinct points, 6 cells
    km = kmeans(dup, 6, seed=0)
    assert km.centroids.shape == (6, 4) and km.inertia == pytest.approx(0.0, abs=1e-6)
    assert kmeans(E[:10], 10).inertia == pytest.approx(0.0, abs=1e-6)


def test_bad_arguments_are_typed_errors():
    E = np.eye(4)
    with pytest.raises(RetrievalError, match="cannot make 5 cells"):
        IVFIndex(E, 5)
    index = IVFIndex(E, 2)
    for bad in (dict(k=0, nprobe=1), dict(k=1, nprobe=0)):
        with pytest.raises(RetrievalError, match="whole number"):
            index.search(np.ones(4), **bad)
    with pytest.raises(RetrievalError, match="match the corpus"):
        index.search(np.ones(3), 1, 1)
    with pytest.raises(RetrievalError, match="NaN"):
        kmeans(np.array([[np.nan, 0.0]]), 1)
    ids, scanned = index.search(np.zeros((0, 4)), 3, 1)
    assert ids.shape == (0, 3) and scanned.shape == (0,)
    with pytest.raises(RetrievalError, match="cells over"):
        ivf_sweep(E, E, 3, index=index)


def test_faiss_reference_sweep_has_the_same_shape():
    pytest.importorskip("faiss")
    E, Q = synthetic_corpus(20_000, 32, n_queries=40, seed=0)
    ref = faiss_ivf_sweep(E, Q, 64, (1, 4, 64))
    ours = ivf_sweep(E, Q, 64, (1, 4, 64))
    assert ref.source == "faiss" and ref.nprobe == ours.nprobe
    assert ref.recall[-1] == 1.0 and ref.fraction_scanned[-1] == pytest.approx(1.0)
    for a, b in zip(ours.recall, ref.recall):
        assert abs(a - b) <= 0.1
    for a, b in zip(ours.fraction_scanned, ref.fraction_scanned):
        assert abs(a - b) <= 0.5 * b


def test_faiss_reference_is_none_without_faiss(monkeypatch):
    monkeypatch.setitem(sys.modules, "faiss", None)  # import faiss → ImportError
    E, Q = synthetic_corpus(300, 8, n_queries=3)
    assert faiss_ivf_sweep(E, Q, 4) is None


def test_a_k_above_the_corpus_size_is_capped_as_in_exact_search():
    E, Q = synthetic_corpus(50, 8, topics=4, n_queries=5, seed=1)
    index = IVFIndex(E, 4)
    ids, scanned = index.search(Q[0], 10**9, 4)  # all cells: every vector, each once
    assert ids.shape == (50,) and sorted(ids.tolist()) == list(range(50))
    assert ids.tolist() == top_k(E, Q[0], 10**9).tolist() and scanned == 50
    sweep = ivf_sweep(E, Q, 4, (1, 4), k=100, index=index)
    assert sweep.recall[-1] == 1.0 and 0 < sweep.recall[0] <= 1.0
