"""Property tests (hypothesis) for core.positional against obviously correct references."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core.positional import (
    alibi_bias,
    alibi_slopes,
    extension_schemes,
    offset_dot_formula,
    offset_dot_products,
    pair_frequencies,
    rope,
    rope_scores,
    score_vs_distance,
    sinusoidal,
)

widths = st.integers(1, 32).map(lambda n: 2 * n)
bases = st.floats(2.0, 1e6)
positions = st.integers(0, 100_000)
pairings = st.sampled_from(["interleaved", "half"])


def _vec(seed: int, d: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=d)


def _rope_slow(x: np.ndarray, t: float, base: float, pairing: str) -> np.ndarray:
    """One 2x2 rotation matrix per pair, written out."""
    d = len(x)
    y = np.array(x, dtype=float)
    for i in range(d // 2):
        a, b = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + d // 2)
        ang = t * base ** (-2 * i / d)
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        y[[a, b]] = rot @ x[[a, b]]
    return y


@settings(max_examples=100, deadline=None)
@given(widths, bases, positions, pairings, st.integers(0, 2**32 - 1))
def test_rope_matches_rotation_matrices_and_keeps_norm(d, base, t, pairing, seed):
    x = _vec(seed, d)
    y = rope(x, t, base, pairing=pairing)
    assert np.allclose(y, _rope_slow(x, t, base, pairing), atol=1e-9)
    assert math.isclose(np.linalg.norm(y), np.linalg.norm(x), rel_tol=1e-12)


@settings(max_examples=100, deadline=None)
@given(widths, bases, positions, positions, st.integers(-1000, 1000), pairings, st.integers(0, 2**32 - 1))
def test_rope_score_depends_only_on_distance(d, base, m, n, shift, pairing, seed):
    q, k = _vec(seed, d), _vec(seed + 1, d)
    m2, n2 = m + shift, n + shift
    if min(m2, n2) < 0:
        m2, n2 = m - shift, n - shift
    a = rope(q, m, base, pairing=pairing) @ rope(k, n, base, pairing=pairing)
    b = rope(q, m2, base, pairing=pairing) @ rope(k, n2, base, pairing=pairing)
    c = score_vs_distance(q, k, np.array([n - m]), pair_frequencies(d, base), pairing=pairing)[0]
    scale = np.linalg.norm(q) * np.linalg.norm(k)
    assert abs(a - b) <= 1e-7 * scale  # angles up to ~1e5 rad lose a few digits
    assert abs(a - c) <= 1e-7 * scale


@settings(max_examples=50, deadline=None)
@given(widths, st.integers(2, 40), pairings, st.integers(0, 2**32 - 1))
def test_rope_score_matrix_constant_on_diagonals(d, T, pairing, seed):
    q, k = _vec(seed, d), _vec(seed + 1, d)
    s = rope_scores(q, k, np.arange(T), pairing=pairing)
    for off in range(-T + 1, T):
        diag = np.diagonal(s, offset=off)
        assert np.ptp(diag) < 1e-9


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 200), widths, bases)
def test_sinusoidal_rows_have_norm_sqrt_half_d(T, d, base):
    norms = np.linalg.norm(sinusoidal(T, d, base), axis=1)
    assert np.allclose(norms, math.sqrt(d / 2), rtol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 256))
def test_alibi_slopes_geometric_series(H):
    slopes = alibi_slopes(H)
    assert slopes.shape == (H,)
    n = 2 ** int(math.floor(math.log2(H)))
    head = slopes[:n]
    # the first n slopes: start 2^(-8/n), ratio 2^(-8/n)
    assert np.allclose(head, [2.0 ** (-8 * h / n) for h in range(1, n + 1)], rtol=1e-12)
    assert np.allclose(head[1:] / head[:-1], 2.0 ** (-8 / n), rtol=1e-12)
    # the rest interleave the 2n series: 2^(-8(2j+1)/(2n)), j = 0, 1, ...
    rest = slopes[n:]
    assert np.allclose(rest, [2.0 ** (-8 * (2 * j + 1) / (2 * n)) for j in range(H - n)], rtol=1e-12)
    assert len(set(slopes.tolist())) == H  # every head gets its own slope


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 24), st.integers(1, 12), st.booleans())
def test_alibi_bias_is_slope_times_distance(T, H, causal):
    b = alibi_bias(T, H, causal=causal)
    m = alibi_slopes(H)
    for h in range(H):
        for i in range(T):
            for j in range(T):
                if causal and j > i:
                    assert b[h, i, j] == -np.inf
                else:
                    assert b[h, i, j] == -m[h] * abs(i - j)


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 64).map(lambda n: 2 * n), st.floats(1.0, 64.0), st.integers(16, 32768))
def test_extended_wavelengths_never_shorter_and_at_most_s_longer(d, s, L):
    orig, pi, ntk, yarn = extension_schemes(d, 10000.0, s, L)
    for sch in (pi, ntk, yarn):
        ratio = sch.wavelengths / orig.wavelengths
        assert np.all(ratio >= 1 - 1e-12)
        assert np.all(ratio <= s * (1 + 1e-12))
    # NTK and YaRN stretch slow pairs at least as much as fast ones
    for sch in (ntk, yarn):
        ratio = sch.wavelengths / orig.wavelengths
        assert np.all(np.diff(ratio) >= -1e-12)


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 300), widths, bases, st.data())
def test_sinusoidal_dot_depends_only_on_offset(T, d, base, data):
    pe = sinusoidal(T, d, base)
    start = data.draw(st.integers(0, T - 1))
    dots = offset_dot_products(pe, start)
    assert dots.shape == (T - start,)
    assert np.allclose(dots, offset_dot_formula(np.arange(T - start), d, base), atol=1e-9)
    assert np.allclose(dots, [pe[0] @ pe[k] for k in range(T - start)], atol=1e-9)
