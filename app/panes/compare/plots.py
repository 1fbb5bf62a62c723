"""The Compare pane's plots: a languages × tokenizers heatmap and a bar chart.

Both reuse the shared plot shells (:mod:`app.widgets.plot_heatmap`,
:mod:`app.widgets.plot_frame`): hover readout of the exact value, PNG/SVG/CSV export from
the toolbar button and the right-click menu.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from app.widgets.plot_frame import PlotFrame
from app.widgets.plot_heatmap import SEQUENTIAL, HeatmapPlot


def _ticks(labels: list[str]) -> list[list[tuple[float, str]]]:
    return [[(i + 0.5, label) for i, label in enumerate(labels)]]


class MetricHeatmap(HeatmapPlot):
    """Rows = languages, columns = tokenizers; the cell under the pointer is read out by name.

    Signals
    -------
    sig_cell_clicked(int, int) : row and column (indices of the shown array) clicked.
    """

    sig_cell_clicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Languages × tokenizers", "compare_heatmap", x_label="tokenizer",
                         y_label="language", value_label="value", parent=parent)
        self.row_labels: list[str] = []
        self.col_labels: list[str] = []
        self.plot.getAxis("left").setWidth(150)
        self.plot.setMouseEnabled(x=False, y=False)
        self.graphics.scene().sigMouseClicked.connect(self._on_clicked)

    def show_table(self, values: np.ndarray, rows: list[str], cols: list[str], metric_label: str) -> None:
        """Show ``values : (len(rows), len(cols)) float`` with the given labels."""
        self.row_labels, self.col_labels = list(rows), list(cols)
        self.value_label = metric_label
        self.colorbar.getAxis("left").setLabel(metric_label)
        data = np.asarray(values, dtype=np.float64).reshape(len(rows), len(cols))
        if data.size == 0:
            data = np.full((1, 1), np.nan)
        levels = None if np.isfinite(data).any() else (0.0, 1.0)
        self.set_placeholder("")
        self.set_image(data, colormap=SEQUENTIAL, levels=levels)
        self.plot.getAxis("left").setTicks(_ticks(self.row_labels))
        self.plot.getAxis("bottom").setTicks(_ticks(self.col_labels))
        self.plot.setRange(xRange=(0, max(1, len(cols))), yRange=(0, max(1, len(rows))), padding=0)

    def readout_at(self, x: float, y: float) -> str:
        cell = self.cell_at(x, y)
        if cell is None or cell[0] >= len(self.row_labels) or cell[1] >= len(self.col_labels):
            return ""
        r, c = cell
        return f"{self.row_labels[r]} × {self.col_labels[c]}: {self.value_label} = {self.image()[r, c]:.10g}"

    def _on_clicked(self, event) -> None:
        vb = self.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        p = vb.mapSceneToView(event.scenePos())
        cell = self.cell_at(p.x(), p.y())
        if cell is not None and cell[0] < len(self.row_labels) and cell[1] < len(self.col_labels):
            self.sig_cell_clicked.emit(*cell)


class BarChart(PlotFrame):
    """Horizontal bars of one metric over named categories (first category on top).

    A ``BarGraphItem`` draws them; a pen-less curve holds the same values (x = category
    index, y = value) so the CSV exporter writes them.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Bars", "compare_bars", parent)
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.7, brush="#4c78a8")
        self.values_item = pg.PlotDataItem([], [], pen=None, name="values")
        self.plot.addItem(self.bars)
        self.plot.addItem(self.values_item, ignoreBounds=True)
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getAxis("left").setWidth(130)
        self.labels: list[str] = []
        self.value_label = "value"

    def show_bars(self, labels: list[str], values: np.ndarray, title: str, value_label: str) -> None:
        self.labels, self.value_label = list(labels), value_label
        idx = np.arange(len(labels), dtype=float)
        v = np.asarray(values, dtype=np.float64)
        shown = np.where(np.isfinite(v), v, 0.0)
        self.set_placeholder("")
        self.bars.setOpts(x0=np.zeros_like(idx), y=idx, width=shown, height=0.7)
        self.values_item.setData(idx, v)
        self.set_title(title)
        self.set_labels(value_label, "")
        self.plot.getAxis("left").setTicks([[(float(i), lab) for i, lab in enumerate(self.labels)]])
        self.plot.setYRange(-0.6, max(0.6, len(labels) - 0.4), padding=0)
        top = float(np.max(shown)) if shown.size else 1.0
        self.plot.setXRange(0, top * 1.05 if top > 0 else 1.0, padding=0)

    def bar_values(self) -> np.ndarray:
        """The exact values of the bars, top to bottom (``nan`` where undefined)."""
        y = self.values_item.getData()[1]
        return np.asarray([] if y is None else y, dtype=np.float64)

    def readout_at(self, x: float, y: float) -> str:
        i = int(round(y))
        vals = self.bar_values()
        if 0 <= i < len(self.labels) and i < len(vals):
            return f"{self.labels[i]}: {self.value_label} = {vals[i]:.10g}"
        return ""
