"""Sampling tab: language sizes in; temperature shares and passes out, plotted against T.

All numbers come from :mod:`core.metrics.sampling` (cheap: computed on the GUI thread after a short
debounce).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.widgets.rows_model import CsvButton, RowsModel
from app.widgets.plot_lines import LinePlot
from core.errors import SubwordScopeError
from core.metrics import CompareTable
from core.metrics import passes, temperature_curve, temperature_shares

DEFAULT_SIZES = "en 5000000\nes 800000\nsw 20000"
TEMPERATURES = np.round(np.geomspace(1.0, 100.0, 61), 6)


def parse_sizes(text: str) -> tuple[list[str], list[float]]:
    """``name size`` per line (size may use ``_`` or ``,`` separators); raises SubwordScopeError."""
    names, sizes = [], []
    for k, raw in enumerate(text.splitlines(), 1):
        parts = raw.strip().rsplit(None, 1)
        if not parts:
            continue
        if len(parts) != 2:
            raise SubwordScopeError(f"line {k}: write a name and a size, e.g. 'sw 20000'")
        try:
            size = float(parts[1].replace("_", "").replace(",", ""))
        except ValueError:
            raise SubwordScopeError(f"line {k}: {parts[1]!r} is not a number") from None
        if not np.isfinite(size):
            raise SubwordScopeError(f"line {k}: {parts[1]!r} is too large (sizes must be finite)")
        names.append(parts[0])
        sizes.append(size)
    if not names:
        raise SubwordScopeError("enter one language per line: a name and its size")
    return names, sizes


class SamplingView(QWidget):
    """Sizes editor, T and draws; a shares/passes table and shares-vs-T curves.

    Signals
    -------
    sig_inputs_changed() : sizes, T or draws edited (the pane saves them).
    sig_status_requested(str) : export results.
    """

    sig_inputs_changed = Signal()
    sig_status_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.sizes_edit = QPlainTextEdit(DEFAULT_SIZES)
        self.sizes_edit.setToolTip("One language per line: a name and its amount of data "
                                   "(examples, tokens or bytes; the same unit for all)")
        self.temperature = QDoubleSpinBox(decimals=2, minimum=0.05, maximum=1000.0, value=2.0, singleStep=0.5)
        self.temperature.setToolTip("Temperature T: shares ∝ size^(1/T); T=1 proportional, large T uniform "
                                    "(α = 1/T in the exponent form)")
        self.draws = QDoubleSpinBox(decimals=0, minimum=1, maximum=1e15, value=5_000_000, singleStep=1_000_000)
        self.draws.setGroupSeparatorShown(True)
        self.draws.setToolTip("Number of samples drawn (same unit as the sizes): gives the passes over each language")
        self.corpus_button = QPushButton("Use corpus sizes")
        self.corpus_button.setToolTip("Fill in the UTF-8 bytes of each language of the chosen corpus")
        self.message = QLabel("")
        self.message.setStyleSheet("color: #b00020;")
        self.model = RowsModel(formatted=True)
        self.csv_button = CsvButton(self.model, "sampling_shares")
        self.csv_button.sig_status_requested.connect(self.sig_status_requested)
        self.plot = LinePlot("Shares vs temperature", "compare_sampling", x_label="temperature T",
                             y_label="share", log_x=True)
        self._timer = QTimer(self, singleShot=True, interval=200)
        self._timer.timeout.connect(self.recompute)
        for sig in (self.sizes_edit.textChanged, self.temperature.valueChanged, self.draws.valueChanged):
            sig.connect(self._on_input_changed)
        self._build()
        self.recompute()

    def _build(self) -> None:
        form = QFormLayout()
        form.addRow("Temperature T", self.temperature)
        form.addRow("Draws", self.draws)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(QLabel("<b>Language sizes</b> (name size per line)"))
        ll.addWidget(self.sizes_edit, 1)
        ll.addWidget(self.corpus_button)
        ll.addLayout(form)
        ll.addWidget(self.message)
        table = QTableView()
        table.setModel(self.model)
        table.setToolTip("Shares at T and passes over each language's data in the given draws")
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.verticalHeader().hide()
        ll.addWidget(table, 2)
        ll.addWidget(self.csv_button)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.plot)
        split.setSizes([420, 800])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)

    def set_inputs(self, sizes_text: str, T: float, draws: float) -> None:
        for w in (self.sizes_edit, self.temperature, self.draws):
            w.blockSignals(True)
        self.sizes_edit.setPlainText(sizes_text)
        self.temperature.setValue(T)
        self.draws.setValue(draws)
        for w in (self.sizes_edit, self.temperature, self.draws):
            w.blockSignals(False)
        self.recompute()

    def inputs(self) -> tuple[str, float, float]:
        return self.sizes_edit.toPlainText(), self.temperature.value(), self.draws.value()

    def set_sizes(self, names: list[str], sizes: list[float]) -> None:
        with QSignalBlocker(self.sizes_edit):
            self.sizes_edit.setPlainText("\n".join(f"{n} {int(s)}" for n, s in zip(names, sizes)))
        self.recompute()
        self.sig_inputs_changed.emit()

    def use_corpus_sizes(self, table: CompareTable | None) -> None:
        """Take the sizes from a comparison's corpus (UTF-8 bytes per language, the same for
        every tokenizer); ``None`` when no comparison was computed yet (reported inline)."""
        if table is None:
            self.message.setText("Compute a comparison first: the sizes come from the corpus.")
            return
        col = table.values("utf8_bytes")[:, 0] if table.tokenizers else []
        if len(col) == 0:
            self.message.setText("Add a tokenizer first: the corpus is read with the comparison.")
            return
        self.set_sizes(list(table.languages), [float(v) for v in col])

    def _on_input_changed(self, *_args) -> None:
        self._timer.start()
        self.sig_inputs_changed.emit()

    def recompute(self) -> None:
        """Parse the inputs and refresh the table and the curves (bad input → inline message)."""
        text, T, draws = self.inputs()
        try:
            names, sizes = parse_sizes(text)
            shares = temperature_shares(sizes, T)
            proportional = temperature_shares(sizes, 1.0)  # core scales safely (no overflow)
            curve = temperature_curve(sizes, TEMPERATURES)
            reps = passes(sizes, shares, draws)
        except SubwordScopeError as exc:
            self.message.setText(str(exc))
            return
        self.message.setText("")
        self.model.set_rows([[n, s, float(p0), float(p), float(r)] for n, s, p0, p, r in zip(names, sizes, proportional, shares, reps)],
                            header=["language", "size", "proportional", f"share at T={T:g}", "passes"])
        for old in [k for k in self.plot.curves if k not in names]:
            self.plot.plot.removeItem(self.plot.curves.pop(old))
        for k, name in enumerate(names):
            self.plot.set_curve(name, TEMPERATURES, curve[:, k])
        self.plot.set_marker("T", T, label=f"T={T:g} (α={1 / T:.3g})")
