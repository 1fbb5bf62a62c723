"""The seed's common mistakes in vector search, made on purpose so that a view can show them.

Sentence vectors are compared by cosine: both sides scaled to unit length, then ``E @ q``.

- ``"raw dot"`` — neither side normalized: a raw dot product ``(n_i e_i) · (|q| q)``, so a
  vector with a large norm (the pooled vector of a long or a repetitive text) scores high
  whatever its direction: the **ranking changes**.
- ``"query not normalized"`` — the corpus normalized but the query not: every score is the
  cosine times ``|q|``, so the **ranking is the same** but the scores are not cosines any
  more (they can exceed 1, and a threshold tuned on cosines means nothing).
"""

from __future__ import annotations

import numpy as np

from core.retrieval._checks import (
    RetrievalError, as_array, as_corpus, as_queries, check_finite, real_number,
)
from core.retrieval.exact import search

SCORINGS = ("cosine", "raw dot", "query not normalized")


def scored_search(E, norms, q, q_norm: float, k: int, scoring: str = "cosine") -> tuple[np.ndarray, np.ndarray]:
    """Exact top-``k`` under one of :data:`SCORINGS`.

    Cost: O(N·d) (one exact search; ``"raw dot"`` first rescales the corpus, O(N·d) more).

    Parameters
    ----------
    E : (N, d) float ndarray — unit-length vectors.
    norms : (N,) float ndarray — each vector's length before it was scaled to unit length.
    q : (d,) float ndarray — the unit-length query.
    q_norm : float — the query's length before scaling.
    k : int — >= 1.
    scoring : one of :data:`SCORINGS`.

    Returns
    -------
    ids : (min(k, N),) int64 ndarray — best first, ties by smaller id.
    scores : (min(k, N),) float ndarray — the scores under ``scoring``.

    Raises
    ------
    RetrievalError
        Unknown ``scoring``, ``norms`` not one finite number per vector, ``q_norm`` not a
        finite number >= 0, or as :func:`core.retrieval.exact.search`.
    """
    if not isinstance(scoring, str) or scoring not in SCORINGS:
        raise RetrievalError(f"unknown scoring {scoring!r}; choose one of {', '.join(SCORINGS)}")
    E = as_corpus(E)
    norms = check_finite(as_array(norms, "norms"), "norms")
    norms = norms.astype(E.dtype if E.dtype.kind == "f" else np.float32, copy=False)
    if norms.shape != (E.shape[0],):
        raise RetrievalError(f"norms must be ({E.shape[0]},), one per vector; got {norms.shape}")
    q = as_queries(q, E.shape[1], np.dtype(np.float64))[0].reshape(np.shape(q))
    q_norm = real_number("q_norm", q_norm, 0)
    if scoring == "cosine":
        return search(E, q, k)
    if scoring == "query not normalized":
        return search(E, q * float(q_norm), k)
    return search(E * norms[:, None], q * float(q_norm), k)
