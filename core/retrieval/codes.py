"""Compressed vector codes: float16, and int8 with one scale per vector (SPEC §10).

int8 maps each vector ``v`` to ``codes = round(v / s)`` with ``s = max|v| / 127``, so the
largest component becomes exactly ±127 and ``codes * s`` is within ``s / 2`` of ``v``
componentwise. Golden: ``[0.5, -0.2, 0.1]`` → codes ``[127, -51, 25]``, scale 0.003937,
decoded ``[0.5, -0.2008, 0.0984]``. A zero vector gets codes 0 and scale 0.

Scoring on codes needs no decoded corpus: ``(c · q) * s`` (see
:func:`core.retrieval.exact.score_matrix`).
"""

from __future__ import annotations

import numpy as np

from core.retrieval._checks import RetrievalError, as_array, check_finite

CODE_TYPES = ("float32", "float16", "int8")
"""Code types, widest first: 4, 2 and 1 byte per component."""

_FP16_MAX = float(np.finfo(np.float16).max)
_BLOCK_BYTES = 16 * 2**20  # rows divided and rounded at once by quantize_int8


def _as_real(E, name: str = "E") -> np.ndarray:
    E = as_array(E, name)
    if E.dtype.kind == "b":
        raise RetrievalError(f"{name} must hold real numbers, got dtype bool")
    if E.ndim not in (1, 2) or E.size == 0:
        raise RetrievalError(f"{name} must be a non-empty (d,) vector or (N, d) matrix, got shape {E.shape}")
    E = E.astype(np.float32, copy=False) if E.dtype.kind == "f" and E.itemsize <= 4 else E.astype(np.float64)
    if not np.isfinite(E).all():
        raise RetrievalError(f"{name} contains NaN or infinity")
    return E


def quantize_float16(E) -> np.ndarray:
    """Half-precision codes (2 bytes per component; 11 significant bits).

    Parameters
    ----------
    E : (N, d) or (d,) float ndarray

    Returns
    -------
    same shape, float16 ndarray

    Raises
    ------
    RetrievalError
        Empty, not real, NaN/infinity, or a component beyond ±65,504 (float16 would make it
        infinite; normalize the vectors first).
    """
    E = _as_real(E)
    if np.abs(E).max() > _FP16_MAX:
        raise RetrievalError("a component exceeds float16's ±65,504; normalize the vectors first")
    return E.astype(np.float16)


def quantize_int8(E) -> tuple[np.ndarray, np.ndarray | np.floating]:
    """int8 codes with a per-vector scale ``max|v| / 127``.

    Parameters
    ----------
    E : (N, d) or (d,) float ndarray

    Returns
    -------
    codes : same shape as ``E``, int8 ndarray
        ``rint(v / scale)`` in ``[-127, 127]``.
    scales : (N,) float32 ndarray, or one float32 for a 1-D vector
        ``max|v| / 127`` (0 for a zero vector, and for a vector so small that its scale
        underflows float32: ``max|v| < 127 · 1.4e-45``).

    Raises
    ------
    RetrievalError
        Empty, not 1-D / 2-D, not real, NaN/infinity, or values so large that
        ``max|v| / 127`` exceeds float32 (about 4.3e40).

    Notes
    -----
    Cost O(N·d), worked through 16 MiB of rows at a time, so the temporaries stay at 16 MiB
    besides the ``N·d``-byte codes.

    Examples
    --------
    >>> codes, scale = quantize_int8(np.array([0.5, -0.2, 0.1]))
    >>> codes.tolist(), round(float(scale), 6)
    ([127, -51, 25], 0.003937)
    """
    E = _as_real(E)
    rows = E.reshape(-1, E.shape[-1])
    # float64 scales for the division, so that a vector of float32 subnormals (whose scale
    # underflows to 0 as a float32) still gets its peak at ±127
    scales = np.abs(rows).max(axis=1).astype(np.float64) / 127.0
    if (scales > np.finfo(np.float32).max).any():
        big = int(np.flatnonzero(scales > np.finfo(np.float32).max)[0])
        raise RetrievalError(f"vector {big} has values too large for a float32 scale "
                             f"(|v| up to {127.0 * scales[big]:.3g}; at most 4.3e40)")
    safe = np.where(scales > 0, scales, 1.0)[:, None]
    codes = np.empty(rows.shape, dtype=np.int8)
    step = max(1, _BLOCK_BYTES // (8 * rows.shape[1]))  # the quotients are float64
    for s in range(0, rows.shape[0], step):  # O(N·d) in 16 MiB row blocks
        block = np.rint(rows[s:s + step] / safe[s:s + step])
        codes[s:s + step] = np.clip(block, -127, 127)
    scales = scales.astype(np.float32)
    return (codes, scales) if E.ndim == 2 else (codes[0], scales[0])


def dequantize_int8(codes, scales) -> np.ndarray:
    """Decode int8 codes: ``codes * scale`` per vector.

    Parameters
    ----------
    codes : (N, d) or (d,) int8 ndarray
    scales : (N,) float ndarray, or a scalar for a 1-D ``codes``

    Returns
    -------
    same shape as ``codes``, float32 ndarray

    Raises
    ------
    RetrievalError
        ``codes`` not int8 (ragged lists included), or ``scales`` not one finite number per
        vector.
    """
    codes = as_array(codes, "codes")
    scales = check_finite(as_array(scales, "scales"), "scales").astype(np.float32)
    if codes.dtype != np.int8 or codes.ndim not in (1, 2):
        raise RetrievalError(f"codes must be a 1-D or 2-D int8 array, got {codes.dtype} {codes.shape}")
    if scales.shape != codes.shape[:-1]:
        raise RetrievalError(f"scales must have shape {codes.shape[:-1]}, got {scales.shape}")
    return codes.astype(np.float32) * np.expand_dims(scales, -1)
