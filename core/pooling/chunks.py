"""Long documents as overlapping token windows, each window's span of the original text, and
per-document scores from per-window probabilities (noisy-OR and friends), SPEC §7.

Also home of :class:`PoolingError` and the argument checks every pooling module uses.

Public names: :func:`chunk_windows`, :func:`window_spans`, :data:`MAX_WINDOWS`,
:func:`noisy_or`, :class:`ChunkAggregate`, :func:`aggregate_chunks`, :class:`PoolingError`;
the checks :func:`whole_number`, :func:`real_number`, :func:`real_array`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.errors import SubwordScopeError


class PoolingError(SubwordScopeError):
    """Pooling input has the wrong shape, or a sequence has no real token."""


MAX_WINDOWS = 100_000
"""Most windows :func:`chunk_windows` will list (100,000: 51 million tokens at 510 per window)."""


def whole_number(name: str, value, minimum: int) -> int:
    """``value`` as an ``int`` >= ``minimum``, or :class:`PoolingError` naming ``name``."""
    try:
        ok = not isinstance(value, (bool, str, bytes)) and int(value) == value and int(value) >= minimum
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise PoolingError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def real_number(name: str, value, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite ``float`` within ``[low, high]`` (each bound when given), or
    :class:`PoolingError` naming ``name``; booleans, strings and complex numbers are refused."""
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    ok = ok and bool(np.isfinite(value)) and (low is None or value >= low) \
        and (high is None or value <= high)
    if not ok:
        bounds = "" if low is None and high is None else (
            f" from {low:g} to {high:g}" if low is not None and high is not None
            else f" >= {low:g}" if low is not None else f" <= {high:g}")
        raise PoolingError(f"{name} must be a finite number{bounds}, got {value!r}")
    return float(value)


def real_array(value, name: str, *, min_ndim: int = 0, finite: bool = True) -> np.ndarray:
    """``value`` as a numpy array of real numbers (bool, int or float) with at least
    ``min_ndim`` dimensions and, when ``min_ndim >= 1``, a non-empty last axis (the vector
    dimensions); NaN and infinity refused when ``finite``. O(size).

    Raises
    ------
    PoolingError
        Ragged nested lists, values that are not real numbers (None, str, objects, complex
        numbers, dates), fewer dimensions than ``min_ndim``, an empty last axis, or NaN /
        infinity.
    """
    try:
        out = np.asarray(value)
    except (ValueError, TypeError):  # numpy refuses ragged nesting
        raise PoolingError(f"{name} must be a rectangular array of numbers; its rows have "
                           "different lengths (a ragged list)") from None
    if out.dtype.kind not in "biuf":
        raise PoolingError(f"{name} must hold real numbers, got dtype {out.dtype}")
    if out.ndim < min_ndim:
        raise PoolingError(f"{name} must have at least {min_ndim} dimensions, got shape {out.shape}")
    if min_ndim >= 1 and out.shape[-1] == 0:
        raise PoolingError(f"{name} has no dimensions to pool (shape {out.shape})")
    if finite and out.dtype.kind == "f" and not np.isfinite(out).all():
        raise PoolingError(f"{name} contains NaN or infinity")
    return out


def chunk_windows(n: int, content: int = 510, overlap: int = 128) -> list[tuple[int, int]]:
    """Half-open token windows of ``content`` tokens, each overlapping the previous by ``overlap``.

    The stride is ``content - overlap``; the last window ends exactly at ``n`` (it may be
    shorter). ``content=510`` leaves room for ``[CLS]`` and ``[SEP]`` in a 512-position model.
    The number of windows, ``1 + ceil((n - content) / stride)`` for ``n > content``, is
    computed first and may not exceed :data:`MAX_WINDOWS`.

    Golden (SPEC §7): n=2000 gives (0,510) (382,892) (764,1274) (1146,1656) (1528,2000);
    with overlap 0 there are 4 windows.

    Raises
    ------
    PoolingError
        ``n < 0``, ``content < 1``, ``overlap`` outside ``0 .. content-1``, any of them not a
        whole number, or more than :data:`MAX_WINDOWS` windows.
    """
    n, content = whole_number("n", n, 0), whole_number("content", content, 1)
    overlap = whole_number("overlap", overlap, 0)
    if overlap >= content:
        raise PoolingError(
            f"need 0 <= overlap < content; got n={n}, content={content}, overlap={overlap}"
        )
    stride = content - overlap
    count = 0 if n == 0 else 1 + max(0, -(-(n - content) // stride))
    if count > MAX_WINDOWS:
        raise PoolingError(
            f"{n:,} tokens in windows of {content} with stride {stride} make {count:,} windows, "
            f"above the limit of {MAX_WINDOWS:,}; use larger windows or less overlap"
        )
    starts = np.arange(count, dtype=np.int64) * stride
    ends = np.minimum(starts + content, n)
    return list(zip(starts.tolist(), ends.tolist()))


def _pairs(name: str, values) -> list[tuple[int, int]]:
    """``values`` as a list of ``(int, int)``, or :class:`PoolingError` naming the bad index."""
    try:
        items = list(values)
    except TypeError:
        raise PoolingError(f"{name} must be a sequence of (start, end) pairs, got {type(values).__name__}") from None
    out = []
    for i, item in enumerate(items):
        try:
            a, b = item
            pair = (whole_number("start", a, 0), whole_number("end", b, 0))
        except (TypeError, ValueError):
            raise PoolingError(f"{name}[{i}] must be a (start, end) pair of whole numbers >= 0, got {item!r}") from None
        if pair[0] > pair[1]:
            raise PoolingError(f"{name}[{i}] = {pair} ends before it starts")
        out.append(pair)
    return out


def window_spans(offsets, windows) -> list[tuple[int, int]]:
    """Original-text span of each token window: first token's start to last token's end.

    Parameters
    ----------
    offsets : sequence of (start, end) — half-open code-point spans, one per token.
    windows : sequence of (start, end) — half-open token ranges (:func:`chunk_windows`),
        non-empty and within ``0 .. len(offsets)``.

    Returns
    -------
    list of (start, end) — code points of the original text.

    Raises
    ------
    PoolingError
        A pair that is not two whole numbers, a reversed pair, an empty window, or a window
        reaching past the last token (the message names the window's index).
    """
    offsets, windows = _pairs("offsets", offsets), _pairs("windows", windows)
    for i, (s, e) in enumerate(windows):
        if s == e or e > len(offsets):
            raise PoolingError(
                f"windows[{i}] = {(s, e)} must be a non-empty token range within 0..{len(offsets)} "
                f"(there are {len(offsets)} tokens)"
            )
    return [(offsets[s][0], offsets[e - 1][1]) for s, e in windows]


def noisy_or(p: np.ndarray) -> float:
    """Probability that at least one chunk fires: ``1 - prod(1 - p_i)``.

    Golden (SPEC §7): ``noisy_or([0.1, 0.2, 0.7]) == 0.784``.

    Raises :class:`PoolingError` unless ``p`` holds one or more numbers in [0, 1] (NaN,
    ragged lists, strings refused).
    """
    p = _probabilities(p)
    return float(1.0 - np.prod(1.0 - p))


def _probabilities(p) -> np.ndarray:
    """``p`` as a non-empty float64 array of numbers in [0, 1]; PoolingError otherwise."""
    p = real_array(p, "probabilities").astype(np.float64)
    if p.size == 0 or (p < 0).any() or (p > 1).any():
        raise PoolingError("noisy-OR needs one or more probabilities in [0, 1]")
    return p


@dataclass(frozen=True)
class ChunkAggregate:
    """Per-document score from per-chunk probabilities.

    Attributes
    ----------
    mean : float — mean of the chunk probabilities.
    mean_logit : float — sigmoid of the mean chunk logit.
    max : float — the largest chunk probability.
    noisy_or : float — ``1 - prod(1 - p)``.
    """

    mean: float
    mean_logit: float
    max: float
    noisy_or: float


def aggregate_chunks(p: np.ndarray) -> ChunkAggregate:
    """Combine chunk probabilities ``p (k,)`` four ways (see :class:`ChunkAggregate`).

    Raises :class:`PoolingError` unless ``p`` holds one or more numbers in [0, 1]."""
    p = _probabilities(p)
    nor = noisy_or(p)
    q = np.clip(p, 1e-12, 1 - 1e-12)
    mean_logit = float(np.mean(np.log(q) - np.log1p(-q)))
    return ChunkAggregate(float(p.mean()), float(1 / (1 + np.exp(-mean_logit))), float(p.max()), nor)
