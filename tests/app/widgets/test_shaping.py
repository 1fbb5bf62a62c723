"""Highlighting never changes the glyphs: the span views' layouts shape exactly like the
plain text, in every script; hit-testing and cluster-cut markers follow the layout."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPoint, QPointF
from PySide6.QtGui import QTextCharFormat, QTextLayout

from app.widgets.span_geometry import LineGeometry
from app.widgets.span_text_view import SpanTextView
from tests.app.widgets.glyphs import (
    SAMPLES,
    cutting_spans,
    glyph_signature,
    missing_fonts,
    plain_layout,
)
from tests.app.widgets.shown import shown

pytestmark = pytest.mark.fonts  # also run with the Noto fonts hidden (.ci/run)


@pytest.fixture
def view(qtbot):
    return shown(qtbot, SpanTextView(), 700, 300)


def show(view, text, step):
    spans = cutting_spans(text, step)
    view.set_content(text, spans)
    view.set_unknown([i % 3 == 1 for i in range(len(spans))])
    view.set_entities([(0, min(3, len(text)), "PER")])
    view.set_linked([spans[len(spans) // 2]], scroll=False)
    view.set_error((len(text) - 2, len(text)))
    view.redraw_now()
    view.repaint()
    return view.document().firstBlock().layout()


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("step", [1, 2, 3])
def test_highlighted_glyphs_equal_the_plain_text(view, name, step):
    text = SAMPLES[name]
    layout = show(view, text, step)
    assert not layout.formats()
    assert glyph_signature(layout) == glyph_signature(plain_layout(text, layout))
    assert view.visible_ops() and any(ops.fills for ops in view.visible_ops())


def test_the_comparison_sees_format_runs_break_shaping(view):
    """The check above can fail: one character format per span, as the views used to set,
    changes the glyphs of Devanagari and Arabic."""
    if reason := missing_fonts(SAMPLES["devanagari"], SAMPLES["arabic"]):
        pytest.skip(reason)  # boxes do not change with the font weight
    for name in ("devanagari", "arabic"):
        text = SAMPLES[name]
        layout = show(view, text, 1)
        formats = []
        for s, e in cutting_spans(text, 1):
            fr = QTextLayout.FormatRange()
            fr.start, fr.length, fr.format = s, e - s, QTextCharFormat()
            fr.format.setFontWeight(400 + 100 * (s % 2))
            formats.append(fr)
        assert glyph_signature(plain_layout(text, layout, formats)) != glyph_signature(plain_layout(text, layout))


def test_right_to_left_paragraphs_run_right_to_left(view):
    text = SAMPLES["hebrew"] + "\nabc " + SAMPLES["arabic"]
    view.set_content(text, cutting_spans(text, 2))
    view.redraw_now()
    first = view.document().firstBlock()
    line = first.layout().lineAt(0)
    assert line.cursorToX(0)[0] > line.cursorToX(4)[0]  # the first word is on the right
    second = first.next().layout().lineAt(0)
    assert second.cursorToX(0)[0] < second.cursorToX(3)[0]  # an LTR paragraph stays LTR


def _point_in(view, cp: int, block_index: int = 0) -> QPoint:
    """The middle of code point ``cp``'s x range (from cursorToX), viewport coordinates."""
    block = view.document().findBlockByNumber(block_index)
    layout, line = block.layout(), block.layout().lineAt(0)
    # private: code point → Qt position of the span view (no public seam)
    qpos = view._to_qt(cp) - block.position()
    x0, x1 = line.cursorToX(qpos)[0], line.cursorToX(qpos + 1)[0]
    origin = view.blockBoundingGeometry(block).translated(view.contentOffset()).topLeft() + layout.position()
    return QPointF(origin.x() + (x0 + x1) / 2, origin.y() + line.y() + line.height() / 2).toPoint()


def test_hit_testing_finds_the_character_drawn_in_rtl_text(view):
    text = "שלום עולם"  # one right-to-left run: cursorToX alone places every letter
    view.set_content(text, cutting_spans(text, 1))
    view.redraw_now()
    for cp, ch in enumerate(text):
        if ch != " ":
            assert view.char_at(_point_in(view, cp)) == cp, cp


def test_hit_testing_in_mixed_text_matches_the_painted_ranges(view):
    text = "abc אבג 123 def (د-3)"
    view.set_content(text, cutting_spans(text, 1))
    view.redraw_now()
    block = view.document().firstBlock()
    layout = block.layout()
    geom = LineGeometry(layout, layout.lineAt(0))
    origin = view.blockBoundingGeometry(block).translated(view.contentOffset()).topLeft() + layout.position()
    y = origin.y() + layout.lineAt(0).height() / 2
    xs = {}
    for cp in range(len(text)):
        (left, right), = geom.ranges(cp, cp + 1)
        xs[cp] = (left + right) / 2
        assert view.char_at(QPointF(origin.x() + xs[cp], y).toPoint()) == cp, cp
    assert xs[8] < xs[9] < xs[10] < xs[4]  # "123" left of the Hebrew word, digits in order
    assert xs[6] < xs[5] < xs[4]  # the Hebrew word right to left


def test_a_boundary_inside_a_cluster_gets_a_caret(view):
    text = "क्ष कि a"  # क्ष (3 code points) and कि (2) are one grapheme cluster each
    view.set_content(text, [(0, 1), (1, 3), (4, 5), (5, 6), (7, 8)])
    view.redraw_now()
    cuts = view.cluster_cuts()
    assert [cp for cp, _ in cuts] == [1, 5]  # 3, 4, 6, 7, 8 are cluster edges
    line = view.document().firstBlock().layout().lineAt(0)
    offset = view.blockBoundingGeometry(view.document().firstBlock()).translated(view.contentOffset()).left()
    for (cp, x), (a, b) in zip(cuts, [(0, 3), (4, 6)]):
        left, right = line.cursorToX(a)[0] + offset, line.cursorToX(b)[0] + offset
        assert left < x < right  # drawn inside its cluster


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "Z", "1", "2", " ", "(", "-", "א", "ב", "ש", "ם"]),
                min_size=1, max_size=24))
def test_character_ranges_tile_the_line(qapp, chars):
    """In mixed-direction text every character gets x ranges that never overlap another's,
    together cover the line's text, and hit-test back to that character."""
    text = "".join(chars)
    layout = QTextLayout(text)
    layout.beginLayout()
    line = layout.createLine()
    line.setLineWidth(10_000)
    layout.endLayout()
    geom = LineGeometry(layout, line)
    pieces = []
    for cp in range(len(text)):
        ranges = geom.ranges(cp, cp + 1)
        assert ranges, cp
        for left, right in ranges:
            pieces.append((left, right))
            assert geom.position_at((left + right) / 2) == cp
    pieces.sort()
    assert all(a[1] <= b[0] + 0.01 for a, b in zip(pieces, pieces[1:]))
    rect = line.naturalTextRect()
    assert abs(sum(r - l for l, r in pieces) - rect.width()) < 0.05
