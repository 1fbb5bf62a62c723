"""Elementwise pieces of the encoder's forward pass: exact GELU and LayerNorm, float32
(``gelu_of_scaled_`` / ``layer_norm_`` work in place, for the forward pass)."""

from __future__ import annotations

import numpy as np

LOG2_E = 1.4426950408889634
"""``log₂ e``: the forward pass takes its exponentials as powers of two (``numpy.exp2`` is
about twice as fast as ``numpy.exp`` in float32), its scores and FFN values scaled to match."""
GELU_IN = np.float32(np.sqrt(LOG2_E / 2))
"""``k = √(log₂e / 2)``: the forward pass keeps its FFN hidden values as ``w = k·x`` (the FFN-in
weights and bias multiplied by ``k``, the FFN-out weights by ``1/(2k)``), so that
``exp(x²/2) = 2^(w²)`` (see :func:`gelu_of_scaled_`)."""
# Abramowitz & Stegun 7.1.26: erfc(z) = (a1 t + ... + a5 t^5) exp(-z^2), t = 1/(1 + p z), z >= 0,
# |error| <= 1.5e-7. With z = x/√2 = w/√(log₂e): t = c/(c + |w|), c = √(log₂e)/p.
_AS_C = np.float32(np.sqrt(LOG2_E) / 0.3275911)
_AS_A = tuple(np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_GELU_BLOCK = 1 << 15  # elements per block: the four scratch buffers stay in L2
_row_dots = getattr(np, "vecdot", None) or (lambda a, b: np.einsum("ij,ij->i", a, b))  # numpy < 2


def _erfc_term(w: np.ndarray, a_: np.ndarray, t_: np.ndarray, e_: np.ndarray, q_: np.ndarray) -> None:
    """``a_ = |w|`` and ``q_ = |w| erfc(|z|)`` with ``z = w/√(log₂e)``, for a flat float32 block
    ``w`` (scratch blocks of its size): ``erfc(|z|) = q(t) / exp(z²)``, ``exp(z²) = 2^(w²)``,
    ``t = 1/(1 + p|z|)``, ``q`` the Abramowitz & Stegun 7.1.26 polynomial (erfc to 1.5e-7);
    ``2^(w²)`` overflows to inf exactly where the term is 0 in float32 (the caller ignores
    that overflow). 16 elementwise passes."""
    a1, a2, a3, a4, a5 = _AS_A
    np.abs(w, out=a_)
    np.add(a_, _AS_C, out=t_)
    np.divide(_AS_C, t_, out=t_)  # t = 1/(1 + p|z|)
    np.square(w, out=e_)
    np.exp2(e_, out=e_)
    np.multiply(t_, a5, out=q_)
    for c in (a4, a3, a2, a1):
        q_ += c
        q_ *= t_
    q_ *= a_
    q_ /= e_


def gelu_of_scaled_(w: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """``2k · GELU(w/k)`` (``k`` = :data:`GELU_IN`) in place on a C-contiguous float32 array;
    returns ``w``.

    The forward pass works on ``w = k·x`` (see :data:`GELU_IN` and :mod:`core.encoder.weights`):
    with ``z = x/√2``, ``GELU(x) = ½ x (1 + erf(z))``, and ``x erf(z) = |x| - |x| erfc(|z|)``,
    so ``2k·GELU(x) = w + |w| - |w| erfc(|z|)``, which this returns (:func:`_erfc_term`).
    ``bias`` (the last axis' length, optional) is added first, block by block. Works through
    cache-sized blocks of whole rows with four scratch buffers allocated once: 18
    elementwise passes per block, no temporaries.
    """
    width = w.shape[-1] if w.ndim else 1
    rows = w.reshape(-1, width)  # a view: w is contiguous
    step = max(1, _GELU_BLOCK // width)
    n = min(rows.shape[0], step) * width
    scratch = np.empty((4, n), dtype=np.float32)
    with np.errstate(over="ignore"):  # 2^(w²) = inf: the erfc term is 0, as it should be
        for s in range(0, rows.shape[0], step):
            block = rows[s : s + step]
            if bias is not None:
                block += bias
            wb = block.reshape(-1)
            a_, t_, e_, q_ = scratch[:, : wb.size]
            _erfc_term(wb, a_, t_, e_, q_)
            wb += a_
            wb -= q_
    return w


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU ``x · Φ(x) = 0.5 x (1 + erf(x/√2))`` (Hendrycks & Gimpel 2016), as BERT uses.

    ``max(x, 0) - ½ |x| erfc(|x|/√2)`` (:func:`_erfc_term`): erf is Abramowitz & Stegun 7.1.26
    (absolute error <= 1.5e-7), so the result is within ``0.75e-7 · |x|`` of the exact value —
    below float32 resolution for the usual range. Returns a new float32 array of ``x``'s
    shape (the forward pass uses :func:`gelu_of_scaled_`).
    """
    x = np.array(x, dtype=np.float32, order="C")
    w = (x * GELU_IN).reshape(-1)
    scratch = np.empty((4, w.size), dtype=np.float32)
    with np.errstate(over="ignore"):
        _erfc_term(w, *scratch)
    out = np.maximum(x, 0)
    out -= (scratch[3] / (2 * GELU_IN)).reshape(x.shape)  # ½|x| erfc = |w| erfc / (2k)
    return out


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis: ``(x - mean) / sqrt(var + eps) · gamma + beta`` (Ba et al. 2016)."""
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(axis=-1, keepdims=True)
    return xc / np.sqrt(var + eps) * gamma + beta


def layer_norm_(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """:func:`layer_norm` in place on a C-contiguous float32 ``(N, d)`` array; returns ``x``.

    The row means come from one matrix-vector product with ``1/d`` (BLAS), the sums of
    squares of the centred rows from :func:`numpy.vecdot` (numpy >= 2): five passes over ``x`` in all.
    """
    d = x.shape[-1]
    x -= x @ np.full((d, 1), 1 / d, dtype=np.float32)
    inv = _row_dots(x, x)[:, None]  # (N, 1) sums of squares, float32
    inv *= np.float32(1 / d)
    inv += np.float32(eps)
    np.sqrt(inv, out=inv)
    np.reciprocal(inv, out=inv)
    x *= inv
    x *= gamma
    x += beta
    return x
