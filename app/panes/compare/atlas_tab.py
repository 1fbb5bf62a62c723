"""The Compare pane's Atlas tab: the fairness summary per tokenizer above three views of the
same result — the languages × tokenizers table (coloured, sortable), the sorted premium
curves and the map (:mod:`app.panes.compare.atlas_views`).

The summary's figures come from :func:`core.metrics.fairness.fairness`, their tooltips from
:data:`core.metrics.measures.SUMMARY_TOOLTIPS`.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QGridLayout, QHBoxLayout, QLabel, QPushButton,
                               QTabWidget, QVBoxLayout, QWidget)

from app.panes.compare.atlas_views import AtlasData, AtlasTable, PremiumCurves, PremiumMap, export_table_csv
from app.panes.compare.heatmap_model import percent
from core.metrics import METRICS
from core.metrics.measures import SUMMARY_TOOLTIPS, TOOLTIPS

SUMMARY_COLUMNS = (("median_premium", "Median premium"), ("gini", "Gini"), ("over_2x", "> 2×"),
                   ("over_4x", "> 4×"), ("worst", "Ten worst served"))


class FairnessSummary(QWidget):
    """A small grid: one row per tokenizer, its median premium, Gini, shares over 2× and 4×
    and its ten worst-served languages; every header and number carries its tooltip."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(2, 2, 2, 2)
        self.grid.setHorizontalSpacing(14)
        self.grid.setVerticalSpacing(1)
        self.grid.setColumnStretch(len(SUMMARY_COLUMNS), 1)
        self.cells: dict[tuple[str, str], QLabel] = {}  # (tokenizer, key) -> label

    def show_data(self, data: AtlasData) -> None:
        """Rebuild the grid for ``data`` (a few labels per tokenizer)."""
        while self.grid.count():
            self.grid.takeAt(0).widget().deleteLater()
        self.cells.clear()
        head = QLabel("<b>Tokenizer</b>")
        head.setToolTip(SUMMARY_TOOLTIPS["excluded"])
        self.grid.addWidget(head, 0, 0)
        for c, (key, title) in enumerate(SUMMARY_COLUMNS, 1):
            label = QLabel(f"<b>{title}</b>")
            label.setToolTip(SUMMARY_TOOLTIPS[key])
            self.grid.addWidget(label, 0, c)
        for r, s in enumerate(data.summaries(), 1):
            name = QLabel(s.tokenizer)
            name.setToolTip(f"{len(s.counted)} languages counted, {len(s.excluded)} left out — "
                            + SUMMARY_TOOLTIPS["excluded"])
            self.grid.addWidget(name, r, 0)
            worst = ", ".join(f"{data.name(i)} {p:.3g}×" for i, p in s.worst)
            texts = {"median_premium": _num(s.median_premium, "{:.3g}×"), "gini": _num(s.gini, "{:.3f}"),
                     "over_2x": _share(s.over_2x), "over_4x": _share(s.over_4x), "worst": worst or "–"}
            for c, (key, _title) in enumerate(SUMMARY_COLUMNS, 1):
                label = QLabel(texts[key])
                label.setToolTip(SUMMARY_TOOLTIPS[key] + (f"\n\n{worst}" if key == "worst" and worst else ""))
                label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                if key == "worst":
                    label.setMinimumWidth(10)
                    label.setSizePolicy(label.sizePolicy().Policy.Ignored, label.sizePolicy().Policy.Preferred)
                self.grid.addWidget(label, r, c)
                self.cells[(s.tokenizer, key)] = label

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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.views, 1)

    def show_data(self, data: AtlasData, metric: str) -> None:
        """Show ``data``: the table in ``metric``, the curves and the map in premiums."""
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
        self.map.show_data(data, max(0, self.map_tokenizer.currentIndex()))

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
        """Select ``code``'s row in the table."""
        if self.data is not None and code in self.data.table.languages:
            self.table.select_language(self.data.table.languages.index(code))

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
