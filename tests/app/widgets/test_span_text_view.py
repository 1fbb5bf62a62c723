"""The span text view: edits keep positions and paint the same highlights as a fresh view."""

from __future__ import annotations

import re

import numpy as np
from PySide6.QtGui import QFont

from app.widgets.span_segments import display_text, marks
from app.widgets.span_text_view import FILL_CHUNK, SpanTextView
from tests.app.panes.alignment.support import FULL


def test_span_view_follows_edits_and_keeps_positions(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    texts = [FULL, FULL + " more", "Big \r\n" + FULL + " more", "x", FULL]
    for text in texts:
        view.set_content(text, [(0, 1)], None)
        view.redraw_now()
        assert view.document().toRawText().replace("\u2029", "\n") == display_text(text)
        # private: code point → Qt position of the span view (no public seam)
        assert view._to_qt(len(text)) == len(display_text(text).encode("utf-16-le")) // 2


def _painted(view):
    """What the view paints on its visible lines (fills, underlines, frames, carets)."""
    return [(ops.fills, ops.underlines, ops.frames, ops.cuts) for ops in view.visible_ops()]


def test_span_view_edits_paint_the_same_highlights_as_a_fresh_view(qtbot):
    base = "alpha beta\ngamma delta\nepsilon \U0001F600 zeta\n" * 3
    edits = [base + "x", base[:5] + "Q" + base[5:], base[:14] + "\n\n" + base[14:], base[:3] + base[30:],
             base.replace("\U0001F600", "e"), base]
    views = []
    for _ in range(2):
        view = SpanTextView()
        qtbot.addWidget(view)
        view.resize(400, 300)
        view.show()
        views.append(view)
    qtbot.waitExposed(views[0])

    def show(view, text, linked):
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        view.set_content(text, spans, np.ones(len(text), np.int16))
        view.set_entities([(0, 5, "PER")])
        view.set_linked(linked, scroll=False)
        view.set_unknown([i % 4 == 1 for i in range(len(spans))])
        view.redraw_now()

    show(views[0], base, [(6, 10)])
    for i, text in enumerate(edits):
        show(views[0], text, [(6, 10)] if i % 2 else [])
        views[1].setPlainText("")  # a fresh document every time
        # private: a view whose text was dropped, as after a failed update
        views[1]._text = ""
        show(views[1], text, [(6, 10)] if i % 2 else [])
        assert views[0].document().toRawText() == views[1].document().toRawText()
        painted = _painted(views[0])
        assert painted == _painted(views[1]), text
        assert sum(len(p[0]) for p in painted) >= 5 and any(p[2] for p in painted)


def test_unknown_tokens_are_framed(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(400, 200)
    view.show()
    text = "ab cd ef"
    view.set_content(text, [(0, 2), (3, 5), (6, 8)])
    view.set_unknown([False, True])  # a shorter mask leaves the last token plain
    view.redraw_now()
    assert view.unknown_count() == 1
    (ops,) = view.visible_ops()
    line = view.document().firstBlock().layout().lineAt(0)
    assert ops.frames == [(line.cursorToX(3)[0], line.cursorToX(5)[0], "unk")]
    view.set_content(text, [(0, 2), (3, 5), (6, 8)])  # new content: no unknown mask yet
    view.redraw_now()
    assert view.unknown_count() == 0 and not view.visible_ops()[0].frames


def test_no_character_formats_and_shaping_font(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    view.set_content("क्ष abc", [(0, 1), (1, 3), (4, 7)])
    view.set_entities([(4, 7, "ORG")])
    view.set_error((0, 2))
    view.redraw_now()
    block = view.document().firstBlock()
    assert block.layout().formats() == [] and not block.charFormat().fontWeight() > 400
    assert not view.font().styleStrategy() & QFont.StyleStrategy.PreferNoShaping


def test_a_long_text_goes_into_the_document_in_chunks_and_then_edits_in_place(qtbot):
    """Putting a long text in at once freezes the GUI; it goes in one chunk per event-loop
    turn, the marks and spans are there from the start, and scrolling to a position not yet
    in the document happens once it is."""
    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    line = "alpha beta \U0001F600 gamma\r\n"
    text = line * (3 * FILL_CHUNK // len(line))
    spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    view.set_content(text, spans, np.ones(len(text), np.int16))
    assert view.filling and view.document().characterCount() - 1 < len(display_text(text))
    view.scroll_to(len(text) - 3)  # deferred until the document holds it
    qtbot.waitUntil(lambda: not view.filling)
    assert view.document().toRawText().replace("\u2029", "\n") == display_text(text)
    lo, hi = view.visible_range()
    assert lo <= len(text) - 3 < hi
    view.set_content(text + "x", spans, None)  # a small edit after the fill: in place
    assert not view.filling
    assert view.document().toRawText().replace("\u2029", "\n") == display_text(text + "x")


def test_marks_given_ahead_equal_the_ones_computed_here(qtbot):
    text = "ab  cd ef"
    cover = np.array([1, 2, 0, 0, 0, 1, 0, 2, 2], np.int16)
    view, ahead = SpanTextView(), SpanTextView()
    for v in (view, ahead):
        qtbot.addWidget(v)
    view.set_content(text, [(0, 2)], cover)
    ahead.set_content(text, [(0, 2)], cover, chars=frozenset(text), marks=marks(text, cover))
    # private: the marks the view bisects per redraw (no public getter)
    assert view._marks == ahead._marks and view._marks  # sorted by start: bisected per redraw
    assert [view.mark_count(k) for k in ("multi", "uncov")] == [3, 1]  # spaces are never "uncovered"
    assert [ahead.mark_count(k) for k in ("multi", "uncov")] == [3, 1]


def test_paragraphs_of_the_same_text_keep_their_own_paint_operations(qtbot, monkeypatch):
    """A line's paint operations are kept per paragraph: a text that repeats one line (a
    sentence pasted many times, a line of emoji) repaints without working any of them out
    again (they were keyed by the line's text alone, so the paragraphs evicted each
    other's on every paint)."""
    from app.widgets import span_painter

    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(600, 400)
    view.show()
    qtbot.waitExposed(view)
    text = "\n".join(["the same line again"] * 40)
    view.set_content(text, [(p, p + 4) for p in range(0, len(text) - 4, 4)])
    view.redraw_now()
    view.viewport().grab()  # a paint
    worked_out = []
    real = span_painter.ops_from_items
    monkeypatch.setattr(span_painter, "ops_from_items", lambda *a: worked_out.append(a) or real(*a))
    view.viewport().grab()  # another
    assert len(view.visible_ops()) > 10 and not worked_out


def test_touching_underlines_of_one_kind_are_one_line(qtbot):
    """Characters shared by several tokens are underlined dotted; where the shared run
    crosses token boundaries the segments' underlines are joined (one line, not one per
    segment)."""
    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(600, 200)
    view.show()
    qtbot.waitExposed(view)
    text = "abcdefghi xyz"
    spans = [(0, 3), (0, 3), (3, 6), (3, 6), (6, 9), (6, 9), (10, 13)]
    cover = np.array([2] * 9 + [0] + [1] * 3, np.int64)
    view.set_content(text, spans, cover)
    view.redraw_now()
    (ops,) = view.visible_ops()
    assert [(a, b) for a, b, _ in view.drawn_styles()][:3] == [(0, 3), (3, 6), (6, 9)]  # three segments
    assert [(kind, round(right - left) > 0) for left, right, kind, _ in ops.underlines] == [("dot", True)]
