"""How often to sample each language of a multilingual mix (SPEC §9).

Two common forms of the same idea — flatten the size distribution so small languages are
seen more often:

- temperature sampling ``p_i ∝ n_i^(1/T)`` (Arivazhagan et al. 2019, "Massively
  Multilingual Neural Machine Translation in the Wild"); T=1 is proportional, T→∞ uniform;
- exponent sampling ``p_i ∝ n_i^α`` (Conneau & Lample 2019, XLM; α = 1/T).

``passes`` says how many times each language's data is read in a number of draws; more than
one pass means repeating (and risking over-fitting to) the small languages.
"""

from __future__ import annotations

import numpy as np

from core.errors import SubwordScopeError


def _sizes(sizes) -> np.ndarray:
    n = np.asarray(sizes, dtype=np.float64).reshape(-1)
    if n.size == 0:
        raise SubwordScopeError("give at least one language size")
    if not np.all(np.isfinite(n)) or np.any(n <= 0):
        raise SubwordScopeError("language sizes must be positive numbers (examples, tokens or bytes)")
    return n


def exponent_shares(sizes, alpha: float) -> np.ndarray:
    """Sampling shares ``p_i = n_i^α / Σ_j n_j^α``.

    Parameters
    ----------
    sizes : (L,) array-like of positive float
        Amount of data per language (any unit, the same for all).
    alpha : float
        Exponent; 1 = proportional to size, 0 = uniform.

    Returns
    -------
    p : (L,) float64 ndarray, sums to 1.

    Raises
    ------
    SubwordScopeError
        If a size is not positive or ``alpha`` is not finite.
    """
    n = _sizes(sizes)
    if not np.isfinite(alpha):
        raise SubwordScopeError("the exponent α must be a finite number")
    logw = alpha * np.log(n)
    w = np.exp(logw - logw.max())
    return w / w.sum()


def temperature_shares(sizes, T: float) -> np.ndarray:
    """Sampling shares ``p_i ∝ n_i^(1/T)``; see :func:`exponent_shares` for shapes.

    Raises
    ------
    SubwordScopeError
        If ``T`` is not a positive number or a size is not positive.
    """
    if not (np.isfinite(T) and T > 0):
        raise SubwordScopeError("the temperature T must be a positive number")
    return exponent_shares(sizes, 1.0 / T)


def passes(sizes, shares, draws: float) -> np.ndarray:
    """``passes : (L,) float64 ndarray`` — epochs over each language's data in ``draws``
    samples: ``draws · p_i / n_i`` (sizes and draws in the same unit)."""
    n = _sizes(sizes)
    p = np.asarray(shares, dtype=np.float64).reshape(-1)
    if p.shape != n.shape:
        raise SubwordScopeError(f"{p.size} shares for {n.size} languages")
    return draws * p / n


def temperature_curve(sizes, temperatures) -> np.ndarray:
    """``shares : (len(temperatures), L) float64 ndarray`` — row k is the shares at T_k."""
    return np.stack([temperature_shares(sizes, float(t)) for t in np.asarray(temperatures).reshape(-1)])
