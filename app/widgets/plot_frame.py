"""A titled plot with a hover readout, an inline note and an export button.

:class:`PlotFrame` is the common shell of :class:`~app.widgets.plot_heatmap.HeatmapPlot` and
:class:`~app.widgets.plot_lines.LinePlot`: a header row (title, readout of the value under the
mouse, export button), then a ``GraphicsLayoutWidget`` holding one ``PlotItem``.
"""

from __future__ import annotations

import html
import re

import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.widgets.plot_export import ExportButton, add_export_actions


def plain_title(title: str) -> str:
    """A frame's title without its rich-text tags (for exported pictures)."""
    return html.unescape(re.sub(r"<[^>]+>", "", title))


class IntegerAxisItem(pg.AxisItem):
    """An axis whose ticks fall on whole numbers only (positions, indices, counts): with a
    range of one position it shows ``0`` and ``1``, never ``0.2``, ``0.4``…"""

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 - pyqtgraph override
        levels = [(sp, off) for sp, off in super().tickSpacing(minVal, maxVal, size) if sp >= 1]
        return levels or [(1.0, 0.0)]


class PlotFrame(QWidget):
    """Header + one pyqtgraph ``PlotItem``; subclasses fill the plot and implement readouts.

    Signals
    -------
    sig_status_requested(str) : export results and errors, for the status bar.
    """

    sig_status_requested = Signal(str)

    def __init__(self, title: str, name: str, parent: QWidget | None = None, *,
                 axis_items: dict | None = None, integer_axes: tuple[str, ...] = ()):
        super().__init__(parent)
        axis_items = dict(axis_items or {})
        for side in integer_axes:  # e.g. ("left", "bottom") for a positions × positions map
            axis_items.setdefault(side, IntegerAxisItem(side))
        self.title_label = QLabel(f"<b>{title}</b>")
        self.readout = QLabel("")
        self.readout.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.readout.setToolTip("Exact value under the mouse pointer")
        self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.note = QLabel("")
        self.note.setStyleSheet("color: #a15c00;")
        self.note.hide()
        self.placeholder = QLabel("")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet("color: #555555; background: white; font-size: 14px;")
        self.placeholder.hide()
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")
        self.plot: pg.PlotItem = self.graphics.addPlot(row=0, col=0, axisItems=axis_items or None)
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.export_button = ExportButton(self.plot, name, self, title=plain_title(title))
        self.export_button.sig_exported.connect(lambda p: self.sig_status_requested.emit(f"Saved {p}"))
        self.export_button.sig_export_failed.connect(self.sig_status_requested)
        add_export_actions(self.plot, self.export_button)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title_label, 2)  # a wrapping title takes room before it wraps
        header.addWidget(self.readout, 3)
        header.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(header)
        layout.addWidget(self.note)
        layout.addWidget(self.graphics, 1)
        layout.addWidget(self.placeholder, 1)
        self.graphics.scene().sigMouseMoved.connect(self._on_mouse_moved)

    def set_title(self, title: str) -> None:
        self.title_label.setText(f"<b>{title}</b>")
        self.export_button.title = plain_title(title)

    def set_note(self, text: str) -> None:
        """Show a short inline note under the header (empty text hides it)."""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` (e.g. "Computing…") instead of the plot until there is data to draw;
        empty text shows the plot again."""
        self.placeholder.setText(text)
        self.placeholder.setVisible(bool(text))
        self.graphics.setVisible(not text)
        self.export_button.setEnabled(not text)

    def has_placeholder(self) -> bool:
        """Whether a placeholder text stands in for the plot."""
        return bool(self.placeholder.text())

    def set_labels(self, x: str, y: str) -> None:
        self.plot.setLabel("bottom", x)
        self.plot.setLabel("left", y)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        vb = self.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return
        p = vb.mapSceneToView(scene_pos)
        self.readout.setText(self.readout_at(p.x(), p.y()))

    def readout_at(self, x: float, y: float) -> str:
        """Text describing the data at view coordinates ``(x, y)`` (subclasses override)."""
        return f"x={x:.6g}, y={y:.6g}"


def wrap_plot_titles(root: QWidget) -> None:
    """Let the title of every plot below ``root`` wrap onto a second line instead of setting
    the plot's minimum width (panes that must fit 1280 px in presentation mode)."""
    for frame in root.findChildren(PlotFrame):
        frame.title_label.setWordWrap(True)
