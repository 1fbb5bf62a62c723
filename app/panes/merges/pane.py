"""Merges pane: BPE training one merge at a time, beside WordPiece scoring and Unigram
Viterbi, and a replay of a real byte-level BPE tokenizer's merges on typed text.

The pane owns a :class:`~core.training.bpe.BpeTrainer` and a :class:`MergesState`; the tabs
(:mod:`app.panes.merges.bpe_view`, :mod:`app.panes.merges.unigram`,
:mod:`app.panes.merges.replay`) render from them. Small corpora train on the GUI thread (a step
costs microseconds); files, folders and long runs go through the pane's
:class:`~app.workers.TaskRunner` with progress and cancel. Run alone:
``python -m app.panes.merges``.
"""

from __future__ import annotations

import os
from functools import partial
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QTabWidget, QVBoxLayout, QWidget

from app.panes.base import Pane
from app.panes.merges.bpe_view import BpeView
from app.panes.merges.languages import LanguagesView
from app.panes.merges.controls import RESET_KEYS, STEP_KEYS, UNDO_KEYS, TrainingControls
from app.panes.merges.replay import ReplayView
from app.panes.merges.state import (
    SOURCES,
    MergesState,
    TrainResult,
    corpus_counts,
    load_and_train,
    load_replay_table,
    skipped_note,
)
from app.panes.merges.digits_view import DigitsView
from app.panes.merges.side_by_side import SideBySideView
from app.panes.merges.unigram import UnigramView
from app.workers import TaskRunner
from app.widgets.plot_frame import wrap_plot_titles
from app.widgets.text_format import plural
from core.data import tokenizer_path
from core.errors import SubwordScopeError
from core.training.bpe import BpeTrainer
from core.training.heldout import heldout_report
from core.training.replay import MergeTable, is_byte_level_bpe
from core.training.symbols import MARKERS, TIE_BREAKS
from core.tokenizers import TokenizerLike

SYNC_MAX_TYPES = 3000  # corpora up to this many word types train on the GUI thread
SYNC_MAX_STEPS = 200  # larger corpora: runs of more merges than this go to the worker
DEBOUNCE_MS = 250


class MergesPane(Pane):
    """BPE / WordPiece / Unigram training views and real-merge replay.

    Signals
    -------
    sig_trainer_changed() : a new trainer is shown (other corpus or settings).
    sig_step_changed(int) : the number of merges done changed.
    sig_replay_loaded(str) : a merge table for replay was loaded (its source path).
    """

    title = "Merges"
    key = "merges"
    state_class = MergesState

    sig_trainer_changed = Signal()
    sig_step_changed = Signal(int)
    sig_replay_loaded = Signal(str)

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        self.state = self.restored_state()
        self.runner = TaskRunner(self)
        self.runner.sig_returned.connect(self._on_task_returned)
        self.runner.sig_errored.connect(self._on_task_errored)
        self.runner.sig_progress.connect(self._on_task_progress)
        self.runner.sig_busy_changed.connect(self._on_busy_changed)
        self._task = ""
        self._pending_replay: tuple | None = None
        self._replay_source = ""
        self._broadcast: tuple[Any, str] | None = None  # byte-level tokenizer not built yet
        self._replay_building: Any = None  # the broadcast tokenizer whose table is being built
        self.counts: dict[str, int] | None = None
        self.trainer: BpeTrainer | None = None
        self.curve: tuple[list, list, list] = ([], [], [])
        self._run_timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._run_timer.timeout.connect(self._on_run_timer)
        self._text_timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._text_timer.timeout.connect(self._on_text_timer)
        self._build()
        self._write_state_to_widgets()
        self.retrain()

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        self.controls = TrainingControls()
        self.bpe_view = BpeView()
        self.unigram_view = UnigramView()
        self.replay_view = ReplayView()
        self.languages_view = LanguagesView(self.state.languages)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.bpe_view, "BPE training")
        self.tabs.addTab(self.unigram_view, "Unigram (Viterbi)")
        self.tabs.addTab(self.replay_view, "Real-merge replay")
        self.tabs.setTabToolTip(0, "Step through BPE training; WordPiece's choice alongside")
        self.tabs.setTabToolTip(1, "Unigram lattice and best segmentations of a word")
        self.tabs.addTab(self.languages_view, "Languages (parity)")
        self.tabs.setTabToolTip(2, "The merges a real byte-level BPE tokenizer applies to text")
        self.tabs.setTabToolTip(3, "Classic and parity-aware BPE side by side on parallel "
                                   "UDHR texts: per-language tokens and their Gini")
        self.side_view = SideBySideView()
        self.tabs.addTab(self.side_view, "BPE vs WordPiece")
        self.tabs.setTabToolTip(4, "BPE and WordPiece trained side by side on the same corpus, "
                                   "and the trade-off from characters to whole words")
        self.digits_view = DigitsView()
        self.tabs.addTab(self.digits_view, "Digits")
        self.tabs.setTabToolTip(5, "Numbers cut per digit, in threes from the right or the left, "
                                   "and by the current tokenizer")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.controls)
        layout.addWidget(self.tabs, 1)
        wrap_plot_titles(self)
        self._connect()

    def _connect(self) -> None:
        self.controls.source_combo.activated.connect(self._on_source_changed)
        self.controls.choose_button.clicked.connect(self._on_choose_clicked)
        self.controls.marker_combo.currentIndexChanged.connect(self._on_settings_changed)
        self.controls.tie_combo.currentIndexChanged.connect(self._on_settings_changed)
        self.controls.step_button.clicked.connect(self.step)
        self.controls.undo_button.clicked.connect(self.undo)
        self.controls.reset_button.clicked.connect(lambda: self.run_to(0))
        self.controls.slider.valueChanged.connect(self._on_slider_changed)
        self.controls.target_spin.valueChanged.connect(self._on_target_changed)
        self.controls.cancel_button.clicked.connect(self.cancel)
        self.controls.text_edit.textChanged.connect(self._text_timer.start)
        self.bpe_view.sig_status_requested.connect(self.sig_status_requested)
        self.bpe_view.sig_heldout_changed.connect(lambda t: setattr(self.state, "heldout", t))
        self.unigram_view.sig_state_changed.connect(lambda d: setattr(self.state, "unigram", d))
        self.languages_view.sig_state_changed.connect(
            lambda d: setattr(self.state, "languages", d))
        self.replay_view.sig_open_requested.connect(lambda p: self.load_replay(p))
        self.replay_view.sig_text_changed.connect(lambda t: setattr(self.state, "replay_text", t))
        self.replay_view.sig_readable_changed.connect(
            lambda on: setattr(self.state, "replay_readable", on))
        self.digits_view.sig_text_changed.connect(lambda t: setattr(self.state, "digits_text", t))
        self.tabs.currentChanged.connect(self._on_tab_changed)
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for keys, slot in ((STEP_KEYS, partial(self._on_key, "step")),
                           (UNDO_KEYS, partial(self._on_key, "undo")),
                           (RESET_KEYS, partial(self._on_key, "reset"))):
            QShortcut(QKeySequence(keys), self, activated=slot, context=context)

    def _on_key(self, what: str) -> None:
        """Step / undo / reset shortcuts act on the tab shown: the Languages tab's trainers
        or the BPE trainer."""
        target = self.languages_view if self.tabs.currentWidget() is self.languages_view \
            else self
        if what == "reset":
            target.run_to(0)
        else:
            getattr(target, what)()

    def _write_state_to_widgets(self) -> None:
        s = self.state
        self.controls.write_state(s)
        with QSignalBlocker(self.tabs):
            self.tabs.setCurrentIndex(max(0, min(s.tab, self.tabs.count() - 1)))
        self._show_languages_if_current()
        self.bpe_view.heldout_edit.setText(s.heldout)
        self.replay_view.text_edit.setText(s.replay_text)
        self.replay_view.readable_box.setChecked(s.replay_readable)
        self.digits_view.text_edit.setText(s.digits_text)
        self.digits_view.recompute()
        self.unigram_view.set_inputs(s.unigram or {})

    # -- training ------------------------------------------------------------------------
    def retrain(self) -> None:
        """Rebuild the trainer from the state's corpus and settings, run to ``state.target``."""
        s = self.state
        if s.source in ("file", "folder"):
            if not s.path or not os.path.exists(s.path):
                self._show_message(f"Choose a {s.source} to train on." if not s.path
                                   else f"{s.path} is gone; choose another {s.source}.")
                return
            self._submit_training(None)
            return
        try:
            counts, what = corpus_counts(s)
        except SubwordScopeError as exc:
            self._show_message(str(exc))
            return
        if len(counts) > SYNC_MAX_TYPES:
            self._submit_training(counts)
            return
        trainer = BpeTrainer(counts, tie_break=s.tie_break, marker=s.marker)
        trainer.run_to(s.target)
        self._install(TrainResult(counts, trainer, what))

    def _submit_training(self, counts: dict[str, int] | None) -> None:
        if self._task.startswith("replay"):
            self.replay_view.set_error("Loading the merge table was cancelled by training; "
                                       "open it again when training is done.")
        self._task = "train"
        description = self.controls.corpus_label.text().split(":")[0] if counts else ""
        self.runner.submit(partial(load_and_train, MergesState(**self.state.to_dict()),
                                   self.state.target, counts, description=description))

    def _install(self, result: TrainResult) -> None:
        self.counts, self.trainer = result.counts, result.trainer
        self.unigram_view.set_corpus(result.counts)
        self.curve = result.trainer.curve()
        t = result.trainer
        bound = len(t.merges) + round(t.avg_symbols_per_type * t.n_words) - t.n_words
        self.controls.set_merges(len(t.merges), bound)
        tokens = sum(result.counts.values())
        self.controls.corpus_label.setText(
            f"{result.description}: {plural(len(result.counts), 'word type')}, {plural(tokens, 'word')}, "
            f"alphabet {len(result.trainer.alphabet):,}")
        self._show_message(skipped_note(result.counts))
        self._after_change()
        self.sig_trainer_changed.emit()

    def step(self) -> None:
        """One more merge (no-op while a task runs or when no pair is left)."""
        if self.trainer is None or self._training():
            return
        if self.trainer.step() is None:
            self.sig_status_requested.emit("No pair left to merge: every word is one symbol.")
        self._after_change()

    def undo(self) -> None:
        """Take back the last merge."""
        if self.trainer is None or self._training():
            return
        self.trainer.undo()
        self._after_change()

    def run_to(self, n: int) -> None:
        """Step or undo to exactly ``n`` merges (a worker does long runs on big corpora)."""
        if self.trainer is None or self._training():
            return
        n = max(0, int(n))
        delta = abs(n - len(self.trainer.merges))
        if delta > SYNC_MAX_STEPS and self.trainer.n_words > SYNC_MAX_TYPES:
            self.state.target = n
            self._submit_training(self.counts)
            return
        self.trainer.run_to(n)
        self._after_change()

    def _training(self) -> bool:
        """Whether a training task runs (stepping waits for it)."""
        return self.runner.busy and self._task == "train"

    def cancel(self) -> None:
        """Stop the running task; the trainer shown before it stays."""
        if self.runner.busy:
            self.runner.cancel()
            if self._task.startswith("replay"):
                self._replay_building = None
                self.replay_view.end_loading()
            self._task = ""
            self._show_message("Cancelled.")
            self._after_change()

    def _after_change(self) -> None:
        trainer = self.trainer
        if trainer is None:
            return
        k = len(trainer.merges)
        self.state.target = k
        current = trainer.curve()
        if len(current[0]) >= len(self.curve[0]) or self.curve[1][:k + 1] != current[1]:
            self.curve = current
        self.controls.set_merges(k)
        self.bpe_view.render(trainer, self.curve)
        if self.tabs.currentWidget() is self.side_view:
            self._render_side()
        self.sig_step_changed.emit(k)

    def _render_side(self) -> None:
        """Show the BPE trainer beside WordPiece brought to the same merges (on the tab's worker)."""
        if self.trainer is not None and self.counts is not None:
            self.side_view.follow(self.trainer, self.counts, self.state.tie_break, self.state.marker,
                                  self.state.heldout, self.curve)

    # -- replay --------------------------------------------------------------------------
    def load_replay(self, path: str, *, quiet: bool = False) -> None:
        """Load a byte-level BPE tokenizer file for replay in the worker (``quiet``: a failure
        only leaves a note)."""
        self._submit_replay(load_replay_table, path, path, quiet)

    def _submit_replay(self, fn, arg: Any, source: str, quiet: bool) -> None:
        """Run ``fn(arg)`` (it returns a merge table) in the worker, after any training."""
        if self.runner.busy and self._task == "train":
            self._pending_replay = (fn, arg, source, quiet)
            return
        self._task = "replay-quiet" if quiet else "replay"
        self._replay_source = source
        self.replay_view.set_loading(os.path.basename(source.rstrip("/")) or source)
        self.runner.submit(fn, arg)

    def set_tokenizer(self, tokenizer: TokenizerLike, label: str) -> None:
        """Use a broadcast byte-level BPE tokenizer for replay as it is: its merge table is
        built in the worker, only once the replay tab is shown, and a newer broadcast cancels
        a build still running. Other tokenizers are ignored by replay (a short note says so) and
        the remembered replay file stays or is restored. The Digits tab cuts numbers with any
        tokenizer."""
        if tokenizer is None:
            return
        self.digits_view.set_tokenizer(tokenizer, label)
        if is_byte_level_bpe(tokenizer):
            self.replay_view.set_note("")
            self._cancel_broadcast_build()
            self._broadcast = (tokenizer, label)
            if self._replay_shown():
                self._show_replay()
            return
        name = os.path.basename(str(label).rstrip("/")) or "The current tokenizer"
        self.replay_view.set_note(f"{name} is not byte-level BPE, so replay keeps its own merge table.")
        if self._replay_shown():
            self._show_replay()

    def _replay_shown(self) -> bool:
        return self.isVisible() and self.tabs.currentWidget() is self.replay_view

    def _show_replay(self) -> None:
        """The replay tab is on screen: build the broadcast tokenizer's table (unless it is
        being built), else restore the remembered file."""
        if self._broadcast is None:
            self.restore_replay()
            return
        tokenizer, label = self._broadcast
        if self._replay_building is not tokenizer:
            self._replay_building = tokenizer
            self._submit_replay(MergeTable.from_tokenizer, tokenizer, label, True)

    def _cancel_broadcast_build(self) -> None:
        """Drop the build of a superseded broadcast tokenizer's table (waiting or running)."""
        if self._replay_building is None:
            return
        self._replay_building = None
        if self._pending_replay is not None:
            self._pending_replay = None
        elif self._task.startswith("replay"):
            self._task = ""
            self.runner.cancel()
            self.replay_view.end_loading()

    def _show_languages_if_current(self) -> None:
        """The Languages tab has its own controls (the corpus row is hidden) and trains on
        first show; the Digits tab needs no training controls either."""
        shown = self.tabs.currentWidget() is self.languages_view
        self.controls.setVisible(not shown and self.tabs.currentWidget() is not self.digits_view)
        if shown and self.isVisible():
            self.languages_view.ensure_started()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._show_languages_if_current()
        if self.tabs.currentWidget() is self.replay_view:
            self._show_replay()

    def restore_replay(self) -> None:
        """Load the remembered replay file (else the shared GPT-2 files) when no table is
        shown and none is loading."""
        if self.replay_view.table is not None or self._task.startswith("replay") \
                or self._pending_replay is not None:
            return
        path = self._remembered_replay_path()
        if path:
            self.load_replay(path, quiet=True)

    def _remembered_replay_path(self) -> str:
        """The replay file to restore: the last one loaded, else the shared GPT-2 folder."""
        default = tokenizer_path("gpt2")
        path = self.state.replay_path or (str(default) if default.is_dir() else "")
        return path if path and os.path.exists(path) else ""

    def _on_tab_changed(self, index: int) -> None:
        self.state.tab = index
        self._show_languages_if_current()
        if self.tabs.currentWidget() is self.side_view:
            self._render_side()
        if self._replay_shown():
            self._show_replay()

    def _broadcast_done(self) -> None:
        """A replay task ended: a broadcast whose table it built is no longer waiting."""
        if self._broadcast is not None and self._replay_building is self._broadcast[0]:
            self._broadcast = None
        self._replay_building = None

    # -- task results --------------------------------------------------------------------
    def _on_task_returned(self, result: object) -> None:
        task, self._task = self._task, ""
        if task == "train" and isinstance(result, TrainResult):
            self._install(result)
        elif task.startswith("replay"):
            self._broadcast_done()
            self.state.replay_path = self._replay_source
            self.replay_view.set_table(result, self._replay_source)
            self.sig_replay_loaded.emit(self._replay_source)

    def _on_task_errored(self, exc: object) -> None:
        task, self._task = self._task, ""
        if task.startswith("replay"):
            self._broadcast_done()
        if task == "replay-quiet":
            self.replay_view.set_error(f"Not used for replay: {exc}")
            if self.replay_view.table is None:
                self.replay_view.source_label.setText("No merge table loaded yet.")
                if self._replay_source != self._remembered_replay_path():  # fall back
                    QTimer.singleShot(0, self.restore_replay)
        elif task == "replay":
            self.replay_view.set_error(str(exc))
        else:
            self._show_message(str(exc) if isinstance(exc, SubwordScopeError)
                               else f"Training failed: {exc!r}")

    def _on_task_progress(self, fraction: float) -> None:
        self.controls.progress.setValue(int(fraction * 1000))

    def _on_busy_changed(self, busy: bool) -> None:
        self.controls.set_busy(busy, lock_steps=busy and self._task == "train")
        if not busy and self._pending_replay is not None:
            pending, self._pending_replay = self._pending_replay, None
            QTimer.singleShot(0, lambda: self._submit_replay(*pending))

    # -- control slots -------------------------------------------------------------------
    def _on_source_changed(self, index: int) -> None:
        source = SOURCES[index]
        if source in ("file", "folder"):
            path = self._ask_path(source)
            if path:
                self.train_on(source, path)
            else:  # dialog cancelled: keep showing the corpus in use
                self.controls.write_state(self.state)
            return
        self.train_on(source, self.state.path)

    def _on_choose_clicked(self) -> None:
        path = self._ask_path(self.state.source)
        if path:
            self.train_on(self.state.source, path)

    def _ask_path(self, source: str) -> str:
        if source == "folder":
            return QFileDialog.getExistingDirectory(self, "Folder of .txt files", self.state.path)
        path, _ = QFileDialog.getOpenFileName(self, "Text file", self.state.path,
                                              "Text (*.txt);;All files (*)")
        return path

    def train_on(self, source: str, path: str = "") -> None:
        """Switch the corpus to ``source`` ("builtin", "text", "file", "folder") at ``path``."""
        self.state.source, self.state.path = source, path
        self.controls.write_state(self.state)
        self.retrain()

    def _on_settings_changed(self) -> None:
        self.state.marker = MARKERS[self.controls.marker_combo.currentIndex()]
        self.state.tie_break = TIE_BREAKS[self.controls.tie_combo.currentIndex()]
        self.retrain()

    def _on_slider_changed(self, value: int) -> None:
        with QSignalBlocker(self.controls.target_spin):
            self.controls.target_spin.setValue(value)
        self._run_timer.start()

    def _on_target_changed(self, value: int) -> None:
        with QSignalBlocker(self.controls.slider):
            self.controls.slider.setValue(value)
        self._run_timer.start()

    def _on_run_timer(self) -> None:
        self.run_to(self.controls.target_spin.value())

    def _on_text_timer(self) -> None:
        self.state.text = self.controls.text_edit.toPlainText()
        if self.state.source == "text":
            self.retrain()

    def _show_message(self, text: str) -> None:
        self.controls.show_message(text)

    def show_state(self) -> None:
        """Write the state into the widgets (tab, held-out words, Unigram inputs), retrain."""
        self._write_state_to_widgets()
        self._on_tab_changed(self.tabs.currentIndex())
        self.retrain()

    def save_state(self) -> None:
        self.store_state(self.state)

    def span_view(self) -> QWidget:
        """The span view File ▸ Export ▸ Span View exports: the held-out words, segmented."""
        return self.bpe_view.heldout_view

    def segmentation_text(self) -> str:
        """The held-out words as File ▸ Export ▸ Segmentation writes them: one line per word,
        ``word<TAB>symbols separated by spaces<TAB>tokens<TAB>characters``, after a comment
        line naming the merges. O(held-out length × merges)."""
        if self.trainer is None:
            return ""
        report = heldout_report(self.trainer, self.state.heldout)
        lines = [f"# held-out words after {len(self.trainer.merges):,} merges"]
        lines += [f"{w.word}\t{' '.join(w.symbols)}\t{len(w.symbols)}\t{len(w.word)}" for w in report.words]
        return "\n".join(lines)

    def apply_state(self, values: dict[str, Any]) -> None:
        """Put the pane in the state ``values`` gives (any :class:`MergesState` fields, e.g.
        from a lesson step: ``{"source": "text", "text": ..., "target": 30, "tab": 1,
        "heldout": ..., "unigram": {...}, "digits_text": ...}``; the others stay as they are),
        show it and retrain. Values are checked like a stored state (a bad one falls back to
        its default)."""
        self.state = MergesState.from_dict({**self.state.to_dict(), **values})
        self._write_state_to_widgets()
        self.retrain()

