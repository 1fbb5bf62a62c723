"""The Compare pane's Atlas tab: the fairness summary per tokenizer above three views of the
same result — the languages × tokenizers table (coloured, sortable), the sorted premium
curves and the map (:mod:`app.panes.compare.atlas_views`).

The summary's figures come from :func:`core.metrics.fairness.fairness`, their tooltips from
:data:`core.metrics.measures.SUMMARY_TOOLTIPS`.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QSignalBlocker, QSize, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QSplitter, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout,
                               QWidget)

from app.panes.compare.atlas_views import AtlasData, AtlasTable, PremiumCurves, PremiumMap, export_table_csv
from app.panes.compare.heatmap_model import percent
from core.metrics import METRICS
from core.metrics.measures import SUMMARY_TOOLTIPS, TOOLTIPS

SUMMARY_COLUMNS = (("median_premium", "Median premium"), ("gini", "Gini"), ("over_2x", "> 2×"),
                   ("over_4x", "> 4×"), ("worst", "Ten worst served"))


class FairnessSummary(QTableWidget):
    """One row per tokenizer: its median premium, Gini, shares over 2× and 4× and its ten
    worst-served languages (wrapped, so every name reads; the rows grow to fit them); every
    header and figure carries its tooltip. Read-only, selectable text."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(0, len(SUMMARY_COLUMNS) + 1, parent)
        self.setHorizontalHeaderLabels(["Tokenizer"] + [title for _key, title in SUMMARY_COLUMNS])
        for c, key in enumerate(["excluded"] + [key for key, _title in SUMMARY_COLUMNS]):
            self.horizontalHeaderItem(c).setToolTip(SUMMARY_TOOLTIPS[key])
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setWordWrap(True)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(SUMMARY_COLUMNS), QHeaderView.ResizeMode.Stretch)
        header.sectionResized.connect(lambda *_args: self.resizeRowsToContents())
        self.cells: dict[tuple[str, str], QTableWidgetItem] = {}  # (tokenizer, key) -> item

    def show_data(self, data: AtlasData) -> None:
        """Fill one row per tokenizer of ``data`` (its summaries are computed beforehand)."""
        self.cells.clear()
        summaries = data.summaries()
        self.setRowCount(len(summaries))
        for r, s in enumerate(summaries):
            name = QTableWidgetItem(s.tokenizer)
            name.setToolTip(f"{len(s.counted)} languages counted, {len(s.excluded)} left out — "
                            + SUMMARY_TOOLTIPS["excluded"])
            self.setItem(r, 0, name)
            worst = " · ".join(f"{data.name(i)} {p:.3g}×" for i, p in s.worst)
            texts = {"median_premium": _num(s.median_premium, "{:.3g}×"), "gini": _num(s.gini, "{:.3f}"),
                     "over_2x": _share(s.over_2x), "over_4x": _share(s.over_4x), "worst": worst or "–"}
            for c, (key, _title) in enumerate(SUMMARY_COLUMNS, 1):
                item = QTableWidgetItem(texts[key])
                item.setToolTip(SUMMARY_TOOLTIPS[key] + (f"\n\n{worst}" if key == "worst" and worst else ""))
                if key != "worst":
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.setItem(r, c, item)
                self.cells[(s.tokenizer, key)] = item
        self.resizeRowsToContents()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        """Room for the header and about three rows: the views below get the rest (the
        splitter gives the summary more)."""
        return QSize(600, self.horizontalHeader().height() + 3 * self.verticalHeader().defaultSectionSize() + 40)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.resizeRowsToContents()  # the wrapped lists take more or fewer lines

    def text(self, tokenizer: str, key: str) -> str:
        """The shown text of one summary figure."""
        return self.cells[(tokenizer, key)].text()

    def tooltip(self, tokenizer: str, key: str) -> str:
        return self.cells[(tokenizer, key)].toolTip()


def _num(value: float, fmt: str) -> str:
    return "–" if not math.isfinite(value) else fmt.format(value)


def _share(value: float) -> str:
    return "–" if not math.isfinite(value) else percent(value)


class AtlasTab(QWidget):
    """Fairness summary on top; Table / Curves / Map below.

    Signals
    -------
    sig_language_picked(str) : a row or a map dot was clicked; the language code.
    sig_cell_opened(str, int) : a table cell was double-clicked; language code, tokenizer index.
    sig_status_requested(str) : export results.
    """

    sig_language_picked = Signal(str)
    sig_cell_opened = Signal(str, int)
    sig_status_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.data: AtlasData | None = None
        self.metric_key = "premium"
        self.summary = FairnessSummary()
        self.table = AtlasTable()
        self.table.sig_language_picked.connect(self._on_row_picked)
        self.table.sig_cell_opened.connect(self._on_cell_opened)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.csv_button = QPushButton("Export CSV…")
        self.csv_button.setToolTip("Save the table as shown (sorted) as CSV, with the languages' metadata")
        self.csv_button.clicked.connect(self._on_csv_requested)
        self.table_note = QLabel("")
        self.table_note.setWordWrap(True)
        self.table_note.setStyleSheet("color: #444444;")
        table_page = QWidget()
        tl = QVBoxLayout(table_page)
        tl.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.table_note, 1)
        row.addWidget(self.csv_button)
        tl.addLayout(row)
        tl.addWidget(self.table, 1)
        self.curves = PremiumCurves()
        self.curves.sig_status_requested.connect(self.sig_status_requested)
        self.map = PremiumMap()
        self.map.sig_status_requested.connect(self.sig_status_requested)
        self.map.sig_language_picked.connect(self._on_dot_picked)
        self.map_tokenizer = QComboBox()
        self.map_tokenizer.setToolTip("The tokenizer whose premiums colour the map")
        self.map_tokenizer.currentIndexChanged.connect(self._on_map_tokenizer_changed)
        map_page = QWidget()
        ml = QVBoxLayout(map_page)
        ml.setContentsMargins(0, 0, 0, 0)
        mrow = QHBoxLayout()
        mrow.addWidget(QLabel("Colour by the premium of"))
        mrow.addWidget(self.map_tokenizer)
        mrow.addStretch(1)
        ml.addLayout(mrow)
        ml.addWidget(self.map, 1)
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.views.addTab(table_page, "Heatmap")
        self.views.addTab(self.curves, "Curves")
        self.views.addTab(map_page, "Map")
        self.split = QSplitter(Qt.Orientation.Vertical)  # drag to give the summary or the views more room
        self.split.addWidget(self.summary)
        self.split.addWidget(self.views)
        self.split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split)

    def show_data(self, data: AtlasData, metric: str) -> None:
        """Show ``data``: the table in ``metric``, the curves and the map in premiums (the
        selected language stays selected and marked)."""
        current = self.table.currentIndex()
        code = (self.data.table.languages[self.table.atlas.row_of(current.row())]
                if self.data is not None and current.isValid() else None)
        self.data, self.metric_key = data, metric
        self.summary.show_data(data)
        self.table.show_data(data, metric)
        label = METRICS[metric][0]
        self.table_note.setText(f"{len(data.languages)} languages × {len(data.table.tokenizers)} tokenizers — "
                                f"{label}; click a header to sort, double-click a cell to open it in "
                                "Alignment; ⚠ red frame: over 1 % unknown characters.")
        self.table_note.setToolTip(TOOLTIPS.get(metric, ""))
        self.curves.show_data(data)
        with QSignalBlocker(self.map_tokenizer):
            current = self.map_tokenizer.currentText()
            self.map_tokenizer.clear()
            self.map_tokenizer.addItems(list(data.table.tokenizers))
            self.map_tokenizer.setCurrentIndex(max(0, self.map_tokenizer.findText(current)))
        self.map.mark(None)
        self.map.show_data(data, max(0, self.map_tokenizer.currentIndex()))
        if code is not None:
            self.select_language(code)

    def set_map_tokenizer(self, index: int) -> None:
        self.map_tokenizer.setCurrentIndex(index)

    def export_csv(self, path: str) -> bool:
        """Write the table (as sorted) to ``path``; reports, never raises."""
        try:
            export_table_csv(self.table.atlas, path)
        except OSError as exc:
            self.sig_status_requested.emit(f"Could not export: {exc}")
            return False
        self.sig_status_requested.emit(f"Saved {path}")
        return True

    def select_language(self, code: str) -> None:
        """Select ``code``'s row in the table (and mark it on the curves and the map)."""
        if self.data is not None and code in self.data.table.languages:
            self.table.select_language(self.data.table.languages.index(code))

    def _on_current_row_changed(self, current, _previous) -> None:
        """The table's current language is marked on the curves and the map."""
        row = self.table.atlas.row_of(current.row()) if current.isValid() else None
        self.curves.mark(row)
        self.map.mark(row)

    def _on_csv_requested(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export Atlas Table", "atlas_table.csv", "CSV (*.csv)")
        if path:
            self.export_csv(path)

    def _on_map_tokenizer_changed(self, index: int) -> None:
        if self.data is not None and index >= 0:
            self.map.show_data(self.data, index)

    def _on_row_picked(self, row: int) -> None:
        if self.data is not None:
            self.sig_language_picked.emit(self.data.table.languages[row])

    def _on_dot_picked(self, row: int) -> None:
        if self.data is not None:
            self.table.select_language(row)
            self.sig_language_picked.emit(self.data.table.languages[row])

    def _on_cell_opened(self, row: int, column: int) -> None:
        if self.data is not None:
            self.sig_cell_opened.emit(self.data.table.languages[row], column)
