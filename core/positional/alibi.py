"""ALiBi, attention with linear biases (Press, Smith & Lewis 2022, "Train Short, Test Long").

No position vectors at all: head ``h`` adds ``-m_h * (i - j)`` to the score of query ``i`` and
key ``j``. The slopes are the geometric series ``m_h = 2^(-8h/H)``, ``h = 1..H``.
"""

from __future__ import annotations

import math

import numpy as np

from core.positional._frequencies import PositionalError, check_positive_int, check_result_size


def _power_of_two_slopes(n: int) -> np.ndarray:
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def alibi_slopes(H: int) -> np.ndarray:
    """Per-head ALiBi slopes.

    For ``H`` a power of two: ``m_h = 2^(-8h/H)`` for ``h = 1..H`` (first slope and ratio
    both ``2^(-8/H)``). Otherwise the paper's reference rule: take the ``n`` slopes of the
    closest lower power of two ``n``, then every other slope of the ``2n`` series
    (its 1st, 3rd, 5th, ...) until there are ``H``.

    Parameters
    ----------
    H : int
        Number of attention heads, >= 1.

    Returns
    -------
    slopes : (H,) float64 ndarray
        Slope of head ``h`` at index ``h-1``; all in ``[2^-8, 1)``, largest first when ``H``
        is a power of two.

    Raises
    ------
    PositionalError
        ``H`` is not a whole number >= 1.
    """
    H = check_positive_int("H", H)
    check_result_size("ALiBi slopes (H,)", (H,))
    n = 2 ** int(math.floor(math.log2(H)))
    slopes = _power_of_two_slopes(n)
    if n == H:
        return slopes
    extra = _power_of_two_slopes(2 * n)[0::2][: H - n]
    return np.concatenate([slopes, extra])


def alibi_bias(T: int, H: int, *, causal: bool = True, head: int | None = None) -> np.ndarray:
    """ALiBi bias added to attention scores.

    Parameters
    ----------
    T : int
        Sequence length in tokens, >= 1.
    H : int
        Number of heads, >= 1.
    causal : bool
        ``True``: ``-m_h * (i - j)`` for keys ``j <= i`` and ``-inf`` above the diagonal (the
        causal mask, as the paper's decoder uses). ``False``: the symmetric variant
        ``-m_h * |i - j|`` for bidirectional encoders.
    head : int, optional
        0-based head index: return only that head's ``(T, T)`` matrix.

    Returns
    -------
    bias : (H, T, T) float64 ndarray, or (T, T) when ``head`` is given
        ``bias[h, i, j]`` for query ``i`` (row) and key ``j`` (column).

    Raises
    ------
    PositionalError
        Bad ``T`` or ``H``, ``head`` outside ``[0, H)``, or a result above
        :data:`~core.positional._frequencies.MAX_RESULT_BYTES` (256 MiB; e.g. ``T=100000``).
    """
    T = check_positive_int("T", T)
    slopes = alibi_slopes(H)
    if head is not None:
        head = check_positive_int("head", head, minimum=0)
        if head >= len(slopes):
            raise PositionalError(f"head must be in 0..{len(slopes) - 1}, got {head}")
    check_result_size("ALiBi bias", (T, T) if head is not None else (len(slopes), T, T))
    idx = np.arange(T)
    dist = (idx[:, None] - idx[None, :]).astype(np.float64)
    if not causal:
        dist = np.abs(dist)
    if head is not None:
        bias = -slopes[head] * dist + 0.0  # + 0.0 turns -0.0 into 0.0
    else:
        bias = -slopes[:, None, None] * dist[None] + 0.0
    if causal:
        bias[..., dist < 0] = -np.inf
    return bias
