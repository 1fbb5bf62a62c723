"""Named curves and marker lines with a legend and a hover readout of every curve's value.

Curves are ``PlotDataItem`` objects kept by name and updated with ``setData`` (never rebuilt);
marker lines are ``InfiniteLine`` objects kept by name. The readout shows, at the x nearest the
pointer, the exact stored y of each curve.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from app.widgets.plot_frame import PlotFrame

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")


class LinePlot(PlotFrame):
    """A reusable x-y plot of named curves.

    ``legend_offset`` places the legend: positive x from the left edge, negative from the right.
    """

    def __init__(
        self,
        title: str,
        name: str,
        *,
        x_label: str = "x",
        y_label: str = "y",
        log_x: bool = False,
        log_y: bool = False,
        legend_offset: tuple[int, int] = (-10, 10),
        parent: QWidget | None = None,
    ):
        super().__init__(title, name, parent)
        self.x_label, self.y_label = x_label, y_label
        self.set_labels(x_label, y_label)
        self.plot.setLogMode(x=log_x, y=log_y)
        for side in ("left", "bottom"):
            self.plot.getAxis(side).enableAutoSIPrefix(False)  # log axes read "10^2", not "x0.001"
        self.legend = self.plot.addLegend(offset=legend_offset, labelTextColor="k", brush=pg.mkBrush(255, 255, 255, 200))
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.markers: dict[str, pg.InfiniteLine] = {}

    def set_curve(
        self, name: str, x, y, *, color: str | None = None, width: float = 2, style=None, symbol=None, symbol_size: int = 7
    ) -> pg.PlotDataItem:
        """Create or update the curve called ``name``; returns the ``PlotDataItem``.

        ``width=0`` with a ``symbol`` draws markers only. Style options apply when the curve is
        first created; later calls only replace the data.
        """
        item = self.curves.get(name)
        if item is None:
            color = color or PALETTE[len(self.curves) % len(PALETTE)]
            pen = None if symbol and not width else pg.mkPen(color, width=width, style=style or pg.QtCore.Qt.PenStyle.SolidLine)
            item = self.plot.plot(name=name, pen=pen, symbol=symbol, symbolBrush=color, symbolPen=color, symbolSize=symbol_size)
            self.curves[name] = item
        item.setData(np.asarray(x), np.asarray(y))
        return item

    def curve_data(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The original (unlogged) x and y arrays of the curve ``name``."""
        x, y = self.curves[name].getOriginalDataset()
        return np.asarray(x), np.asarray(y)

    def set_marker(self, name: str, value: float, *, angle: float = 90, color: str = "#555555", label: str | None = None, movable: bool = False) -> pg.InfiniteLine:
        """Create or move the marker line ``name`` (vertical ``angle=90``, horizontal ``0``).

        ``value`` is in data units; log axes are handled here.
        """
        line = self.markers.get(name)
        if line is None:
            opts = {"position": 0.9, "color": color, "fill": (255, 255, 255, 200), "movable": False}
            line = pg.InfiniteLine(angle=angle, movable=movable, pen=pg.mkPen(color, width=1.5, style=pg.QtCore.Qt.PenStyle.DashLine),
                                   label=label, labelOpts=opts if label else None)
            self.plot.addItem(line, ignoreBounds=True)
            self.markers[name] = line
        log = self.plot.ctrl.logXCheck.isChecked() if angle == 90 else self.plot.ctrl.logYCheck.isChecked()
        line.setValue(np.log10(value) if log and value > 0 else value)
        if label:
            line.label.setFormat(label)
        return line

    def readout_at(self, x: float, y: float) -> str:
        if not self.curves:
            return ""
        if self.plot.ctrl.logXCheck.isChecked():
            x = 10**x
        parts, x_shown = [], None
        for name, item in self.curves.items():
            xs, ys = item.getOriginalDataset()
            if xs is None or len(xs) == 0 or not item.isVisible():
                continue
            i = int(np.argmin(np.abs(np.asarray(xs, dtype=float) - x)))
            x_shown = xs[i] if x_shown is None else x_shown
            parts.append(f"{name} {ys[i]:.10g}")
        if x_shown is None:
            return ""
        return f"{self.x_label} {x_shown:g}: " + "; ".join(parts)
