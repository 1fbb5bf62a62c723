"""Per-pair rotation frequencies shared by the sinusoidal table, RoPE and context extension.

Pair ``i`` (``0 <= i < d/2``) turns at angular frequency ``theta_i = base^(-2i/d)`` radians per
position (Vaswani et al. 2017, §3.5; Su et al. 2021, RoFormer eq. 15) and so has wavelength
``2*pi / theta_i`` positions.
"""

from __future__ import annotations

import math

import numpy as np

from core.errors import SubwordScopeError


class PositionalError(SubwordScopeError):
    """A positional-encoding argument is out of range (odd width, non-positive length, ...)."""


def check_positive_int(name: str, value: int, *, minimum: int = 1) -> int:
    """Return ``value`` as an ``int`` or raise :class:`PositionalError` naming ``name``."""
    if isinstance(value, bool) or int(value) != value or int(value) < minimum:
        raise PositionalError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def check_width(d: int) -> int:
    """Model width ``d`` must be a positive even integer (sin/cos or rotation pairs)."""
    d = check_positive_int("d", d, minimum=2)
    if d % 2:
        raise PositionalError(f"d must be even (dimensions come in pairs), got {d}")
    return d


def check_positive_float(name: str, value: float) -> float:
    """Return ``value`` as a finite ``float`` > 0 or raise :class:`PositionalError`."""
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise PositionalError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def pair_frequencies(d: int, base: float = 10000.0) -> np.ndarray:
    """Angular frequency of each dimension pair.

    Parameters
    ----------
    d : int
        Model (or head) width, even.
    base : float
        The frequency base (10000 in the Transformer and RoFormer papers).

    Returns
    -------
    theta : (d/2,) float64 ndarray
        ``theta[i] = base ** (-2i/d)`` radians per position.

    Raises
    ------
    PositionalError
        ``d`` odd or < 2, ``base`` not a finite positive number.
    """
    d = check_width(d)
    base = check_positive_float("base", base)
    return base ** (-2.0 * np.arange(d // 2) / d)


def pair_wavelengths(d: int, base: float = 10000.0) -> np.ndarray:
    """Wavelength of each dimension pair: ``2*pi / theta_i``.

    Returns
    -------
    wavelength : (d/2,) float64 ndarray
        Positions per full turn of pair ``i``; from ``2*pi`` (pair 0) up to almost
        ``2*pi*base``.
    """
    return 2.0 * np.pi / pair_frequencies(d, base)
