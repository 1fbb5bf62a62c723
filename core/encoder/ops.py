"""Elementwise pieces of the encoder's forward pass: exact GELU and LayerNorm, float32
(``gelu_of_scaled_`` / ``layer_norm_`` work in place, for the forward pass)."""

from __future__ import annotations

import numpy as np

# Abramowitz & Stegun 7.1.26: erfc(z) = (a1 t + ... + a5 t^5) exp(-z^2), t = 1/(1 + p z), z >= 0,
# |error| <= 1.5e-7. Written t = c/(c + z) with c = 1/p.
_AS_C = np.float32(1 / 0.3275911)
_AS_A = tuple(np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_GELU_BLOCK = 1 << 15  # elements per block: the four scratch buffers stay in L2
_row_dots = getattr(np, "vecdot", None) or (lambda a, b: np.einsum("ij,ij->i", a, b))  # numpy < 2
SQRT_HALF = np.float32(0.7071067811865476)
"""``1/√2``: the forward pass keeps its FFN hidden values divided by √2 (see :func:`gelu_of_scaled_`)."""


def _erfc_term(z: np.ndarray, a_: np.ndarray, t_: np.ndarray, e_: np.ndarray, q_: np.ndarray) -> None:
    """``a_ = |z|`` and ``q_ = |z| erfc(|z|)`` for a flat float32 block ``z`` (scratch blocks of
    its size): ``erfc(|z|) = q(t) / exp(z²)``, ``t = 1/(1 + p|z|)``, ``q`` the Abramowitz &
    Stegun 7.1.26 polynomial (erfc to 1.5e-7); ``exp(z²)`` overflows to inf exactly where the
    term is 0 in float32 (the caller ignores that overflow). 16 elementwise passes."""
    a1, a2, a3, a4, a5 = _AS_A
    np.abs(z, out=a_)
    np.add(a_, _AS_C, out=t_)
    np.divide(_AS_C, t_, out=t_)  # t = 1/(1 + p|z|)
    np.square(z, out=e_)
    np.exp(e_, out=e_)
    np.multiply(t_, a5, out=q_)
    for c in (a4, a3, a2, a1):
        q_ += c
        q_ *= t_
    q_ *= a_
    q_ /= e_


def gelu_of_scaled_(z: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """``√2 · GELU(√2·z)`` in place on a C-contiguous float32 array; returns ``z``.

    The forward pass works on ``z = x/√2``, erf's own argument (the FFN weights are both
    multiplied by 1/√2, see :mod:`core.encoder.weights`): ``GELU(x) = ½ x (1 + erf(z)) =
    (z + z erf(z)) / √2`` and ``z erf(z) = |z| - |z| erfc(|z|)``, so this returns
    ``z + |z| - |z| erfc(|z|)`` (:func:`_erfc_term`). ``bias`` (the last axis' length,
    optional) is added first, block by block. Works through cache-sized blocks of whole rows
    with four scratch buffers allocated once: 18 elementwise passes per block, no temporaries.
    """
    width = z.shape[-1] if z.ndim else 1
    rows = z.reshape(-1, width)  # a view: z is contiguous
    step = max(1, _GELU_BLOCK // width)
    n = min(rows.shape[0], step) * width
    scratch = np.empty((4, n), dtype=np.float32)
    with np.errstate(over="ignore"):  # exp(z²) = inf: the erfc term is 0, as it should be
        for s in range(0, rows.shape[0], step):
            block = rows[s : s + step]
            if bias is not None:
                block += bias
            zb = block.reshape(-1)
            a_, t_, e_, q_ = scratch[:, : zb.size]
            _erfc_term(zb, a_, t_, e_, q_)
            zb += a_
            zb -= q_
    return z


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU ``x · Φ(x) = 0.5 x (1 + erf(x/√2))`` (Hendrycks & Gimpel 2016), as BERT uses.

    ``max(x, 0) - |x| erfc(|z|) / 2`` with ``z = x/√2`` (:func:`_erfc_term`): erf is Abramowitz
    & Stegun 7.1.26 (absolute error <= 1.5e-7), so the result is within ``0.75e-7 · |x|`` of
    the exact value — below float32 resolution for the usual range. Returns a new float32
    array of ``x``'s shape (the forward pass uses :func:`gelu_of_scaled_`).
    """
    x = np.array(x, dtype=np.float32, order="C")
    z = (x * SQRT_HALF).reshape(-1)
    scratch = np.empty((4, z.size), dtype=np.float32)
    with np.errstate(over="ignore"):
        _erfc_term(z, *scratch)
    out = np.maximum(x, 0)
    out -= (scratch[3] * SQRT_HALF).reshape(x.shape)  # |x| erfc / 2 = |z| erfc / √2
    return out


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis: ``(x - mean) / sqrt(var + eps) · gamma + beta`` (Ba et al. 2016)."""
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(axis=-1, keepdims=True)
    return xc / np.sqrt(var + np.float32(eps)) * gamma + beta


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
