"""Golden figures of SPEC §6 and hand-checkable cases for core.positional."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.errors import SubwordScopeError
from core.positional import (
    PositionalError,
    alibi_bias,
    alibi_slopes,
    embedding_cost,
    extension_scheme,
    extension_schemes,
    ntk_base,
    offset_dot_formula,
    offset_dot_products,
    pair_frequencies,
    pair_wavelengths,
    rope,
    rope_scores,
    score_vs_distance,
    sinusoidal,
    yarn_ramp,
    yarn_score_scale,
)


# -- sinusoidal -----------------------------------------------------------------------------
def test_sinusoidal_layout_matches_formula():
    pe = sinusoidal(5, 6, base=100.0)
    t, i = 3, 2
    assert pe[t, 2 * i] == pytest.approx(math.sin(t / 100.0 ** (2 * i / 6)), abs=1e-15)
    assert pe[t, 2 * i + 1] == pytest.approx(math.cos(t / 100.0 ** (2 * i / 6)), abs=1e-15)
    assert pe.shape == (5, 6) and pe.dtype == np.float64


def test_sinusoidal_row_norms_are_four_at_d32():
    norms = np.linalg.norm(sinusoidal(64, 32), axis=1)
    assert np.abs(norms - 4.0).max() < 1e-12  # sqrt(d/2), to float precision


@pytest.mark.parametrize(("k", "expected"), [(1, 15.3136), (2, 13.7301), (8, 10.5221)])
def test_sinusoidal_offset_dot_products_golden(k, expected):
    pe = sinusoidal(64, 32)
    dots = np.array([pe[s] @ pe[s + k] for s in range(40)])
    assert round(float(dots[0]), 4) == expected
    assert np.ptp(dots) < 1e-12  # spread 0 over 40 starting rows
    assert round(float(offset_dot_products(pe, start=17)[k]), 4) == expected
    assert round(float(offset_dot_formula(np.array([k]), 32)[0]), 4) == expected


def test_sinusoidal_float32_close_to_float64_even_far_out():
    a = sinusoidal(50_000, 16, dtype=np.float32)
    assert a.dtype == np.float32
    assert np.abs(a - sinusoidal(50_000, 16)).max() < 1e-6


@pytest.mark.parametrize("args", [(0, 32), (8, 31), (8, 0), (-1, 4)])
def test_sinusoidal_rejects_bad_sizes(args):
    with pytest.raises(PositionalError):
        sinusoidal(*args)


def test_errors_are_subword_scope_errors():
    assert issubclass(PositionalError, SubwordScopeError)
    with pytest.raises(PositionalError, match="base"):
        pair_frequencies(8, base=-1.0)
    with pytest.raises(PositionalError, match="start"):
        offset_dot_products(sinusoidal(8, 4), start=8)
    with pytest.raises(PositionalError, match="table"):
        offset_dot_products(np.ones(4))


def test_wavelengths_run_from_two_pi():
    wl = pair_wavelengths(8, 10000.0)
    assert wl[0] == pytest.approx(2 * math.pi)
    assert wl[-1] == pytest.approx(2 * math.pi * 10000.0 ** (6 / 8))


# -- RoPE -----------------------------------------------------------------------------------
@pytest.fixture
def qk():
    rng = np.random.default_rng(0)
    return rng.normal(size=16), rng.normal(size=16)


def test_rope_golden_norm(qk):
    q, _ = qk
    assert round(float(np.linalg.norm(q)), 10) == 3.6740083363
    assert round(float(np.linalg.norm(rope(q, 7))), 10) == 3.6740083363


@pytest.mark.parametrize(("m", "n"), [(5, 3), (105, 103), (50, 48)])
def test_rope_golden_rotated_dot(qk, m, n):
    q, k = qk
    assert round(float(rope(q, m) @ rope(k, n)), 10) == 2.6520686154


def test_rope_golden_unrotated(qk):
    q, k = qk
    assert round(float(q @ k), 10) == 2.4724458834
    assert round(float(rope(q, 0) @ rope(k, 0)), 10) == 2.4724458834


def test_rope_rotates_interleaved_pairs():
    x = np.zeros(4)
    x[2] = 1.0  # pair 1 (dims 2, 3) turns at theta_1 = base^(-2/4) = 0.01
    y = rope(x, 50.0)
    assert y[2:] == pytest.approx([math.cos(0.5), math.sin(0.5)])
    assert y[:2] == pytest.approx([0.0, 0.0])


def test_rope_half_split_pairs_i_with_i_plus_half():
    x = np.zeros(4)
    x[1] = 1.0  # pair 1 is dims (1, 3) in the half-split layout
    y = rope(x, 50.0, pairing="half")
    assert y[[1, 3]] == pytest.approx([math.cos(0.5), math.sin(0.5)])
    assert y[[0, 2]] == pytest.approx([0.0, 0.0])


def test_rope_batched_matches_rowwise(qk):
    q, _ = qk
    x = np.stack([q, 2 * q, -q])[None]  # (1, 3, 16)
    pos = np.array([4, 9, 1])
    y = rope(x, pos)
    assert y.shape == (1, 3, 16)
    for r in range(3):
        assert np.allclose(y[0, r], rope(x[0, r], pos[r]))


def test_rope_rejects_odd_width_and_bad_pairing():
    with pytest.raises(PositionalError, match="even"):
        rope(np.ones(5), 1)
    with pytest.raises(PositionalError, match="pairing"):
        rope(np.ones(4), 1, pairing="zigzag")
    with pytest.raises(PositionalError, match="theta"):
        rope(np.ones(4), 1, theta=np.ones(3))


def test_rope_scores_matrix_and_distance_curve(qk):
    q, k = qk
    s = rope_scores(q, k, np.arange(120))
    assert s.shape == (120, 120)
    assert round(float(s[5, 3]), 10) == 2.6520686154
    assert round(float(s[105, 103]), 10) == 2.6520686154
    curve = score_vs_distance(q, k, np.array([-2, 0, 7]), pair_frequencies(16))
    assert curve == pytest.approx([s[5, 3], s[3, 3], s[3, 10]], abs=1e-12)


# -- ALiBi ----------------------------------------------------------------------------------
def test_alibi_slopes_power_of_two():
    assert alibi_slopes(8) == pytest.approx([2.0**-h for h in range(1, 9)], abs=0)
    assert alibi_slopes(4) == pytest.approx([2.0 ** (-2 * h) for h in range(1, 5)], abs=0)


def test_alibi_slopes_not_power_of_two_follows_reference_rule():
    # H=6: the 4 slopes of H=4, then the 1st and 3rd slopes of H=8.
    assert alibi_slopes(6).tolist() == [2**-2, 2**-4, 2**-6, 2**-8, 2**-1, 2**-3]
    assert alibi_slopes(12)[8:].tolist() == alibi_slopes(16)[0:8:2].tolist()


def test_alibi_bias_causal_and_symmetric():
    b = alibi_bias(4, 2)
    assert b.shape == (2, 4, 4)
    assert b[0, 3, 1] == -(2.0**-4) * (3 - 1)  # -m_1 * (i - j), m_1 = 2^(-8/H) = 2^-4
    assert np.isneginf(b[:, 0, 1]).all()
    assert (b[:, np.arange(4), np.arange(4)] == 0).all()
    sym = alibi_bias(4, 2, causal=False)
    assert sym[1, 0, 3] == sym[1, 3, 0] == -3 * 2.0**-8
    assert np.array_equal(alibi_bias(4, 2, head=1), b[1])
    with pytest.raises(PositionalError, match="head"):
        alibi_bias(4, 2, head=2)


# -- context extension ----------------------------------------------------------------------
def test_ntk_base_golden():
    assert ntk_base(10000.0, 8, 128) == pytest.approx(82685, abs=1)
    assert round(ntk_base(10000.0, 8, 128)) == 82685


def test_extension_schemes_edges():
    d, base, s, L = 128, 10000.0, 8.0, 4096
    orig, pi, ntk, yarn = extension_schemes(d, base, s, L)
    assert np.allclose(pi.theta, orig.theta / s)
    assert ntk.theta[0] == orig.theta[0]  # the fastest pair is untouched
    assert ntk.theta[-1] == pytest.approx(orig.theta[-1] / s)  # the slowest is interpolated by s
    r = L / orig.wavelengths
    assert np.allclose(yarn.theta[r > 32], orig.theta[r > 32])  # many turns: left alone
    assert np.allclose(yarn.theta[r < 1], orig.theta[r < 1] / s)  # < 1 turn: interpolated
    assert yarn.score_scale == pytest.approx((0.1 * math.log(8) + 1) ** 2)
    assert orig.score_scale == pi.score_scale == ntk.score_scale == 1.0
    assert np.allclose(yarn.angles_at(10000), 10000 * yarn.theta)


def test_yarn_ramp_and_scale():
    assert yarn_ramp(np.array([0.5, 1.0, 16.5, 32.0, 40.0])).tolist() == [0.0, 0.0, 0.5, 1.0, 1.0]
    assert yarn_score_scale(1.0) == 1.0
    with pytest.raises(PositionalError):
        yarn_ramp(np.ones(2), alpha=3, beta=2)


def test_extension_scheme_errors():
    with pytest.raises(PositionalError, match="scale"):
        extension_scheme("pi", 16, s=0.5)
    with pytest.raises(PositionalError, match="unknown scheme"):
        extension_scheme("xpos", 16)
    with pytest.raises(PositionalError, match="d >= 4"):
        ntk_base(10000.0, 2, 2)


def test_scheme_score_curve_scaled(qk):
    q, k = qk
    yarn = extension_scheme("yarn", 16, 10000.0, 4.0, 64)
    dist = np.arange(5)
    assert np.allclose(yarn.score_vs_distance(q, k, dist), yarn.score_scale * score_vs_distance(q, k, dist, yarn.theta))


# -- embedding cost -------------------------------------------------------------------------
def test_embedding_cost_golden():
    small = embedding_cost(32000, 4096, "fp16", layers=32)
    assert small.parameters == 131_072_000  # 131 M
    assert round(small.gib, 3) == 0.244
    big = embedding_cost(128000, 4096, "fp16", layers=32)
    assert big.parameters == 524_288_000  # 524 M
    assert round(big.gib, 3) == 0.977
    assert small.block_parameters == 6_442_450_944  # 6.44 B
    assert small.fraction_of_blocks == pytest.approx(131_072_000 / 6_442_450_944)


def test_embedding_cost_untied_and_dtypes():
    c = embedding_cost(1000, 8, "fp32", tied=False, layers=2)
    assert c.parameters == 16000 and c.bytes == 64000
    assert c.fraction_of_total == pytest.approx(16000 / (16000 + 12 * 2 * 64))
    with pytest.raises(PositionalError, match="dtype"):
        embedding_cost(10, 8, "fp64")
    with pytest.raises(PositionalError, match="V"):
        embedding_cost(0, 8)


# --- bad input: typed errors, size cap (tester findings) ---------------------------------------


def test_size_cap_refuses_huge_tables_quickly_with_size_and_limit():
    from core.positional import MAX_RESULT_BYTES

    assert MAX_RESULT_BYTES == 256 * 2**20
    with pytest.raises(PositionalError, match=r"\(64, 100000, 100000\).*GiB.*256 MiB limit"):
        alibi_bias(100000, 64)
    with pytest.raises(PositionalError, match=r"\(100000, 100000\).*256 MiB"):
        alibi_bias(100000, 64, head=0)
    with pytest.raises(PositionalError, match=r"sinusoidal.*\(10000000, 64\).*256 MiB"):
        sinusoidal(10**7, 64)
    with pytest.raises(PositionalError, match="RoPE score matrix"):
        rope_scores(np.ones(4), np.ones(4), np.arange(10_000))
    with pytest.raises(PositionalError, match="256 MiB"):
        offset_dot_formula(np.arange(10**6), 128)
    with pytest.raises(PositionalError, match="256 MiB"):
        score_vs_distance(np.ones(128), np.ones(128), np.arange(10**6), pair_frequencies(128))
    with pytest.raises(PositionalError, match="256 MiB"):
        pair_frequencies(2 * 10**9)
    # exactly at the cap is allowed: 8 heads x 2048 x 2048 x 8 bytes = 256 MiB (checked, not built)
    # private: the size check shared by every table, tested once
    from core.positional._frequencies import check_result_size

    check_result_size("at the cap", (8, 2048, 2048))
    with pytest.raises(PositionalError):
        check_result_size("one over", (8, 2048, 2048 + 1))


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10", None, True, float("nan")])
def test_lengths_and_heads_must_be_positive_whole_numbers(bad):
    with pytest.raises(PositionalError, match="whole number"):
        sinusoidal(bad, 8)
    with pytest.raises(PositionalError, match="whole number"):
        alibi_bias(bad, 4)
    with pytest.raises(PositionalError, match="whole number"):
        alibi_slopes(bad)


def test_width_and_base_validation():
    with pytest.raises(PositionalError, match="even"):
        sinusoidal(4, 7)
    with pytest.raises(PositionalError, match="whole number"):
        sinusoidal(4, "8")
    with pytest.raises(PositionalError, match="base"):
        sinusoidal(4, 8, "big")
    with pytest.raises(PositionalError, match="head"):
        alibi_bias(4, 2, head=-1)
    with pytest.raises(PositionalError, match="head"):
        alibi_bias(4, 2, head="first")


def test_rope_shape_mismatch_names_both_shapes():
    x = np.ones((4, 64))
    with pytest.raises(PositionalError, match=r"positions of shape \(5,\).*\(4, 64\).*\(4,\)"):
        rope(x, np.arange(5))
    with pytest.raises(PositionalError, match=r"\(4, 3\)"):
        rope(x, np.ones((4, 3)))
    with pytest.raises(PositionalError, match="scalar"):
        rope(5.0, 0)
    with pytest.raises(PositionalError, match="finite"):
        rope(x, np.array([0, 1, np.nan, 3]))
    with pytest.raises(PositionalError, match="finite"):
        rope(np.full((2, 4), np.inf), [0, 1])
    with pytest.raises(PositionalError, match="numbers"):
        rope(x, ["a", "b", "c", "d"])
    # matching and broadcastable shapes still work
    assert rope(x, np.arange(4)).shape == (4, 64)
    assert rope(x[None], np.arange(4)).shape == (1, 4, 64)
    assert rope(np.ones(4, dtype=np.float32), 3).shape == (4,)


def test_rotate_and_score_check_their_shapes():
    from core.positional import rotate

    with pytest.raises(PositionalError, match="d/2 = 2"):
        rotate(np.ones((3, 4)), np.ones((3, 3)))
    with pytest.raises(PositionalError, match=r"angles of shape \(2,\)"):
        rotate(np.ones((3, 4)), np.ones((2, 2)))
    with pytest.raises(PositionalError, match="theta"):
        score_vs_distance(np.ones(4), np.ones(4), [1, 2], [1.0])
    with pytest.raises(PositionalError, match="1-D"):
        rope_scores(np.ones((2, 4)), np.ones((2, 4)), np.arange(3))
    with pytest.raises(PositionalError, match="axis"):
        rope_scores(np.ones(4), np.ones(4), np.ones((2, 2)))
    with pytest.raises(PositionalError, match="finite"):
        offset_dot_formula([1.0, np.inf], 4)


def test_yarn_ramp_and_scheme_arguments():
    with pytest.raises(PositionalError, match="alpha"):
        yarn_ramp([1.0], "low", 32)
    with pytest.raises(PositionalError, match="alpha"):
        yarn_ramp([1.0], 1, float("inf"))
    with pytest.raises(PositionalError, match="finite"):
        yarn_ramp([float("nan")])
    with pytest.raises(PositionalError, match="whole number"):
        extension_scheme("yarn", 64, L="4k")
    with pytest.raises(PositionalError, match="s must be"):
        extension_scheme("pi", 64, s="x")
    with pytest.raises(PositionalError, match="whole number"):
        embedding_cost("32k", 4096)
