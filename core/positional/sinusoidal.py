"""The fixed sinusoidal position table of "Attention Is All You Need" (Vaswani et al. 2017, §3.5)."""

from __future__ import annotations

import numpy as np

from core.positional._frequencies import (
    PositionalError,
    check_positive_int,
    check_result_size,
    check_width,
    pair_frequencies,
    as_finite,
)


def _reduced_angles_f32(T: int, theta: np.ndarray, block: int = 64) -> np.ndarray:
    """``t * theta`` minus whole turns, as float32 in ``[-pi, pi]``, for ``t = 0 .. T-1``.

    ``t = block*a + b``: the fractional turns of ``block*a*theta`` and of ``b*theta`` are taken
    exactly in float64 on two small tables, then added and wrapped once more in float32, so the
    ``(T, d/2)`` passes all run in float32 (error < 1e-6 rad however large ``t`` is).
    """
    turns_per_pos = theta / (2.0 * np.pi)

    def frac(rows: np.ndarray) -> np.ndarray:
        x = rows[:, None] * turns_per_pos[None, :]
        x -= np.rint(x)
        return x.astype(np.float32)

    hi = frac(np.arange(0, T, block, dtype=np.float64))
    lo = frac(np.arange(block, dtype=np.float64))
    turns = (hi[:, None, :] + lo[None, :, :]).reshape(-1, theta.size)[:T]
    turns -= np.rint(turns)
    turns *= np.float32(2.0 * np.pi)
    return turns


def sinusoidal(T: int, d: int, base: float = 10000.0, *, dtype=np.float64) -> np.ndarray:
    """Sinusoidal position table ``PE[t, 2i] = sin(t*theta_i)``, ``PE[t, 2i+1] = cos(t*theta_i)``.

    ``theta_i = base^(-2i/d)``. Every row has norm ``sqrt(d/2)`` (each pair is a unit vector).

    Parameters
    ----------
    T : int
        Number of positions (rows), >= 1.
    d : int
        Model width (columns), even, >= 2.
    base : float
        Frequency base, > 0.
    dtype : numpy dtype
        Output dtype. For float32 the angles are reduced to ``[-pi, pi]`` from exact float64
        fractional turns and sin/cos run in float32 (several times faster; accurate to 1e-6
        however large ``t`` is). Otherwise everything is float64.

    Returns
    -------
    pe : (T, d) ndarray
        Row ``t`` is position ``t``; even columns sin, odd columns cos.

    Raises
    ------
    PositionalError
        ``T < 1``, ``d`` odd or < 2, ``base`` not finite and positive, or a table above
        :data:`~core.positional._frequencies.MAX_RESULT_BYTES` (256 MiB; ``T=10**7, d=64``
        would be 4.8 GiB).
    """
    T = check_positive_int("T", T)
    d = check_width(d)
    check_result_size("sinusoidal table (T, d)", (T, d), max(np.dtype(dtype).itemsize, 8))
    theta = pair_frequencies(d, base)
    pe = np.empty((T, d), dtype=dtype)
    if pe.dtype == np.float32:
        angles = _reduced_angles_f32(T, theta)
    else:
        angles = np.arange(T, dtype=np.float64)[:, None] * theta[None, :]
    np.sin(angles, out=pe[:, 0::2], casting="same_kind")
    np.cos(angles, out=pe[:, 1::2], casting="same_kind")
    return pe


def offset_dot_products(pe: np.ndarray, start: int = 0) -> np.ndarray:
    """Dot products of row ``start`` of a position table with every later row.

    For the sinusoidal table they depend only on the offset ``k``, whatever ``start`` is:
    ``PE[t] . PE[t+k] = sum_i cos(k*theta_i)`` (angle-difference identity; see
    :func:`offset_dot_formula`).

    Parameters
    ----------
    pe : (T, d) float ndarray
        A position table, e.g. from :func:`sinusoidal`.
    start : int
        The reference row, ``0 <= start < T``.

    Returns
    -------
    dots : (T - start,) float64 ndarray
        ``dots[k] = pe[start] . pe[start + k]`` for offsets ``k = 0 .. T-1-start`` (positions).

    Raises
    ------
    PositionalError
        ``pe`` is not 2-D, or ``start`` is outside ``[0, T)``.
    """
    pe = np.asarray(pe)
    if pe.ndim != 2:
        raise PositionalError(f"pe must be a (T, d) table, got shape {pe.shape}")
    start = check_positive_int("start", start, minimum=0)
    if start >= pe.shape[0]:
        raise PositionalError(f"start row {start} must be below T={pe.shape[0]}")
    return (pe[start:] @ pe[start]).astype(np.float64, copy=False)


def offset_dot_formula(k: np.ndarray, d: int, base: float = 10000.0) -> np.ndarray:
    """Closed form of the sinusoidal row dot product at offset ``k``: ``sum_i cos(k*theta_i)``.

    Parameters
    ----------
    k : (n,) int or float ndarray
        Offsets in positions.
    d, base :
        As for :func:`sinusoidal`.

    Returns
    -------
    (n,) float64 ndarray

    Raises
    ------
    PositionalError
        ``k`` not 1-D finite numbers, bad ``d``/``base``, or an ``(n, d/2)`` intermediate
        above :data:`~core.positional._frequencies.MAX_RESULT_BYTES`.
    """
    theta = pair_frequencies(d, base)
    k = as_finite("k", k, ndim=1)
    check_result_size("offset angles (n, d/2)", (k.size, theta.size))
    return np.cos(k[:, None] * theta[None, :]).sum(axis=1)

