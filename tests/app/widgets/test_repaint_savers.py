"""What keeps a keystroke from repainting more than changed: the token table's viewport
cache and the layout boundary around labels that change with every result."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QTabWidget, QVBoxLayout, QWidget

from tests.app.widgets.table_rows import table_rows
from app.widgets.layout_boundary import LayoutBoundary
from app.widgets.token_table import TokenTableView
from app.widgets.viewport_cache import RENDER_DELAY_MS
from tests.app.widgets.shown import shown


def _rows(n: int):
    text = " ".join(f"w{i}" for i in range(n))
    spans, at = [], 0
    for i in range(n):
        spans.append((at, at + len(f"w{i}")))
        at += len(f"w{i}") + 1
    return text, [f"w{i}" for i in range(n)], list(range(n)), spans


def _fill(table, n, rename=None):
    text, tokens, ids, spans = _rows(n)
    if rename is not None:
        tokens[rename] = "CHANGED"
    table.token_model.set_tokens(table_rows(text, tokens, ids, spans))


def _full_paint(table, qtbot):
    table.viewport().repaint()
    qtbot.wait(RENDER_DELAY_MS + 20)  # the pixmap is rendered a moment after the paint


def test_table_repaints_of_an_unchanged_view_come_from_the_pixmap(qtbot):
    table = shown(qtbot, TokenTableView(), 500, 300)
    _fill(table, 400)
    cache = table.paint_cache
    for _ in range(4):  # recorded, repeated (the pixmap is rendered), served
        _full_paint(table, qtbot)
    assert cache.hits >= 1
    served = table.viewport().grab().toImage()
    cache.drop()
    assert table.viewport().grab().toImage() == served  # the pixmap is what Qt paints
    # rows added far below the visible ones: still served (Qt repaints the whole viewport)
    _full_paint(table, qtbot)
    _full_paint(table, qtbot)
    hits = cache.hits
    _fill(table, 401)
    _full_paint(table, qtbot)
    assert cache.hits > hits
    # a visible row changed: painted afresh, and the pixmap never comes back stale
    hits = cache.hits
    _fill(table, 401, rename=1)
    _full_paint(table, qtbot)
    assert cache.hits == hits
    picture = table.viewport().grab().toImage()
    cache.drop()
    assert table.viewport().grab().toImage() == picture
    # the mouse over the viewport (hover feedback): dropped
    for _ in range(4):
        _full_paint(table, qtbot)
    hits = cache.hits
    move = QMouseEvent(QEvent.Type.MouseMove, QPointF(20, 20), QPointF(20, 20), Qt.MouseButton.NoButton,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(table.viewport(), move)
    _full_paint(table, qtbot)
    assert cache.hits == hits


def test_rows_added_far_below_keep_the_pixmap_with_special_states_too(qtbot):
    """A modern tokenizer's rows carry special states (one per row): a keystroke at the end
    of the text changes their count, and that alone repainted every visible row."""
    table = shown(qtbot, TokenTableView(), 500, 300)
    cache = table.paint_cache

    def fill(n, specials):
        text, tokens, ids, spans = _rows(n)
        table.token_model.set_tokens(table_rows(text, tokens, ids, spans, specials=specials))

    fill(400, [1] + [0] * 399)
    for _ in range(4):
        _full_paint(table, qtbot)
    hits = cache.hits
    fill(401, [1] + [0] * 400)
    _full_paint(table, qtbot)
    assert cache.hits > hits
    hits = cache.hits
    fill(401, [0] * 401)  # a visible row's special state changed: painted afresh
    _full_paint(table, qtbot)
    assert cache.hits == hits


class _Count(QObject):
    def __init__(self):
        super().__init__()
        self.n = 0

    def eventFilter(self, obj, event):  # noqa: N802 - Qt override
        self.n += event.type() == QEvent.Type.LayoutRequest
        return False


def _tab_with_label(qtbot, boundary: bool):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    page = QWidget()
    label = QLabel("12,345 ids", page)
    layout = QVBoxLayout(page)
    layout.addWidget(LayoutBoundary(label, page) if boundary else label)
    tabs.addTab(page, "pane")
    tabs.show()
    qtbot.waitExposed(tabs)
    count = _Count()
    tabs.installEventFilter(count)
    qtbot.wait(20)
    count.n = 0
    return tabs, label, count


def test_a_label_update_stops_at_the_boundary_unless_its_size_changes(qtbot):
    _tabs, label, count = _tab_with_label(qtbot, boundary=False)
    label.setText("12,346 ids")
    qtbot.wait(20)
    assert count.n >= 1  # without it, the tab widget re-lays out (and repaints) everything
    _tabs, label, count = _tab_with_label(qtbot, boundary=True)
    label.setText("12,346 ids")  # same size
    qtbot.wait(20)
    assert count.n == 0
    label.setText("1,234,567,890 ids (first 100,000 shown)")  # wider: the layout must know
    qtbot.wait(20)
    assert count.n >= 1
    assert label.parentWidget().sizeHint() == label.sizeHint()


def test_the_boundary_shows_and_hides_with_its_widget(qtbot):
    page = QWidget()
    qtbot.addWidget(page)
    label, hidden = QLabel("shown", page), QLabel("hidden")
    hidden.hide()
    layout = QVBoxLayout(page)
    boundaries = [LayoutBoundary(label, page), LayoutBoundary(hidden, page)]
    for b in boundaries:
        layout.addWidget(b)
    page.show()
    qtbot.waitExposed(page)
    assert [b.isVisible() for b in boundaries] == [True, False]
    label.hide()
    hidden.show()
    assert [b.isVisible() for b in boundaries] == [False, True]
    label.show()  # while its boundary is hidden
    assert boundaries[0].isVisible() and label.isVisible()


def test_a_text_set_before_the_boundary_is_shown_gets_its_room(qtbot):
    page = QWidget()
    qtbot.addWidget(page)
    label = QLabel(page)
    layout = QHBoxLayout(page)
    layout.addWidget(LayoutBoundary(label, page))
    layout.addStretch(1)
    label.setText("4,215 ids")  # nothing is shown yet: the label asks no one for room
    page.resize(400, 40)
    page.show()
    qtbot.waitExposed(page)
    qtbot.wait(20)
    assert label.width() >= label.sizeHint().width()
