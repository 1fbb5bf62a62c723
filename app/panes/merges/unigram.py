"""The Unigram tab of the Merges pane: the lattice of a word as bars, the Viterbi best path
highlighted, the n best segmentations with their log-probabilities; the vocabulary given as
counts or trained by EM with pruning on the pane's corpus, step by step; and segmentations
sampled from the lattice (subword regularisation) with a seed."""

from __future__ import annotations

import copy
import math
import random
from collections import Counter

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
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
from app.workers import TaskRunner
from core.errors import SubwordScopeError
from core.training.unigram_em import UnigramTrainer, sample, segmentation_probability
from core.training.unigram import (
    BUILTIN_COUNTS,
    LatticeEdge,
    log_probs_from_counts,
    n_best,
    lattice,
)

MAX_SHOWN_PIECES = 60  # pieces of a trained vocabulary listed in the vocabulary row
UNIGRAM_MAX_TYPES = 5000  # corpora trained by EM (on a worker; a step costs up to ~0.5 s here)


def advanced(trainer: UnigramTrainer | None, counts: dict[str, int], target_size: int,
             max_len: int, steps: int, should_stop=None) -> UnigramTrainer:
    """A copy of ``trainer`` (or a new one on ``counts``) brought to ``steps`` steps after
    the seed — the view's worker task, so the trainer the view shows is never changed while
    it is read. O(steps × the corpus's lattices); ``should_stop`` asked before every step."""
    t = (copy.deepcopy(trainer) if trainer is not None
         else UnigramTrainer(counts, target_size=target_size, max_len=max_len))
    t.run_to(steps, should_stop)
    return t
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
        builtin = self.builtin_button = QPushButton("Built-in vocabulary")
        builtin.setToolTip("Restore the built-in example vocabulary")
        builtin.clicked.connect(lambda: self.vocab_edit.setPlainText(_format_counts(BUILTIN_COUNTS)))
        self.trained_vocab = QLabel("")
        self.trained_vocab.setWordWrap(True)
        self.trained_vocab.setToolTip("The pieces of the trained vocabulary, most probable first")
        self.trained_vocab.hide()
        self.message = QLabel("")
        self.message.setStyleSheet("color: #b00020;")
        self.message.setWordWrap(True)
        self.best_label = QLabel("")
        self.best_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.plot = LatticePlot()
        self.nbest_model = RowsModel(("#", "Segmentation", "log p"),
                                     header_tips=("Rank", "Pieces", "Sum of the pieces' log-probabilities"),
                                     parent=self)
        self.counts: dict[str, int] | None = None
        self.trainer: UnigramTrainer | None = None
        self.runner = TaskRunner(self)  # trains forward off the GUI thread (undo is immediate)
        self.runner.sig_returned.connect(self._on_trained)
        self.runner.sig_errored.connect(self._on_training_failed)
        self._build_training()
        self._build_sampling()
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(self.recompute)
        for sig in (self.word_edit.textChanged, self.max_len.valueChanged, self.n_spin.valueChanged,
                    self.vocab_edit.textChanged, self.alpha_spin.valueChanged,
                    self.seed_spin.valueChanged, self.draws_spin.valueChanged):
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
        vocab_row.addWidget(self.trained_vocab, 1)
        vocab_row.addWidget(builtin, 0, Qt.AlignmentFlag.AlignTop)
        form.addRow("Vocabulary:", vocab_row)
        side = QGroupBox("Best segmentations")
        lay = QVBoxLayout(side)
        lay.addWidget(self.best_label)
        lay.addWidget(make_table(self.nbest_model, "The n best segmentations (k-best Viterbi)"))
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(side)
        right.addWidget(self.sampling_box)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.plot)
        left.addWidget(self.training_box)
        left.setSizes([500, 300])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([850, 450])
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(split, 1)
        self.recompute()

    def _build_training(self) -> None:
        self.trained_check = QCheckBox()
        self.trained_check.setToolTip("Use the vocabulary trained on the corpus by EM and pruning: "
                                      "seed with every substring of the corpus words, then "
                                      "alternate EM re-estimation and pruning of the pieces whose "
                                      "loss of likelihood is smallest")
        self.target_spin = _spin("target_size")
        self.target_spin.setToolTip("Pruning stops at this many pieces (characters always stay)")
        self.em_undo = QPushButton("◀ Undo")
        self.em_step = QPushButton("Step ▶")
        self.em_reset = QPushButton("Reset")
        self.em_end = QPushButton("Run to end")
        self.em_undo.setToolTip("Back one step (immediate); while training runs, stop it at the step shown")
        self.em_step.setToolTip("One more step: EM re-estimation or pruning (on a worker)")
        self.em_reset.setToolTip("Back to the seed vocabulary")
        self.em_end.setToolTip("Train until the target size is reached (on a worker; Undo stops it)")
        self.train_label = QLabel("")
        self.train_label.setWordWrap(True)
        self.steps_model = RowsModel(
            ("#", "Step", "Pieces", "log-likelihood", "Removed"),
            header_tips=("Step number (0: the seed vocabulary)", "seed, EM re-estimation or prune",
                         "Vocabulary size after the step",
                         "Σ count · log Σ p(segmentation) over the corpus words",
                         "Pieces the step took out"), parent=self)
        self.trained_check.setText("Train on the corpus")
        row = QHBoxLayout()  # two rows: the box fits beside the lattice at 1280 px in presentation mode
        row.addWidget(self.trained_check)
        row.addWidget(QLabel("target size"))
        row.addWidget(self.target_spin)
        row.addStretch(1)
        buttons = QHBoxLayout()
        for b in (self.em_undo, self.em_step, self.em_reset, self.em_end):
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.training_box = QGroupBox("Unigram training: EM and pruning")
        lay = QVBoxLayout(self.training_box)
        lay.addLayout(row)
        lay.addLayout(buttons)
        lay.addWidget(self.train_label)
        self.steps_view = make_table(self.steps_model, "Every training step so far", (40, 60, 60, 110))
        lay.addWidget(self.steps_view)
        self.trained_check.toggled.connect(self._on_training_changed)
        self.target_spin.valueChanged.connect(self._on_training_changed)
        self.max_len.valueChanged.connect(self._on_training_changed)
        self.em_step.clicked.connect(lambda: self.train_to(self._em_steps() + 1))
        self.em_undo.clicked.connect(self._on_undo)
        self.em_reset.clicked.connect(lambda: self.train_to(0))
        self.em_end.clicked.connect(lambda: self.train_to(UnigramInputs.bounds("em_steps")[1]))

    def _build_sampling(self) -> None:
        lo, hi = UnigramInputs.bounds("alpha")
        self.alpha_spin = QDoubleSpinBox(minimum=lo, maximum=hi, value=UnigramInputs.alpha,
                                         decimals=2, singleStep=0.1)
        self.alpha_spin.setToolTip("α: segmentation x is drawn with probability p(x)^α / Σ p(x')^α "
                                   "(small α: nearly uniform; large α: nearly always the best)")
        self.seed_spin = _spin("seed")
        self.seed_spin.setToolTip("Seed of the random draws: the same seed draws the same list")
        self.draws_spin = _spin("draws")
        self.draws_spin.setToolTip("How many segmentations to draw")
        self.samples_model = RowsModel(
            ("Segmentation", "Drawn", "P"),
            header_tips=("A sampled segmentation", "How many of the draws gave it",
                         "Its exact probability under α"), parent=self)
        self.sampling_box = QGroupBox("Sampled segmentations")
        self.sampling_box.setToolTip("Subword regularisation: segmentations drawn from the lattice, "
                                     "each with probability p(x)^α / Σ p(x')^α")
        lay = QVBoxLayout(self.sampling_box)
        for pairs in ((("α", self.alpha_spin), ("draws", self.draws_spin)), (("seed", self.seed_spin),)):
            row = QHBoxLayout()  # two rows: the box fits 1280 px in presentation mode
            for label, w in pairs:
                row.addWidget(QLabel(label))
                row.addWidget(w)
            row.addStretch(1)
            lay.addLayout(row)
        lay.addWidget(make_table(self.samples_model, "Segmentations drawn from the lattice",
                                 (200, 60)))

    def state(self) -> dict:
        return {"word": self.word_edit.text(), "max_len": self.max_len.value(),
                "n_best": self.n_spin.value(), "vocab": self.vocab_edit.toPlainText(),
                "trained": self.trained_check.isChecked(), "target_size": self.target_spin.value(),
                "em_steps": self._em_steps(), "alpha": self.alpha_spin.value(),
                "seed": self.seed_spin.value(), "draws": self.draws_spin.value()}

    def set_inputs(self, values: dict) -> None:
        """Show the :class:`UnigramInputs` in ``values`` (checked as stored; missing keys keep
        their defaults) and recompute."""
        u = UnigramInputs.from_dict(values)
        widgets = (self.word_edit, self.max_len, self.n_spin, self.vocab_edit, self.trained_check,
                   self.target_spin, self.alpha_spin, self.seed_spin, self.draws_spin)
        for w in widgets:
            w.blockSignals(True)
        if u.vocab.strip():
            self.vocab_edit.setPlainText(u.vocab)
        self.word_edit.setText(u.word)
        self.max_len.setValue(u.max_len)
        self.n_spin.setValue(u.n_best)
        self.trained_check.setChecked(u.trained)
        self.target_spin.setValue(u.target_size)
        self.alpha_spin.setValue(u.alpha)
        self.seed_spin.setValue(u.seed)
        self.draws_spin.setValue(u.draws)
        for w in widgets:
            w.blockSignals(False)
        self._wanted_steps = u.em_steps
        self.trainer = None
        self._sync_trainer()
        self.recompute()

    # -- training ------------------------------------------------------------------------
    def set_corpus(self, counts: dict[str, int]) -> None:
        """The pane's corpus changed: a trained vocabulary is trained again on it."""
        self.counts, self.trainer = counts, None
        self._sync_trainer()
        self.recompute()

    def _em_steps(self) -> int:
        """The step shown, or while the worker trains, the step asked for."""
        if self.trainer is not None and not self.training:
            return self.trainer.n_steps
        return getattr(self, "_wanted_steps", 0)

    def train_to(self, n: int) -> None:
        """Step or undo the Unigram trainer to ``n`` steps after the seed (or its end)."""
        self._wanted_steps = max(0, int(n))
        self._sync_trainer()
        self.recompute()

    def _on_training_changed(self, *_args) -> None:
        self.trainer = None
        self._sync_trainer()
        self.recompute()

    def _sync_trainer(self) -> None:
        """Build the trainer when training is on (corpora up to :data:`UNIGRAM_MAX_TYPES`
        word types) and bring it to the wanted step; show its log."""
        on = self.trained_check.isChecked()
        for w in (self.em_undo, self.em_step, self.em_reset, self.em_end, self.target_spin):
            w.setEnabled(on)
        self.vocab_edit.setVisible(not on)
        self.builtin_button.setVisible(not on)
        self.trained_vocab.setVisible(on)
        self.trained_vocab.setText("")
        if not on or not self.counts:
            self.trainer = None
            self.steps_model.set_rows([])
            self.train_label.setText("" if not on else "No corpus yet.")
            return
        if len(self.counts) > UNIGRAM_MAX_TYPES:
            self.trainer = None
            self.steps_model.set_rows([])
            self.train_label.setText(f"Unigram training runs here on corpora up to "
                                     f"{UNIGRAM_MAX_TYPES:,} word types; this one has "
                                     f"{len(self.counts):,}. Paste a smaller text.")
            return
        wanted = getattr(self, "_wanted_steps", 0)
        if self.trainer is None or wanted > self.trainer.n_steps:  # forward: on the worker
            self.runner.submit(advanced, self.trainer, self.counts, self.target_spin.value(),
                               self.max_len.value(), wanted)
            self.train_label.setText(f"Training to step {wanted}…" if wanted else "Seeding…")
            self.em_step.setEnabled(False)
            self.em_end.setEnabled(False)
            return
        self.runner.cancel()
        self.trainer.run_to(wanted)  # back: the history is kept, O(1) a step
        self._show_trainer()

    def _on_undo(self) -> None:
        """Undo one step; while the worker trains, stop it at the step shown instead."""
        if not self.training:
            self.train_to(max(0, self._em_steps() - 1))
            return
        self.runner.cancel()
        if self.trainer is None:
            self.train_label.setText("Training stopped.")
            return
        self._show_trainer()
        self.recompute()

    @property
    def training(self) -> bool:
        """A training step runs on the worker."""
        return self.runner.busy

    def _on_trained(self, trainer: UnigramTrainer) -> None:
        self.trainer = trainer
        self._show_trainer()
        self.recompute()

    def _on_training_failed(self, exc: Exception) -> None:
        self.trainer = None
        self.train_label.setText(str(exc) if isinstance(exc, SubwordScopeError)
                                 else f"Training failed ({type(exc).__name__}): {exc}")

    def _show_trainer(self) -> None:
        """The trainer's log, state and vocabulary on screen."""
        self._wanted_steps = self.trainer.n_steps
        history = self.trainer.history
        self.steps_model.set_rows(
            [(s.index, s.kind, s.size, f"{s.log_likelihood:.3f}", " ".join(s.removed))
             for s in history], highlight=len(history) - 1)
        self.steps_view.scrollToBottom()
        last = history[-1]
        self.train_label.setText(
            f"Step {last.index} ({last.kind}): {last.size} pieces, corpus log-likelihood "
            f"{last.log_likelihood:.3f}" + (" — training is over." if self.trainer.done else ""))
        self.em_step.setEnabled(not self.trainer.done)
        self.em_end.setEnabled(not self.trainer.done)
        self.em_undo.setEnabled(last.index > 0)
        shown = sorted(self.trainer.log_probs.items(), key=lambda t: (-t[1], t[0]))
        self.trained_vocab.setText(f"Trained, {len(shown)} pieces (p): " + "  ".join(
            f"{p} {math.exp(v):.3f}" for p, v in shown[:MAX_SHOWN_PIECES])
            + ("  …" if len(shown) > MAX_SHOWN_PIECES else ""))

    def _vocabulary(self) -> dict[str, float]:
        """Log-probabilities in use: the trained ones, else those of the typed counts."""
        if self.trained_check.isChecked():
            if self.trainer is None:
                raise SubwordScopeError(self.train_label.text() or "No trained vocabulary yet.")
            return self.trainer.log_probs
        return log_probs_from_counts(parse_counts(self.vocab_edit.toPlainText()))

    def recompute(self) -> None:
        """Recompute lattice and paths from the controls; errors show inline."""
        self._timer.stop()
        word = self.word_edit.text().strip()
        if self.trained_check.isChecked() and self.trainer is None and self.training:
            return  # the trained vocabulary comes with the worker's answer (_on_trained)
        try:
            log_probs = self._vocabulary()
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
        self._sample(word, log_probs)
        self.sig_state_changed.emit(self.state())

    def _sample(self, word: str, log_probs: dict[str, float]) -> None:
        """Draw the segmentations (seeded) and list each distinct one with its count and exact
        probability, most drawn first. O(draws · len(word) · max piece length)."""
        rng = random.Random(self.seed_spin.value())
        alpha, max_len = self.alpha_spin.value(), self.max_len.value()
        drawn = Counter(sample(word, log_probs, rng, alpha=alpha, max_len=max_len)
                        for _ in range(self.draws_spin.value()))
        rows = [(" + ".join(seg), n,
                 f"{segmentation_probability(seg, word, log_probs, alpha=alpha, max_len=max_len):.4f}")
                for seg, n in sorted(drawn.items(), key=lambda t: -t[1])]
        self.samples_model.set_rows(rows)

    def _show_error(self, message: str, word: str, edges: list[LatticeEdge]) -> None:
        self.message.setText(message)
        self.plot.set_lattice(word, edges, set())
        self.nbest_model.set_rows([])
        self.samples_model.set_rows([])
        self.best_label.setText("")
        self.sig_state_changed.emit(self.state())


def _spin(name: str) -> QSpinBox:
    """A spin box for :class:`UnigramInputs` field ``name``: its range and default."""
    lo, hi = UnigramInputs.bounds(name)
    return QSpinBox(minimum=lo, maximum=hi, value=getattr(UnigramInputs, name))


def _format_counts(counts: dict[str, int]) -> str:
    return "  ".join(f"{p} {c}" for p, c in counts.items())
