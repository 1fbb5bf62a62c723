"""Block experiments (the lecture reading's block: B=2 → one sequence, T=8, d=64, H=4,
d_ff=256): the causal-mask experiment (edit token 5, positions 0–4 bit-identical), pre-norm vs
post-norm, and the families' masks."""

from __future__ import annotations

import numpy as np
import pytest

from core.encoder.block_anatomy import BlockShapeError, block_forward, init_block_weights
from core.encoder.block_experiments import FAMILIES, causal_experiment, family_masks, residual_norms


@pytest.mark.parametrize("norm", ["pre", "post"])
def test_editing_token_5_leaves_positions_0_to_4_bit_identical(norm):
    moved = causal_experiment(8, 64, 4, 256, 5, norm=norm)
    assert moved.shape == (8,)
    assert np.all(moved[:5] == 0.0) and np.all(moved[5:] > 0.0)


def test_without_the_mask_every_position_moves():
    moved = causal_experiment(8, 64, 4, 256, 5, causal=False)
    assert np.all(moved > 0.0)


def test_post_norm_rows_have_norm_sqrt_d_and_pre_norm_grows():
    post = residual_norms(6, 8, 64, 4, 256, norm="post")
    pre = residual_norms(6, 8, 64, 4, 256, norm="pre")
    assert post[0] == pre[0]  # the same input
    assert np.allclose(post[1:], 8.0, atol=1e-3)  # √d with LayerNorm gain 1, bias 0
    assert np.all(np.diff(pre) > 0) and pre[-1] > 2 * pre[0]


def test_pre_norm_default_is_unchanged():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 8, 64))
    w = init_block_weights(64, 4, 256)
    out = block_forward(x, w, 4)
    assert np.array_equal(out["out"], out["x1"] + out["ffn_out"])
    assert np.array_equal(out["x1"], x + out["attn_out"])
    post = block_forward(x, w, 4, norm="post")
    assert np.array_equal(post["ln1"], x)
    with pytest.raises(BlockShapeError):
        block_forward(x, w, 4, norm="sandwich")


def test_family_masks():
    masks = family_masks(4, 3)
    assert list(masks) == [f.name for f in FAMILIES]
    (label, enc), = masks["encoder-only"]
    assert enc.all() and enc.shape == (4, 4)
    (_, dec), = masks["decoder-only"]
    assert dec.sum() == 10 and dec[0, 1] == False and dec[3, 0]  # noqa: E712
    shapes = [m.shape for _, m in masks["encoder–decoder"]]
    assert shapes == [(3, 3), (4, 4), (4, 3)]
    with pytest.raises(BlockShapeError):
        family_masks(0)


def test_bad_edit_position():
    with pytest.raises(BlockShapeError, match="0 … 7"):
        causal_experiment(8, 64, 4, 256, 8)
