"""Every public function of :mod:`core.retrieval`, misused — ragged lists, None, strings,
objects, complex numbers, empty and mis-shaped arrays, NaN and infinity, ``k <= 0``, numbers
that are not whole, unknown choices — raises a typed error (a :class:`SubwordScopeError`:
:class:`~core.retrieval.RetrievalError`, or :class:`~core.errors.OffsetError` for spans), never
a ``TypeError``, ``ValueError`` or ``IndexError`` from inside numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.encoder import StandInEncoder
from core.errors import SubwordScopeError
from core.retrieval import (
    FlatIndex, IVFIndex, RetrievalError, TranslationRecall, align_parallel, aligned_recall,
    article_structure, cache_key, crosslingual_table, dequantize_int8, embed_corpus,
    exact_query_cost, faiss_flat_search, faiss_ivf_index, faiss_ivf_sweep, ivf_sweep, kmeans,
    matched_spans, memory_table, quantize_float16, quantize_int8, rank_correlation, read_number, recall_at_k,
    rerank, scored_search, search, synthetic_corpus, top_k, translation_ranks,
    translation_recall, vector_bytes,
)

_rng = np.random.default_rng(0)
E = _rng.standard_normal((20, 4)).astype(np.float32)
E /= np.linalg.norm(E, axis=1, keepdims=True)
Q = E[:3] + np.float32(0.01)
q = E[0]
CODES, SCALES = quantize_int8(E)
IDS = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8]])


def _with(value, at=(1, 2)):
    out = np.array(E, dtype=np.float64)
    out[at] = value
    return out


# misuses of an (N, d) matrix of vectors
MATRIX = {
    "None": None, "a str": "vectors", "a dict": {"a": 1}, "a scalar": 1.5, "an empty list": [],
    "ragged rows": [[1.0, 2.0, 3.0, 4.0], [1.0]],
    "ragged depth": [[[1.0, 2.0, 3.0, 4.0]], [1.0, 2.0, 3.0, 4.0]],
    "rows of None": [[None] * 4] * 3, "strings": [["a", "b", "c", "d"]] * 3,
    "objects": np.array([[object()] * 4] * 3, dtype=object),
    "complex": np.ones((20, 4), complex), "datetimes": np.zeros((20, 4), "datetime64[s]"),
    "no rows": np.empty((0, 4)), "no columns": np.empty((20, 0)), "3-D": np.ones((2, 20, 4)),
    "NaN": _with(np.nan), "infinity": _with(np.inf), "-infinity": _with(-np.inf),
}
# misuses of a (d,) or (Q, d) query (no rows is an empty batch: empty results)
QUERY = {**{k: v for k, v in MATRIX.items() if k not in ("no columns", "no rows")},
         "wrong width": np.ones(5), "(Q, wrong width)": np.ones((2, 5)),
         "NaN": np.array([1.0, np.nan, 0, 0]), "infinity": np.array([np.inf, 0, 0, 0])}
# misuses of a whole-number argument (k, nlist, nprobe, n, dim, ...)
WHOLE = {"0": 0, "-1": -1, "1.5": 1.5, "None": None, "'3'": "3", "True": True,
         "NaN": float("nan"), "infinity": float("inf"), "[3]": [3], "an array": np.array([1, 2]),
         "a complex": 3 + 0j, "b'3'": b"3"}
POSITIVE_OR_ZERO = {k: v for k, v in WHOLE.items() if k != "0"}
# misuses of integer ids (candidates, targets, approx/exact)
IDS_MISUSES = {
    "None": None, "a str": "ids", "floats": np.array([[0.5, 1.0, 2.0]] * 3),
    "ragged": [[0, 1, 2], [3]], "strings": [["a", "b", "c"]] * 3, "NaN": [[0, np.nan, 2]] * 3,
    "objects": np.array([[object()] * 3] * 3, dtype=object), "no ids": np.empty((3, 0), int),
    "3-D": np.zeros((1, 3, 3), int),
}
def NOT_NONE(misuses: dict) -> dict:  # noqa: N802 - reads as a table
    """``misuses`` without None (where None means "compute it")."""
    return {k: v for k, v in misuses.items() if k != "None"}


# misuses of a choice among names
CHOICE = {"unknown": "nope", "None": None, "a number": 3, "a list": ["mean"], "bytes": b"mean",
          "upper case": "MEAN"}
# misuses of a finite real number
REAL = {"None": None, "a str": "1", "NaN": float("nan"), "infinity": float("inf"),
        "a list": [1.0], "True": True, "a complex": 1j}
# misuses of a sequence of lines (str)
LINES = {"None": None, "one str": "Article 1\nEveryone", "numbers": [1, 2, 3],
         "a None line": ["Article 1", None], "bytes lines": [b"Article 1"], "a number": 3}


def _flat(v):
    return FlatIndex(v)


IVF = IVFIndex(E, 4)
ALIGNMENT = align_parallel(["one paragraph long enough to pair"] * 3,
                           ["un paragraphe assez long pour la paire"] * 3)
RECALL = TranslationRecall(1.0, 1.0, np.ones(3, np.int64), 10)

# (case, the call with the misused argument, its misuses)
CALLS = [
    ("search E", lambda v: search(v, q, 3), MATRIX),
    ("search q", lambda v: search(E, v, 3), QUERY),
    ("search k", lambda v: search(E, q, v), WHOLE),
    ("search scales", lambda v: search(CODES, q, 3, scales=v),
     {**{k: v for k, v in MATRIX.items() if k not in ("no columns", "None")},
      "too few": SCALES[:3]}),
    ("search cap", lambda v: search(E, q, 3, cap=v), WHOLE),
    ("top_k E", lambda v: top_k(v, q, 3), MATRIX),
    ("top_k q", lambda v: top_k(E, v, 3), QUERY),
    ("top_k k", lambda v: top_k(E, q, v), WHOLE),
    ("rerank E", lambda v: rerank(v, Q, IDS, 2), MATRIX),
    ("rerank q", lambda v: rerank(E, v, IDS, 2), {**QUERY, "fewer than the candidates": Q[:2]}),
    ("rerank candidates", lambda v: rerank(E, Q, v, 2),
     {**IDS_MISUSES, "beyond the corpus": IDS + 20, "below -1": IDS - 5}),
    ("rerank k", lambda v: rerank(E, Q, IDS, v), WHOLE),
    ("rerank cap", lambda v: rerank(E, Q, IDS, 2, cap=v), WHOLE),
    ("FlatIndex E", _flat, MATRIX),
    ("FlatIndex dtype", lambda v: FlatIndex(E, v), CHOICE),
    ("FlatIndex.search q", lambda v: FlatIndex(E, "int8").search(v, 3), QUERY),
    ("FlatIndex.search k", lambda v: FlatIndex(E, "float16").search(q, v), WHOLE),
    ("FlatIndex.search rerank", lambda v: FlatIndex(E, "int8").search(q, 3, rerank=v),
     POSITIVE_OR_ZERO),
    ("IVFIndex E", lambda v: IVFIndex(v, 2), MATRIX),
    ("IVFIndex nlist", lambda v: IVFIndex(E, v), {**WHOLE, "more cells than vectors": 21}),
    ("IVFIndex seed", lambda v: IVFIndex(E, 2, seed=v), POSITIVE_OR_ZERO),
    ("IVFIndex iters", lambda v: IVFIndex(E, 2, iters=v), WHOLE),
    ("IVFIndex.probe q", lambda v: IVF.probe(v, 2), QUERY),
    ("IVFIndex.probe nprobe", lambda v: IVF.probe(q, v), WHOLE),
    ("IVFIndex.search q", lambda v: IVF.search(v, 3, 2), QUERY),
    ("IVFIndex.search k", lambda v: IVF.search(q, v, 2), WHOLE),
    ("IVFIndex.search nprobe", lambda v: IVF.search(q, 3, v), WHOLE),
    ("IVFIndex.search cap", lambda v: IVF.search(q, 3, 2, cap=v), WHOLE),
    ("kmeans X", lambda v: kmeans(v, 2), MATRIX),
    ("kmeans k", lambda v: kmeans(E, v), {**WHOLE, "more than n": 21}),
    ("kmeans seed", lambda v: kmeans(E, 2, seed=v), POSITIVE_OR_ZERO),
    ("kmeans iters", lambda v: kmeans(E, 2, iters=v), WHOLE),
    ("kmeans max_points_per_centre", lambda v: kmeans(E, 2, max_points_per_centre=v), WHOLE),
    ("kmeans cap", lambda v: kmeans(E, 2, cap=v), WHOLE),
    ("quantize_float16", quantize_float16, {k: v for k, v in MATRIX.items() if k != "3-D"}),
    ("quantize_int8", quantize_int8, {k: v for k, v in MATRIX.items() if k != "3-D"}),
    ("dequantize_int8 codes", lambda v: dequantize_int8(v, SCALES),
     {**IDS_MISUSES, "floats": E, "int16": CODES.astype(np.int16)}),
    ("dequantize_int8 scales", lambda v: dequantize_int8(CODES, v),
     {**{k: v for k, v in MATRIX.items() if k not in ("no columns",)}, "too few": SCALES[:3]}),
    ("recall_at_k approx", lambda v: recall_at_k(v, IDS), IDS_MISUSES),
    ("recall_at_k exact", lambda v: recall_at_k(IDS, v),
     {**IDS_MISUSES, "padding -1": np.full((3, 3), -1)}),
    ("ivf_sweep E", lambda v: ivf_sweep(v, Q, 2, k=3), MATRIX),
    ("ivf_sweep Q", lambda v: ivf_sweep(E, v, 2, k=3), QUERY),
    ("ivf_sweep nlist", lambda v: ivf_sweep(E, Q, v, k=3), WHOLE),
    ("ivf_sweep nprobes", lambda v: ivf_sweep(E, Q, 2, v, k=3),
     {"None": None, "a number": 3, "zero": [0], "a str": "14", "floats": [1.5],
      "nothing": []}),
    ("ivf_sweep k", lambda v: ivf_sweep(E, Q, 2, k=v), WHOLE),
    ("ivf_sweep index", lambda v: ivf_sweep(E, Q, 2, k=3, index=v),
     {"a str": "index", "a number": 3, "a dict": {}, "another nlist": IVF}),
    ("ivf_sweep exact", lambda v: ivf_sweep(E, Q, 2, k=3, exact=v),
     {**NOT_NONE(IDS_MISUSES), "other queries": IDS[:2]}),
    ("translation_ranks queries", lambda v: translation_ranks(v, E), MATRIX),
    ("translation_ranks corpus", lambda v: translation_ranks(E[:3], v), MATRIX),
    ("translation_ranks targets", lambda v: translation_ranks(Q, E, targets=v),
     {**NOT_NONE(IDS_MISUSES), "beyond the corpus": [0, 1, 20], "negative": [0, -1, 2],
      "too few": [0, 1]}),
    ("translation_recall k", lambda v: translation_recall(Q, E, v), WHOLE),
    ("translation_recall queries", lambda v: translation_recall(v, E), MATRIX),
    ("crosslingual_table english", lambda v: crosslingual_table(v, {"fra": E}), MATRIX),
    ("crosslingual_table languages", lambda v: crosslingual_table(E, v),
     {"None": None, "a list": [E], "a str": "fra", "a bad matrix": {"fra": [[1.0], [1.0, 2.0]]}}),
    ("crosslingual_table k", lambda v: crosslingual_table(E, {"fra": E}, v), WHOLE),
    ("crosslingual_table targets", lambda v: crosslingual_table(E[:3], {"fra": E}, targets=v),
     {"a list": [IDS[0]], "a str": "fra", "bad ids": {"fra": [0.5, 1, 2]}}),
    ("TranslationRecall.at k", RECALL.at, WHOLE),
    ("scored_search E", lambda v: scored_search(v, np.ones(20), q, 1.0, 3), MATRIX),
    ("scored_search norms", lambda v: scored_search(E, v, q, 1.0, 3, "raw dot"),
     {**{k: v for k, v in MATRIX.items() if k not in ("no columns",)}, "too few": np.ones(3)}),
    ("scored_search q", lambda v: scored_search(E, np.ones(20), v, 1.0, 3), QUERY),
    ("scored_search q_norm", lambda v: scored_search(E, np.ones(20), q, v, 3, "raw dot"), REAL),
    ("scored_search k", lambda v: scored_search(E, np.ones(20), q, 1.0, v), WHOLE),
    ("scored_search scoring", lambda v: scored_search(E, np.ones(20), q, 1.0, 3, v), CHOICE),
    ("synthetic_corpus n", lambda v: synthetic_corpus(v, 4, n_queries=0), WHOLE),
    ("synthetic_corpus dim", lambda v: synthetic_corpus(10, v), {**WHOLE, "1": 1}),
    ("synthetic_corpus topics", lambda v: synthetic_corpus(10, 4, topics=v), WHOLE),
    ("synthetic_corpus noise", lambda v: synthetic_corpus(10, 4, noise=v), {**REAL, "-1": -1.0}),
    ("synthetic_corpus n_queries", lambda v: synthetic_corpus(10, 4, n_queries=v),
     {**POSITIVE_OR_ZERO, "more than n": 11}),
    ("synthetic_corpus seed", lambda v: synthetic_corpus(10, 4, seed=v), POSITIVE_OR_ZERO),
    ("vector_bytes n", lambda v: vector_bytes(v, 4, "int8"), POSITIVE_OR_ZERO),
    ("vector_bytes dim", lambda v: vector_bytes(10, v, "int8"), WHOLE),
    ("vector_bytes dtype", lambda v: vector_bytes(10, 4, v), CHOICE),
    ("exact_query_cost n", lambda v: exact_query_cost(v, 4), POSITIVE_OR_ZERO),
    ("exact_query_cost dim", lambda v: exact_query_cost(10, v), WHOLE),
    ("memory_table n", lambda v: memory_table(v, 4), POSITIVE_OR_ZERO),
    ("memory_table dim", lambda v: memory_table(10, v), WHOLE),
    ("memory_table scale", lambda v: memory_table(10, 4, scale=v), WHOLE),
    ("matched_spans query_tokens", lambda v: matched_spans(v, ["a"], [(0, 1)]),
     {"None": None, "a number": 3, "numbers": [1, 2]}),
    ("matched_spans tokens", lambda v: matched_spans(["a"], v, [(0, 1)]),
     {"None": None, "a number": 3, "numbers": [1], "a None token": [None]}),
    ("matched_spans offsets", lambda v: matched_spans(["a"], ["a"], v),
     {"None": None, "a number": 3, "not pairs": [5], "triples": [(0, 1, 2)],
      "strings": [("0", "1")], "floats": [(0.5, 1.0)], "None pairs": [(None, None)],
      "reversed": [(2, 1)], "negative": [(-1, 1)], "too many": [(0, 1), (1, 2)]}),
    ("matched_spans text_length", lambda v: matched_spans(["a"], ["a"], [(0, 1)], text_length=v),
     {"-1": -1, "a str": "1", "NaN": float("nan"), "shorter than a span": 0}),
    ("align_parallel reference", lambda v: align_parallel(v, ["x"]), LINES),
    ("align_parallel other", lambda v: align_parallel(["x"], v), LINES),
    ("align_parallel min_chars", lambda v: align_parallel(["x"], ["y"], min_chars=v),
     POSITIVE_OR_ZERO),
    ("aligned_recall reference_vectors", lambda v: aligned_recall(v, E[:3], ALIGNMENT),
     {**MATRIX, "fewer than its lines": E[:2]}),
    ("aligned_recall other_vectors", lambda v: aligned_recall(E[:3], v, ALIGNMENT), MATRIX),
    ("aligned_recall alignment", lambda v: aligned_recall(E[:3], E[:3], v),
     {"None": None, "a str": "articles", "a dict": {}}),
    ("aligned_recall k", lambda v: aligned_recall(E[:3], E[:3], ALIGNMENT, v), WHOLE),
    ("article_structure lines", article_structure, LINES),
    ("article_structure last", lambda v: article_structure(["Article 1"] * 6, last=v),
     {"-1": -1, "a str": "5", "1.5": 1.5, "NaN": float("nan")}),
    ("article_structure max_chars", lambda v: article_structure(["a"], max_chars=v), WHOLE),
    ("article_structure min_headings", lambda v: article_structure(["a"], min_headings=v),
     WHOLE),
    ("read_number", read_number, {"None": None, "a number": 3, "bytes": b"12", "a list": ["1"]}),
    ("cache_key model_dir", lambda v: cache_key(v, ["a"], "mean"),
     {"None": None, "a number": 3, "a list": ["models"]}),
    ("cache_key texts", lambda v: cache_key(Path("."), v, "mean"), LINES),
    ("cache_key pooling", lambda v: cache_key(Path("."), ["a"], v), CHOICE),
    ("embed_corpus encoder", lambda v: embed_corpus(v, ["a"], cache=False),
     {"None": None, "a str": "MiniLM", "no dim": object()}),
    ("embed_corpus texts", lambda v: embed_corpus(StandInEncoder(), v, cache=False),
     {**LINES, "empty": []}),
    ("embed_corpus pooling", lambda v: embed_corpus(StandInEncoder(), ["a"], pooling=v,
                                                    cache=False), CHOICE),
    ("embed_corpus batch_size", lambda v: embed_corpus(StandInEncoder(), ["a"], batch_size=v,
                                                       cache=False), WHOLE),
    ("faiss_flat_search E", lambda v: faiss_flat_search(v, Q, 3), MATRIX),
    ("faiss_flat_search Q", lambda v: faiss_flat_search(E, v, 3), QUERY),
    ("faiss_flat_search k", lambda v: faiss_flat_search(E, Q, v), WHOLE),
    ("rank_correlation x", lambda v: rank_correlation(v, [1.0, 2.0, 3.0]),
     {"None": None, "a dict": {"a": 1}, "ragged": [[1.0], [1.0, 2.0]], "objects": [object()] * 3,
      "strings": ["a", "b", "c"], "2-D": [[1.0, 2.0, 3.0]]}),
    ("rank_correlation y", lambda v: rank_correlation([1.0, 2.0, 3.0], v), {"a dict": {"a": 1}, "a set": {1.0}}),
    ("faiss_ivf_index E", lambda v: faiss_ivf_index(v, 2), MATRIX),
    ("faiss_ivf_index nlist", lambda v: faiss_ivf_index(E, v), {**WHOLE, "more than n": 21}),
    ("faiss_ivf_index seed", lambda v: faiss_ivf_index(E, 2, seed=v), POSITIVE_OR_ZERO),
    ("faiss_ivf_sweep E", lambda v: faiss_ivf_sweep(v, Q, 2, k=3), MATRIX),
    ("faiss_ivf_sweep Q", lambda v: faiss_ivf_sweep(E, v, 2, k=3), QUERY),
    ("faiss_ivf_sweep nlist", lambda v: faiss_ivf_sweep(E, Q, v, k=3), WHOLE),
    ("faiss_ivf_sweep nprobes", lambda v: faiss_ivf_sweep(E, Q, 2, v, k=3),
     {"None": None, "a number": 3, "zero": [0], "floats": [1.5]}),
    ("faiss_ivf_sweep k", lambda v: faiss_ivf_sweep(E, Q, 2, k=v), WHOLE),
    ("faiss_ivf_sweep exact", lambda v: faiss_ivf_sweep(E, Q, 2, k=3, exact=v),
     NOT_NONE(IDS_MISUSES)),
]

CASES = [pytest.param(call, value, id=f"{name}: {label}")
         for name, call, misuses in CALLS for label, value in misuses.items()]


@pytest.mark.parametrize("call,value", CASES)
def test_a_misuse_is_a_typed_error(call, value):
    with pytest.raises(SubwordScopeError) as info:
        call(value)
    assert "Traceback" not in str(info.value)


def test_the_typed_errors_are_value_errors_of_retrieval():
    assert issubclass(RetrievalError, ValueError) and issubclass(RetrievalError, SubwordScopeError)
    with pytest.raises(RetrievalError, match="ragged|same length"):
        search([[1.0, 2.0], [3.0]], [1.0, 2.0], 1)


def test_a_huge_k_is_cut_to_the_corpus_not_allocated():
    found = faiss_flat_search(E, Q, 2**40)  # was MemoryError: a (Q, 2**40) result allocated
    if found is not None:
        assert found[0].shape == (len(Q), len(E)) and (found[0] >= 0).all()


def test_an_empty_batch_of_queries_gives_empty_results():
    none = np.empty((0, 4), np.float32)
    assert search(E, none, 3)[0].shape == (0, 3) and top_k(E, none, 3).shape == (0, 3)
    assert FlatIndex(E, "int8").search(none, 3)[0].shape == (0, 3)
    assert IVF.probe(none, 2).shape == (0, 2) and IVF.search(none, 3, 2)[0].shape == (0, 3)
    assert scored_search(E, np.ones(20), none, 1.0, 3)[0].shape == (0, 3)
    found = faiss_flat_search(E, none, 3)
    assert found is None or found[0].shape == (0, 3)


def test_the_valid_calls_of_the_table_work():
    """The misuses above differ from working calls in one argument only."""
    assert search(E, q, 3)[0][0] == 0 and rerank(E, Q, IDS, 2)[0].shape == (3, 2)
    assert FlatIndex(E, "int8").search(q, 3, rerank=5)[0][0] == 0
    assert IVF.search(q, 3, 2)[0].shape == (3,) and kmeans(E, 2).centroids.shape == (2, 4)
    assert recall_at_k(IDS, IDS) == 1.0 and ivf_sweep(E, Q, 2, k=3).recall
    assert translation_ranks(Q, E).tolist() == [1, 1, 1]
    assert set(crosslingual_table(E[:3], {"fra": E}, targets={"fra": [0, 1, 2]})) == {"fra"}
    assert scored_search(E, np.ones(20), q, 1.0, 3, "raw dot")[0][0] == 0
    assert synthetic_corpus(10, 4, n_queries=0)[1].shape == (0, 4)
    assert matched_spans(["a"], ["a"], [(0, 1)], text_length=1) == ((0, 1),)
    assert aligned_recall(E[:3], E[:3], ALIGNMENT).hit_share == 1.0
    assert read_number("12") == 12 and len(cache_key(Path("."), ["a"], "mean")) == 64
    assert embed_corpus(StandInEncoder(), ["a", "b"], cache=False).shape == (2, 32)
    assert faiss_flat_search(E, Q, 3) is None or faiss_flat_search(E, Q, 3)[0].shape == (3, 3)
