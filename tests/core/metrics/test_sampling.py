"""SPEC §9: temperature and exponent sampling, output layer cost, fertility → length/attention."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError
from core.metrics import (
    exponent_shares,
    fertility_cost,
    output_layer_cost,
    passes,
    temperature_curve,
    temperature_shares,
)


def test_temperature_golden():
    assert np.round(temperature_shares([100, 1], 1), 3).tolist() == [0.990, 0.010]
    assert np.round(temperature_shares([100, 1], 5), 3).tolist() == [0.715, 0.285]


def test_exponent_golden_share_and_passes():
    sizes = [5_000_000, 800_000, 20_000]
    p = exponent_shares(sizes, 0.5)
    assert round(p[2], 4) == 0.0432
    assert round(passes(sizes, p, 5_000_000)[2], 1) == 10.8


def test_output_layer_and_fertility_cost_golden():
    c = output_layer_cost(32_000, 512)
    assert c.params == 16_384_000 and c.flops_per_token == 32_768_000
    f = fertility_cost(1.3, 2.6)
    assert round(f.length_ratio, 6) == 2.0 and round(f.attention_ratio, 6) == 4.0


def test_bad_input_raises():
    for bad in ([], [0, 0], [1, -2], [float("nan")]):
        with pytest.raises(SubwordScopeError):
            exponent_shares(bad, 0.5)
    with pytest.raises(SubwordScopeError):
        temperature_shares([1, 2], 0)
    with pytest.raises(SubwordScopeError):
        passes([1, 2], [1.0], 10)
    with pytest.raises(SubwordScopeError):
        output_layer_cost(0, 512)
    with pytest.raises(SubwordScopeError):
        fertility_cost(0, 1)


sizes = st.lists(st.floats(1, 1e9), min_size=1, max_size=8)


@settings(max_examples=100, deadline=None)
@given(sizes, st.floats(0.2, 20))
def test_shares_sum_to_one_keep_order_and_match_the_formula(n, T):
    p = temperature_shares(n, T)
    assert p.sum() == pytest.approx(1.0)
    w = np.asarray(n) ** (1 / T)
    np.testing.assert_allclose(p, w / w.sum(), rtol=1e-9)
    order = np.argsort(n, kind="stable")
    assert np.all(np.diff(p[order]) >= -1e-12)


@settings(max_examples=50, deadline=None)
@given(sizes)
def test_higher_temperature_flattens(n):
    curve = temperature_curve(n, [1, 2, 5, 100])
    assert curve.shape == (4, len(n))
    np.testing.assert_allclose(curve[0], np.asarray(n) / np.sum(n), rtol=1e-9)
    assert np.all(np.diff(curve.max(axis=1)) <= 1e-12)


# --- bad and extreme input (tester findings) ---------------------------------------------------

from core.metrics.sampling import SamplingError  # noqa: E402


def test_huge_sizes_do_not_overflow_or_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a RuntimeWarning would fail the test
        p = temperature_shares([1e308, 1e308, 1e300], 0.01)
        assert p.tolist() == [0.5, 0.5, 0.0]
        assert exponent_shares([1e308, 1e-308], 0.0).tolist() == [0.5, 0.5]
        np.testing.assert_allclose(passes([1e308, 1e308], [0.5, 0.5], 1e308), [0.5, 0.5])
        with pytest.raises(SamplingError, match=r"language 1 are too large.*1e\+308 draws"):
            passes([1e-308, 1.0], [0.5, 0.5], 1e308)


@pytest.mark.parametrize(
    "sizes, match",
    [
        ([1, float("inf")], r"language size 2 is inf"),
        ([1, -2], r"language size 2 is -2"),
        ([0, 0.0], r"every language size is 0"),
        (["many"], r"must be numbers"),
        ([], r"at least one"),
    ],
)
def test_bad_sizes_name_the_language(sizes, match):
    with pytest.raises(SamplingError, match=match):
        temperature_shares(sizes, 2.0)


def test_zero_sized_languages_get_nothing():
    p = temperature_shares([0, 100, 100], 5.0)
    assert p.tolist() == [0.0, 0.5, 0.5]
    assert passes([0, 100, 100], p, 100).tolist() == [0.0, 0.5, 0.5]


def test_bad_parameters():
    with pytest.raises(SamplingError, match="temperature T must be a number"):
        temperature_shares([1, 2], "hot")
    with pytest.raises(SamplingError, match="finite"):
        temperature_shares([1, 2], float("inf"))
    with pytest.raises(SamplingError, match="exponent"):
        exponent_shares([1, 2], float("nan"))
    with pytest.raises(SamplingError, match="draws must be >= 0"):
        passes([1, 2], [0.5, 0.5], -1)
    with pytest.raises(SamplingError, match="between 0 and 1"):
        passes([1, 2], [1.5, -0.5], 10)
    with pytest.raises(SamplingError, match="temperatures"):
        temperature_curve([1, 2], [])
    with pytest.raises(SamplingError, match="temperatures"):
        temperature_curve([1, 2], np.ones(10**6))
