"""Exact (brute-force) search: score every vector, keep the best k (SPEC §10).

Scores are inner products ``E @ q``; on unit vectors they are cosines. The top k come from
``argpartition`` and a sort of only those k, ties broken by the smaller id, so the result
equals a full stable ``argsort`` of the negated scores. Batched queries are scored a chunk at a
time so one ``[Q, N]`` block stays within :data:`~core.retrieval._checks.MAX_SCORE_BYTES`.
"""

from __future__ import annotations

import numpy as np

from core.retrieval._checks import (
    MAX_SCORE_BYTES,
    RetrievalError,
    as_array,
    as_corpus,
    as_queries,
    check_finite,
    check_finite_scores,
    compute_dtype,
    query_chunk,
    whole_number,
)
from core.retrieval._select import select_top

_ROW_BLOCK_BYTES = 16 * 2**20  # float32 rows decoded at once when scoring float16 / int8 codes


def score_matrix(E: np.ndarray, Qm: np.ndarray, scales: np.ndarray | None = None) -> np.ndarray:
    """Scores ``Qm @ E.T`` (times ``scales`` per vector), decoding compressed rows in blocks.

    float32 / float64 corpora go to BLAS directly. float16 or int8 codes are turned into
    float32 16 MiB of rows at a time, so scoring never materializes a decoded corpus; int8
    scores are multiplied by each vector's scale afterwards (``(c·q)·s = (s·c)·q``).

    Cost: O(Q·N·d) multiply-adds; the loop runs over row blocks of 16 MiB, not over vectors.

    Parameters
    ----------
    E : (N, d) ndarray — float32/float64 vectors, or float16 / int8 codes.
    Qm : (Q, d) float32 or float64 ndarray — queries, already checked.
    scales : (N,) float ndarray, optional — int8 scales (:func:`~core.retrieval.codes.quantize_int8`).

    Returns
    -------
    (Q, N) ndarray, float32 (float64 for a float64 corpus and queries)
    """
    if E.dtype in (np.float32, np.float64) and Qm.dtype == E.dtype:
        S = Qm @ E.T
    else:
        N, d = E.shape
        S = np.empty((Qm.shape[0], N), dtype=np.float32)
        Qf = Qm.astype(np.float32, copy=False)
        step = max(1, _ROW_BLOCK_BYTES // (4 * d))
        for s in range(0, N, step):
            S[:, s:s + step] = Qf @ E[s:s + step].astype(np.float32).T
    if scales is not None:
        S *= np.asarray(scales, dtype=S.dtype)[None, :]
    return S


def search(E, q, k, *, scales=None, cap: int = MAX_SCORE_BYTES) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-``k`` ids and scores of one query or a batch.

    Cost: O(Q·N·d) for the scores plus O(Q·N) for the selection; the loop runs over query
    chunks of at most ``cap`` bytes of scores (``max(1, cap // (4 N))`` queries each).

    Parameters
    ----------
    E : (N, d) ndarray
        float32 / float64 vectors (unit length for cosine), or float16 / int8 codes.
    q : (d,) or (Q, d) float ndarray
        One query or a batch. Cast to the corpus' compute dtype (float32 unless ``E`` is
        float64) so a float32 corpus is never upcast.
    k : int
        >= 1; ``k >= N`` returns all N, fully sorted.
    scales : (N,) float ndarray, optional
        Per-vector scales when ``E`` holds int8 codes.
    cap : int
        Bytes of scores per chunk (default :data:`~core.retrieval._checks.MAX_SCORE_BYTES`).

    Returns
    -------
    ids : (min(k, N),) or (Q, min(k, N)) int64 ndarray
        Best first; equal scores by smaller id.
    scores : same shape, float32 (float64 for a float64 corpus)

    Raises
    ------
    RetrievalError
        ``E`` not a non-empty ``(N, d)`` real matrix (ragged lists included), ``q`` not
        ``(d,)`` / ``(Q, d)`` or not finite, ``k`` or ``cap`` not a whole number >= 1,
        ``scales`` not ``(N,)`` finite numbers, or a NaN/infinite score (the corpus holds NaN
        or infinity).
    """
    E = as_corpus(E, int8_codes=scales is not None)
    k, cap = whole_number("k", k), whole_number("cap", cap)
    Qm, single = as_queries(q, E.shape[1], compute_dtype(E))
    if scales is not None:
        scales = check_finite(as_array(scales, "scales"), "scales")
        if scales.shape != (E.shape[0],):
            raise RetrievalError(f"scales must be ({E.shape[0]},), one per vector; got {scales.shape}")
    N = E.shape[0]
    kk = min(k, N)
    ids = np.empty((Qm.shape[0], kk), dtype=np.int64)
    out = np.empty((Qm.shape[0], kk), dtype=compute_dtype(E))
    step = query_chunk(N, np.dtype(compute_dtype(E)).itemsize, cap)
    for s in range(0, Qm.shape[0], step):
        S = score_matrix(E, Qm[s:s + step], scales)
        check_finite_scores(S)
        ids[s:s + step], out[s:s + step] = select_top(S, kk)
    return (ids[0], out[0]) if single else (ids, out)


def top_k(E, q, k) -> np.ndarray:
    """Ids of the ``k`` highest-scoring vectors (``E @ q``), best first, ties by smaller id.

    Equals ``np.argsort(-(E @ q), kind="stable")[:k]`` without sorting all N: ``argpartition``
    then a sort of the k. See :func:`search` for batches, the memory cap and errors.

    Cost: O(N·d + N + k log k) per query.

    Parameters
    ----------
    E : (N, d) float ndarray
    q : (d,) or (Q, d) float ndarray
    k : int — >= 1; ``k >= N`` returns all N ids sorted.

    Returns
    -------
    (min(k, N),) or (Q, min(k, N)) int64 ndarray

    Raises
    ------
    RetrievalError
        As for :func:`search` (``k <= 0``, empty ``E``, mismatched shapes, NaN).
    """
    return search(E, q, k)[0]
