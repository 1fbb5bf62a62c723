"""Normalization tab: the normalization-form table and the per-language damage report.

The damage reports come from :mod:`core.metrics.normalization_damage` (computed in the pane's worker
with the table); this widget only renders them.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.panes.compare.models import damage_rows, example_rows, form_rows, script_rows
from app.widgets.rows_model import CsvButton, RowsModel
from app.widgets.text_format import plural
from core.metrics.normalization_damage import DAMAGE_FORMS
from core.text.scripts import language_name
from core.text.unicode_forms import FORMS

FORM_LABELS = {form: form for form in FORMS} | {"strip_accents": "Strip accents (NFD, drop Mn)"}


def _table(model: RowsModel, tip: str) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setToolTip(tip)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(22)
    return view


class NormalizationView(QWidget):
    """Form table on top; damage per language for the chosen form; examples of one language.

    Signals
    -------
    sig_form_changed(str) : a key of :data:`core.metrics.normalization_damage.DAMAGE_FORMS`.
    sig_language_changed(str) : the language code whose examples are shown.
    """

    sig_form_changed = Signal(str)
    sig_language_changed = Signal(str)
    sig_status_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        header, rows = form_rows()
        self.form_model = RowsModel(header, rows, formatted=True)
        self.damage_model = RowsModel(formatted=True)
        self.example_model = RowsModel(formatted=True)
        self.script_model = RowsModel(formatted=True)
        self.form_combo = QComboBox()
        for key in DAMAGE_FORMS:
            self.form_combo.addItem(FORM_LABELS[key], key)
        self.form_combo.setToolTip("Normalization whose damage is counted per language")
        self.form_combo.currentIndexChanged.connect(self._on_form_changed)
        self.damage_view = _table(self.damage_model, "Characters each language loses or changes under the form; "
                                  "select a row for examples")
        self.damage_view.selectionModel().currentRowChanged.connect(self._on_row_changed)
        self.example_label = QLabel("")
        self.damage_csv = CsvButton(self.damage_model, "normalization_damage", "Damage CSV…")
        self.example_csv = CsvButton(self.example_model, "normalization_examples", "Examples CSV…")
        for b in (self.damage_csv, self.example_csv):
            b.sig_status_requested.connect(self.sig_status_requested)
        self._damage: dict = {}
        self._languages: list[str] = []
        self._build()

    def _build(self) -> None:
        top = QVBoxLayout()
        top.addWidget(QLabel("<b>Normalization forms</b>: code points before and after"))
        top.addWidget(_table(self.form_model, "Code points raw / NFC / NFD / NFKC / NFKD of each example"))
        bar = QHBoxLayout()
        bar.addWidget(QLabel("<b>Damage per language</b> under"))
        bar.addWidget(self.form_combo)
        bar.addStretch(1)
        bar.addWidget(self.damage_csv)
        bar.addWidget(self.example_csv)
        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.damage_view)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.example_label)
        rl.addWidget(_table(self.example_model, "Affected characters of the selected language, most frequent first"), 3)
        rl.addWidget(_table(self.script_model, "Counts per script of the selected language"), 1)
        lower.addWidget(right)
        lower.setSizes([600, 600])
        forms = QWidget()
        forms.setLayout(top)
        damage = QWidget()
        dl = QVBoxLayout(damage)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addLayout(bar)
        dl.addWidget(lower, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(forms)
        split.addWidget(damage)
        split.setSizes([215, 600])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

    def form(self) -> str:
        return self.form_combo.currentData()

    def set_form(self, form: str) -> None:
        i = self.form_combo.findData(form)
        if i >= 0:
            with QSignalBlocker(self.form_combo):
                self.form_combo.setCurrentIndex(i)

    def set_damage(self, damage: dict, languages: list[str], language: str = "") -> None:
        """Render the reports ``damage[(code, form)]`` for ``languages``; select ``language``."""
        self._damage, self._languages = damage, list(languages)
        self._render(language)

    def _render(self, language: str) -> None:
        header, rows = damage_rows(self._damage, self._languages, self.form())
        self.damage_model.set_rows(rows, header=header)
        codes = [r[1] for r in self.damage_model.rows()]
        row = codes.index(language) if language in codes else (0 if codes else -1)
        if row >= 0:
            with QSignalBlocker(self.damage_view.selectionModel()):
                self.damage_view.selectRow(row)
        self._show_examples(codes[row] if row >= 0 else "")

    def selected_language(self) -> str:
        idx = self.damage_view.selectionModel().currentIndex()
        rows = self.damage_model.rows()
        return rows[idx.row()][1] if idx.isValid() and idx.row() < len(rows) else ""

    def _show_examples(self, code: str) -> None:
        report = self._damage.get((code, self.form())) if code else None
        for model, (header, rows) in ((self.example_model, example_rows(report)),
                                      (self.script_model, script_rows(report))):
            model.set_rows(rows, header=header)
        if report is None:
            self.example_label.setText("")
            return
        self.example_label.setText(
            f"<b>{language_name(code)}</b> under {FORM_LABELS[self.form()]}: {report.changed} changed, "
            f"{report.dropped} dropped, {report.split} split of {plural(report.characters, 'character')}")

    def _on_form_changed(self, _index: int) -> None:
        self._render(self.selected_language())
        self.sig_form_changed.emit(self.form())

    def _on_row_changed(self, current, _previous) -> None:
        rows = self.damage_model.rows()
        if current.isValid() and current.row() < len(rows):
            self._show_examples(rows[current.row()][1])
            self.sig_language_changed.emit(rows[current.row()][1])
