"""float16 / int8 codes (SPEC §10 golden), scoring on codes and full-precision re-ranking."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from core.retrieval import (
    FlatIndex,
    RetrievalError,
    dequantize_int8,
    quantize_float16,
    quantize_int8,
    recall_at_k,
    rerank,
    search,
    synthetic_corpus,
    top_k,
)


def test_spec_int8_golden():
    codes, scale = quantize_int8(np.array([0.5, -0.2, 0.1]))
    assert codes.dtype == np.int8 and codes.shape == (3,)
    assert codes.tolist() == [127, -51, 25]
    assert np.ndim(scale) == 0 and round(float(scale), 6) == 0.003937
    assert [round(float(x), 4) for x in dequantize_int8(codes, scale)] == [0.5, -0.2008, 0.0984]


def test_int8_matrix_gives_one_scale_per_vector_and_zero_rows_stay_zero():
    codes, scales = quantize_int8(np.array([[0.5, -0.2, 0.1], [0.0, 0.0, 0.0], [-2.0, 1.0, 0.0]]))
    assert codes.tolist() == [[127, -51, 25], [0, 0, 0], [-127, 64, 0]]
    assert scales.shape == (3,) and scales.dtype == np.float32
    assert scales[1] == 0 and np.isclose(scales[2], 2 / 127)
    assert dequantize_int8(codes, scales)[1].tolist() == [0, 0, 0]


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.float32, st.tuples(st.integers(1, 8), st.integers(1, 16)),
                  elements=st.floats(-100, 100, width=32)))
def test_int8_error_is_at_most_half_a_step_and_the_peak_is_127(E):
    codes, scales = quantize_int8(E)
    err = np.abs(dequantize_int8(codes, scales) - E)
    assert (err <= scales[:, None] * 0.5 * (1 + 1e-5) + 1e-30).all()
    nonzero = np.abs(E).max(axis=1) > 0
    assert (np.abs(codes[nonzero]).max(axis=1) == 127).all()


def test_int8_peak_is_127_even_for_float32_subnormals():
    codes, scales = quantize_int8(np.array([[1e-45, 0.0], [0.5, -0.25]], dtype=np.float32))
    assert codes.tolist() == [[127, 0], [127, -64]]
    assert scales[0] == 0 and dequantize_int8(codes, scales)[0].tolist() == [0, 0]


def test_int8_refuses_values_whose_scale_overflows_float32():
    with pytest.raises(RetrievalError, match="too large for a float32 scale"):
        quantize_int8(np.array([[1e300, 1.0], [0.5, 0.5]]))


def test_float16_codes_and_their_limits():
    E = np.array([[0.1, -0.3333], [1.0, 2.0]])
    F = quantize_float16(E)
    assert F.dtype == np.float16 and np.allclose(F, E, atol=1e-3)
    with pytest.raises(RetrievalError, match="65,504"):
        quantize_float16(np.array([[1e6, 0.0]]))
    with pytest.raises(RetrievalError, match="NaN"):
        quantize_int8(np.array([np.nan, 1.0]))
    with pytest.raises(RetrievalError, match="non-empty"):
        quantize_int8(np.zeros((0, 3)))
    with pytest.raises(RetrievalError, match="int8"):
        dequantize_int8(np.zeros(3), 1.0)
    with pytest.raises(RetrievalError, match="scales"):
        dequantize_int8(np.zeros((2, 3), np.int8), np.ones(3))


def test_scoring_on_int8_codes_equals_scoring_the_decoded_vectors():
    E, Q = synthetic_corpus(3000, 32, n_queries=10, seed=2)
    codes, scales = quantize_int8(E)
    ids, scores = search(codes, Q, 10, scales=scales)
    decoded = dequantize_int8(codes, scales)
    assert np.allclose(scores, np.take_along_axis(Q @ decoded.T, ids, axis=1), atol=1e-5)
    assert recall_at_k(ids, top_k(decoded, Q, 10)) >= 0.98
    with pytest.raises(RetrievalError, match="one per vector"):
        search(codes, Q, 10, scales=scales[:-1])
    with pytest.raises(RetrievalError, match="int8 codes"):
        search(E, Q, 10, scales=scales)


def test_float16_scoring_decodes_in_blocks_and_matches_float32_of_the_codes():
    E, Q = synthetic_corpus(2000, 16, n_queries=5, seed=4)
    F = quantize_float16(E)
    ids, scores = search(F, Q, 7)
    assert scores.dtype == np.float32
    assert np.array_equal(ids, top_k(F.astype(np.float32), Q, 7))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int8"])
def test_flat_index_recall_and_rerank_of_everything_is_exact(dtype):
    E, Q = synthetic_corpus(4000, 32, n_queries=20, seed=5)
    exact = top_k(E, Q, 10)
    index = FlatIndex(E, dtype)
    assert index.nbytes == {"float32": 4, "float16": 2, "int8": 1}[dtype] * E.size + (4 * len(E) if dtype == "int8" else 0)
    approx, _ = index.search(Q, 10)
    assert recall_at_k(approx, exact) >= (1.0 if dtype == "float32" else 0.95)
    full, _ = index.search(Q, 10, rerank=len(E))
    assert np.array_equal(full, exact)
    reranked, _ = index.search(Q, 10, rerank=50)
    assert recall_at_k(reranked, exact) >= recall_at_k(approx, exact)


def test_rerank_orders_candidates_by_full_scores_and_keeps_padding_last():
    E = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8], [0.8, 0.6]])
    q = np.array([1.0, 0.0])
    ids, scores = rerank(E, q, np.array([1, 2, 3, -1, 0]), 4)
    assert ids.tolist() == [0, 3, 2, 1]
    ids, scores = rerank(E, q, np.array([2, -1, -1]), 2)
    assert ids.tolist() == [2, -1] and np.isneginf(scores[1])
    with pytest.raises(RetrievalError, match="candidate ids"):
        rerank(E, q, np.array([4]), 1)
    with pytest.raises(RetrievalError, match="unknown code type"):
        FlatIndex(E, "int4")
