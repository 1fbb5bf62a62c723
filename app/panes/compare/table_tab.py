"""The Compare pane's Table tab: heatmap of one metric (languages × tokenizers) + bar chart,
a legend saying how to read them and a summary naming the cheapest and dearest languages.

Renders a :class:`core.metrics.CompareTable` through
:func:`~app.panes.compare.heatmap_model.heatmap_model`; never computes a metric itself.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from app.panes.compare.heatmap_model import HeatmapModel, cell_texts, heatmap_model, legend, summary
from app.panes.compare.plots import BarChart, MetricHeatmap
from core.metrics import METRICS, CompareTable, unreliable
from core.text.scripts import language_name

COMPUTING = "Computing…"


def fill_combo(combo: QComboBox, items: list[tuple[str, str]], current: str) -> None:
    """Replace a combo's items (text, data) and select ``current`` (else the first)."""
    with QSignalBlocker(combo):
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(current)))


class TableTab(QWidget):
    """Heatmap on the left, bars for one language or one tokenizer on the right.

    Signals
    -------
    sig_language_picked(str) : a heatmap cell was clicked; the language code of its row.
    sig_status_requested(str) : export results for the status bar.
    """

    sig_language_picked = Signal(str)
    sig_status_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.table: CompareTable | None = None
        self.metric_key, self.sort_by = "fertility", "language"
        self.bar_mode_value, self.bar_item_value = "tokenizer", ""
        self._rows: list[int] = []
        self.model: HeatmapModel | None = None
        self.heatmap = MetricHeatmap()
        self.heatmap.sig_cell_clicked.connect(self._on_cell_clicked)
        self.heatmap.sig_status_requested.connect(self.sig_status_requested)
        self.bars = BarChart()
        self.bars.sig_status_requested.connect(self.sig_status_requested)
        self.bar_mode = QComboBox()
        self.bar_mode.addItem("One language (over tokenizers)", "language")
        self.bar_mode.addItem("One tokenizer (over languages)", "tokenizer")
        self.bar_mode.setCurrentIndex(self.bar_mode.findData(self.bar_mode_value))
        self.bar_mode.setToolTip("What the bar chart shows (click a heatmap cell to pick a language)")
        self.bar_mode.currentIndexChanged.connect(self._on_bar_changed)
        self.bar_item = QComboBox()
        self.bar_item.setToolTip("The language or tokenizer of the bar chart")
        self.bar_item.currentIndexChanged.connect(self._on_bar_changed)
        bars = QWidget()
        bl = QVBoxLayout(bars)
        bl.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.bar_mode)
        row.addWidget(self.bar_item, 1)
        bl.addLayout(row)
        bl.addWidget(self.bars, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.heatmap)
        split.addWidget(bars)
        split.setSizes([700, 500])
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setToolTip("Cheapest and dearest language per tokenizer, among the cells under 1 % unknown")
        self.legend = QLabel("")
        self.legend.setWordWrap(True)
        self.legend.setStyleSheet("color: #444444;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.legend)
        self.set_placeholder(COMPUTING)

    def set_placeholder(self, text: str) -> None:
        """Show ``text`` instead of both plots (until a table exists); "" shows the plots."""
        self.heatmap.set_placeholder(text)
        self.bars.set_placeholder(text)

    def heatmap_rows(self) -> list[int]:
        """Table row indices in the order the heatmap shows them (top to bottom)."""
        return list(self._rows)

    def show_table(self, table: CompareTable | None, metric: str, sort_by: str, *,
                   model: HeatmapModel | None = None) -> None:
        """Render ``table``'s ``metric`` with rows sorted by ``sort_by`` (see ``row_order``);
        ``model``: its :func:`heatmap_model`, computed beforehand (in a worker)."""
        self.table, self.metric_key, self.sort_by = table, metric, sort_by
        if table is None:
            return
        self._fill_bar_items()
        self.model = model if model is not None else heatmap_model(table, metric, sort_by)
        self._rows = list(self.model.order)
        per_char = table.words_are_characters()
        star = metric in ("fertility", "adjusted_fertility")
        relative = metric in ("premium", "adjusted_premium")
        label, desc = METRICS[metric]
        self.heatmap.show_model(self.model, label)
        ref = f" vs {language_name(table.reference)}" if relative and table.reference else ""
        self.heatmap.set_title(f"{label}{ref} — {desc}")
        note = "* words are characters (script written without spaces)" if star and any(per_char) else ""
        if relative and table.reference not in table.languages:
            note = f"The reference language {table.reference!r} is not in this corpus: choose another reference."
        self.heatmap.set_note(note)
        self.summary.setText(summary(table, metric))
        self.summary.setVisible(bool(self.summary.text()))
        self.legend.setText(legend(self.model))
        self._render_bars()

    def show_language(self, code: str) -> None:
        """Bars of one language over the tokenizers."""
        self.bar_mode_value, self.bar_item_value = "language", code
        with QSignalBlocker(self.bar_mode):
            self.bar_mode.setCurrentIndex(self.bar_mode.findData("language"))
        self._fill_bar_items()
        self._render_bars()

    def _fill_bar_items(self) -> None:
        if self.table is None:
            return
        if self.bar_mode_value == "language":
            items = [(f"{language_name(c)} ({c})", c) for c in sorted(self.table.languages)]
        else:
            items = [(t, t) for t in self.table.tokenizers]
        fill_combo(self.bar_item, items, self.bar_item_value)
        self.bar_item_value = self.bar_item.currentData() or ""

    def _render_bars(self) -> None:
        table, item = self.table, self.bar_item_value
        if table is None or not item:
            return
        values, label = table.values(self.metric_key), METRICS[self.metric_key][0]
        unknown, fallback = table.values("unknown_share"), table.values("byte_fallback_share")
        marked = unreliable(table)
        if self.bar_mode_value == "language" and item in table.languages:
            i = table.languages.index(item)
            cells, names, title = [(i, j) for j in range(len(table.tokenizers))], list(table.tokenizers), language_name(item)
        elif self.bar_mode_value == "tokenizer" and item in table.tokenizers:
            j = table.tokenizers.index(item)
            rows = self._rows or list(range(len(table.languages)))
            cells, names, title = [(i, j) for i in rows], [language_name(table.languages[i]) for i in rows], item
        else:
            return
        texts = [cell_texts(values[c], self.metric_key, unknown[c], fallback[c], bool(marked[c]))[0] for c in cells]
        self.bars.show_bars(names, np.asarray([values[c] for c in cells]), f"{label}: {title}", label,
                            texts=texts, marked=np.asarray([bool(marked[c]) for c in cells], dtype=bool))

    def _on_bar_changed(self, _index: int) -> None:
        mode = self.bar_mode.currentData()
        if mode != self.bar_mode_value:
            self.bar_mode_value, self.bar_item_value = mode, ""
            self._fill_bar_items()
        self.bar_item_value = self.bar_item.currentData() or ""
        self._render_bars()

    def _on_cell_clicked(self, row: int, _col: int) -> None:
        if self.table is not None and row < len(self._rows):
            code = self.table.languages[self._rows[row]]
            self.show_language(code)
            self.sig_language_picked.emit(code)
