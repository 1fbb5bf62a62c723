"""The alignment pane's linking: hovering, selecting and clicking in one layer highlights the
same characters and tokens in the others."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextCursor
from PySide6.QtWidgets import QApplication

from tests.app.panes.alignment.support import FULL_SPANS, hover


def test_hovering_the_original_links_token_and_normalized_text(qtbot, pane):
    view = pane.w.original
    view.redraw_now()
    hover(view, 15)  # inside "İstanbul", token 3
    assert view.linked_spans() == [(14, 22)]
    assert pane.w.normalized.linked_spans() == [pane.result.layer.norm_spans[3]]
    assert pane.w.table.current_token() == 3
    hover(pane.w.normalized, 30)  # "nv|id|ia": normalized 28..34, position 30 is in ##id
    assert pane.w.original.linked_spans() == [(32, 34)]


def test_selecting_a_token_highlights_its_span_and_offset_map(qtbot, pane):
    pane.w.table.selectRow(9)
    assert pane.w.original.linked_spans() == [FULL_SPANS[9]]
    rows = pane.w.offset_map.rows
    assert (rows[0].original, rows[0].normalized) == ("\ufb01", "fi")
    qtbot.keyClick(pane.w.table, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert pane.current_token == 8 and pane.w.original.linked_spans() == [FULL_SPANS[8]]


def test_hovering_a_table_row_links_both_texts(qtbot, pane):
    table = pane.w.table
    rect = table.visualRect(table.token_model.index(6, 1))
    point = QPointF(rect.center())
    event = QMouseEvent(QEvent.Type.MouseMove, point, table.viewport().mapToGlobal(point),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(table.viewport(), event)
    assert pane.w.original.linked_spans() == [FULL_SPANS[6]]
    assert pane.w.normalized.linked_spans() == [pane.result.layer.norm_spans[6]]
    pane.select_token(2)
    pane.w.table.sig_token_hovered.emit(-1)  # leaving the table goes back to the current token
    assert pane.w.original.linked_spans() == [FULL_SPANS[2]]


def test_clicking_below_the_text_selects_nothing(qtbot, pane):
    view = pane.w.original
    view.redraw_now()
    below = QPointF(view.viewport().width() / 2, view.viewport().height() - 3)
    assert view.char_at(below.toPoint()) == -1
    right = view.cursorRect(QTextCursor(view.document())).center()
    assert view.char_at(right) == 0  # the first character still answers
    pane.select_token(0)
    selected = []
    view.sig_selection_changed.connect(lambda s, e: selected.append((s, e)))
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
        event = QMouseEvent(kind, below, view.viewport().mapToGlobal(below), Qt.MouseButton.LeftButton,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(view.viewport(), event)
    assert selected == [] and pane.current_token == 0
    hover(view, 6)
    assert view.hovered() == 6
    event = QMouseEvent(QEvent.Type.MouseMove, below, view.viewport().mapToGlobal(below),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)
    assert view.hovered() == -1
