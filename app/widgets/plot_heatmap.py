"""A heatmap: ``ImageItem(axisOrder="row-major")`` with a ``ColorBarItem`` and a hover readout.

The array is shown as given, ``(rows, cols)``: column index along x, row index along y (row 0
at the top by default, as in a matrix). The readout shows the exact stored value under the
pointer, with the row and column labels of the axes.

Optional, for small tables: a text in every cell (:meth:`HeatmapPlot.set_cell_texts`, black or
white, whichever contrasts more with the cell's colour), marked cells (hatched, red outline)
and a hover card that stays inside the plot (``hover_card=True``) instead of the header readout.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QLabel, QWidget

from app.widgets.plot_frame import PlotFrame

DIVERGING = "CET-D1"
SEQUENTIAL = "viridis"
MARK_COLOR = QColor(215, 25, 28)  # no colour map in use here has a saturated red
_HATCH_STEP = 6.0  # pixels between hatch lines


def luminance(color: QColor) -> float:
    """WCAG relative luminance of ``color`` (0 black … 1 white)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(color.redF()) + 0.7152 * lin(color.greenF()) + 0.0722 * lin(color.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 … 21)."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def text_color_on(background: QColor) -> QColor:
    """Black or white, whichever contrasts more with ``background`` (always ≥ 4.58:1)."""
    black, white = QColor(0, 0, 0), QColor(255, 255, 255)
    return black if contrast(black, background) >= contrast(white, background) else white


def log_ticks(lo: float, hi: float) -> list[list[tuple[float, str]]]:
    """Colour-bar ticks for a log scale from ``lo`` to ``hi`` (positive): 1, 2 and 5 times the
    powers of ten inside, at their ``log10``, labelled in data units; the ends too when fewer
    than three fall inside. O(decades)."""
    values = [m * 10.0 ** k for k in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)
              for m in (1, 2, 5) if lo <= m * 10.0 ** k <= hi]
    if len(values) < 3:
        values = sorted({lo, hi, *values})
    return [[(float(np.log10(v)), f"{v:.3g}") for v in values]]


class CellOverlay(pg.GraphicsObject):
    """Texts centred in the cells and marks on chosen cells, painted in device pixels (so
    text and hatch keep their size at any zoom); a text too wide for its cell gives way to
    its short form. Holds plain data: ``texts``, ``short_texts``, ``text_colors``,
    ``fills`` (cell colours), ``marked : (rows, cols) bool``."""

    def __init__(self):
        super().__init__()
        self.texts: list[list[str]] = []
        self.short_texts: list[list[str]] = []
        self.text_colors: list[list[QColor]] = []
        self.fills: list[list[QColor]] = []
        self.marked = np.zeros((0, 0), dtype=bool)
        self._rect, self._dx, self._dy = QRectF(), 1.0, 1.0

    def set_cells(self, rect: QRectF, shape: tuple[int, int], texts, short_texts, text_colors, fills,
                  marked: np.ndarray) -> None:
        """Cells of ``shape`` tiling ``rect`` (view coordinates) with their texts and marks."""
        self.prepareGeometryChange()
        rows, cols = shape
        self._rect, self._dx, self._dy = QRectF(rect), rect.width() / max(cols, 1), rect.height() / max(rows, 1)
        self.texts, self.short_texts = texts, short_texts
        self.text_colors, self.fills, self.marked = text_colors, fills, np.asarray(marked, dtype=bool)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return QRectF(self._rect)

    def paint(self, painter: QPainter, *_args) -> None:
        """One pass over the cells (O(rows × cols)), in device coordinates."""
        transform = painter.transform()
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        row_px = transform.mapRect(QRectF(0, 0, self._dx, self._dy)).height()
        painter.setFont(self._font_for(painter.font(), row_px))
        metrics = QFontMetricsF(painter.font())
        for r in range(self.marked.shape[0]):
            for c in range(self.marked.shape[1]):
                cell = transform.mapRect(QRectF(self._rect.x() + c * self._dx, self._rect.y() + r * self._dy,
                                                self._dx, self._dy))
                if self.marked[r, c]:
                    self._paint_mark(painter, cell)
                self._paint_text(painter, metrics, cell, r, c)
        painter.restore()

    @staticmethod
    def _font_for(font: QFont, row_px: float) -> QFont:
        """``font``, smaller (down to 6 pt) when its line is taller than a row of ``row_px``."""
        out = QFont(font)
        size = out.pointSizeF() if out.pointSizeF() > 0 else 9.0
        while size > 6.0 and QFontMetricsF(out).height() > row_px:
            size -= 0.5
            out.setPointSizeF(size)
        return out

    def _paint_mark(self, painter: QPainter, cell: QRectF) -> None:
        painter.save()
        painter.setClipRect(cell)
        hatch = QColor(MARK_COLOR)
        hatch.setAlpha(150)
        painter.setPen(QPen(hatch, 1.2))
        k = 0.0
        while k < cell.width() + cell.height():
            painter.drawLine(QPointF(cell.left() + k, cell.top()), QPointF(cell.left() + k - cell.height(), cell.bottom()))
            k += _HATCH_STEP
        painter.setPen(QPen(MARK_COLOR, 2.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(cell.adjusted(1.25, 1.25, -1.25, -1.25))
        painter.restore()

    def _paint_text(self, painter: QPainter, metrics: QFontMetricsF, cell: QRectF, r: int, c: int) -> None:
        if r >= len(self.texts) or c >= len(self.texts[r]) or metrics.height() > cell.height() + 2:
            return
        text = self.texts[r][c]
        if metrics.horizontalAdvance(text) > cell.width() - 6 and self.short_texts:
            text = self.short_texts[r][c]
        if not text:
            return
        if self.marked[r, c]:  # a patch of the cell's own colour keeps the text off the hatch
            w, h = min(metrics.horizontalAdvance(text) + 8, cell.width() - 5), metrics.height()
            patch = QRectF(cell.center().x() - w / 2, cell.center().y() - h / 2, w, h)
            painter.fillRect(patch, self.fills[r][c])
        painter.setPen(self.text_colors[r][c])
        painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, text)


class HoverCard(QLabel):
    """The hover readout as a small card over the plot, placed beside the pointer and kept
    inside a given rectangle (the plot's view box, else the whole plot widget)."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setStyleSheet("QLabel { background: rgba(255, 255, 255, 240); color: black;"
                           " border: 1px solid #555555; padding: 3px; }")
        self.hide()

    def show_at(self, text: str, pointer: QPoint, inside: QRect) -> None:
        """Show ``text`` near ``pointer`` (parent coordinates), fully inside ``inside`` when it
        fits there, else inside the parent."""
        if not text:
            self.hide()
            return
        self.setText(text)
        area = inside if inside.width() >= 80 and inside.height() >= 30 else self.parentWidget().rect()
        w = min(self.sizeHint().width(), max(40, area.width()))
        h = max(self.heightForWidth(w), self.minimumSizeHint().height())
        self.resize(w, h)
        x = pointer.x() + 14 if pointer.x() + 14 + w <= area.right() else pointer.x() - 14 - w
        y = pointer.y() + 14 if pointer.y() + 14 + h <= area.bottom() else pointer.y() - 14 - h
        x = min(max(x, area.left()), area.right() + 1 - w)
        y = min(max(y, area.top()), area.bottom() + 1 - h)
        self.move(x, y)
        self.show()
        self.raise_()


class CategoryAxis(pg.AxisItem):
    """A horizontal axis with one label per category, at ``i + 0.5`` (view units: the
    centres of unit-wide cells starting at 0), each elided in the middle to its cell's width
    in pixels. pyqtgraph hides a label that sticks out of the axis, so a long last label would
    vanish; elided, every column keeps one. Hovering a label shows its full text as a tooltip.
    O(labels) per repaint."""

    PAD = 6.0  # pixels kept free between neighbouring labels

    def __init__(self, orientation: str = "bottom", **kwargs):
        super().__init__(orientation, **kwargs)
        self.categories: list[str] = []
        self.setAcceptHoverEvents(True)

    def set_categories(self, labels: list[str]) -> None:
        """Label cell ``i`` with ``labels[i]`` (shortened to fit when drawn)."""
        self.categories = list(labels)
        self.setTicks([[(i + 0.5, label) for i, label in enumerate(self.categories)]])

    def cell_pixels(self) -> float:
        """The width of one view unit (one cell) in pixels; 0 before the axis has a size."""
        lo, hi = self.range
        return self.size().width() / abs(hi - lo) if hi != lo else 0.0

    def shown_labels(self, metrics: QFontMetricsF) -> list[str]:
        """The labels as drawn with ``metrics``: elided in the middle ("bert-b…ed (2)") to the
        cell width less :attr:`PAD`, unchanged where they fit."""
        room = max(0.0, self.cell_pixels() - self.PAD)
        return [metrics.elidedText(label, Qt.TextElideMode.ElideMiddle, room) for label in self.categories]

    def category_at(self, x: float) -> int | None:
        """The category under ``x`` (pixels, axis coordinates), or None."""
        lo, hi = self.range
        width = self.size().width()
        if not self.categories or width <= 0:
            return None
        i = int(np.floor(lo + (hi - lo) * x / width))
        return i if 0 <= i < len(self.categories) else None

    def generateDrawSpecs(self, p: QPainter):  # noqa: N802 - pyqtgraph override
        if self.categories:
            metrics = QFontMetricsF(p.font(), p.device())
            self._tickLevels = [[(i + 0.5, label) for i, label in enumerate(self.shown_labels(metrics))]]
        return super().generateDrawSpecs(p)

    def hoverEvent(self, event) -> None:  # noqa: N802 - pyqtgraph override
        i = None if event.isExit() else self.category_at(event.pos().x())
        self.setToolTip("" if i is None else self.categories[i])


class RowAxis(pg.AxisItem):
    """A vertical axis with one label per row (given with ``setTicks``, a view unit apart) that
    thins its labels when the rows are shorter than a line of text: every k-th label is drawn,
    k the fewest rows one line needs, so 29 languages in 250 pixels never print over each
    other. O(labels) per repaint."""

    GAP = 2.0  # pixels kept free between two drawn labels

    def __init__(self, orientation: str = "left", **kwargs):
        super().__init__(orientation, **kwargs)

    def row_pixels(self) -> float:
        """The height of one view unit (one row) in pixels; 0 before the axis has a size."""
        lo, hi = self.range
        return self.size().height() / abs(hi - lo) if hi != lo else 0.0

    def label_step(self, line_pixels: float) -> int:
        """Draw every ``label_step``-th label: 1 where a row holds a line of ``line_pixels``."""
        rows = self.row_pixels()
        if rows <= 0 or rows >= line_pixels + self.GAP:
            return 1
        return int(np.ceil((line_pixels + self.GAP) / rows))

    def shown_ticks(self, line_pixels: float) -> list:
        """The tick levels as drawn: the labels between every ``label_step``-th one blank."""
        step = self.label_step(line_pixels)
        levels = self._tickLevels or []
        return [[(v, label if i % step == 0 else "") for i, (v, label) in enumerate(level)] for level in levels]

    def generateDrawSpecs(self, p: QPainter):  # noqa: N802 - pyqtgraph override
        full = self._tickLevels
        if full:
            self._tickLevels = self.shown_ticks(QFontMetricsF(p.font(), p.device()).height())
        try:
            return super().generateDrawSpecs(p)
        finally:
            self._tickLevels = full


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
        hover_card: bool = False,
        axis_items: dict | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(title, name, parent, axis_items=axis_items, integer_axes=integer_axes)
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
        self._levels_shown: tuple[float, float] = (0.0, 1.0)
        self._log = False
        self.cells = CellOverlay()
        self.cells.setZValue(5)
        self.plot.addItem(self.cells, ignoreBounds=True)
        self.card: HoverCard | None = None
        if hover_card:
            self.card = HoverCard(self.graphics.viewport())
            self.readout.hide()  # the card shows the readout, never clipped by the header
            self.graphics.scene().sigMouseMoved.connect(self._on_hover_moved)
            self._leave_filter = _LeaveFilter(self.card)
            self.graphics.viewport().installEventFilter(self._leave_filter)

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
        log: bool = False,
    ) -> None:
        """Show ``data`` (``(rows, cols)``); cell ``(r, c)`` covers ``x0 + c*dx``, ``y0 + r*dy``.

        ``levels`` default to the finite min and max (``±max|data|`` when ``symmetric``).
        ``finite=True`` promises there is no inf/nan and skips that check (large arrays).
        ``log=True`` colours by ``log10`` (equal ratios, equal steps; ``levels`` stay in data
        units and must be positive; values ≤ 0 are drawn blank) with 1-2-5 ticks on the bar.
        """
        data = np.asarray(data)
        shown = data
        if not finite:
            ok = np.isfinite(data)
            shown = data if ok.all() else np.where(ok, data, np.nan)
        if log:
            shown = np.log10(np.where(shown > 0, shown, np.nan))
        if levels is None:
            levels = self._levels(shown, symmetric)
            levels = tuple(10.0 ** v for v in levels) if log else levels
        self.image_item.source_data = data
        if self.colorbar.colorMap().name != colormap:
            self.colorbar.setColorMap(pg.colormap.get(colormap))
        self._log, self._levels_shown = log, (float(levels[0]), float(levels[1]))
        color_levels = tuple(float(np.log10(v)) for v in levels) if log else levels
        self.image_item.setImage(shown, autoLevels=False, levels=color_levels)
        self.colorbar.setLevels(color_levels)
        self.colorbar.axis.setTicks(log_ticks(*self._levels_shown) if log else None)
        rows, cols = data.shape
        self._x0, self._y0, self._dx, self._dy = float(x0), float(y0), float(dx), float(dy)
        self.image_item.setRect(QRectF(x0, y0, cols * dx, rows * dy))

    def levels(self) -> tuple[float, float]:
        """The colour range of the last image in data units: values outside take the end
        colours."""
        return self._levels_shown

    def color_position(self, value: float) -> float:
        """Where ``value`` falls on the colour map, 0 (low end) … 1 (high end), clipped; ``nan``
        for a value drawn blank."""
        lo, hi = self._levels_shown
        if self._log:
            if not value > 0:
                return float("nan")
            value, lo, hi = np.log10(value), np.log10(lo), np.log10(hi)
        if not np.isfinite(value):
            return float("nan")
        return float(np.clip((value - lo) / (hi - lo), 0.0, 1.0)) if hi > lo else 0.0

    def cell_color(self, value: float) -> QColor:
        """The colour the image gives ``value`` (clipped to :meth:`levels`); white for a value
        drawn blank (on the white background)."""
        t = self.color_position(value)
        return QColor(255, 255, 255) if np.isnan(t) else self.colorbar.colorMap().map(t, mode="qcolor")

    def set_cell_texts(self, texts: list[list[str]], short_texts: list[list[str]] | None = None,
                       marked: np.ndarray | None = None) -> None:
        """Draw ``texts[r][c]`` in cell ``(r, c)`` of the current image (``short_texts`` where a
        cell is too narrow), in black or white by the cell's colour; hatch and outline the
        cells of ``marked : (rows, cols) bool``. Call after :meth:`set_image`."""
        data = self.image()
        if data is None:
            return
        rows, cols = data.shape
        fills = [[self.cell_color(float(data[r, c])) for c in range(cols)] for r in range(rows)]
        colors = [[text_color_on(f) for f in row] for row in fills]
        mask = np.zeros((rows, cols), dtype=bool) if marked is None else np.asarray(marked, dtype=bool)
        rect = QRectF(self._x0, self._y0, cols * self._dx, rows * self._dy)
        self.cells.set_cells(rect, (rows, cols), texts, short_texts or [], colors, fills, mask)

    def _on_hover_moved(self, scene_pos: QPointF) -> None:
        vb = self.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos) or self.image() is None:
            self.card.hide()
            return
        p = vb.mapSceneToView(scene_pos)
        inside = self.graphics.mapFromScene(vb.sceneBoundingRect()).boundingRect()
        self.card.show_at(self.readout_at(p.x(), p.y()), self.graphics.mapFromScene(scene_pos), inside)

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

    def readout_of_cell(self, row: int, col: int) -> str:
        """The readout of cell ``(row, col)`` (what hovering it shows), "" outside the image."""
        return self.readout_at(self._x0 + (col + 0.5) * self._dx, self._y0 + (row + 0.5) * self._dy)

    def readout_at(self, x: float, y: float) -> str:
        cell = self.cell_at(x, y)
        if cell is None:
            return ""
        r, c = cell
        xv, yv = self._x0 + c * self._dx, self._y0 + r * self._dy
        return f"{self.y_label} {yv:g}, {self.x_label} {xv:g}: {self.value_label} = {self.image()[r, c]:.10g}"


class _LeaveFilter(QObject):
    """Hides the hover card when the pointer leaves the plot."""

    def __init__(self, card: HoverCard):
        super().__init__(card)
        self.card = card

    def eventFilter(self, _obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Leave:
            self.card.hide()
        return False
