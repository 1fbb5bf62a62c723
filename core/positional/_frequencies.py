"""Per-pair rotation frequencies shared by the sinusoidal table, RoPE and context extension.

Pair ``i`` (``0 <= i < d/2``) turns at angular frequency ``theta_i = base^(-2i/d)`` radians per
position (Vaswani et al. 2017, §3.5; Su et al. 2021, RoFormer eq. 15) and so has wavelength
``2*pi / theta_i`` positions.

Every function of :mod:`core.positional` that allocates a table refuses results larger than
:data:`MAX_RESULT_BYTES` (256 MiB) with a :class:`PositionalError` naming the size and the
limit, instead of running out of memory or computing for minutes.
"""

from __future__ import annotations

import math

import numpy as np

from core.errors import SubwordScopeError


class PositionalError(SubwordScopeError):
    """A positional-encoding argument is out of range (odd width, non-positive length, ...)."""


MAX_RESULT_BYTES = 256 * 2**20
"""Largest array (bytes) a :mod:`core.positional` function will allocate: 256 MiB."""


def check_positive_int(name: str, value: int, *, minimum: int = 1) -> int:
    """Return ``value`` as an ``int`` or raise :class:`PositionalError` naming ``name``."""
    try:
        ok = not isinstance(value, (bool, str, bytes)) and int(value) == value and int(value) >= minimum
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise PositionalError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def _size_text(nbytes: int) -> str:
    return f"{nbytes / 2**30:,.1f} GiB" if nbytes >= 2**30 else f"{nbytes / 2**20:,.0f} MiB"


def check_result_size(what: str, shape: tuple[int, ...], itemsize: int = 8) -> None:
    """Raise :class:`PositionalError` if an array of ``shape`` would exceed :data:`MAX_RESULT_BYTES`.

    Parameters
    ----------
    what : str
        Name of the result for the message, e.g. ``"ALiBi bias (H, T, T)"``.
    shape : tuple of int
        The shape about to be allocated.
    itemsize : int
        Bytes per element (8 for float64, 4 for float32).
    """
    nbytes = math.prod(int(n) for n in shape) * int(itemsize)
    if nbytes > MAX_RESULT_BYTES:
        raise PositionalError(
            f"{what} of shape {tuple(int(n) for n in shape)} would take {_size_text(nbytes)}, "
            f"above the {MAX_RESULT_BYTES // 2**20} MiB limit; use fewer positions, heads or dimensions"
        )


def check_width(d: int) -> int:
    """Model width ``d`` must be a positive even integer (sin/cos or rotation pairs)."""
    d = check_positive_int("d", d, minimum=2)
    if d % 2:
        raise PositionalError(f"d must be even (dimensions come in pairs), got {d}")
    check_result_size("frequency table (d/2,)", (d // 2,))
    return d


def check_positive_float(name: str, value: float) -> float:
    """Return ``value`` as a finite ``float`` > 0 or raise :class:`PositionalError`."""
    try:
        value = float(value)
    except (TypeError, ValueError, OverflowError):
        raise PositionalError(f"{name} must be a finite number > 0, got {value!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise PositionalError(f"{name} must be a finite number > 0, got {value!r}")
    return value


def as_finite(name: str, values, *, ndim: int | None = None) -> np.ndarray:
    """``values`` as a finite float64 array (of ``ndim`` axes when given), else :class:`PositionalError`."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise PositionalError(f"{name} must be numbers, got {type(values).__name__} ({exc})") from None
    if ndim is not None and arr.ndim != ndim:
        raise PositionalError(f"{name} must have {ndim} axis/axes, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise PositionalError(f"{name} must be finite numbers (no NaN or infinity)")
    return arr


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
        ``d`` odd or < 2 (or so large the table exceeds :data:`MAX_RESULT_BYTES`), ``base`` not
        a finite positive number.
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
