"""Turning a sequence of token vectors into one vector (SPEC §7).

Every pooling function takes ``H`` of shape ``(..., n, d)`` (one document ``(n, d)`` or a
padded batch ``(B, n, d)``) and an optional 0/1 ``mask`` of shape ``(..., n)`` (1 = real
token, 0 = padding; ``None`` means every row is real). Padding never counts: the masked mean
divides by the real-token count, the masked max treats padding as ``-inf`` and attention
pooling gives padding zero weight.

Public names: :func:`cls_pool`, :func:`mean_pool`, :func:`unmasked_mean`, :func:`max_pool`,
:func:`attention_pool`, :func:`contributions`, :func:`pool`, :func:`pad_rows`,
:func:`cosine_matrix`, :data:`METHODS`, :class:`MaxPool`, :class:`AttentionPool`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.pooling.chunks import PoolingError, real_array, whole_number

METHODS = ("cls", "mean", "max", "attention")


def _vectors(H, name: str = "token vectors") -> np.ndarray:
    """``H`` as an ``(..., n, d)`` real, finite array (d >= 1); PoolingError otherwise. O(size)."""
    H = real_array(H, name)
    if H.ndim < 2:
        raise PoolingError(f"{name} must be (n, d) or (B, n, d); got shape {H.shape}")
    if H.shape[-1] == 0:
        raise PoolingError(f"{name} have no dimensions to pool (shape {H.shape})")
    return H


def _mask(mask, shape: tuple[int, ...]) -> np.ndarray:
    """``mask`` as a bool array of ``shape`` (None: all real); PoolingError unless it holds
    only 0 and 1 (or booleans). O(size)."""
    if mask is None:
        return np.ones(shape, dtype=bool)
    m = real_array(mask, "mask", finite=False)
    if m.shape != shape:
        raise PoolingError(f"mask shape {m.shape} does not match token vectors {shape}")
    if m.dtype.kind != "b" and not ((m == 0) | (m == 1)).all():
        raise PoolingError("a mask holds 1 for real tokens and 0 for padding, nothing else")
    return m.astype(bool)


def _check(H: np.ndarray, mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    H = _vectors(H)
    m = _mask(mask, H.shape[:-1])
    if not m.any(axis=-1).all():
        raise PoolingError("a sequence has no real token (its mask is all zeros)")
    return H, m


def cls_pool(H: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The first token's vector (BERT's ``[CLS]`` position).

    Parameters
    ----------
    H : (..., n, d) float ndarray
    mask : (..., n) int or bool ndarray, optional — only checked; row 0 must be real.

    Returns
    -------
    (..., d) ndarray
    """
    H, m = _check(H, mask)
    if not m[..., 0].all():
        raise PoolingError("the first position is padding; CLS pooling needs a real first token")
    return H[..., 0, :]


def mean_pool(H: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Masked mean: ``sum_i m_i h_i / sum_i m_i`` (padding never counts).

    Returns
    -------
    (..., d) ndarray

    Raises
    ------
    PoolingError
        Shapes disagree or a sequence has no real token.
    """
    H, m = _check(H, mask)
    w = m.astype(H.dtype if H.dtype.kind == "f" else np.float64)
    return (H * w[..., None]).sum(axis=-2) / w.sum(axis=-1)[..., None]


def unmasked_mean(H: np.ndarray) -> np.ndarray:
    """Plain mean over every row, padding included (the mistake the padding demo shows).

    With ``n`` real rows padded by zero rows to ``L``, this is ``n / L`` times the masked mean.

    Raises :class:`PoolingError` for token vectors that are not a finite ``(..., n, d)`` real
    array with ``n >= 1``.
    """
    H = _vectors(H)
    if H.shape[-2] == 0:
        raise PoolingError("there are no token vectors to average")
    return H.mean(axis=-2)


@dataclass(frozen=True)
class MaxPool:
    """Result of :func:`max_pool`.

    Attributes
    ----------
    vector : (..., d) ndarray — per dimension, the largest value over real rows.
    winners : (..., d) int ndarray — the row (token position) that gave each dimension's max.
    shares : (..., n) float ndarray — fraction of the ``d`` dimensions each row won (sums to 1).
    """

    vector: np.ndarray
    winners: np.ndarray
    shares: np.ndarray


def max_pool(H: np.ndarray, mask: np.ndarray | None = None) -> MaxPool:
    """Masked max: padding rows are set to ``-inf`` before the per-dimension max.

    Ties go to the earliest row. See :class:`MaxPool` for the fields.
    """
    H, m = _check(H, mask)
    masked = np.where(m[..., None], H, -np.inf)
    winners = masked.argmax(axis=-2)
    vector = np.take_along_axis(H, winners[..., None, :], axis=-2)[..., 0, :]
    n, d = H.shape[-2], H.shape[-1]
    onehot = winners[..., None, :] == np.arange(n)[:, None]  # (..., n, d)
    return MaxPool(vector, winners, onehot.sum(axis=-1) / d)


@dataclass(frozen=True)
class AttentionPool:
    """Result of :func:`attention_pool`.

    Attributes
    ----------
    vector : (..., d) ndarray — ``sum_i a_i h_i``.
    weights : (..., n) ndarray — softmax of the scores over real rows; 0 on padding.
    scores : (..., n) ndarray — ``h_i · w`` (``-inf`` on padding).
    """

    vector: np.ndarray
    weights: np.ndarray
    scores: np.ndarray


def attention_pool(H: np.ndarray, mask: np.ndarray | None, w: np.ndarray) -> AttentionPool:
    """Attention pooling with one learned query ``w``: ``a = softmax_{real i}(h_i · w)``.

    Parameters
    ----------
    H : (..., n, d) float ndarray
    mask : (..., n) ndarray or None
    w : (d,) float ndarray — the scoring vector.

    Golden (SPEC §7): rows (1,0), (0,1), (4,0) with w = (1,0) give weights 0.0466, 0.0171,
    0.9362 and the pooled vector (3.7916, 0.0171).
    """
    H, m = _check(H, mask)
    w = real_array(w, "attention vector w").astype(np.float64)
    if w.shape != (H.shape[-1],):
        raise PoolingError(f"attention vector w must have shape ({H.shape[-1]},); got {w.shape}")
    scores = np.where(m, H @ w, -np.inf)
    z = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = z / z.sum(axis=-1, keepdims=True)
    return AttentionPool((weights[..., None] * H).sum(axis=-2), weights, scores)


def contributions(
    H: np.ndarray, mask: np.ndarray | None, method: str, w: np.ndarray | None = None
) -> np.ndarray:
    """How much each token contributes to the pooled vector under ``method``.

    ``"mean"``: ``1/n_real`` on real tokens; ``"max"``: the share of dimensions each token
    wins; ``"attention"``: the softmax weights (``w`` required); ``"cls"``: 1 on the first
    token. Every row sums to 1 over real tokens; padding gets 0.

    Returns
    -------
    (..., n) float ndarray
    """
    H, m = _check(H, mask)
    if method == "mean":
        return m / m.sum(axis=-1, keepdims=True)
    if method == "max":
        return max_pool(H, m).shares
    if method == "attention":
        if w is None:
            raise PoolingError("attention pooling needs a scoring vector w")
        return attention_pool(H, m, w).weights
    if method == "cls":
        out = np.zeros(m.shape)
        out[..., 0] = 1.0
        return out
    raise PoolingError(f"unknown pooling method {method!r}; choose one of {', '.join(METHODS)}")


def pool(H: np.ndarray, mask: np.ndarray | None, method: str, w: np.ndarray | None = None):
    """The pooled ``(..., d)`` vector under ``method`` (one of :data:`METHODS`)."""
    if method == "cls":
        return cls_pool(H, mask)
    if method == "mean":
        return mean_pool(H, mask)
    if method == "max":
        return max_pool(H, mask).vector
    if method == "attention":
        if w is None:
            raise PoolingError("attention pooling needs a scoring vector w")
        return attention_pool(H, mask, w).vector
    raise PoolingError(f"unknown pooling method {method!r}; choose one of {', '.join(METHODS)}")


def pad_rows(H: np.ndarray, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Pad ``H (n, d)`` with zero rows to ``length``; return ``(H_padded (L, d), mask (L,))``.

    Raises :class:`PoolingError` when ``H`` is not a finite 2-D real array with ``d >= 1``,
    ``length`` is not a whole number >= ``n``, or the padded array would exceed 256 MiB."""
    H = _vectors(H)
    if H.ndim != 2:
        raise PoolingError(f"token vectors must be (n, d); got shape {H.shape}")
    n, length = H.shape[0], whole_number("length", length, 0)
    if length * max(1, H.shape[1]) * H.dtype.itemsize > 256 * 2**20:
        raise PoolingError(f"padding to {length:,} rows of {H.shape[1]} would exceed 256 MiB; choose a shorter length")
    if length < n:
        raise PoolingError(f"cannot pad {n} rows down to {length}; choose a length >= {n}")
    out = np.zeros((length,) + H.shape[1:], dtype=H.dtype)
    out[:n] = H
    mask = np.zeros(length, dtype=np.int64)
    mask[:n] = 1
    return out, mask


def cosine_matrix(V: np.ndarray) -> np.ndarray:
    """Cosine similarity of every pair of rows of ``V (B, d)``; returns ``(B, B)``.

    Zero rows have cosine 0 with everything (and 0 with themselves).

    Raises :class:`PoolingError` unless ``V`` is a finite 2-D real array with ``B, d >= 1``.
    """
    V = _vectors(V, "vectors").astype(np.float64)
    if V.ndim != 2 or V.shape[0] == 0:
        raise PoolingError(f"cosine_matrix needs (B, d) vectors with B >= 1; got shape {V.shape}")
    norms = np.linalg.norm(V, axis=-1, keepdims=True)
    U = np.divide(V, norms, out=np.zeros_like(V), where=norms > 0)
    return U @ U.T
