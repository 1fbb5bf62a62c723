"""Positions ▸ Block anatomy experiments, read from the view's tables: editing token 5 of the
reading's block (T=8, H=4) leaves positions 0–4 bit-identical; pre- vs post-norm residual
norms; the three model families with their masks."""

from __future__ import annotations

import pytest

from app.panes.positions import PositionsPane
from tests.app.panes.positions.test_pane import change, show


@pytest.fixture
def pane(new_pane):
    return new_pane(PositionsPane, 1200, 800)


def column(model, c):
    return [model.item(r, c).text() for r in range(model.rowCount())]


def test_causal_mask_experiment(qtbot, pane):
    show(qtbot, pane, "anatomy")
    change(qtbot, pane, "T", 8)
    change(qtbot, pane, "H", 4)
    view = pane.views["anatomy"]
    assert pane.state.block_edit == 5 and pane.state.block_causal
    assert column(view.edit_model, 2) == ["bit-identical"] * 5 + ["changed"] * 3
    assert "5 position(s) bit-identical" in view.edit_note.text()
    assert "8 next-token predictions" in view.edit_note.text()
    change(qtbot, pane, "block_causal", False)
    assert column(view.edit_model, 2) == ["changed"] * 8
    change(qtbot, pane, "block_edit", 2)
    change(qtbot, pane, "block_causal", True)
    assert column(view.edit_model, 2) == ["bit-identical"] * 2 + ["changed"] * 6


def test_pre_and_post_norm_and_families(qtbot, pane):
    show(qtbot, pane, "anatomy")
    change(qtbot, pane, "T", 8)
    change(qtbot, pane, "block_layers", 4)
    view = pane.views["anatomy"]
    assert column(view.norms_model, 0) == ["input", "1", "2", "3", "4"]
    post = [float(v) for v in column(view.norms_model, 2)[1:]]
    pre = [float(v) for v in column(view.norms_model, 1)]
    assert all(abs(v - 8.0) < 1e-3 for v in post)  # √d at d = 64
    assert pre == sorted(pre) and pre[-1] > pre[0]
    assert column(view.families_model, 0) == ["encoder-only", "decoder-only", "encoder–decoder"]
    assert column(view.families_model, 2)[1] == "self-attention (causal): ■□□□ ■■□□ ■■■□ ■■■■"
    assert "v is never rotated" in view.caption


def test_learned_position_limit_in_context_extension(qtbot, pane):
    show(qtbot, pane, "extension")
    assert (pane.state.L, pane.state.s) == (2048, 4.0)
    note = pane.views["extension"].learned_note.text()
    assert "rows 0 … 2,047 only" in note and "6,144 positions (75 %) have no embedding" in note
    change(qtbot, pane, "s", 1.0)
    assert "cover all 2,048 positions" in pane.views["extension"].learned_note.text()
