"""The atlas views: languages × tokenizers as a coloured table, the premiums as sorted curves,
and a map of the languages coloured by premium.

All three render an :class:`AtlasData` (a :class:`core.metrics.CompareTable` plus the
:class:`core.collection.Language` of each row); none computes a metric. The table is a
``QTableView`` over :class:`AtlasModel` (only the visible rows are painted, so 532 rows
scroll as fast as 16); the curves and the map are pyqtgraph plots with the shared export
button (PNG, SVG, CSV).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyledItemDelegate, QTableView, QWidget

from app.panes.compare.heatmap_model import format_value, percent
from app.widgets.plot_frame import PlotFrame
from app.widgets.plot_heatmap import MARK_COLOR, SEQUENTIAL, text_color_on
from app.widgets.rows_model import write_csv
from core.collection import Language
from core.errors import SubwordScopeError
from core.metrics import METRICS, CompareTable, unreliable
from core.metrics.fairness import Fairness, fairness
from core.text.scripts import language_name, script_label

AnyIndex = QModelIndex | QPersistentModelIndex
FIXED = ("Language", "Script")  # the columns before the tokenizers'
MARKED_RGBA = (242, 196, 196, 255)  # a cell over the unknown limit: its value is not comparable
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


@dataclass(frozen=True)
class AtlasData:
    """What the atlas views show: ``table`` (rows = languages) and ``languages`` (one
    :class:`Language` per row, same order; a row without metadata gets its code as name)."""

    table: CompareTable
    languages: tuple[Language, ...]
    _arrays: dict = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def of(table: CompareTable, langs: tuple[Language, ...] | list[Language] = ()) -> "AtlasData":
        """Pair ``table`` with the metadata of its rows (matched by code). O(rows)."""
        meta = {lang.code: lang for lang in langs}
        rows = tuple(meta.get(c) or Language(c, language_name(c), "", "", "ltr", 0, None, None)
                     for c in table.languages)
        return AtlasData(table, rows)

    def name(self, row: int) -> str:
        return self.languages[row].name or self.languages[row].code

    def values(self, metric: str) -> np.ndarray:
        """``table.values(metric)``, computed once (O(cells) the first time, then O(1))."""
        if metric not in self._arrays:
            self._arrays[metric] = np.asarray(self.table.values(metric), dtype=np.float64)
        return self._arrays[metric]

    def marked(self) -> np.ndarray:
        """``(rows, tokenizers)`` bool: cells over the unknown limit (computed once)."""
        if "_marked" not in self._arrays:
            self._arrays["_marked"] = unreliable(self.table)
        return self._arrays["_marked"]

    def premiums(self) -> np.ndarray:
        """``(rows, tokenizers)`` premiums, ``nan`` where the cell is over the unknown limit
        (never ranked) or has no premium (computed once)."""
        if "_premiums" not in self._arrays:
            values = np.array(self.values("premium"))
            values[self.marked()] = np.nan
            self._arrays["_premiums"] = values
        return self._arrays["_premiums"]

    def colours(self, metric: str) -> np.ndarray:
        """``(rows, tokenizers, 4)`` uint8 RGBA of ``metric``'s cells (:func:`_colours`,
        computed once per metric)."""
        key = ("_rgba", metric)
        if key not in self._arrays:
            self._arrays[key] = _colours(self.values(metric), self.marked())
        return self._arrays[key]

    def summaries(self) -> list[Fairness]:
        """:func:`core.metrics.fairness.fairness` of the table (computed once; empty when
        the table has no premium)."""
        if "_fairness" not in self._arrays:
            try:
                self._arrays["_fairness"] = fairness(self.table)
            except SubwordScopeError:
                self._arrays["_fairness"] = []
        return self._arrays["_fairness"]

    def coordinates(self) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, xy)``: the table rows with a latitude and longitude, and their
        ``(longitude, latitude)`` in degrees, ``(n, 2)`` (computed once). O(rows)."""
        if "_xy" not in self._arrays:
            langs = self.languages
            rows = np.flatnonzero(np.array([lang.latitude is not None and lang.longitude is not None
                                            for lang in langs], dtype=bool))
            xy = np.array([[langs[r].longitude, langs[r].latitude] for r in rows], dtype=np.float64)
            self._arrays["_xy"] = (rows, xy.reshape(-1, 2))
        return self._arrays["_xy"]

    def prepare(self, metric: str) -> "AtlasData":
        """Compute what the views show of ``metric`` now (in a worker: the GUI thread then
        only installs it); returns ``self``. O(cells)."""
        self.colours(metric)
        self.premiums()
        self.summaries()
        self.coordinates()
        return self


def _colours(values: np.ndarray, marked: np.ndarray) -> np.ndarray:
    """``(rows, cols, 4)`` uint8 RGBA of ``values`` on the sequential colour map, clipped to
    the 5th–95th percentile of the finite unmarked cells (log scale when they span more than
    a factor of 10 and are positive); pale red where ``marked``, white where undefined.
    O(cells)."""
    finite = np.isfinite(values) & ~marked
    out = np.full(values.shape + (4,), 255, dtype=np.uint8)
    if not finite.any():
        return out
    pool = values[finite]
    log = bool((pool > 0).all() and pool.max() > 10 * pool.min())
    v = np.log10(np.where(values > 0, values, np.nan)) if log else values
    lo, hi = np.percentile(v[finite], (5.0, 95.0))
    t = np.clip((v - lo) / (hi - lo), 0.0, 1.0) if hi > lo else np.full(v.shape, 0.5)
    ok = np.isfinite(v) & ~marked
    out[ok] = pg.colormap.get(SEQUENTIAL).map(t[ok], mode="byte")
    out[marked] = MARKED_RGBA
    return out


class AtlasModel(QAbstractTableModel):
    """Rows = languages, columns = name, script, then one metric per tokenizer; a number in
    every cell, coloured by value (``BackgroundRole``); sortable by any column
    (:meth:`sort`, O(rows log rows) in numpy). ``row_of(view row)`` gives the table row."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.data_: AtlasData | None = None
        self.metric = "premium"
        self.values = np.zeros((0, 0))
        self.marked = np.zeros((0, 0), dtype=bool)
        self.rgba = np.zeros((0, 0, 4), dtype=np.uint8)
        self.order = np.zeros(0, dtype=np.int64)

    def set_data(self, data: AtlasData, metric: str) -> None:
        """Show ``metric`` of ``data`` (rows in table order until sorted). O(cells)."""
        self.beginResetModel()
        self.data_, self.metric = data, metric
        self.values = data.values(metric)
        self.marked = data.marked()
        self.rgba = data.colours(metric)
        self.order = np.arange(len(data.table.languages))
        self.endResetModel()

    def row_of(self, view_row: int) -> int:
        """The table row (index into ``table.languages``) shown at ``view_row``."""
        return int(self.order[view_row])

    def view_row(self, table_row: int) -> int:
        """Where table row ``table_row`` is shown (``-1`` if not)."""
        hits = np.flatnonzero(self.order == table_row)
        return int(hits[0]) if len(hits) else -1

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self.order)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        if parent.isValid() or self.data_ is None:
            return 0
        return len(FIXED) + len(self.data_.table.tokenizers)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or self.data_ is None:
            return None
        r, c = self.row_of(index.row()), index.column()
        lang = self.data_.languages[r]
        if c < len(FIXED):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.data_.name(r) if c == 0 else _script(lang)
            if role == Qt.ItemDataRole.ToolTipRole:
                return f"{self.data_.name(r)} ({lang.code}), {_script(lang, 'script unknown')}"
            return None
        j = c - len(FIXED)
        value = self.values[r, j]
        if role == Qt.ItemDataRole.DisplayRole:
            text = format_value(value, self.metric)
            return f"⚠ {text}" if self.marked[r, j] else text
        if role == Qt.ItemDataRole.BackgroundRole:
            return QColor(*(int(x) for x in self.rgba[r, j]))
        if role == Qt.ItemDataRole.ForegroundRole:
            return text_color_on(QColor(*(int(x) for x in self.rgba[r, j])))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return cell_card(self.data_, self.metric, r, j)
        if role == Qt.ItemDataRole.UserRole:
            return bool(self.marked[r, j])
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt override
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or self.data_ is None:
            return None
        names = list(FIXED) + list(self.data_.table.tokenizers)
        if role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(names):
            return names[section]
        if role == Qt.ItemDataRole.ToolTipRole and section >= len(FIXED):
            return f"{METRICS[self.metric][0]} with {names[section]} (click to sort, double-click a cell " \
                   "to open it in Alignment)"
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:  # noqa: D102
        if self.data_ is None or not len(self.order):
            return
        self.layoutAboutToBeChanged.emit()
        rows = np.arange(len(self.data_.languages))
        if column < len(FIXED):
            keys = [self.data_.name(r).casefold() if column == 0 else (self.data_.languages[r].script or "~")
                    for r in rows]
            idx = sorted(rows, key=lambda r: (keys[r], self.data_.name(r).casefold()))
            self.order = np.asarray(idx[::-1] if order == Qt.SortOrder.DescendingOrder else idx, dtype=np.int64)
        else:
            col = self.values[:, column - len(FIXED)]
            key = np.where(np.isfinite(col) & ~self.marked[:, column - len(FIXED)], col, np.nan)
            key = -key if order == Qt.SortOrder.DescendingOrder else key
            self.order = np.argsort(np.where(np.isnan(key), np.inf, key), kind="stable")
        self.layoutChanged.emit()

    def csv_rows(self) -> tuple[list[str], list[list]]:
        """Header and rows as shown (sorted): language, code, ISO 639-3, script, latitude,
        longitude, then the metric per tokenizer."""
        if self.data_ is None:
            return [], []
        header = ["language", "code", "iso639_3", "script", "latitude", "longitude",
                  *(f"{self.metric}[{t}]" for t in self.data_.table.tokenizers)]
        rows = []
        for r in self.order:
            lang = self.data_.languages[r]
            rows.append([self.data_.name(r), lang.code, lang.iso6393, lang.script or "", lang.latitude,
                         lang.longitude, *(float(v) for v in self.values[r])])
        return header, rows


def cell_card(data: AtlasData, metric: str, r: int, j: int) -> str:
    """Hover text of cell (table row ``r``, tokenizer ``j``): names, the metric, tokens,
    premium and the unknown share."""
    lang = data.languages[r]
    premium = data.values("premium")[r, j]
    lines = [f"{data.name(r)} ({lang.code}) × {data.table.tokenizers[j]}",
             f"{METRICS[metric][0]} = {format_value(data.values(metric)[r, j], metric)}",
             f"tokens = {format_value(data.values('tokens')[r, j], 'tokens')}, "
             f"premium = {format_value(premium, 'premium')}",
             f"unknown: {percent(data.values('unknown_share')[r, j])} of the characters"]
    return "\n".join(lines)


class MarkDelegate(QStyledItemDelegate):
    """Paints a cell as usual, then a red frame around a cell over the unknown limit."""

    def paint(self, painter, option, index) -> None:
        super().paint(painter, option, index)
        if index.data(Qt.ItemDataRole.UserRole):
            painter.save()
            painter.setPen(QPen(MARK_COLOR, 2))
            painter.drawRect(option.rect.adjusted(1, 1, -1, -1))
            painter.restore()


class AtlasTable(QTableView):
    """The languages × tokenizers table (see :class:`AtlasModel`).

    Signals
    -------
    sig_language_picked(int) : a row was clicked; its table row.
    sig_cell_opened(int, int) : a tokenizer cell was double-clicked; table row, tokenizer index.
    """

    sig_language_picked = Signal(int)
    sig_cell_opened = Signal(int, int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.atlas = AtlasModel(self)
        self.setModel(self.atlas)
        self.setItemDelegate(MarkDelegate(self))
        self.setSortingEnabled(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(False)
        self.horizontalHeader().setDefaultSectionSize(96)
        self.clicked.connect(lambda i: self.sig_language_picked.emit(self.atlas.row_of(i.row())))
        self.doubleClicked.connect(self._on_double_clicked)

    def show_data(self, data: AtlasData, metric: str) -> None:
        self.atlas.set_data(data, metric)
        self.setColumnWidth(0, 190)
        self.setColumnWidth(1, 90)
        metrics = self.horizontalHeader().fontMetrics()
        for j, name in enumerate(data.table.tokenizers):
            self.setColumnWidth(len(FIXED) + j, max(80, metrics.horizontalAdvance(name) + 28))
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)

    def select_language(self, table_row: int) -> None:
        """Select and scroll to table row ``table_row``."""
        v = self.atlas.view_row(table_row)
        if v >= 0:
            self.selectRow(v)
            self.scrollTo(self.atlas.index(v, 0), QAbstractItemView.ScrollHint.PositionAtCenter)

    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.column() >= len(FIXED):
            self.sig_cell_opened.emit(self.atlas.row_of(index.row()), index.column() - len(FIXED))


class PremiumCurves(PlotFrame):
    """One line per tokenizer: its premiums sorted ascending (x = rank of the language, y =
    premium); dashed lines at 1×, 2× and 4×; the readout names the language under the pointer
    on the nearest curve."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Premiums, sorted", "atlas_curves", parent)
        # beside the plot, not over it: the curves span the whole width
        self.legend = pg.LegendItem(labelTextColor="#222222", verSpacing=-4)
        self.graphics.addItem(self.legend, row=0, col=1)
        self.marked_row: int | None = None  # the language marked on every curve
        self.mark_dots = pg.PlotDataItem([], [], pen=None, symbol="o", symbolSize=11, symbolBrush=None,
                                         symbolPen=pg.mkPen("#000000", width=2))
        self.mark_label = pg.TextItem("", color="#000000", anchor=(1.0, 1.0), fill=pg.mkBrush(255, 255, 255, 210))
        self.mark_label.setZValue(10)
        self.data_: AtlasData | None = None
        self.orders: list[np.ndarray] = []  # per tokenizer: table rows, cheapest first
        self.curves: list[pg.PlotDataItem] = []
        self.points: list[tuple[np.ndarray, np.ndarray]] = []  # per tokenizer: (rank, premium)
        self.plot.setLogMode(x=False, y=True)
        for level in (1.0, 2.0, 4.0):  # a log axis: lines at log10 of the level
            self.plot.addItem(pg.InfiniteLine(np.log10(level), angle=0,
                                              pen=pg.mkPen("#888888", style=Qt.PenStyle.DashLine)), ignoreBounds=True)
        self.set_labels("languages, sorted by premium (cheapest first)", "premium (× reference, log scale)")
        self.plot.setMouseEnabled(x=False, y=False)

    def show_data(self, data: AtlasData) -> None:
        """Draw every tokenizer's sorted premiums (cells over the unknown limit left out).
        O(tokenizers · rows log rows)."""
        self.data_ = data
        for item in self.curves:
            self.plot.removeItem(item)
        self.legend.clear()
        self.curves, self.orders, self.points = [], [], []
        premiums = data.premiums()
        for j, name in enumerate(data.table.tokenizers):
            rows = np.flatnonzero(np.isfinite(premiums[:, j]))
            rows = rows[np.argsort(premiums[rows, j], kind="stable")]
            self.orders.append(rows)
            self.points.append((np.arange(len(rows)), premiums[rows, j]))
            curve = self.plot.plot(*self.points[-1], pen=pg.mkPen(PALETTE[j % len(PALETTE)], width=2))
            self.legend.addItem(curve, f"{name} ({len(rows)} languages)")
            self.curves.append(curve)
        self.set_placeholder("" if data.table.tokenizers else "No tokenizer to draw.")
        self.mark(None)  # rows of the previous data: the tab marks the selected language again
        ref = data.table.reference
        self.set_title(f"Premiums vs {language_name(ref)}, sorted — one line per tokenizer (cells over 1 % "
                       "unknown left out); dashed: 1×, 2×, 4×")
        self.plot.enableAutoRange()

    def mark(self, row: int | None) -> list[tuple[int, float]]:
        """Circle table row ``row``'s language on every curve where it has a premium, its
        name beside the highest circle (``None`` removes the marks); returns the circled
        ``(rank, premium)`` points. O(tokenizers · rows)."""
        self.marked_row = row
        for item in (self.mark_dots, self.mark_label):
            if item.scene() is not None:
                self.plot.removeItem(item)
        if row is None or self.data_ is None:
            return []
        points = []
        for j, rows in enumerate(self.orders):
            at = np.flatnonzero(rows == row)
            if len(at):
                points.append((int(at[0]), float(self.points[j][1][at[0]])))
        if not points:
            return []
        xs, ys = zip(*points)
        self.mark_dots.setData(list(xs), list(ys))
        self.plot.addItem(self.mark_dots, ignoreBounds=True)
        x, y = max(points, key=lambda p: p[1])
        self.mark_label.setText(self.data_.name(row))
        self.mark_label.setAnchor((1.0, 1.0) if x > 0.5 * max(len(r) for r in self.orders) else (0.0, 1.0))
        self.mark_label.setPos(x, np.log10(y))  # the y axis is logarithmic
        self.plot.addItem(self.mark_label, ignoreBounds=True)
        return points

    def curve_points(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)`` of tokenizer ``j``'s curve: rank, premium."""
        return self.points[j]

    def readout_at(self, x: float, y: float) -> str:
        """The language at rank ``round(x)`` on the curve nearest ``y`` (log10 of a premium,
        the axis being logarithmic). O(tokenizers)."""
        if self.data_ is None or not self.curves:
            return ""
        i = int(round(x))
        best = None
        for j, rows in enumerate(self.orders):
            if 0 <= i < len(rows):
                v = float(self.points[j][1][i])
                d = abs(np.log10(v) - y) if v > 0 else np.inf
                if best is None or d < best[3]:
                    best = (j, int(rows[i]), v, d)
        if best is None:
            return ""
        j, r, v, _ = best
        return f"{self.data_.table.tokenizers[j]}: {self.data_.name(r)} — premium {v:.3g}× (#{i + 1} cheapest)"


class PremiumMap(PlotFrame):
    """Every language with a latitude/longitude as a dot (equirectangular: x = longitude,
    y = latitude, degrees), coloured by one tokenizer's premium (colour bar beside), a faint
    graticule every 30°; hover names the language, a click picks it.

    Signals
    -------
    sig_language_picked(int) : the table row of the dot clicked.
    """

    sig_language_picked = Signal(int)
    GREY = (190, 190, 190, 200)
    STEPS = 64  # colour steps of the dots

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Map", "atlas_map", parent)
        self.data_: AtlasData | None = None
        self.column = 0
        self.rows = np.zeros(0, dtype=np.int64)  # table row of each dot
        self.xy = np.zeros((0, 2))
        pen = pg.mkPen((200, 200, 200, 120), width=1)
        for lon in range(-180, 181, 30):
            self.plot.addItem(pg.InfiniteLine(lon, angle=90, pen=pen), ignoreBounds=True)
        for lat in range(-90, 91, 30):
            self.plot.addItem(pg.InfiniteLine(lat, angle=0, pen=pen), ignoreBounds=True)
        self.plot.showGrid(x=False, y=False)
        self.scatter = pg.ScatterPlotItem(size=7, pen=pg.mkPen((60, 60, 60, 160), width=0.6), hoverable=False)
        self.plot.addItem(self.scatter)
        self.marked_row: int | None = None  # the language ringed on the map
        self.ring = pg.ScatterPlotItem(size=18, pen=pg.mkPen("#000000", width=2.5), brush=None)
        self.ring.setZValue(5)
        self.plot.addItem(self.ring)
        self.ring_label = pg.TextItem("", color="#000000", anchor=(0.0, 1.0), fill=pg.mkBrush(255, 255, 255, 220))
        self.ring_label.setZValue(6)
        self.plot.addItem(self.ring_label, ignoreBounds=True)
        self.plot.setAspectLocked(True)
        self.set_labels("longitude (°)", "latitude (°)")
        self.colormap = pg.colormap.get(SEQUENTIAL)
        self.colorbar = pg.ColorBarItem(values=(0.5, 4.0), colorMap=self.colormap, interactive=False,
                                        width=14, label="premium (× reference)")
        self.graphics.addItem(self.colorbar, row=0, col=1)
        self.graphics.scene().sigMouseClicked.connect(self._on_clicked)
        self.plot.getViewBox().sigResized.connect(self._fit)

    def _fit(self, *_args) -> None:
        """Show the inhabited world, -180°–180° × -60°–80° (the locked aspect widens one)."""
        self.plot.setRange(xRange=(-180, 180), yRange=(-60, 80), padding=0.02)

    def show_data(self, data: AtlasData, column: int) -> None:
        """Dots for tokenizer ``column``'s premiums (grey: no premium or over the unknown
        limit). O(rows)."""
        self.data_, self.column = data, column
        langs = data.languages
        self.rows, self.xy = data.coordinates()
        if not data.table.tokenizers:
            self.scatter.setData([])
            self.set_placeholder("No tokenizer to draw.")
            return
        values = data.premiums()[self.rows, column] if len(self.rows) else np.zeros(0)
        finite = values[np.isfinite(values)]
        lo, hi = (np.percentile(finite, (5.0, 95.0)) if len(finite) else (0.5, 4.0))
        hi = hi if hi > lo else lo + 1.0
        t = np.clip((values - lo) / (hi - lo), 0, 1)
        # one brush per colour step (pyqtgraph renders a dot once per distinct brush)
        table = [pg.mkBrush(*self.colormap.map(k / (self.STEPS - 1), mode="byte")) for k in range(self.STEPS)]
        grey = pg.mkBrush(*self.GREY)
        steps = np.rint(np.nan_to_num(t, nan=-1.0) * (self.STEPS - 1)).astype(np.int64)
        brushes = [table[k] if k >= 0 else grey for k in steps]
        order = np.argsort(np.where(np.isfinite(values), values, -np.inf), kind="stable")  # dear ones on top
        self.scatter.setData(x=self.xy[order, 0], y=self.xy[order, 1], brush=[brushes[k] for k in order],
                             data=self.rows[order])
        self.colorbar.setLevels((float(lo), float(hi)))
        self.set_placeholder("" if len(self.rows) else "No language of this corpus has a known location.")
        missing = len(langs) - len(self.rows)
        self.set_note(f"{missing} language(s) without a location are not drawn." if missing else "")
        self.set_title(f"Premium with {data.table.tokenizers[column]} — each dot a language at its "
                       "latitude/longitude (grey: over 1 % unknown or no premium)")
        self.mark(self.marked_row if self.marked_row is not None and self.marked_row < len(langs) else None)
        self._fit()

    def mark(self, row: int | None) -> bool:
        """Ring table row ``row``'s dot and name it with its premium (``None``, or a
        language without a location: no ring); returns whether a dot is ringed. O(dots)."""
        self.marked_row = row
        at = np.flatnonzero(self.rows == row) if row is not None else np.zeros(0, dtype=np.int64)
        if not len(at) or self.data_ is None or not self.data_.table.tokenizers:
            self.ring.setData([])
            self.ring_label.setText("")
            return False
        x, y = self.xy[at[0]]
        self.ring.setData(x=[x], y=[y])
        premium = format_value(self.data_.values("premium")[row, self.column], "premium")
        self.ring_label.setText(f"{self.data_.name(row)} {premium}×")
        self.ring_label.setAnchor((1.0, 1.0) if x > 90 else (0.0, 1.0))
        self.ring_label.setPos(x, y)
        return True

    def nearest(self, x: float, y: float, radius_px: float = 8.0) -> int | None:
        """The table row of the dot nearest view point ``(x, y)`` within ``radius_px``
        pixels, else ``None``. O(dots)."""
        if not len(self.rows):
            return None
        px, py = self.plot.getViewBox().viewPixelSize()
        d = ((self.xy[:, 0] - x) / max(px, 1e-9)) ** 2 + ((self.xy[:, 1] - y) / max(py, 1e-9)) ** 2
        k = int(np.argmin(d))
        return int(self.rows[k]) if d[k] <= radius_px ** 2 else None

    def card(self, r: int) -> str:
        """The hover card of table row ``r``: name, script, premium, tokens."""
        if self.data_ is None:
            return ""
        d, lang, j = self.data_, self.data_.languages[r], self.column
        return (f"{d.name(r)} ({lang.code}) — {_script(lang, 'script unknown')}\n"
                f"{d.table.tokenizers[j]}: premium {format_value(d.values('premium')[r, j], 'premium')}×, "
                f"{_count(d.values('tokens')[r, j])} tokens")

    def readout_at(self, x: float, y: float) -> str:
        r = self.nearest(x, y)
        text = "" if r is None else self.card(r)
        self.graphics.setToolTip(text)
        return text.replace("\n", " · ")

    def _on_clicked(self, event) -> None:
        vb = self.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        p = vb.mapSceneToView(event.scenePos())
        r = self.nearest(p.x(), p.y())
        if r is not None:
            self.sig_language_picked.emit(r)


def _script(lang: Language, missing: str = "–") -> str:
    """A language's script as a reader writes it (``Tai Viet``), ``missing`` without one."""
    return script_label(lang.script) if lang.script else missing


def _count(value: float) -> str:
    return f"{value:,.0f}" if np.isfinite(value) else "–"


def export_table_csv(model: AtlasModel, path: str) -> None:
    """Write the table as shown (may raise ``OSError``)."""
    write_csv(path, *model.csv_rows())
