"""The Unigram tab of the Merges pane: the lattice of a word as bars, the Viterbi best path
highlighted, and the n best segmentations with their log-probabilities."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.panes.merges.bpe_view import make_table
from app.panes.merges.state import UnigramInputs
from app.widgets.plot_frame import PlotFrame
from app.widgets.rows_model import RowsModel
from core.errors import SubwordScopeError
from core.training.unigram import (
    BUILTIN_COUNTS,
    LatticeEdge,
    log_probs_from_counts,
    n_best,
    lattice,
)

BEST_BRUSH = pg.mkBrush("#ff7f0e")
OTHER_BRUSH = pg.mkBrush("#c6dbef")


def parse_counts(text: str) -> dict[str, int]:
    """``piece count`` pairs separated by whitespace (``low 7 est 9 ...``) → dict.

    Raises :class:`SubwordScopeError` naming the first entry that is not ``piece count``.
    """
    items = text.split()
    if len(items) % 2:
        raise SubwordScopeError(f"{items[-1]!r} has no count: write 'piece count' pairs")
    out: dict[str, int] = {}
    for piece, count in zip(items[::2], items[1::2]):
        if not count.isdigit() or int(count) <= 0:
            raise SubwordScopeError(f"the count of {piece!r} must be a positive whole number, not {count!r}")
        out[piece] = int(count)
    if not out:
        raise SubwordScopeError("the vocabulary is empty: write 'piece count' pairs")
    return out


def lanes(edges: list[LatticeEdge], best: set[tuple[int, int]]) -> list[int]:
    """A row for each edge: the best path on row 0, the others packed without overlap below."""
    rows = [0] * len(edges)
    ends: list[int] = []  # last end per lane (lane i + 1)
    for i, e in enumerate(edges):
        if (e.start, e.end) in best:
            continue
        for lane, end in enumerate(ends):
            if end <= e.start:
                ends[lane] = e.end
                rows[i] = lane + 1
                break
        else:
            ends.append(e.end)
            rows[i] = len(ends)
    return rows


class LatticePlot(PlotFrame):
    """Pieces of the lattice as horizontal bars over character positions."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Lattice (best path in orange)", "unigram_lattice", parent)
        self.set_labels("character position (code points)", "")
        self.plot.getAxis("left").setTicks([[]])
        self.plot.invertY(True)
        self.bars = pg.BarGraphItem(x0=[], y0=[], width=[], height=[], brushes=[])
        self.plot.addItem(self.bars)
        self._labels: list[pg.TextItem] = []
        self.edges: list[LatticeEdge] = []
        self.rows: list[int] = []

    def set_lattice(self, word: str, edges: list[LatticeEdge], best: set[tuple[int, int]]) -> None:
        self.edges, self.rows = edges, lanes(edges, best)
        brushes = [BEST_BRUSH if (e.start, e.end) in best else OTHER_BRUSH for e in edges]
        self.bars.setVisible(bool(edges))
        if edges:  # pyqtgraph 0.14's BarGraphItem fails on empty per-bar pens and brushes
            self.bars.setOpts(
                x0=[e.start + 0.04 for e in edges], y0=[r + 0.1 for r in self.rows],
                width=[e.end - e.start - 0.08 for e in edges], height=[0.8] * len(edges),
                brushes=brushes, pens=[pg.mkPen("#555555")] * len(edges))
        while len(self._labels) < len(edges):
            item = pg.TextItem(color="k", anchor=(0.5, 0.5))
            self.plot.addItem(item)
            self._labels.append(item)
        for i, item in enumerate(self._labels):
            item.setVisible(i < len(edges))
            if i < len(edges):
                e = edges[i]
                item.setText(f"{e.piece} {e.log_prob:.2f}")
                item.setPos((e.start + e.end) / 2, self.rows[i] + 0.5)
        self.plot.getAxis("bottom").setTicks([[(i + 0.5, ch) for i, ch in enumerate(word)],
                                              [(i, str(i)) for i in range(len(word) + 1)]])
        self.plot.setXRange(0, max(1, len(word)), padding=0.02)
        self.plot.setYRange(0, max(self.rows, default=0) + 1, padding=0.05)

    def bar_data(self) -> list[tuple[str, int, int, int]]:
        """(piece, start, end, row) of every bar shown."""
        return [(e.piece, e.start, e.end, r) for e, r in zip(self.edges, self.rows)]

    def readout_at(self, x: float, y: float) -> str:
        for e, r in zip(self.edges, self.rows):
            if e.start <= x < e.end and r <= y < r + 1:
                return f"{e.piece!r} [{e.start}, {e.end}) log p = {e.log_prob:.4f}"
        return f"position {x:.1f}"


class UnigramView(QWidget):
    """Type a word, see its lattice, the Viterbi path and the n best segmentations.

    Signals
    -------
    sig_state_changed(dict) : ``{"word", "max_len", "n_best", "vocab"}`` to remember.
    """

    sig_state_changed = Signal(dict)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.word_edit = QLineEdit("lowest")
        self.word_edit.setToolTip("The word to segment (no spaces needed)")
        self.max_len = _spin("max_len")
        self.max_len.setToolTip("Longest piece considered, in code points")
        self.n_spin = _spin("n_best")
        self.n_spin.setToolTip("How many of the best segmentations to list")
        self.vocab_edit = QPlainTextEdit(_format_counts(BUILTIN_COUNTS))
        self.vocab_edit.setToolTip("Vocabulary as 'piece count' pairs; log p = log(count / total)")
        self.vocab_edit.setMaximumHeight(90)
        builtin = QPushButton("Built-in vocabulary")
        builtin.setToolTip("Restore the built-in example vocabulary")
        builtin.clicked.connect(lambda: self.vocab_edit.setPlainText(_format_counts(BUILTIN_COUNTS)))
        self.message = QLabel("")
        self.message.setStyleSheet("color: #b00020;")
        self.message.setWordWrap(True)
        self.best_label = QLabel("")
        self.best_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.plot = LatticePlot()
        self.nbest_model = RowsModel(("#", "Segmentation", "log p"),
                                     header_tips=("Rank", "Pieces", "Sum of the pieces' log-probabilities"),
                                     parent=self)
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(self.recompute)
        for sig in (self.word_edit.textChanged, self.max_len.valueChanged, self.n_spin.valueChanged,
                    self.vocab_edit.textChanged):
            sig.connect(self._timer.start)
        form = QFormLayout()
        form.addRow("Word:", self.word_edit)
        row = QHBoxLayout()
        row.addWidget(QLabel("max piece length"))
        row.addWidget(self.max_len)
        row.addWidget(QLabel("n best"))
        row.addWidget(self.n_spin)
        row.addStretch(1)
        form.addRow(row)
        vocab_row = QHBoxLayout()
        vocab_row.addWidget(self.vocab_edit, 1)
        vocab_row.addWidget(builtin, 0, Qt.AlignmentFlag.AlignTop)
        form.addRow("Vocabulary:", vocab_row)
        side = QGroupBox("Best segmentations")
        lay = QVBoxLayout(side)
        lay.addWidget(self.best_label)
        lay.addWidget(make_table(self.nbest_model, "The n best segmentations (k-best Viterbi)"))
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.plot)
        split.addWidget(side)
        split.setSizes([850, 450])
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(split, 1)
        self.recompute()

    def state(self) -> dict:
        return {"word": self.word_edit.text(), "max_len": self.max_len.value(),
                "n_best": self.n_spin.value(), "vocab": self.vocab_edit.toPlainText()}

    def recompute(self) -> None:
        """Recompute lattice and paths from the controls; errors show inline."""
        self._timer.stop()
        word = self.word_edit.text().strip()
        try:
            log_probs = log_probs_from_counts(parse_counts(self.vocab_edit.toPlainText()))
        except SubwordScopeError as exc:
            self._show_error(str(exc), word, [])
            return
        edges = lattice(word, log_probs, self.max_len.value())
        try:
            best = n_best(word, log_probs, self.n_spin.value(), self.max_len.value())
        except SubwordScopeError as exc:
            self._show_error(str(exc), word, edges)
            return
        self.message.setText("")
        spans, pos = set(), 0
        for piece in best[0].pieces:
            spans.add((pos, pos + len(piece)))
            pos += len(piece)
        self.plot.set_lattice(word, edges, spans)
        self.best_label.setText(f"Viterbi: <b>{' + '.join(best[0].pieces)}</b> "
                                f"(log p = {best[0].score:.3f})")
        self.nbest_model.set_rows([(i + 1, " + ".join(s.pieces), f"{s.score:.3f}")
                                   for i, s in enumerate(best)], highlight=0)
        self.sig_state_changed.emit(self.state())

    def _show_error(self, message: str, word: str, edges: list[LatticeEdge]) -> None:
        self.message.setText(message)
        self.plot.set_lattice(word, edges, set())
        self.nbest_model.set_rows([])
        self.best_label.setText("")
        self.sig_state_changed.emit(self.state())


def _spin(name: str) -> QSpinBox:
    """A spin box for :class:`UnigramInputs` field ``name``: its range and default."""
    lo, hi = UnigramInputs.bounds(name)
    return QSpinBox(minimum=lo, maximum=hi, value=getattr(UnigramInputs, name))


def _format_counts(counts: dict[str, int]) -> str:
    return "  ".join(f"{p} {c}" for p, c in counts.items())
