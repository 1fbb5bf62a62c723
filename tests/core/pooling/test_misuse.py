"""Every public function of :mod:`core.pooling` (and its ``compare`` and ``standin``
modules), misused — ragged lists, None, strings, objects, complex numbers, empty and
mis-shaped arrays, NaN and infinity, masks that do not fit, numbers that are not whole,
unknown methods — raises a :class:`~core.pooling.PoolingError` (a ``ValueError``), never a
``TypeError`` or ``IndexError`` from inside numpy."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import SubwordScopeError
from core.pooling import (
    PoolingError, aggregate_chunks, attention_pool, chunk_windows, cls_pool, contributions,
    cosine_matrix, max_pool, mean_pool, noisy_or, pad_rows, pool, unmasked_mean, window_spans,
)
from core.pooling.compare import centroid_query, compare_methods, padding_demo, score_chunks
from core.pooling.standin import evidence_sweep, standin_document

_rng = np.random.default_rng(0)
H = _rng.standard_normal((2, 5, 3))
MASK = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])
W = np.array([1.0, 0.0, 0.0])


def _with(value):
    out = H.copy()
    out[0, 1, 2] = value
    return out


# misuses of (..., n, d) token vectors
VECTORS = {
    "None": None, "a str": "tokens", "a dict": {"a": 1}, "a scalar": 1.5, "an empty list": [],
    "ragged rows": [[1.0, 2.0, 3.0], [1.0]], "ragged depth": [[[1.0, 2.0, 3.0]], [1.0, 2.0, 3.0]],
    "rows of None": [[None] * 3] * 5, "strings": [["a", "b", "c"]] * 5,
    "objects": np.array([[object()] * 3] * 5, dtype=object), "complex": H.astype(complex),
    "datetimes": np.zeros((5, 3), "datetime64[s]"), "a vector": np.ones(3),
    "no tokens": np.empty((0, 3)), "no dimensions": np.empty((5, 0)),
    "NaN": _with(np.nan), "infinity": _with(np.inf),
}
# misuses of a (..., n) mask
MASKS = {
    "a str": "mask", "ragged": [[1, 1, 1, 0, 0], [1]], "strings": [["1"] * 5] * 2,
    "objects": np.array([[object()] * 5] * 2, dtype=object), "wrong length": np.ones((2, 4)),
    "all padding": np.zeros((2, 5)), "NaN": np.full((2, 5), np.nan), "a scalar": 1,
    "values other than 0 and 1": np.full((2, 5), 2), "negative": -MASK,
}
WHOLE = {"-1": -1, "1.5": 1.5, "None": None, "'3'": "3", "True": True, "NaN": float("nan"),
         "infinity": float("inf"), "[3]": [3], "a complex": 3 + 0j}
METHOD = {"unknown": "sum", "None": None, "a number": 3, "a list": ["mean"], "upper case": "MEAN"}
REAL = {"None": None, "a str": "1", "NaN": float("nan"), "infinity": float("inf"),
        "a list": [1.0], "True": True, "a complex": 1j}
PROBABILITIES = {"None": None, "a str": "0.5", "ragged": [[0.1], [0.2, 0.3]], "empty": [],
                 "NaN": [0.1, np.nan], "above 1": [0.1, 1.5], "negative": [-0.1],
                 "objects": np.array([object()], dtype=object), "complex": [0.5j]}

CALLS = [
    ("cls_pool H", lambda v: cls_pool(v), VECTORS),
    ("cls_pool mask", lambda v: cls_pool(H, v), {**MASKS, "padding first": 1 - MASK}),
    ("mean_pool H", lambda v: mean_pool(v), VECTORS),
    ("mean_pool mask", lambda v: mean_pool(H, v), MASKS),
    ("unmasked_mean H", unmasked_mean, VECTORS),
    ("max_pool H", lambda v: max_pool(v), VECTORS),
    ("max_pool mask", lambda v: max_pool(H, v), MASKS),
    ("attention_pool H", lambda v: attention_pool(v, None, W), VECTORS),
    ("attention_pool mask", lambda v: attention_pool(H, v, W), MASKS),
    ("attention_pool w", lambda v: attention_pool(H, MASK, v),
     {**{k: x for k, x in VECTORS.items() if k not in ("a vector",)}, "wrong width": np.ones(4),
      "NaN": np.array([np.nan, 0, 0]), "infinity": np.array([np.inf, 0, 0])}),
    ("contributions H", lambda v: contributions(v, None, "mean"), VECTORS),
    ("contributions mask", lambda v: contributions(H, v, "max"), MASKS),
    ("contributions method", lambda v: contributions(H, MASK, v), METHOD),
    ("contributions w", lambda v: contributions(H, MASK, "attention", v),
     {"None": None, "a str": "w", "wrong width": np.ones(4), "ragged": [[1.0], [1.0, 2.0]]}),
    ("pool H", lambda v: pool(v, None, "mean"), VECTORS),
    ("pool mask", lambda v: pool(H, v, "max"), MASKS),
    ("pool method", lambda v: pool(H, MASK, v), METHOD),
    ("pool w", lambda v: pool(H, MASK, "attention", v),
     {"None": None, "a str": "w", "wrong width": np.ones(4), "ragged": [[1.0], [1.0, 2.0]]}),
    ("pad_rows H", lambda v: pad_rows(v, 8), {k: x for k, x in VECTORS.items()
                                              if k not in ("no tokens",)}),
    ("pad_rows length", lambda v: pad_rows(H[0], v), {**WHOLE, "shorter than H": 4}),
    ("cosine_matrix V", cosine_matrix,
     {k: x for k, x in VECTORS.items() if k not in ("a vector",)} | {"3-D": H}),
    ("chunk_windows n", lambda v: chunk_windows(v, 4, 1), WHOLE),
    ("chunk_windows content", lambda v: chunk_windows(10, v, 0), {**WHOLE, "0": 0}),
    ("chunk_windows overlap", lambda v: chunk_windows(10, 4, v), {**WHOLE, "= content": 4}),
    ("window_spans offsets", lambda v: window_spans(v, [(0, 1)]),
     {"None": None, "a number": 3, "a str": "0,1", "not pairs": [5], "triples": [(0, 1, 2)],
      "floats": [(0.5, 1.0)], "reversed": [(2, 1)], "negative": [(-1, 1)]}),
    ("window_spans windows", lambda v: window_spans([(0, 1), (1, 2)], v),
     {"None": None, "a number": 3, "not pairs": [5], "empty window": [(1, 1)],
      "past the tokens": [(0, 3)], "reversed": [(2, 1)], "floats": [(0, 1.5)]}),
    ("noisy_or p", noisy_or, PROBABILITIES),
    ("aggregate_chunks p", aggregate_chunks, PROBABILITIES),
    ("centroid_query H", lambda v: centroid_query(v), VECTORS),
    ("centroid_query mask", lambda v: centroid_query(H, v), MASKS),
    ("centroid_query scale", lambda v: centroid_query(H, MASK, v), REAL),
    ("compare_methods H", lambda v: compare_methods(v, MASK),
     {**{k: x for k, x in VECTORS.items() if k != "a vector"}, "2-D": H[0]}),
    ("compare_methods mask", lambda v: compare_methods(H, v), MASKS),
    ("compare_methods queries", lambda v: compare_methods(H, MASK, v),
     {"a str": "q", "ragged": [[1.0], [1.0, 2.0]], "wrong width": np.ones((2, 4)),
      "one row short": np.ones((1, 3)), "NaN": np.full((2, 3), np.nan)}),
    ("compare_methods scale", lambda v: compare_methods(H, MASK, scale=v), REAL),
    ("padding_demo H", lambda v: padding_demo(v, 8),
     {k: x for k, x in VECTORS.items() if k != "no tokens"}),
    ("padding_demo length", lambda v: padding_demo(H[0], v), {**WHOLE, "shorter than H": 4}),
    ("score_chunks window_vectors", lambda v: score_chunks(v, W),
     {k: x for k, x in VECTORS.items() if k not in ("a vector",)} | {"3-D": H}),
    ("score_chunks query", lambda v: score_chunks(H[0], v),
     {"None": None, "a str": "q", "wrong width": np.ones(4), "ragged": [[1.0], [1.0, 2.0]],
      "NaN": np.array([np.nan, 0, 0]), "complex": W.astype(complex)}),
    ("standin_document n", lambda v: standin_document(v), {**WHOLE, "0": 0}),
    ("standin_document d", lambda v: standin_document(10, v), {**WHOLE, "0": 0}),
    ("standin_document evidence", lambda v: standin_document(10, evidence=v), METHOD),
    ("standin_document n_evidence", lambda v: standin_document(10, n_evidence=v), WHOLE),
    ("standin_document density", lambda v: standin_document(10, evidence="dense", density=v),
     {**REAL, "above 1": 1.5, "negative": -0.1}),
    ("standin_document strength", lambda v: standin_document(10, strength=v), REAL),
    ("standin_document junk_strength", lambda v: standin_document(10, junk_spike=True,
                                                                 junk_strength=v), REAL),
    ("standin_document k_dims", lambda v: standin_document(10, k_dims=v),
     {**WHOLE, "0": 0, "more than d": 33}),
    ("standin_document seed", lambda v: standin_document(10, seed=v),
     {"a str": "0", "negative": -1, "a float": 1.5, "a tuple with a str": (1, "2")}),
    ("evidence_sweep lengths", lambda v: evidence_sweep(v),
     {"None": None, "a str": "10", "ragged": [[1], [2, 3]], "zero": [0], "floats": [1.5],
      "empty": []}),
    ("evidence_sweep d", lambda v: evidence_sweep([4], v), {**WHOLE, "0": 0}),
    ("evidence_sweep seed", lambda v: evidence_sweep([4], seed=v),
     {"a str": "0", "negative": -1, "a float": 1.5}),
    ("evidence_sweep attention_scale", lambda v: evidence_sweep([4], attention_scale=v), REAL),
    ("evidence_sweep docs", lambda v: evidence_sweep([4], docs=v), {**WHOLE, "0": 0}),
    ("evidence_sweep strength", lambda v: evidence_sweep([4], strength=v), REAL),
    ("standin_document rng", lambda v: standin_document(10, rng=v),
     {"a seed": 0, "a str": "rng", "a legacy RandomState": np.random.RandomState(0)}),
]

CASES = [pytest.param(call, value, id=f"{name}: {label}")
         for name, call, misuses in CALLS for label, value in misuses.items()]


@pytest.mark.parametrize("call,value", CASES)
def test_a_misuse_is_a_pooling_error(call, value):
    with pytest.raises(PoolingError):
        call(value)


def test_pooling_errors_are_typed_value_errors():
    assert issubclass(PoolingError, ValueError) and issubclass(PoolingError, SubwordScopeError)


def test_the_valid_calls_of_the_table_work():
    assert cls_pool(H, MASK).shape == (2, 3) and mean_pool(H, MASK).shape == (2, 3)
    assert max_pool(H, MASK.astype(bool)).vector.shape == (2, 3)
    assert attention_pool(H, MASK, W).weights[0, 3:].tolist() == [0.0, 0.0]
    assert np.allclose(contributions(H, MASK, "attention", W).sum(axis=-1), 1)
    assert pool(H, None, "cls").shape == (2, 3) and pad_rows(H[0], 8)[1].sum() == 5
    assert cosine_matrix(H[0]).shape == (5, 5) and chunk_windows(10, 4, 1)[-1] == (6, 10)
    assert window_spans([(0, 1), (1, 2)], [(0, 2)]) == [(0, 2)]
    assert noisy_or([0.1, 0.2, 0.7]) == pytest.approx(0.784)
    assert compare_methods(H, MASK).queries.shape == (2, 3)
    assert np.allclose(compare_methods(H, None).pooled["mean"], H.mean(axis=1))
    assert padding_demo(H[0], 8).length == 8 and score_chunks(H[0], W).cosine.shape == (5,)
    assert standin_document(10, 32, evidence="dense", density=0.5).H.shape == (10, 32)
    assert standin_document(10, 32, seed=(1, 2)).H.shape == (10, 32)
    assert standin_document(10, rng=np.random.default_rng(0)).H.shape == (10, 4)
    assert set(evidence_sweep([4, 8]).signal) == {"sparse", "dense", "junk", "noise"}
