"""Rotary position embedding, RoPE (Su et al. 2021, "RoFormer", eq. 14-16).

Pair ``i`` of a query or key at position ``t`` is rotated by the angle ``t * theta_i``,
``theta_i = base^(-2i/d)``. Two pairings are in use:

- ``"interleaved"``: pairs are dimensions ``(2i, 2i+1)`` (the RoFormer paper, GPT-J);
- ``"half"``: pairs are ``(i, i + d/2)`` ("rotate half", as in GPT-NeoX and Llama code).

Only queries and keys are rotated, never values. Because rotations compose, the score
``rope(q, m) . rope(k, n)`` depends on positions only through ``n - m``.
"""

from __future__ import annotations

import numpy as np

from core.positional._frequencies import (
    PositionalError,
    as_finite,
    check_result_size,
    check_width,
    pair_frequencies,
)

PAIRINGS = ("interleaved", "half")


def _split(x: np.ndarray, pairing: str) -> tuple[np.ndarray, np.ndarray]:
    d = x.shape[-1]
    if pairing == "interleaved":
        return x[..., 0::2], x[..., 1::2]
    if pairing == "half":
        return x[..., : d // 2], x[..., d // 2 :]
    raise PositionalError(f"pairing must be one of {PAIRINGS}, got {pairing!r}")


def _join(a: np.ndarray, b: np.ndarray, pairing: str) -> np.ndarray:
    if pairing == "half":
        return np.concatenate([a, b], axis=-1)
    out = np.empty(a.shape[:-1] + (2 * a.shape[-1],), dtype=np.result_type(a, b))
    out[..., 0::2], out[..., 1::2] = a, b
    return out


def _as_vectors(name: str, x) -> np.ndarray:
    """``x`` as a finite float array (float32 kept) with an even last axis, or :class:`PositionalError`."""
    x = np.asarray(x)
    if x.dtype.kind not in "fiu":
        x = as_finite(name, x)
    x = x.astype(np.result_type(x.dtype, np.float32), copy=False)
    if x.ndim == 0:
        raise PositionalError(f"{name} must have a last axis of even width d, got a scalar")
    check_width(x.shape[-1])
    if not np.isfinite(x).all():
        raise PositionalError(f"{name} must be finite numbers (no NaN or infinity)")
    return x


def _broadcast_shape(x_shape: tuple, angle_shape: tuple, what: str) -> tuple:
    """Leading shape of the result, or :class:`PositionalError` naming both shapes."""
    try:
        lead = np.broadcast_shapes(x_shape[:-1], angle_shape)
    except ValueError:
        raise PositionalError(
            f"{what} of shape {angle_shape} do not match the vectors' shape {x_shape}: "
            f"need one per row, i.e. shape {x_shape[:-1]} (or broadcastable to it)"
        ) from None
    check_result_size("rotated vectors", lead + x_shape[-1:])
    return lead


def _query_key(q, k) -> tuple[np.ndarray, np.ndarray]:
    """``q`` and ``k`` as 1-D float64 vectors of one even width, or :class:`PositionalError`."""
    q, k = as_finite("q", q), as_finite("k", k)
    if q.ndim != 1 or q.shape != k.shape:
        raise PositionalError(f"q and k must be 1-D of one width, got {q.shape} and {k.shape}")
    check_width(q.size)
    return q, k


def rotate(x: np.ndarray, angles: np.ndarray, *, pairing: str = "interleaved") -> np.ndarray:
    """Rotate each dimension pair of ``x`` by the matching angle.

    Parameters
    ----------
    x : (..., d) float ndarray
        Vectors to rotate, ``d`` even.
    angles : (..., d/2) float ndarray
        Angle of each pair in radians; broadcast against ``x``'s leading axes.
    pairing : {"interleaved", "half"}
        Which dimensions form a pair (see the module docstring).

    Returns
    -------
    (..., d) ndarray
        The rotated vectors (same norms as ``x``).

    Raises
    ------
    PositionalError
        ``x`` not finite numbers with an even last axis, ``angles`` whose last axis is not
        ``d/2`` or whose leading axes do not broadcast against ``x``'s, an unknown
        ``pairing``, or a result above 256 MiB.
    """
    x = _as_vectors("x", x)
    angles = as_finite("angles", angles)
    if angles.ndim == 0 or angles.shape[-1] != x.shape[-1] // 2:
        raise PositionalError(f"angles must end in d/2 = {x.shape[-1] // 2} entries, got shape {angles.shape}")
    _broadcast_shape(x.shape, angles.shape[:-1], "angles")
    a, b = _split(x, pairing)
    c, s = np.cos(angles), np.sin(angles)
    return _join(a * c - b * s, a * s + b * c, pairing)


def rope(
    x: np.ndarray,
    positions: np.ndarray | int,
    base: float = 10000.0,
    *,
    pairing: str = "interleaved",
    theta: np.ndarray | None = None,
) -> np.ndarray:
    """Apply RoPE to queries or keys.

    Parameters
    ----------
    x : (..., T, d) or (d,) float ndarray
        Queries or keys; the last axis is the (even) head width ``d``.
    positions : int or (T,) int/float ndarray
        Position of each row (of the single vector when ``x`` is 1-D); broadcast
        against ``x.shape[:-1]``.
    base : float
        Frequency base, > 0 (ignored when ``theta`` is given).
    pairing : {"interleaved", "half"}
        ``(2i, 2i+1)`` pairs or ``(i, i+d/2)`` pairs.
    theta : (d/2,) float ndarray, optional
        Per-pair angular frequencies to use instead of ``base^(-2i/d)`` (context-extension
        schemes pass their scaled frequencies here).

    Returns
    -------
    (..., T, d) ndarray
        ``x`` with pair ``i`` of row ``t`` rotated by ``positions[t] * theta_i``.

    Raises
    ------
    PositionalError
        Odd ``d``, bad ``base``, unknown ``pairing``, ``theta`` of the wrong length,
        non-finite values, ``positions`` whose shape does not match ``x.shape[:-1]`` (the
        message names both shapes), or a result above 256 MiB.
    """
    x = _as_vectors("x", x)
    d = x.shape[-1]
    theta = pair_frequencies(d, base) if theta is None else as_finite("theta", theta)
    if theta.shape != (d // 2,):
        raise PositionalError(f"theta must have d/2 = {d // 2} entries, got shape {theta.shape}")
    pos = as_finite("positions", positions)
    _broadcast_shape(x.shape, pos.shape, "positions")
    return rotate(x, pos[..., None] * theta, pairing=pairing)


def rope_scores(
    q: np.ndarray,
    k: np.ndarray,
    positions: np.ndarray,
    base: float = 10000.0,
    *,
    pairing: str = "interleaved",
    dtype=np.float64,
) -> np.ndarray:
    """Score matrix of one query vector and one key vector placed at every pair of positions.

    Parameters
    ----------
    q, k : (d,) float ndarray
        The query and the key (the same vectors at every position).
    positions : (T,) ndarray
        Positions to place them at.
    base, pairing :
        As for :func:`rope`.
    dtype : numpy dtype
        Precision of the matrix product (float32 halves the time for large ``T``).

    Returns
    -------
    scores : (T, T) ndarray
        ``scores[a, b] = rope(q, positions[a]) . rope(k, positions[b])``; constant along
        each diagonal when ``positions`` are evenly spaced.

    Raises
    ------
    PositionalError
        ``q``/``k`` not 1-D of one even width, ``positions`` not 1-D finite numbers, or a
        ``(T, T)`` matrix above 256 MiB (``T`` above about 5,800 in float64).
    """
    q, k = _query_key(q, k)
    pos = as_finite("positions", positions, ndim=1)
    check_result_size("RoPE score matrix (T, T)", (pos.size, pos.size), np.dtype(dtype).itemsize)
    qs = rope(np.broadcast_to(q, pos.shape + q.shape), pos, base, pairing=pairing)
    ks = rope(np.broadcast_to(k, pos.shape + k.shape), pos, base, pairing=pairing)
    return qs.astype(dtype, copy=False) @ ks.astype(dtype, copy=False).T


def score_vs_distance(
    q: np.ndarray, k: np.ndarray, distances: np.ndarray, theta: np.ndarray, *, pairing: str = "interleaved"
) -> np.ndarray:
    """RoPE score as a function of the relative distance ``n - m`` alone.

    ``rope(q, m) . rope(k, n) = sum_i [(q_a k_a + q_b k_b) cos(D theta_i) + (q_b k_a - q_a k_b) sin(D theta_i)]``
    with ``D = n - m`` and ``(a, b)`` the two dimensions of pair ``i``.

    Parameters
    ----------
    q, k : (d,) float ndarray
        Query and key.
    distances : (n,) ndarray
        Relative distances ``n - m`` in positions.
    theta : (d/2,) float ndarray
        Per-pair angular frequencies (e.g. :func:`~core.positional.pair_frequencies` or a
        context-extension scheme's).
    pairing : {"interleaved", "half"}

    Returns
    -------
    (n,) float64 ndarray
        The score at each distance.

    Raises
    ------
    PositionalError
        ``q``/``k`` not 1-D of one even width ``d``, ``theta`` not ``d/2`` finite numbers,
        ``distances`` not 1-D finite numbers, or an ``(n, d/2)`` intermediate above 256 MiB.
    """
    q, k = _query_key(q, k)
    theta = as_finite("theta", theta, ndim=1)
    if theta.size != q.size // 2:
        raise PositionalError(f"theta must have d/2 = {q.size // 2} entries, got {theta.size}")
    distances = as_finite("distances", distances, ndim=1)
    check_result_size("angle table (n, d/2)", (distances.size, theta.size))
    qa, qb = _split(q, pairing)
    ka, kb = _split(k, pairing)
    delta = distances[:, None] * theta[None, :]
    return np.cos(delta) @ (qa * ka + qb * kb) + np.sin(delta) @ (qb * ka - qa * kb)
