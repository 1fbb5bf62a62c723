"""Shared by the alignment pane's tests: the demo text, its tokens and spans, and two ways
of driving the pane (switching modes, hovering a code point of a span view)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextCursor
from PySide6.QtWidgets import QApplication

FULL = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
FULL_TOKENS = "zoe flew to istanbul [UNK] with nv ##id ##ia final".split()
FULL_SPANS = [(0, 4), (5, 9), (11, 13), (14, 22), (23, 24), (25, 29), (30, 32), (32, 34), (34, 36), (37, 41)]
LABELS = "B-PER O O B-LOC O O B-ORG O O O"


def set_mode(qtbot, pane, mode):
    if pane.state.mode == mode:
        return
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.mode.setCurrentIndex(pane.w.mode.findData(mode))


def hover(view, pos):
    """Send a mouse move to the middle of code point ``pos`` of a span view."""
    cursor = QTextCursor(view.document())
    # private: code point → Qt position of the span view (no public seam)
    cursor.setPosition(view._to_qt(pos))
    left = view.cursorRect(cursor)
    cursor.setPosition(view._to_qt(pos + 1))
    right = view.cursorRect(cursor)
    point = QPointF((left.left() + right.left()) / 2, left.center().y())
    event = QMouseEvent(QEvent.Type.MouseMove, point, view.viewport().mapToGlobal(point),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


def tokenize_with(qtbot, pane, tokenizer, label, text):
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(tokenizer, label)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text(text)
    return pane.w.table.token_model
