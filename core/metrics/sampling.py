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


class SamplingError(SubwordScopeError):
    """Language sizes, shares, exponent, temperature or draws are not usable numbers."""


def _numbers(values, what: str) -> np.ndarray:
    """``values`` as a 1-D float64 array, or :class:`SamplingError` naming ``what``."""
    try:
        return np.asarray(values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise SamplingError(f"{what} must be numbers, got {values!r:.80}") from None


def _sizes(sizes) -> np.ndarray:
    n = _numbers(sizes, "language sizes")
    if n.size == 0:
        raise SamplingError("give at least one language size")
    bad = np.flatnonzero(~np.isfinite(n) | (n < 0))
    if bad.size:
        i = int(bad[0])
        raise SamplingError(
            f"language size {i + 1} is {n[i]:g}: sizes must be finite numbers >= 0 "
            "(examples, tokens or bytes)"
        )
    if not n.any():
        raise SamplingError("every language size is 0: give at least one language some data")
    return n


def _finite(value, what: str) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise SamplingError(f"{what} must be a number, got {value!r}") from None
    if not np.isfinite(value):
        raise SamplingError(f"{what} must be a finite number, got {value}")
    return value


def exponent_shares(sizes, alpha: float) -> np.ndarray:
    """Sampling shares ``p_i = n_i^α / Σ_j n_j^α``.

    Parameters
    ----------
    sizes : (L,) array-like of non-negative float
        Amount of data per language (any unit, the same for all); a language of size 0 gets
        share 0 whatever ``alpha`` is (there is nothing to sample).
    alpha : float
        Exponent; 1 = proportional to size, 0 = uniform over the languages with data.

    Returns
    -------
    p : (L,) float64 ndarray, sums to 1. Computed from ``alpha * log(n_i)`` shifted by its
    maximum, so no size (up to 1.8e308) overflows.

    Raises
    ------
    SamplingError
        If a size is negative or not finite (the message names which), every size is 0, or
        ``alpha`` is not finite.
    """
    n = _sizes(sizes)
    alpha = _finite(alpha, "the exponent α")
    has_data = n > 0
    logw = np.full(n.shape, -np.inf)
    logw[has_data] = alpha * np.log(n[has_data])  # in logs, shifted by the max: no overflow
    w = np.exp(logw - logw[has_data].max())
    return w / w.sum()


def temperature_shares(sizes, T: float) -> np.ndarray:
    """Sampling shares ``p_i ∝ n_i^(1/T)``; see :func:`exponent_shares` for shapes.

    Raises
    ------
    SamplingError
        If ``T`` is not a finite number > 0, or the sizes are bad as for :func:`exponent_shares`.
    """
    if _finite(T, "the temperature T") <= 0:
        raise SamplingError(f"the temperature T must be a positive number, got {T}")
    return exponent_shares(sizes, 1.0 / T)


def passes(sizes, shares, draws: float) -> np.ndarray:
    """Epochs over each language's data in ``draws`` samples: ``draws · p_i / n_i``.

    Parameters
    ----------
    sizes : (L,) array-like of non-negative float
        Amount of data per language; a language of size 0 gets 0 passes.
    shares : (L,) array-like of float in [0, 1]
        Sampling shares, e.g. from :func:`temperature_shares`.
    draws : float
        Samples drawn, >= 0, in the unit of ``sizes``.

    Returns
    -------
    passes : (L,) float64 ndarray

    Raises
    ------
    SamplingError
        Bad sizes, shares of another length or outside [0, 1], ``draws`` negative or not
        finite, or passes too large for a float (above about 1.8e308).
    """
    n = _sizes(sizes)
    p = _numbers(shares, "shares")
    if p.shape != n.shape:
        raise SamplingError(f"{p.size} shares for {n.size} languages")
    if not np.all((p >= 0) & (p <= 1)):
        raise SamplingError("shares must be numbers between 0 and 1")
    draws = _finite(draws, "the number of draws")
    if draws < 0:
        raise SamplingError(f"the number of draws must be >= 0, got {draws:g}")
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        out = np.where(n > 0, draws * (p / n), 0.0)
    if not np.all(np.isfinite(out)):
        i = int(np.flatnonzero(~np.isfinite(out))[0])
        raise SamplingError(
            f"passes over language {i + 1} are too large to represent ({draws:g} draws over a size of "
            f"{n[i]:g}); use fewer draws or sizes in a larger unit"
        )
    return out


MAX_CURVE_TEMPERATURES = 10_000
"""Most temperatures :func:`temperature_curve` evaluates at once."""


def temperature_curve(sizes, temperatures) -> np.ndarray:
    """``shares : (len(temperatures), L) float64 ndarray`` — row k is the shares at T_k.

    Raises
    ------
    SamplingError
        Bad sizes, a temperature that is not a finite number > 0, no temperatures, or more
        than :data:`MAX_CURVE_TEMPERATURES` of them.
    """
    ts = _numbers(temperatures, "temperatures")
    if not 1 <= ts.size <= MAX_CURVE_TEMPERATURES:
        raise SamplingError(f"give 1 to {MAX_CURVE_TEMPERATURES:,} temperatures, got {ts.size:,}")
    return np.stack([temperature_shares(sizes, float(t)) for t in ts])
