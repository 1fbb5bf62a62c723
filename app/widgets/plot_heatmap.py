"""A heatmap: ``ImageItem(axisOrder="row-major")`` with a ``ColorBarItem`` and a hover readout.

The array is shown as given, ``(rows, cols)``: column index along x, row index along y (row 0
at the top by default, as in a matrix). The readout shows the exact stored value under the
pointer, with the row and column labels of the axes.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QWidget

from app.widgets.plot_frame import PlotFrame

DIVERGING = "CET-D1"
SEQUENTIAL = "viridis"


class HeatmapPlot(PlotFrame):
    """A reusable heatmap view.

    Call :meth:`set_image` with a ``(rows, cols)`` array; the same ``ImageItem`` is reused.
    ``-inf`` (e.g. masked attention) is drawn as blank and read out as ``-inf``.
    """

    def __init__(
        self,
        title: str,
        name: str,
        *,
        x_label: str = "column",
        y_label: str = "row",
        value_label: str = "value",
        invert_y: bool = True,
        integer_axes: tuple[str, ...] = (),
        parent: QWidget | None = None,
    ):
        super().__init__(title, name, parent, integer_axes=integer_axes)
        self.x_label, self.y_label, self.value_label = x_label, y_label, value_label
        self.image_item = pg.ImageItem(axisOrder="row-major")
        self.image_item.source_data = None  # the unmodified array (for readout and CSV)
        self.plot.addItem(self.image_item)
        self.plot.invertY(invert_y)
        self.plot.showGrid(x=False, y=False)
        self.set_labels(x_label, y_label)
        self.colorbar = pg.ColorBarItem(colorMap=DIVERGING, interactive=False, width=14, label=value_label)
        self.colorbar.setImageItem(self.image_item, insert_in=self.plot)
        self._x0, self._y0, self._dx, self._dy = 0.0, 0.0, 1.0, 1.0

    def set_image(
        self,
        data: np.ndarray,
        *,
        x0: float = 0.0,
        y0: float = 0.0,
        dx: float = 1.0,
        dy: float = 1.0,
        levels: tuple[float, float] | None = None,
        symmetric: bool = False,
        colormap: str = DIVERGING,
        finite: bool = False,
    ) -> None:
        """Show ``data`` (``(rows, cols)``); cell ``(r, c)`` covers ``x0 + c*dx``, ``y0 + r*dy``.

        ``levels`` default to the finite min and max (``±max|data|`` when ``symmetric``).
        ``finite=True`` promises there is no inf/nan and skips that check (large arrays).
        """
        data = np.asarray(data)
        shown = data
        if not finite:
            ok = np.isfinite(data)
            shown = data if ok.all() else np.where(ok, data, np.nan)
        if levels is None:
            levels = self._levels(shown, symmetric)
        self.image_item.source_data = data
        if self.colorbar.colorMap().name != colormap:
            self.colorbar.setColorMap(pg.colormap.get(colormap))
        self.image_item.setImage(shown, autoLevels=False, levels=levels)
        self.colorbar.setLevels(levels)
        rows, cols = data.shape
        self._x0, self._y0, self._dx, self._dy = float(x0), float(y0), float(dx), float(dy)
        self.image_item.setRect(QRectF(x0, y0, cols * dx, rows * dy))

    @staticmethod
    def _levels(data: np.ndarray, symmetric: bool) -> tuple[float, float]:
        lo, hi = float(np.nanmin(data)), float(np.nanmax(data))
        if not np.isfinite(lo):
            return (0.0, 1.0)
        if symmetric:
            m = max(abs(lo), abs(hi)) or 1.0
            return (-m, m)
        return (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)

    def image(self) -> np.ndarray | None:
        """The array last passed to :meth:`set_image` (unmodified)."""
        return self.image_item.source_data

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """``(row, col)`` of the cell under view coordinates ``(x, y)``, or None outside."""
        data = self.image()
        if data is None:
            return None
        c, r = int(np.floor((x - self._x0) / self._dx)), int(np.floor((y - self._y0) / self._dy))
        if 0 <= r < data.shape[0] and 0 <= c < data.shape[1]:
            return r, c
        return None

    def readout_at(self, x: float, y: float) -> str:
        cell = self.cell_at(x, y)
        if cell is None:
            return ""
        r, c = cell
        xv, yv = self._x0 + c * self._dx, self._y0 + r * self._dy
        return f"{self.y_label} {yv:g}, {self.x_label} {xv:g}: {self.value_label} = {self.image()[r, c]:.10g}"
