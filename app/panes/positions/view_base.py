"""Base of the Positions pane's sub-views.

A view has a ``key``, a ``title``, a pure :meth:`PositionsView.compute` (runs in a worker; it
takes the pane's :class:`~app.panes.positions.state.PositionsState` and returns a dict of
arrays, all from ``core.positional`` / ``core.encoder.block_anatomy``) and
:meth:`PositionsView.render` (GUI thread; reuses the plot items). Views own only their local
inputs; the shared controls live in the pane.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget


class PositionsView(QWidget):
    """Base of the sub-views. ``sig_cursor_requested(int)``: the user dragged the cursor."""

    key = "view"
    title = "View"
    caption = ""
    sig_cursor_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.caption_label = QLabel(self.caption)
        self.caption_label.setWordWrap(True)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(4, 4, 4, 4)
        self.layout_.addWidget(self.caption_label)

    def plots(self) -> list:
        """The exportable plot frames of this view."""
        return []

    def _add_cursor_line(self, heatmap, tip: str):
        """A draggable horizontal dashed line on ``heatmap``; dropping it emits
        :attr:`sig_cursor_requested` with the row under it."""
        line = heatmap.plot.addLine(y=0, movable=True, pen={"color": "#ff00ff", "width": 2, "style": Qt.PenStyle.DashLine})
        line.setToolTip(tip)
        line.sigPositionChangeFinished.connect(lambda ln: self.sig_cursor_requested.emit(int(np.floor(ln.value()))))
        return line

    @staticmethod
    def compute(state) -> dict:
        raise NotImplementedError

    def render(self, data: dict) -> None:
        raise NotImplementedError


def splitter(orientation, *widgets, sizes=None) -> QSplitter:
    """A splitter holding ``widgets`` (``sizes``: their initial sizes in pixels)."""
    sp = QSplitter(orientation)
    for w in widgets:
        sp.addWidget(w)
    if sizes:
        sp.setSizes(sizes)
    return sp
