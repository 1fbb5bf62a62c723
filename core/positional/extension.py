"""Context extension for RoPE: stretching a model trained on ``L`` positions to ``s*L``.

Three schemes, each a change of the per-pair frequencies ``theta_i = base^(-2i/d)``:

- position interpolation, PI (Chen et al. 2023): positions ``t -> t/s``, i.e. ``theta_i / s``;
- NTK-aware scaling (bloc97, 2023): a new base ``base * s^(d/(d-2))`` -- the highest
  frequency is kept, the lowest is interpolated by exactly ``s``;
- YaRN (Peng, Quesnelle, Fan & Shippole 2023, "YaRN: Efficient Context Window Extension of
  Large Language Models", §3.2-3.4): per-band ("NTK-by-parts") interpolation. With the
  wavelength ``lambda_i = 2*pi/theta_i`` and the ratio ``r_i = L / lambda_i``, the ramp
  ``gamma(r) = 0`` for ``r < alpha``, ``1`` for ``r > beta``, ``(r - alpha)/(beta - alpha)``
  between (``alpha = 1``, ``beta = 32`` as in the paper), and
  ``theta'_i = (1 - gamma) * theta_i / s + gamma * theta_i``: pairs that turn fewer than
  ``alpha`` times over the training length are fully interpolated, pairs that turn more than
  ``beta`` times are left alone. YaRN also scales the logits by ``1/t`` with
  ``sqrt(1/t) = 0.1*ln(s) + 1`` (both q and k are multiplied by ``sqrt(1/t)``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.positional._frequencies import (
    PositionalError,
    as_finite,
    check_positive_float,
    check_positive_int,
    check_width,
    pair_frequencies,
)
from core.positional.rope import score_vs_distance

SCHEMES = ("original", "pi", "ntk", "yarn")
SCHEME_LABELS = {"original": "original", "pi": "PI", "ntk": "NTK-aware", "yarn": "YaRN"}


def _check_scale(s: float) -> float:
    s = check_positive_float("s", s)
    if s < 1:
        raise PositionalError(f"the scale s must be >= 1 (it stretches the context), got {s}")
    return s


def ntk_base(base: float, s: float, d: int) -> float:
    """NTK-aware base ``base * s^(d/(d-2))``.

    Parameters
    ----------
    base : float
        Original base (> 0).
    s : float
        Context scale factor (>= 1).
    d : int
        Head width (even, >= 4).

    Returns
    -------
    float
        The new base; with d=128, s=8 the base 10000 becomes about 82,685.

    Raises
    ------
    PositionalError
        ``base`` not positive, ``s < 1``, or ``d`` odd or < 4.
    """
    d = check_width(d)
    if d < 4:
        raise PositionalError(f"NTK-aware scaling needs d >= 4, got {d}")
    return check_positive_float("base", base) * _check_scale(s) ** (d / (d - 2))


def yarn_ramp(r: np.ndarray, alpha: float = 1.0, beta: float = 32.0) -> np.ndarray:
    """YaRN's ramp ``gamma(r)``: 0 below ``alpha``, 1 above ``beta``, linear in between.

    Parameters
    ----------
    r : (n,) float ndarray
        Ratios ``L / lambda_i`` (turns of pair ``i`` over the training length).
    alpha, beta : float
        The band edges, ``0 <= alpha < beta``.

    Returns
    -------
    (n,) float64 ndarray in [0, 1].
    """
    try:
        ok = 0 <= float(alpha) < float(beta) < np.inf
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise PositionalError(f"YaRN needs finite numbers 0 <= alpha < beta, got alpha={alpha!r}, beta={beta!r}")
    return np.clip((as_finite("r", r) - alpha) / (beta - alpha), 0.0, 1.0)


def yarn_score_scale(s: float) -> float:
    """Factor YaRN multiplies attention logits by: ``1/t = (0.1*ln(s) + 1)^2``."""
    return (0.1 * np.log(_check_scale(s)) + 1.0) ** 2


@dataclass(frozen=True, eq=False)  # holds an array: compared by identity
class ExtensionScheme:
    """One context-extension scheme evaluated for a head width and base.

    Attributes
    ----------
    name : str
        One of ``"original"``, ``"pi"``, ``"ntk"``, ``"yarn"``.
    theta : (d/2,) float64 ndarray
        Effective angular frequency per pair, radians per position.
    score_scale : float
        Factor on attention logits (1 except YaRN's ``1/t``).
    """

    name: str
    theta: np.ndarray
    score_scale: float = 1.0

    @property
    def label(self) -> str:
        return SCHEME_LABELS[self.name]

    @property
    def wavelengths(self) -> np.ndarray:
        """(d/2,) float64 ndarray: positions per full turn of each pair."""
        return 2.0 * np.pi / self.theta

    def angles_at(self, position: float) -> np.ndarray:
        """(d/2,) float64 ndarray: rotation angle of each pair at ``position``, radians."""
        return float(position) * self.theta

    def score_vs_distance(self, q, k, distances, *, pairing: str = "interleaved") -> np.ndarray:
        """(n,) float64 ndarray: ``score_scale`` times the RoPE score at each distance."""
        return self.score_scale * score_vs_distance(q, k, distances, self.theta, pairing=pairing)


def extension_scheme(
    name: str,
    d: int,
    base: float = 10000.0,
    s: float = 1.0,
    L: int = 4096,
    *,
    alpha: float = 1.0,
    beta: float = 32.0,
) -> ExtensionScheme:
    """Frequencies of one scheme (see the module docstring for each formula).

    Parameters
    ----------
    name : {"original", "pi", "ntk", "yarn"}
    d : int
        Head width, even (>= 4 for "ntk").
    base : float
        Original frequency base.
    s : float
        Scale factor, >= 1 (target context ``s*L``).
    L : int
        Training context length in tokens (used by YaRN's ramp).
    alpha, beta : float
        YaRN's band edges (paper defaults 1 and 32).

    Raises
    ------
    PositionalError
        Unknown ``name`` or an argument out of range.
    """
    theta = pair_frequencies(d, base)
    s = _check_scale(s)
    L = check_positive_int("L", L)
    if name == "original":
        return ExtensionScheme(name, theta)
    if name == "pi":
        return ExtensionScheme(name, theta / s)
    if name == "ntk":
        return ExtensionScheme(name, pair_frequencies(d, ntk_base(base, s, d)))
    if name == "yarn":
        gamma = yarn_ramp(L * theta / (2.0 * np.pi), alpha, beta)
        return ExtensionScheme(name, (1.0 - gamma) * theta / s + gamma * theta, yarn_score_scale(s))
    raise PositionalError(f"unknown scheme {name!r}; choose one of {', '.join(SCHEMES)}")


def extension_schemes(d: int, base: float = 10000.0, s: float = 1.0, L: int = 4096) -> tuple[ExtensionScheme, ...]:
    """All four schemes, in the order of :data:`SCHEMES`."""
    return tuple(extension_scheme(n, d, base, s, L) for n in SCHEMES)
