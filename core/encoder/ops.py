"""Elementwise pieces of the encoder's forward pass: exact GELU and LayerNorm, float32."""

from __future__ import annotations

import numpy as np

# Abramowitz & Stegun 7.1.26: erf(z) = 1 - (a1 t + ... + a5 t^5) exp(-z^2), t = 1/(1 + p z),
# z >= 0, |error| <= 1.5e-7. The constants are folded for z = |x|/sqrt(2).
_AS_P = np.float32(0.3275911 * 0.7071067811865476)
_AS_A = tuple(np.float32(a) for a in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_GELU_BLOCK = 1 << 18  # elements per block: the temporaries stay in cache


def _gelu_block(x: np.ndarray) -> np.ndarray:
    # x·Φ(x) = 0.5 (x + |x| erf(|x|/√2)) = 0.5 (x + |x| - |x| q),  q = 1 - erf(|x|/√2)
    ax = np.abs(x)
    t = ax * _AS_P
    t += 1
    np.reciprocal(t, out=t)
    e = ax * ax
    e *= -0.5
    np.exp(e, out=e)
    a1, a2, a3, a4, a5 = _AS_A
    q = t * a5
    for a in (a4, a3, a2, a1):
        q += a
        q *= t
    q *= e
    q *= ax
    ax += x
    ax -= q
    ax *= 0.5
    return ax


def gelu(x: np.ndarray) -> np.ndarray:
    """Exact GELU ``x · Φ(x) = 0.5 x (1 + erf(x/√2))`` (Hendrycks & Gimpel 2016), as BERT uses.

    erf is Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7), so the result is within
    ``0.75e-7 · |x|`` of the exact value — below float32 resolution for the usual range.
    Computed in cache-sized blocks; returns a new array of ``x``'s shape and dtype.
    """
    x = np.asarray(x)
    if x.size <= _GELU_BLOCK:
        return _gelu_block(x)
    flat, out = x.reshape(-1), np.empty_like(x)
    dst = out.reshape(-1)
    for s in range(0, flat.size, _GELU_BLOCK):
        dst[s : s + _GELU_BLOCK] = _gelu_block(flat[s : s + _GELU_BLOCK])
    return out


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis: ``(x - mean) / sqrt(var + eps) · gamma + beta`` (Ba et al. 2016)."""
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(axis=-1, keepdims=True)
    return xc / np.sqrt(var + np.float32(eps)) * gamma + beta
