"""A flat (scan-everything) index over float32, float16 or int8 codes, with re-ranking.

A compressed or approximate first stage returns ``R`` candidates; :func:`rerank` scores just
those with the full-precision vectors and keeps the best ``k``. With ``R`` a few times ``k``
this recovers most of what the codes lose at ``R·d`` extra multiply-adds per query.
"""

from __future__ import annotations

import numpy as np

from core.retrieval._checks import (
    MAX_SCORE_BYTES,
    RetrievalError,
    as_corpus,
    as_ids,
    check_finite,
    as_queries,
    compute_dtype,
    whole_number,
)
from core.retrieval._select import select_top
from core.retrieval.codes import CODE_TYPES, quantize_float16, quantize_int8
from core.retrieval.exact import search


def rerank(E, q, candidates, k, *, cap: int = MAX_SCORE_BYTES) -> tuple[np.ndarray, np.ndarray]:
    """Re-score candidate ids with the full-precision vectors and keep the best ``k``.

    Cost: O(Q·R·d); the loop runs over query chunks whose gathered ``(chunk, R, d)`` rows stay
    within ``cap`` bytes.

    Parameters
    ----------
    E : (N, d) float ndarray — full-precision vectors.
    q : (d,) or (Q, d) float ndarray
    candidates : (R,) or (Q, R) int ndarray
        Ids from the first stage; ``-1`` marks "no candidate" (as IVF pads short lists).
    k : int — >= 1.

    Returns
    -------
    ids : (min(k, R),) or (Q, min(k, R)) int64 ndarray — best first, ties by smaller id;
        ``-1`` where fewer than k real candidates were given.
    scores : same shape, float — ``-inf`` where ``ids`` is ``-1``.

    Raises
    ------
    RetrievalError
        Bad shapes (ragged lists included), ``k`` or ``cap`` below 1, candidates that are
        not integer ids (one row per query), a candidate id outside ``[-1, N)``, or a NaN /
        infinite score (a candidate vector holds NaN or infinity).
    """
    E = as_corpus(E)
    k, cap = whole_number("k", k), whole_number("cap", cap)
    Qm, single = as_queries(q, E.shape[1], compute_dtype(E))
    cand = as_ids(candidates, "candidates", (1,) if single else (2,))
    if not single and cand.shape[0] != Qm.shape[0]:
        raise RetrievalError(f"candidates must have one row per query ({Qm.shape[0]}), "
                             f"got {cand.shape[0]}")
    cand = cand.reshape(Qm.shape[0], -1).astype(np.int64)
    if cand.min() < -1 or cand.max() >= E.shape[0]:
        raise RetrievalError(f"candidate ids must lie in 0 .. {E.shape[0] - 1} (or -1 for none)")
    R, d = cand.shape[1], E.shape[1]
    kk = min(k, R)
    ids = np.empty((Qm.shape[0], kk), dtype=np.int64)
    out = np.empty((Qm.shape[0], kk), dtype=Qm.dtype)
    step = max(1, cap // (R * d * Qm.itemsize))
    for s in range(0, Qm.shape[0], step):
        c = cand[s:s + step]
        rows = E[np.maximum(c, 0)].astype(Qm.dtype, copy=False)  # (chunk, R, d)
        S = np.einsum("qrd,qd->qr", rows, Qm[s:s + step])
        if not np.isfinite(S[c >= 0]).all():
            raise RetrievalError("a score is NaN or infinite: a candidate vector contains NaN, "
                                 "infinity or overflows")
        S[c < 0] = -np.inf
        ids[s:s + step], out[s:s + step] = select_top(S, kk, ids=c)
    ids[np.isneginf(out)] = -1
    return (ids[0], out[0]) if single else (ids, out)


_full_precision_rerank = rerank  # FlatIndex.search's ``rerank`` keyword shadows the name


class FlatIndex:
    """Every vector stored as float32, float16 or int8 codes; search scores them all.

    Parameters
    ----------
    E : (N, d) float ndarray — unit-length vectors for cosine scores.
    dtype : {"float32", "float16", "int8"}
        Code type (4, 2 or 1 byte per component; int8 adds a float32 scale per vector).

    Attributes
    ----------
    codes : (N, d) ndarray of ``dtype``
    scales : (N,) float32 ndarray, or None unless int8.
    full : (N, d) float ndarray — the vectors as given (kept for :meth:`search`'s re-ranking;
        not copied when already an array).

    Raises
    ------
    RetrievalError
        ``E`` not a non-empty finite ``(N, d)`` matrix, or an unknown ``dtype``. The codes take
        ``N·d`` bytes (int8) to ``4·N·d`` (float32) besides ``E``.
    """

    def __init__(self, E, dtype: str = "float32"):
        if not isinstance(dtype, str) or dtype not in CODE_TYPES:
            raise RetrievalError(f"unknown code type {dtype!r}; choose one of {', '.join(CODE_TYPES)}")
        self.full = check_finite(as_corpus(E), "E")
        self.dtype, self.scales = dtype, None
        if dtype == "float32":
            self.codes = self.full.astype(np.float32, copy=False)
        elif dtype == "float16":
            self.codes = quantize_float16(self.full)
        else:
            self.codes, self.scales = quantize_int8(self.full)

    @property
    def nbytes(self) -> int:
        """Bytes of the codes (and int8 scales)."""
        return self.codes.nbytes + (0 if self.scales is None else self.scales.nbytes)

    def search(self, q, k: int, *, rerank: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` ids and scores on the codes, optionally re-ranking the top ``rerank``.

        Cost: O(Q·N·d) on the codes, plus O(Q·R·d) in full precision when ``rerank = R > 0``.

        Parameters
        ----------
        q : (d,) or (Q, d) float ndarray
        k : int — >= 1.
        rerank : int — 0 for none; else the first stage keeps ``max(rerank, k)`` candidates
            and :func:`rerank` keeps the best ``k`` of them by full-precision score.

        Returns
        -------
        ids, scores : as :func:`core.retrieval.exact.search`

        Raises
        ------
        RetrievalError
            As :func:`core.retrieval.exact.search`, or ``rerank < 0``.
        """
        k = whole_number("k", k)
        R = whole_number("rerank", rerank, 0)
        ids, scores = search(self.codes, q, max(k, R), scales=self.scales)
        if R == 0:
            return ids[..., :k], scores[..., :k]
        return _full_precision_rerank(self.full, q, ids, k)
