"""The Compare pane's plots: a languages × tokenizers heatmap and a bar chart.

Both reuse the shared plot shells (:mod:`app.widgets.plot_heatmap`,
:mod:`app.widgets.plot_frame`): hover readout of the exact value, PNG/SVG/CSV export from
the toolbar button and the right-click menu. The heatmap draws a
:class:`~app.panes.compare.heatmap_model.HeatmapModel`: a number in every cell, marked cells
hatched and outlined, a clipped colour scale, a hover card, and a dashed line above the rows
that are not ranked.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QWidget

from app.panes.compare.heatmap_model import HeatmapModel, card_text
from app.widgets.plot_frame import PlotFrame
from app.widgets.plot_heatmap import MARK_COLOR, SEQUENTIAL, CategoryAxis, HeatmapPlot, RowAxis


def _ticks(labels: list[str]) -> list[list[tuple[float, str]]]:
    return [[(i + 0.5, label) for i, label in enumerate(labels)]]


class MetricHeatmap(HeatmapPlot):
    """Rows = languages, columns = tokenizers; the cell under the pointer is read out by name.
    Every column keeps its label, elided to the column's width (the full name as a tooltip).

    Signals
    -------
    sig_cell_clicked(int, int) : row and column (indices of the shown array) clicked.
    """

    sig_cell_clicked = Signal(int, int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Languages × tokenizers", "compare_heatmap", x_label="tokenizer",
                         y_label="language", value_label="value", hover_card=True,
                         axis_items={"bottom": CategoryAxis("bottom"), "left": RowAxis("left")},
                         parent=parent)  # language labels thinned where rows are shorter than a line
        self.row_labels: list[str] = []
        self.col_labels: list[str] = []
        self.model: HeatmapModel | None = None
        self.plot.getAxis("left").setWidth(150)
        for side in ("left", "bottom"):  # ticks outward: inward ones would cross the edge cells' numbers
            self.plot.getAxis(side).setStyle(tickLength=5)
        self.plot.setMouseEnabled(x=False, y=False)
        self.ranked_line = pg.InfiniteLine(angle=0, movable=False,
                                           pen=pg.mkPen(MARK_COLOR, width=2, style=pg.QtCore.Qt.PenStyle.DashLine))
        self.ranked_line.setZValue(6)
        self.ranked_line.hide()
        self.plot.addItem(self.ranked_line, ignoreBounds=True)
        self.graphics.scene().sigMouseClicked.connect(self._on_clicked)

    def show_model(self, model: HeatmapModel, metric_label: str) -> None:
        """Show ``model``: its values in its clipped levels, its cell texts and marks, and a
        dashed line above the first unranked row."""
        self.model = model
        self.row_labels, self.col_labels = list(model.row_labels), list(model.col_labels)
        self.value_label = metric_label
        self.colorbar.getAxis("left").setLabel(metric_label)
        rows, cols = len(self.row_labels), len(self.col_labels)
        data = np.asarray(model.values, dtype=np.float64).reshape(rows, cols)
        if data.size == 0:
            data = np.full((1, 1), np.nan)
        self.set_placeholder("")
        self.set_image(data, colormap=SEQUENTIAL, levels=model.levels, log=model.log)
        if rows and cols:
            self.set_cell_texts(model.texts, model.short_texts, model.marked)
        else:
            self.set_cell_texts([[""]], None, np.zeros((1, 1), dtype=bool))
        unranked = model.ranked is not None and 0 < model.ranked < rows
        self.ranked_line.setVisible(unranked)
        if unranked:
            self.ranked_line.setPos(float(model.ranked))
        self.plot.getAxis("left").setTicks(_ticks(self.row_labels))
        self.plot.getAxis("bottom").set_categories(self.col_labels)
        self.plot.setRange(xRange=(0, max(1, cols)), yRange=(0, max(1, rows)), padding=0)

    def cell_texts(self) -> list[list[str]]:
        """The full text of every cell, as drawn (top row first)."""
        return self.cells.texts

    def readout_at(self, x: float, y: float) -> str:
        cell = self.cell_at(x, y)
        if cell is None or self.model is None or cell[0] >= len(self.row_labels) or cell[1] >= len(self.col_labels):
            return ""
        return card_text(self.model, *cell)

    def _on_clicked(self, event) -> None:
        vb = self.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        p = vb.mapSceneToView(event.scenePos())
        cell = self.cell_at(p.x(), p.y())
        if cell is not None and cell[0] < len(self.row_labels) and cell[1] < len(self.col_labels):
            self.sig_cell_clicked.emit(*cell)


class BarChart(PlotFrame):
    """Horizontal bars of one metric over named categories (first category on top), each
    labelled with its value; marked bars (over the unknown limit) are drawn pale with a red
    outline.

    A ``BarGraphItem`` draws them (a second one the marked ones); a pen-less curve holds the
    same values (x = category index, y = value) so the CSV exporter writes them.
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Bars", "compare_bars", parent, axis_items={"left": RowAxis("left")})  # thinned labels
        self.bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.7, brush="#4c78a8")
        self.values_item = pg.PlotDataItem([], [], pen=None, name="values")
        self.marked_bars = pg.BarGraphItem(x0=[], y=[], width=[], height=0.7, brush="#f2c4c4",
                                           pen=pg.mkPen(MARK_COLOR, width=2))
        self.plot.addItem(self.bars)
        self.plot.addItem(self.marked_bars)
        self.plot.addItem(self.values_item, ignoreBounds=True)
        self.value_labels: list[pg.TextItem] = []
        self._ends = np.zeros(0)
        self.plot.getViewBox().sigResized.connect(self._fit_range)
        self.plot.invertY(True)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.getAxis("left").setWidth(130)
        self.labels: list[str] = []
        self.value_label = "value"

    def show_bars(self, labels: list[str], values: np.ndarray, title: str, value_label: str, *,
                  texts: list[str] | None = None, marked: np.ndarray | None = None) -> None:
        """Bars of ``values : (n,) float`` named by ``labels``; ``texts`` beside the bars (default
        the values), ``marked : (n,) bool`` bars drawn as marked."""
        self.labels, self.value_label = list(labels), value_label
        idx = np.arange(len(labels), dtype=float)
        v = np.asarray(values, dtype=np.float64)
        shown = np.where(np.isfinite(v), v, 0.0)
        mark = np.zeros(len(v), dtype=bool) if marked is None else np.asarray(marked, dtype=bool)
        self.set_placeholder("")
        self.bars.setOpts(x0=np.zeros(int((~mark).sum())), y=idx[~mark], width=shown[~mark], height=0.7)
        self.marked_bars.setOpts(x0=np.zeros(int(mark.sum())), y=idx[mark], width=shown[mark], height=0.7)
        self.values_item.setData(idx, v)
        self._label_bars(shown, texts if texts is not None else [f"{x:.3g}" for x in v])
        self.set_title(title)
        self.set_labels(value_label, "")
        self.plot.getAxis("left").setTicks([[(float(i), lab) for i, lab in enumerate(self.labels)]])
        self.plot.setYRange(-0.6, max(0.6, len(labels) - 0.4), padding=0)
        self._ends = shown
        self._fit_range()

    def _fit_range(self, *_args) -> None:
        """x range from 0 to past the longest bar plus its label: a bar ending at ``e`` with a
        label ``w`` pixels wide fits when the range reaches ``e / (1 - w / width)`` (at most
        4× the longest bar, when the plot is too narrow for every label). O(bars)."""
        top = float(np.max(self._ends)) if self._ends.size else 0.0
        if top <= 0:
            self.plot.setXRange(0, 1.0, padding=0)
            return
        width = max(1.0, self.plot.getViewBox().width())
        reach = top * 1.05
        for end, item in zip(self._ends, self.value_labels):
            w = QFontMetricsF(item.textItem.font()).horizontalAdvance(item.toPlainText()) + 12
            if w < width:
                reach = max(reach, float(end) / (1.0 - w / width))
        self.plot.setXRange(0, min(reach, 4.0 * top), padding=0)

    def _label_bars(self, ends: np.ndarray, texts: list[str]) -> None:
        """One text item per bar, just right of its end (items are reused)."""
        while len(self.value_labels) < len(texts):
            item = pg.TextItem(color="k", anchor=(0, 0.5))
            self.plot.addItem(item, ignoreBounds=True)
            self.value_labels.append(item)
        for k, item in enumerate(self.value_labels):
            item.setVisible(k < len(texts))
            if k < len(texts):
                item.setText(texts[k])
                item.setPos(float(ends[k]), float(k))

    def bar_texts(self) -> list[str]:
        """The label beside each bar, top to bottom."""
        return [item.toPlainText() for item in self.value_labels if item.isVisible()]

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
