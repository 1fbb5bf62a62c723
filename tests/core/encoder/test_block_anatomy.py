"""SPEC §11 golden block shapes and parameter split; shapes agree with a numpy forward pass."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.encoder.block_anatomy import BlockShapeError, block_anatomy, block_forward, init_block_weights
from core.errors import SubwordScopeError


@pytest.fixture
def golden():
    return block_anatomy(B=2, T=8, d=64, H=4, d_ff=256)


def test_golden_shapes(golden):
    assert golden.shape_of("x") == golden.shape_of("out") == (2, 8, 64)
    assert golden.shape_of("qkv") == (2, 8, 192)
    assert golden.shape_of("q, k, v per head") == (2, 4, 8, 16)
    assert golden.shape_of("scores") == (2, 4, 8, 8)
    assert golden.shape_of("ffn_hidden") == (2, 8, 256)


def test_golden_parameters(golden):
    assert golden.total == 49_984
    assert golden.attention == 16_640
    assert golden.ffn == 33_088
    assert round(100 * golden.ffn_fraction) == 66
    assert golden.part_total("norm") == 256


def test_forward_pass_has_the_stated_shapes(golden):
    w = init_block_weights(64, 4, 256, seed=0)
    assert sum(a.size for a in w.values()) == golden.total
    x = np.random.default_rng(1).normal(size=(2, 8, 64))
    out = block_forward(x, w, 4)
    for inter in golden.intermediates:
        assert out[inter.name].shape == inter.shape, inter.name
    assert np.allclose(out["weights"].sum(-1), 1.0)
    assert np.all(out["weights"][..., 0, 1:] == 0)  # causal: the first query sees only itself


def test_forward_is_causal():
    w = init_block_weights(16, 2, 32, seed=3)
    x = np.random.default_rng(2).normal(size=(1, 6, 16))
    y = x.copy()
    y[0, 4:] += 1.0  # change only the future of position 3
    a, b = block_forward(x, w, 2)["out"], block_forward(y, w, 2)["out"]
    assert np.allclose(a[0, :4], b[0, :4]) and not np.allclose(a[0, 4:], b[0, 4:])


@pytest.mark.parametrize(("args", "match"), [((2, 8, 64, 5, 256), "divisible"), ((0, 8, 64, 4, 256), "B")])
def test_bad_sizes(args, match):
    with pytest.raises(BlockShapeError, match=match):
        block_anatomy(*args)
    assert issubclass(BlockShapeError, SubwordScopeError)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 3), st.integers(1, 12), st.integers(1, 4), st.integers(1, 8), st.integers(1, 40))
def test_parameter_formula(B, T, H, hd, d_ff):
    d = H * hd
    a = block_anatomy(B, T, d, H, d_ff)
    assert a.attention == 4 * d * d + 4 * d
    assert a.ffn == 2 * d * d_ff + d_ff + d
    assert a.total == a.attention + a.ffn + 4 * d
    out = block_forward(np.zeros((B, T, d)), init_block_weights(d, H, d_ff), H)
    assert all(out[i.name].shape == i.shape for i in a.intermediates)
