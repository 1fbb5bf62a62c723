"""Elementwise pieces of the encoder's forward pass: exact GELU and LayerNorm, float32
(``gelu_`` / ``layer_norm_`` work in place, for the forward pass)."""

from __future__ import annotations

import numpy as np

# Abramowitz & Stegun 7.1.26: erf(z) = 1 - (a1 t + ... + a5 t^5) exp(-z^2), t = 1/(1 + p z),
# z >= 0, |error| <= 1.5e-7. The constants are folded for z = |x|/sqrt(2).
_AS_P = np.float32(0.3275911 * 0.7071067811865476)
_AS_A = tuple(np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_GELU_BLOCK = 1 << 15  # elements per block: the four scratch buffers stay in L2


_AS_HALF = tuple(np.float32(0.5 * a) for a in (0.254829592, -0.284496736, 1.421413741,
                                                  -1.453152027, 1.061405429))


def gelu_(x: np.ndarray) -> np.ndarray:
    """Exact GELU ``x · Φ(x)`` in place on a C-contiguous float32 array; returns ``x``.

    ``x·Φ(x) = max(x, 0) - ½ |x| q(t) exp(-x²/2)`` with ``t = 1/(1 + p|x|/√2)`` and ``q`` the
    Abramowitz & Stegun 7.1.26 polynomial (``erf`` to 1.5e-7). Works through cache-sized
    blocks with four scratch buffers allocated once: 20 elementwise passes per block, no
    temporaries per pass.
    """
    flat = x.reshape(-1)  # a view: x is contiguous
    n = min(flat.size, _GELU_BLOCK)
    ax, t, e, q = np.empty((4, n), dtype=np.float32)
    a1, a2, a3, a4, a5 = _AS_HALF
    for s in range(0, flat.size, n):
        xb = flat[s : s + n]
        m = xb.size
        a_, t_, e_, q_ = ax[:m], t[:m], e[:m], q[:m]
        np.abs(xb, out=a_)
        np.multiply(a_, _AS_P, out=t_)
        t_ += 1
        np.reciprocal(t_, out=t_)
        np.multiply(xb, xb, out=e_)
        e_ *= -0.5
        np.exp(e_, out=e_)
        np.multiply(t_, a5, out=q_)
        for c in (a4, a3, a2, a1):
            q_ += c
            q_ *= t_
        q_ *= e_
        q_ *= a_
        np.maximum(xb, 0, out=xb)
        xb -= q_
    return x


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU ``x · Φ(x) = 0.5 x (1 + erf(x/√2))`` (Hendrycks & Gimpel 2016), as BERT uses.

    erf is Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7), so the result is within
    ``0.75e-7 · |x|`` of the exact value — below float32 resolution for the usual range.
    Returns a new float32 array of ``x``'s shape (:func:`gelu_` works in place).
    """
    return gelu_(np.array(x, dtype=np.float32, order="C"))


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis: ``(x - mean) / sqrt(var + eps) · gamma + beta`` (Ba et al. 2016)."""
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(axis=-1, keepdims=True)
    return xc / np.sqrt(var + eps) * gamma + beta


def layer_norm_(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """:func:`layer_norm` in place on a C-contiguous float32 ``(N, d)`` array; returns ``x``."""
    x -= x.mean(axis=-1, keepdims=True)
    inv = np.einsum("ij,ij->i", x, x)[:, None]  # (N, 1) sums of squares, float32
    inv *= np.float32(1 / x.shape[-1])
    inv += np.float32(eps)
    np.sqrt(inv, out=inv)
    np.reciprocal(inv, out=inv)
    x *= inv
    x *= gamma
    x += beta
    return x
