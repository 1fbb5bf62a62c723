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


def log_tick_label(exponent: float, decades: float) -> str:
    """Label of a log-axis tick at ``10**exponent``: plain numbers at 1, 2 and 5 × 10^k
    (only 1 × 10^k when the axis spans more than four decades), "" for the other ticks."""
    v = 10.0 ** exponent
    if not np.isfinite(v) or v <= 0:
        return ""
    mantissa = round(v / 10.0 ** np.floor(np.log10(v) + 1e-9), 6)
    keep = (1.0,) if decades > 4 else (1.0, 2.0, 5.0)
    if not any(abs(mantissa - m) < 1e-4 for m in keep):
        return ""
    return f"{v:g}" if 1e-3 <= v < 1e6 else f"{v:.0e}".replace("e+0", "e").replace("e-0", "e-")


class LogTickAxis(pg.AxisItem):
    """An axis that, in log mode, labels only 1-2-5 ticks so the labels never collide."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        if not self.logMode:
            return super().tickStrings(values, scale, spacing)
        lo, hi = self.range
        return [log_tick_label(v, abs(hi - lo)) for v in values]


class LinePlot(PlotFrame):
    """A reusable x-y plot of named curves.

    ``legend_offset`` places the legend: positive x from the left edge, negative from the right.
    ``legend_below=n`` puts it under the plot instead, ``n`` entries per row. Log axes label
    only 1-2-5 ticks; ``integer_axes`` (``"left"``, ``"bottom"``) tick whole numbers only.
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
        legend_below: int = 0,
        integer_axes: tuple[str, ...] = (),
        parent: QWidget | None = None,
    ):
        axes = {side: LogTickAxis(side) for side, log in (("bottom", log_x), ("left", log_y))
                if log and side not in integer_axes}
        super().__init__(title, name, parent, axis_items=axes, integer_axes=integer_axes)
        self.x_label, self.y_label = x_label, y_label
        self.set_labels(x_label, y_label)
        self.plot.setLogMode(x=log_x, y=log_y)
        for side in ("left", "bottom"):
            self.plot.getAxis(side).enableAutoSIPrefix(False)  # log axes read "10^2", not "x0.001"
        if legend_below:  # under the plot, ``legend_below`` entries per row: never over a curve
            self.legend = pg.LegendItem(labelTextColor="k", colCount=legend_below)
            self.graphics.addItem(self.legend, row=1, col=0)
            self.plot.legend = self.legend  # curves created with a name join it
        else:
            self.legend = self.plot.addLegend(offset=legend_offset, labelTextColor="k",
                                              brush=pg.mkBrush(255, 255, 255, 200))
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
