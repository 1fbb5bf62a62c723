"""Markers painted over a span view: whitespace, uncovered zero-width characters, special
badges — the text itself (and so its shaping) unchanged."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent

from app.widgets.info_strip import IDLE, InfoStrip, suppress_tooltips
from app.widgets.span_text_view import SpanTextView
from app.widgets.text_markers import TextMarkers

TEXT = "a b\tc\u200dd\nनमस्ते"


def _view(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(500, 160)
    view.set_content(TEXT, [(0, 1), (2, 3), (4, 5), (6, 7)])
    view.show()
    qtbot.waitExposed(view)
    view.redraw_now()
    return view


def test_whitespace_markers_only_when_asked(qtbot):
    view = _view(qtbot)
    markers = TextMarkers(view)
    assert markers.whitespace_ops() == []
    markers.set_whitespace_visible(True)
    ops = markers.whitespace_ops()
    assert [m for *_, m in ops] == ["·", "→", "¶"]
    xs = [x for x, _, _ in ops]
    assert xs[0] < xs[1] < xs[2]
    assert view.toPlainText() == TEXT  # nothing inserted into the document
    assert not view.document().firstBlock().layout().formats()


def test_zero_width_characters_no_token_covers(qtbot):
    view = _view(qtbot)
    markers = TextMarkers(view)
    cover = [1, 0, 1, 0, 1, 0, 1] + [0] * (len(TEXT) - 7)
    markers.set_cover(TEXT, cover)
    assert markers.zero_width() == [(5, "ZWJ")]
    cover[5] = 1
    markers.set_cover(TEXT, cover)
    assert markers.zero_width() == []
    markers.set_cover(TEXT, [1])  # a cover of another text marks nothing
    assert markers.zero_width() == []


def test_special_badges_stand_at_their_positions(qtbot):
    view = _view(qtbot)
    markers = TextMarkers(view)
    markers.set_specials([(0, "[CLS]"), (3, "[SEP]")])
    (x0, r0, a), (x3, r3, b) = markers.point_ops(markers.specials())
    assert (a, b) == ("[CLS]", "[SEP]") and x0 < x3 and r0.top() == r3.top()
    view.grab()  # the paint path runs with markers on


def test_info_strip_shows_one_line_and_tooltips_are_swallowed(qtbot):
    strip = InfoStrip()
    qtbot.addWidget(strip)
    height = strip.height()
    strip.show_info("Token 3 'x'\nBytes: 78")
    assert strip.info() == "Token 3 'x' · Bytes: 78" and strip.height() == height
    strip.show_info("")
    assert strip.info() == "" and strip.text() == IDLE
    f = suppress_tooltips(strip)
    assert f.eventFilter(strip, QHelpEvent(QEvent.Type.ToolTip, QPoint(1, 1), QPoint(1, 1)))


def test_a_paint_after_set_cover_reuses_its_scan(qtbot, monkeypatch):
    import app.widgets.text_markers as text_markers

    view = _view(qtbot)
    markers = TextMarkers(view)
    cover = [1, 0, 1, 0, 1, 0, 1] + [0] * (len(TEXT) - 7)
    markers.set_cover(TEXT, cover)
    scans = []
    real = text_markers.zero_width_chars
    monkeypatch.setattr(text_markers, "zero_width_chars", lambda *a: scans.append(1) or real(*a))
    view.grab()
    view.grab()
    assert scans == [] and markers.zero_width() == [(5, "ZWJ")]
    markers.set_cover(TEXT, [1] * len(TEXT))  # a new cover: scanned once, then painted from it
    view.grab()
    assert len(scans) == 1 and markers.zero_width() == []


def test_a_repaint_of_an_unchanged_view_places_no_marker_again(qtbot, monkeypatch):
    """The markers' places are kept while the view shows the same thing (each chunk of a
    long text's fill repaints the view: a line of family emoji, three joiners a glyph,
    was placed again every time); a scroll places them again, where they now are."""
    import numpy as np

    family = "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"
    text = "\n".join([family * 8] * 60)
    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(500, 200)
    view.set_content(text, [(p, p + 1) for p in range(len(text)) if text[p] != "\u200d"])
    view.show()
    qtbot.waitExposed(view)
    markers = TextMarkers(view)
    markers.set_cover(text, np.array([c != "\u200d" for c in text], np.int64))
    view.viewport().grab()
    placed = []
    real = TextMarkers.point_ops
    monkeypatch.setattr(TextMarkers, "point_ops", lambda self, *a: placed.append(a) or real(self, *a))
    view.viewport().grab()
    assert placed == []
    before = markers.point_ops(markers.zero_width())
    placed.clear()
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() + 3)
    view.viewport().grab()
    assert placed and markers.point_ops(markers.zero_width()) != before
