"""The held-out words: each word drawn as its own plain text, symbols painted behind it."""

from __future__ import annotations

import pytest

from app.panes.merges import MergesPane
from app.panes.merges.bpe_view import symbols_line
from tests.app.widgets.glyphs import glyph_signature, plain_layout

pytestmark = pytest.mark.fonts  # also run with the Noto fonts hidden (.ci/run)


@pytest.fixture
def pane(new_pane):
    return new_pane(MergesPane)


def test_symbols_line_spans_follow_the_symbols():
    line = symbols_line("कि", ["क", "ि</w>"], "after: rank 0, e + s")
    assert line.text == "कि</w>" and line.head == "कि →" and line.tail == "after: rank 0, e + s"
    assert [(s, e) for s, e, _ in line.segments] == [(0, 1), (1, 6)]
    assert line.segments[0][2].background != line.segments[1][2].background
    assert line.cuts == (1,)


def test_heldout_view_is_shaped_and_marks_split_clusters(pane, qtbot):
    view = pane.bpe_view
    view.heldout_edit.setText("lowest किताब")
    lines = view.heldout_view.lines()
    assert [line.text for line in lines] == ["".join(s) for s in view.heldout_segmentations()]
    for layout, line in zip(view.heldout_view.body_layouts(), lines):
        assert glyph_signature(layout) == glyph_signature(plain_layout(line.text, layout))
    hindi = view.heldout_view.row_ops()[1]
    assert [pos for pos, _ in hindi.cuts] == [1, 3]  # क|ि and त|ा are cut; 2 and 4 are cluster edges
    view.heldout_edit.setText("")
    assert view.heldout_view.toPlainText() == "Type words to segment."
