"""Side-by-side pooling comparisons the pooling pane shows (all numbers come from here).

- :func:`compare_methods`: pooled vectors, cosine matrices and per-token contributions under
  CLS, masked mean, masked max and attention pooling for a padded batch.
- :func:`padding_demo`: one sequence padded to a chosen length, masked vs unmasked mean/max.
- :func:`score_chunks`: per-window scores of a chunked document against a query vector and
  their mean / mean-of-logits / max / noisy-OR aggregates.

Attention pooling needs a scoring vector ``w``. A trained pooler learns one; without it we use
each sequence's own *centroid query* ``w = scale · mean / ||mean||`` (tokens that agree with
the sentence's average get more weight), unless the caller passes ``queries``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.pooling import (
    METHODS,
    ChunkAggregate,
    PoolingError,
    aggregate_chunks,
    attention_pool,
    contributions,
    cosine_matrix,
    max_pool,
    mean_pool,
    pad_rows,
    pool,
    unmasked_mean,
)
from core.pooling.chunks import real_array, real_number


def centroid_query(H: np.ndarray, mask: np.ndarray | None = None, scale: float = 1.0) -> np.ndarray:
    """``scale · m / ||m||`` with ``m`` the masked mean; shape ``(..., d)``.

    Raises :class:`PoolingError` as :func:`core.pooling.mean_pool`, or for a ``scale`` that is
    not a finite number."""
    scale = real_number("scale", scale)
    m = mean_pool(H, mask)
    norm = np.linalg.norm(m, axis=-1, keepdims=True)
    return scale * np.divide(m, norm, out=np.zeros_like(m, dtype=np.float64), where=norm > 0)


@dataclass(frozen=True)
class MethodComparison:
    """Every pooling method on one padded batch.

    Attributes
    ----------
    pooled : dict[str, (B, d) ndarray] — per method, one vector per sequence.
    cosine : dict[str, (B, B) ndarray] — per method, cosine similarity of the pooled vectors.
    contributions : dict[str, (B, T) ndarray] — per method, each token's share (rows sum to
        1 over real tokens, 0 on padding); see :func:`core.pooling.contributions`.
    queries : (B, d) ndarray — the attention scoring vector used for each sequence.
    """

    pooled: dict
    cosine: dict
    contributions: dict
    queries: np.ndarray


def compare_methods(
    H: np.ndarray, mask: np.ndarray, queries: np.ndarray | None = None, scale: float = 1.0
) -> MethodComparison:
    """Pool ``H (B, T, d)`` under every method of :data:`core.pooling.METHODS`.

    ``queries (B, d)`` are the attention vectors (default: :func:`centroid_query`); ``mask``
    None means every token is real.

    Raises
    ------
    PoolingError
        ``H`` not a finite ``(B, T, d)`` real array, ``mask`` not ``(B, T)`` zeros and ones
        with a real token in every row, ``queries`` not finite ``(B, d)``, ``scale`` not a
        finite number.
    """
    H = real_array(H, "token vectors").astype(np.float64)
    if H.ndim != 3:
        raise PoolingError(f"expected a batch (B, T, d); got shape {H.shape}")
    mask = np.ones(H.shape[:2], dtype=np.int64) if mask is None else real_array(mask, "mask", finite=False)
    scale = real_number("scale", scale)
    q = centroid_query(H, mask, scale) if queries is None else real_array(queries, "queries").astype(np.float64)
    if q.shape != (H.shape[0], H.shape[2]):
        raise PoolingError(f"queries must be (B, d) = {(H.shape[0], H.shape[2])}; got shape {q.shape}")
    pooled, contrib = {}, {}
    for method in METHODS:
        if method == "attention":
            rows = [attention_pool(H[b], mask[b], q[b]) for b in range(len(H))]
            pooled[method] = np.stack([r.vector for r in rows])
            contrib[method] = np.stack([r.weights for r in rows])
        else:
            pooled[method] = pool(H, mask, method)
            contrib[method] = contributions(H, mask, method)
    cos = {m: cosine_matrix(v) for m, v in pooled.items()}
    return MethodComparison(pooled, cos, contrib, q)


@dataclass(frozen=True)
class PaddingDemo:
    """A sequence of ``n`` real rows padded with zero rows to ``length``.

    Attributes
    ----------
    n, length : int
    masked_mean, unmasked_mean, masked_max, unmasked_max : (d,) ndarray
    shrink : float — ``n / length``; ``unmasked_mean == shrink · masked_mean``.
    lengths : (m,) int ndarray — padded lengths ``n .. max(length, 2n)``.
    norm_ratio : (m,) ndarray — ``||unmasked mean|| / ||masked mean||`` at each length.
    max_changed : (m,) ndarray — fraction of dimensions where the unmasked max differs
        (padding zeros beat an all-negative column).
    """

    n: int
    length: int
    masked_mean: np.ndarray
    unmasked_mean: np.ndarray
    masked_max: np.ndarray
    unmasked_max: np.ndarray
    shrink: float
    lengths: np.ndarray
    norm_ratio: np.ndarray
    max_changed: np.ndarray


def padding_demo(H: np.ndarray, length: int) -> PaddingDemo:
    """Pad the real rows ``H (n, d)`` to ``length`` and compare masked with unmasked pooling.

    Raises :class:`PoolingError` as :func:`core.pooling.pad_rows` (and for no rows)."""
    P, mask = pad_rows(H, length)
    H = np.asarray(H, dtype=np.float64)
    if len(H) == 0:
        raise PoolingError("there are no token vectors to pad")
    P = P.astype(np.float64, copy=False)
    n = len(H)
    real_max = H.max(axis=0)
    lengths = np.arange(n, max(length, 2 * n) + 1)
    mnorm = np.linalg.norm(mean_pool(H))
    ratio = np.array([np.linalg.norm(H.sum(axis=0) / L) / mnorm if mnorm else 1.0 for L in lengths])
    changed = np.array([float(((real_max < 0) & (L > n)).mean()) for L in lengths])
    return PaddingDemo(n, length, mean_pool(P, mask), unmasked_mean(P), max_pool(P, mask).vector,
                       P.max(axis=0), n / length, lengths, ratio, changed)


@dataclass(frozen=True)
class ChunkScores:
    """Per-window scores of a chunked document.

    Attributes
    ----------
    cosine : (k,) ndarray — cosine of each window's pooled vector with the query.
    probabilities : (k,) ndarray — ``clip(cosine, 0, 1)``, read as "this window matches".
    aggregate : ChunkAggregate — mean, mean of logits, max and noisy-OR of the probabilities.
    """

    cosine: np.ndarray
    probabilities: np.ndarray
    aggregate: ChunkAggregate


def score_chunks(window_vectors: np.ndarray, query: np.ndarray) -> ChunkScores:
    """Score windows ``(k, d)`` against ``query (d,)`` (see :class:`ChunkScores`).

    Raises :class:`PoolingError` unless both are finite real arrays of those shapes."""
    V = real_array(window_vectors, "window vectors").astype(np.float64)
    q = real_array(query, "query").astype(np.float64)
    if V.ndim != 2 or len(V) == 0 or q.shape != V.shape[1:]:
        raise PoolingError(f"need (k, d) window vectors and a (d,) query; got {V.shape}, {q.shape}")
    cos = cosine_matrix(np.vstack([q[None], V]))[0, 1:]
    p = np.clip(cos, 0.0, 1.0)
    return ChunkScores(cos, p, aggregate_chunks(p))
