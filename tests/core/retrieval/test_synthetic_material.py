"""The course material's search program on :func:`synthetic_corpus` (SPEC §10, ITEMS 000-26..34).

``synthetic_corpus(100_000, 64)`` draws the material's stream (float64 normals rounded to
float32 after the centres are added), so the arrays are the material's and its printed figures
come out exactly: top-3 ids 71429 29778 66022 with cosines 0.9396 0.7573 0.7373, a top-k that
matches a full sort, int8 recall@10 0.986 over its 50 queries. IVF depends on the k-means, so
ours is held to the printed shape (0.924 / 1.000 / 1.000 scanning 0.5 % / 1.5 % / 6.2 %).
"""

from __future__ import annotations

import numpy as np
import pytest

from core.retrieval import ivf_sweep, quantize_int8, recall_at_k, search, synthetic_corpus, top_k


@pytest.fixture(scope="module")
def corpus():
    return synthetic_corpus(100_000, 64)


def test_shapes_and_dtypes(corpus):
    E, Q = corpus
    assert E.shape == (100_000, 64) and Q.shape == (50, 64)
    assert E.dtype == Q.dtype == np.float32


def test_the_arrays_are_the_materials(corpus):
    """The material's generator written out, on a smaller corpus (same stream, same order)."""
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(200, 16))
    topic = rng.integers(0, 200, size=5000)
    emb = (centres[topic] + 0.8 * rng.normal(size=(5000, 16))).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    queries = emb[rng.choice(5000, 50, replace=False)] + 0.05 * rng.normal(size=(50, 16)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    E, Q = synthetic_corpus(5000, 16, seed=3)
    np.testing.assert_array_equal(E, emb)
    np.testing.assert_array_equal(Q, queries)


def test_top3_ids_and_cosines(corpus):
    E, Q = corpus
    ids = top_k(E, Q[0], 10)
    assert ids[:3].tolist() == [71429, 29778, 66022]
    assert [round(float(c), 4) for c in (E @ Q[0])[ids[:3]]] == [0.9396, 0.7573, 0.7373]
    assert np.array_equal(ids, np.argsort(-(E @ Q[0]), kind="stable")[:10])  # "matches full sort"


def test_int8_recall(corpus):
    E, Q = corpus
    codes, scales = quantize_int8(E)
    assert round(recall_at_k(search(codes, Q, 10, scales=scales)[0], top_k(E, Q, 10)), 4) == 0.986


@pytest.mark.slow
def test_ivf_has_the_printed_shape(corpus):
    E, Q = corpus
    sw = ivf_sweep(E, Q, 256, (1, 4, 16), seed=0)
    assert sw.recall[0] == pytest.approx(0.924, abs=0.025)  # ours 0.942 (k-means dependent)
    assert sw.recall[1:] == (1.0, 1.0)
    for got, printed in zip(sw.fraction_scanned, (0.005, 0.015, 0.062)):
        assert got == pytest.approx(printed, abs=0.002)
