"""Merges ▸ Languages: classic and parity-aware BPE trained side by side on parallel texts.

A checklist of the UDHR languages (:mod:`app.panes.merges.parallel`); two tables of the
per-language token counts after the current merge (classic | parity-aware, the worst-served
language highlighted), a line under each with the Gini coefficient of the per-language costs
and the global compression, and a plot of both Gini curves over the merges. Step / undo act
on both trainers at once on the GUI thread (a step costs O(languages) plus the occurrences of
the pair); building and runs of more than :data:`SYNC_STEPS` merges go to the view's own
:class:`~app.workers.TaskRunner`, with progress and cancel, and replace the trainers only when
they finish (a cancelled run leaves the trainers shown as they were).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.panes.merges.bpe_view import make_table
from app.panes.merges.models import show_pair
from app.panes.merges.parallel import PairResult, ParallelText, parallel_texts, train_both
from app.widgets.plot_lines import LinePlot
from app.widgets.rows_model import RowsModel
from app.workers import TaskRunner
from core.errors import SubwordScopeError
from core.training.parity import NORMALIZATIONS, MultilingualBpeTrainer

SYNC_STEPS = 40  # run-to moves of at most this many merges happen on the GUI thread
MAX_MERGES = 5000
DEFAULT_MERGES = 200
DEBOUNCE_MS = 300
NORMALIZATION_LABELS = ("tokens of the parallel text", "tokens per character")
HEADER = ("Language", "Tokens", "vs start", "Chars/token")
HEADER_TIPS = ("The language (its English name; the text is the UDHR translation)",
               "Tokens of the language's text after the merges so far",
               "Tokens now as a share of the tokens before the first merge",
               "Characters (code points, whitespace excluded) per token: the language's "
               "compression")
SIDES = (("classic", "Classic BPE", "#1f77b4"), ("parity", "Parity-aware BPE", "#d62728"))


class LanguagesView(QWidget):
    """The Languages tab (module docstring). ``state`` is a JSON-able dict the pane keeps:
    ``codes`` (ticked languages; ``None`` = all), ``target`` (merges), ``normalization``.

    Signals
    -------
    sig_state_changed(dict) : the ticked languages, merges or normalization changed.
    sig_step_changed(int) : the number of merges shown changed.
    """

    sig_state_changed = Signal(dict)
    sig_step_changed = Signal(int)

    def __init__(self, state: dict | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        state = state if isinstance(state, dict) else {}
        self.collection, self.texts = parallel_texts()
        codes = state.get("codes")
        self._ticked = {c for c in codes if isinstance(c, str)} if isinstance(codes, list) \
            else {t.code for t in self.texts}
        target = state.get("target")
        self._target = target if type(target) is int and 0 <= target <= MAX_MERGES \
            else DEFAULT_MERGES
        norm = state.get("normalization")
        self.normalization = norm if norm in NORMALIZATIONS else NORMALIZATIONS[0]
        self.result: PairResult | None = None
        self.runner = TaskRunner(self)
        self.runner.sig_returned.connect(self._on_returned)
        self.runner.sig_errored.connect(self._on_errored)
        self.runner.sig_progress.connect(lambda f: self.progress.setValue(int(f * 1000)))
        self.runner.sig_busy_changed.connect(self._on_busy)
        self._retrain_timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._retrain_timer.timeout.connect(self.retrain)
        self._build()
        self._started = False

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        self.language_list = QListWidget()
        self.language_list.setToolTip("The languages to train on: their UDHR translations "
                                      "say the same thing, so token counts compare directly")
        for t in self.texts:
            item = QListWidgetItem(f"{t.name} — {t.sample}")
            item.setData(Qt.ItemDataRole.UserRole, t.code)
            item.setToolTip(f"{t.name} ({t.code}): {t.path}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if t.code in self._ticked
                               else Qt.CheckState.Unchecked)
            self.language_list.addItem(item)
        self.language_list.itemChanged.connect(self._on_item_changed)
        self.all_button = _button("All", "Tick every language")
        self.none_button = _button("None", "Untick every language")
        self.all_button.clicked.connect(lambda: self._tick_all(True))
        self.none_button.clicked.connect(lambda: self._tick_all(False))
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        collection = QLabel(self.collection)
        collection.setWordWrap(True)
        lv.addWidget(collection)
        lv.addWidget(self.language_list, 1)
        row = QHBoxLayout()
        row.addWidget(self.all_button)
        row.addWidget(self.none_button)
        lv.addLayout(row)

        self.norm_combo = QComboBox()
        self.norm_combo.addItems(list(NORMALIZATION_LABELS))
        self.norm_combo.setCurrentIndex(NORMALIZATIONS.index(self.normalization))
        self.norm_combo.setToolTip(
            "A language's cost, which parity-aware BPE evens out (Foroutan et al. 2025): its "
            "token count (the texts are parallel), or its tokens per character")
        self.norm_combo.currentIndexChanged.connect(self._on_norm_changed)
        self.undo_button = _button("◀ Undo", "Take back the last merge (both trainers)")
        self.step_button = _button("Step ▶", "The next merge of both trainers")
        self.reset_button = _button("Reset", "Back to no merges")
        self.target_spin = QSpinBox(minimum=0, maximum=MAX_MERGES, value=self._target)
        self.target_spin.setToolTip("Run both trainers to exactly this many merges")
        self.run_button = _button("Run to", "Run both trainers to the number of merges beside")
        self.cancel_button = _button("Cancel", "Stop the running training; the view keeps what "
                                     "it showed")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar(maximumWidth=140, maximum=1000)
        self.progress.hide()
        self.step_button.clicked.connect(self.step)
        self.undo_button.clicked.connect(self.undo)
        self.reset_button.clicked.connect(lambda: self.run_to(0))
        self.run_button.clicked.connect(lambda: self.run_to(self.target_spin.value()))
        self.cancel_button.clicked.connect(self.cancel)
        controls = QVBoxLayout()  # two rows: the tab fits 1280 px in presentation mode
        for row_widgets in ((QLabel("Cost:"), self.norm_combo),
                            (self.undo_button, self.step_button, self.reset_button, self.run_button,
                             self.target_spin, self.cancel_button, self.progress)):
            row = QHBoxLayout()
            for w in row_widgets:
                row.addWidget(w)
            row.addStretch(1)
            controls.addLayout(row)
        self.message = QLabel("")
        self.message.setStyleSheet("color: #b00020;")
        self.message.setWordWrap(True)
        self.message.hide()

        self.models: dict[str, RowsModel] = {}
        self.summaries: dict[str, QLabel] = {}
        self.tables = {}
        sides = QHBoxLayout()
        for key, title, _ in SIDES:
            box = QGroupBox(title)
            box.setToolTip("Most frequent pair of all languages together" if key == "classic"
                           else "Most frequent pair of the worst-compressed language "
                                "(Foroutan et al. 2025, arXiv 2508.04796)")
            v = QVBoxLayout(box)
            self.summaries[key] = QLabel("")
            self.summaries[key].setWordWrap(True)
            self.models[key] = RowsModel(HEADER, header_tips=HEADER_TIPS, formatted=True)
            self.tables[key] = make_table(self.models[key], "Per-language token counts; the "
                                          "highlighted row is the worst-served language",
                                          (140, 70, 70))
            v.addWidget(self.summaries[key])
            v.addWidget(self.tables[key], 1)
            sides.addWidget(box)
        self.plot = LinePlot("Gini of the per-language costs over merges", "parity_gini",
                             x_label="merges", y_label="Gini", integer_axes=("bottom",))
        self.plot.setMinimumHeight(170)

        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addLayout(controls)
        rv.addWidget(self.message)
        rv.addLayout(sides, 3)
        rv.addWidget(self.plot, 2)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 900])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

    # -- state ---------------------------------------------------------------------------
    def state(self) -> dict:
        """What the pane stores (see the class docstring)."""
        all_codes = {t.code for t in self.texts}
        return {"codes": None if self._ticked >= all_codes else sorted(self._ticked),
                "target": self._target, "normalization": self.normalization}

    def ticked_texts(self) -> list[ParallelText]:
        """The ticked languages' texts, in list order."""
        return [t for t in self.texts if t.code in self._ticked]

    @property
    def trainers(self) -> tuple[MultilingualBpeTrainer, MultilingualBpeTrainer] | None:
        """(classic, parity-aware) when trained."""
        return None if self.result is None else (self.result.classic, self.result.parity)

    # -- training ------------------------------------------------------------------------
    def ensure_started(self) -> None:
        """Train for the first time (the pane calls this when the tab is first shown)."""
        if not self._started:
            self._started = True
            self.retrain()

    def retrain(self) -> None:
        """Build both trainers on the ticked languages and run them to the target, in the
        worker."""
        self._started = True
        texts = self.ticked_texts()
        if not texts:
            self.runner.cancel()
            self.result = None
            self._show_message("Tick at least one language to train on.")
            self.render()
            return
        self.runner.submit(partial(train_both, texts, self._target, self.normalization))

    def run_to(self, n: int) -> None:
        """Both trainers to exactly ``n`` merges: here when the move is short, else rebuilt
        in the worker."""
        self._target = max(0, min(MAX_MERGES, int(n)))
        self._changed()
        if self.result is None or self.runner.busy:
            self.retrain()
            return
        k = len(self.result.parity.merges)
        if abs(self._target - k) > SYNC_STEPS:
            self.retrain()
            return
        for t in self.trainers:
            t.run_to(self._target)
        self.render()

    def step(self) -> None:
        """The next merge of both trainers (no-op while training runs)."""
        self._move(+1)

    def undo(self) -> None:
        """Take back the last merge of both trainers."""
        self._move(-1)

    def _move(self, delta: int) -> None:
        if self.result is None or self.runner.busy:
            return
        for t in self.trainers:
            t.step() if delta > 0 else t.undo()
        self._target = len(self.result.parity.merges)
        self._changed()
        self.render()

    def cancel(self) -> None:
        """Stop the running training; the trainers shown stay."""
        if self.runner.busy:
            self.runner.cancel()
            self._show_message("Cancelled.")
            if self.result is not None:
                self._target = len(self.result.parity.merges)
            self._changed()
            self.render()

    def _on_returned(self, result: object) -> None:
        if isinstance(result, PairResult):
            self.result = result
            self._show_message("")
            self.render()

    def _on_errored(self, exc: object) -> None:
        self._show_message(str(exc) if isinstance(exc, SubwordScopeError)
                           else f"Training failed: {exc!r}")

    def _on_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.progress.setValue(0)
        self.cancel_button.setEnabled(busy)
        for w in (self.step_button, self.undo_button, self.reset_button, self.run_button):
            w.setEnabled(not busy)

    # -- slots ---------------------------------------------------------------------------
    def _on_item_changed(self, item: QListWidgetItem) -> None:
        code = item.data(Qt.ItemDataRole.UserRole)
        if item.checkState() == Qt.CheckState.Checked:
            self._ticked.add(code)
        else:
            self._ticked.discard(code)
        self._changed()
        self._retrain_timer.start()

    def _tick_all(self, on: bool) -> None:
        with QSignalBlocker(self.language_list):
            for i in range(self.language_list.count()):
                self.language_list.item(i).setCheckState(
                    Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        self._ticked = {t.code for t in self.texts} if on else set()
        self._changed()
        self._retrain_timer.start()

    def set_ticked(self, codes: list[str]) -> None:
        """Tick exactly ``codes`` and retrain (at once, not after the typing pause)."""
        with QSignalBlocker(self.language_list):
            for i in range(self.language_list.count()):
                item = self.language_list.item(i)
                item.setCheckState(Qt.CheckState.Checked
                                   if item.data(Qt.ItemDataRole.UserRole) in codes
                                   else Qt.CheckState.Unchecked)
        self._ticked = set(codes) & {t.code for t in self.texts}
        self._changed()
        self.retrain()

    def _on_norm_changed(self, index: int) -> None:
        self.normalization = NORMALIZATIONS[index]
        self._changed()
        self.retrain()

    def _changed(self) -> None:
        with QSignalBlocker(self.target_spin):
            self.target_spin.setValue(self._target)
        self.sig_state_changed.emit(self.state())

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    # -- rendering -----------------------------------------------------------------------
    def render(self) -> None:
        """Tables, summary lines and the Gini plot from the current trainers."""
        if self.result is None:
            for key, _, _ in SIDES:
                self.models[key].set_rows([])
                self.summaries[key].setText("")
            return
        names = {t.code: t.name for t in self.texts}
        k = len(self.result.parity.merges)
        for key, title, colour in SIDES:
            trainer: MultilingualBpeTrainer = getattr(self.result, key)
            start, now = trainer.tokens_after(0), trainer.tokens
            rows = [(names.get(code, code), tok, f"{tok / max(1, s0):.1%}",
                     round(chars / max(1, tok), 3))
                    for code, tok, s0, chars in zip(self.result.codes, now, start,
                                                    trainer.characters)]
            costs = trainer.costs()
            worst = costs.index(max(costs))
            self.models[key].set_rows(rows, highlight=worst)
            self.tables[key].scrollTo(self.models[key].index(worst, 0))
            ginis, compression = trainer.curve()
            last = ""
            if trainer.history:
                step = trainer.history[-1]
                chooser = f" for {names.get(step.language, step.language)}" if step.language \
                    else ""
                last = f" · last: {show_pair(step.pair)}{chooser} ({step.count:,}×)"
            self.summaries[key].setText(
                f"{len(trainer.merges):,} merges · Gini {ginis[-1]:.4f} (start "
                f"{ginis[0]:.4f}) · global {compression[-1]:.3f} chars/token · "
                f"{sum(now):,} tokens{last}")
            self.plot.set_curve(title, list(range(len(ginis))), ginis, color=colour)
        self.plot.set_marker("current", k)
        self.sig_step_changed.emit(k)


def _button(text: str, tip: str) -> QPushButton:
    button = QPushButton(text)
    button.setToolTip(tip)
    return button
