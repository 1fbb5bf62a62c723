"""Reach into a pane for a lesson: the widget at a dotted path, the text it shows (a label, a
table cell, a heatmap cell's readout), setting a control as a user would, and the outline
that points the class at a figure.
"""

from __future__ import annotations

import html
import re
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QObject, QPoint, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from app.lessons.model import Figure, LessonError
from app.widgets.plot_heatmap import HeatmapPlot

HIGHLIGHT = "lessonFigure"  # the dynamic property the outline's style sheet selects on
OUTLINE = ("*[lessonFigure=\"true\"] { border: 3px solid #d97706; border-radius: 3px; } "
           "*[lessonFigure=\"flash\"] { border: 3px solid #fbbf24; border-radius: 3px; }")
_TAGS = re.compile(r"<[^>]+>")


def resolve(root: Any, path: str) -> Any:
    """The object at dotted ``path`` below ``root``: each part an attribute, or a key of a
    dict (``views.anatomy.totals``). Raises :class:`LessonError` naming the missing part."""
    obj = root
    for part in path.split("."):
        if isinstance(obj, dict) and part in obj:
            obj = obj[part]
        elif hasattr(obj, part):
            obj = getattr(obj, part)
        else:
            raise LessonError(f"{type(root).__name__} has no {path!r} (stops at {part!r})")
    return obj


def plain(text: str) -> str:
    """Rich text as the reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(_TAGS.sub(" ", text.replace("&nbsp;", " "))).split())


def shown_text(widget: Any, cell: tuple[int, int] | None = None) -> str:
    """The text ``widget`` shows (at ``cell`` for a table or heatmap), as plain text."""
    if cell is not None:
        row, col = cell
        model = widget.model() if isinstance(widget, QAbstractItemView) else widget
        if isinstance(model, QAbstractItemModel):
            value = model.index(row, col).data(Qt.ItemDataRole.DisplayRole)
            return "" if value is None else " ".join(str(value).split())
        if isinstance(widget, HeatmapPlot):
            return widget.readout_of_cell(row, col)
        raise LessonError(f"a {type(widget).__name__} has no cells")
    if isinstance(widget, (QLabel, QLineEdit, QAbstractButton)):
        return plain(widget.text())
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        return widget.toPlainText()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    if isinstance(widget, QAbstractSpinBox):
        return widget.text()
    raise LessonError(f"cannot read the text of a {type(widget).__name__}")


def figure_shown(figure: Figure, shown: str) -> bool:
    """Whether ``shown`` is the figure: equal for a cell, contained in a label's text."""
    if figure.cell is not None:
        return shown.strip() == figure.expect.strip()
    return plain(figure.expect) in shown


def set_input(widget: Any, value: Any) -> None:
    """Set a control to ``value`` through the call a user's edit makes (so the pane's own
    signals run): text for text boxes, a number for spin boxes, a bool for check boxes, an
    item's data or text for combo boxes, an index for tab widgets."""
    if isinstance(widget, QTabWidget):
        widget.setCurrentIndex(int(value))
    elif isinstance(widget, QComboBox):
        index = widget.findData(value)
        index = widget.findText(str(value)) if index < 0 else index
        if index < 0:
            raise LessonError(f"the combo box has no item {value!r}")
        widget.setCurrentIndex(index)
        widget.activated.emit(index)
    elif isinstance(widget, QAbstractButton) and widget.isCheckable():
        widget.setChecked(bool(value))
    elif isinstance(widget, QAbstractButton):
        widget.click()
    elif isinstance(widget, QAbstractSpinBox):
        widget.setValue(value)
    elif isinstance(widget, QLineEdit):
        widget.setText(str(value))
        widget.editingFinished.emit()
    elif isinstance(widget, (QPlainTextEdit, QTextEdit)):
        widget.setPlainText(str(value))
    else:
        raise LessonError(f"cannot set a {type(widget).__name__}")


def input_value(widget: Any) -> Any:
    """What a control set by :func:`set_input` holds now (for checking a step's state)."""
    if isinstance(widget, QTabWidget):
        return widget.currentIndex()
    if isinstance(widget, QComboBox):
        return widget.currentData() if widget.currentData() is not None else widget.currentText()
    if isinstance(widget, QAbstractButton):
        return widget.isChecked()
    if isinstance(widget, QAbstractSpinBox):
        return widget.value()
    if isinstance(widget, QLineEdit):
        return widget.text()
    return widget.toPlainText()


def _scroll_into_view(widget: QWidget, margin: int = 12) -> None:
    """Scroll every scroll area holding ``widget`` so that its top-left part is on screen
    (``QScrollArea.ensureWidgetVisible`` goes by an item view's cursor rectangle instead)."""
    parent = widget.parentWidget()
    while parent is not None:
        inner = parent.widget() if isinstance(parent, QScrollArea) else None
        if inner is not None and inner.isAncestorOf(widget):
            top_left = widget.mapTo(inner, QPoint(0, 0))
            view = parent.viewport().size()
            for bar, start, length, room in (
                    (parent.horizontalScrollBar(), top_left.x(), widget.width(), view.width()),
                    (parent.verticalScrollBar(), top_left.y(), widget.height(), view.height())):
                shown = bar.value()
                if start - margin < shown or start + min(length, room) > shown + room:
                    bar.setValue(max(0, start - margin) if length + 2 * margin > room
                                 else start + length + margin - room)
        parent = parent.parentWidget()


class Highlighter(QObject):
    """Outlines one widget at a time (a table also selects and scrolls to the cell; a
    heatmap shows the cell's readout); :meth:`clear` takes the outline away."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._widget: QWidget | None = None
        self._flash = QTimer(self, interval=450)
        self._flash.timeout.connect(self._toggle)
        self._flashes = 0

    @property
    def widget(self) -> QWidget | None:
        """The widget outlined now (None: nothing)."""
        return self._widget

    def show(self, widget: Any, cell: tuple[int, int] | None = None, text: str = "", root: Any = None) -> None:
        """Outline ``widget`` (flashing three times, then staying outlined); a table model's
        figure outlines the view below ``root`` that shows the model."""
        self.clear()
        if isinstance(widget, QAbstractItemModel) and isinstance(root, QWidget):
            widget = next((v for v in root.findChildren(QAbstractItemView) if v.model() is widget), None)
        if isinstance(widget, QAbstractItemView) and cell is not None:
            index = widget.model().index(*cell)
            widget.setCurrentIndex(index)
            widget.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        if isinstance(widget, HeatmapPlot) and text:
            widget.readout.setText(text)
            widget.readout.show()
        if not isinstance(widget, QWidget):
            return
        self._widget = widget
        _scroll_into_view(widget)
        QTimer.singleShot(0, self, lambda: self._widget is widget and _scroll_into_view(widget))  # once laid out
        self._mark(True)
        self._flashes = 0
        self._flash.start()

    def clear(self) -> None:
        self._flash.stop()
        if self._widget is not None:
            try:
                self._mark(False)
                self._widget.setStyleSheet(self._widget.styleSheet().replace(OUTLINE, ""))
            except RuntimeError:  # the widget was deleted meanwhile
                pass
        self._widget = None

    def _mark(self, on: bool | str) -> None:
        w = self._widget
        w.setProperty(HIGHLIGHT, "true" if on is True else on or "false")
        if OUTLINE not in w.styleSheet():
            w.setStyleSheet(w.styleSheet() + OUTLINE)
        w.style().unpolish(w)
        w.style().polish(w)
        w.update()

    def _toggle(self) -> None:
        if self._widget is None:
            self._flash.stop()
            return
        self._flashes += 1
        self._mark(True if self._flashes % 2 == 0 else "flash")  # never without an outline
        if self._flashes >= 6:
            self._flash.stop()
            self._mark(True)
