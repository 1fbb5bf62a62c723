"""SPEC §9: temperature and exponent sampling, output layer cost, fertility → length/attention."""

from __future__ import annotations

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
    for bad in ([], [1, 0], [1, -2], [float("nan")]):
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
