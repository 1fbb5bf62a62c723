"""Pooling pane: how a text becomes one vector (CLS, masked mean, max, attention), on a real
encoder or on a synthetic stand-in; padding, document length and chunking shown on the text.

The pane keeps a :class:`~app.panes.pooling.state.PoolingState`; edits restart a debounce
timer, then one :class:`~app.workers.TaskRunner` job loads the model (if needed), runs the
encoder and gathers every number into a :class:`~app.panes.pooling.state.PoolingResult`;
the tabs render from it. Run alone: ``python -m app.panes.pooling``.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QSplitter, QTabWidget, QVBoxLayout, QWidget

from app.dialogs.encoders import finder, get_encoder, source_text
from app.panes.base import Pane
from app.settings import read_state
from app.panes.pooling.controls import EncoderPanel, TabInputs
from app.panes.pooling.state import (
    EMPTY_PROMPT,
    STANDIN_LABEL,
    PoolingResult,
    PoolingState,
    SweepCache,
    compute,
    with_,
)
from app.panes.pooling.figures_view import WorkedView
from app.panes.pooling.views import ChunkView, PaddingView, SimilarityView, SweepView, TokensView
from app.workers import TaskRunner
from app.widgets.plot_frame import wrap_plot_titles
from core.data import shared_model_dir
from app.widgets.text_format import plural
from core.errors import SubwordScopeError
from core.pooling import METHODS
from core.pooling.compare import padding_demo

DEBOUNCE_MS = 350


class PoolingPane(Pane):
    """Compare pooling methods on a real encoder or the synthetic stand-in.

    Signals
    -------
    sig_result_changed(object) : a complete :class:`PoolingResult` (sweep included) was rendered.
    """

    title = "Pooling"
    key = "pooling"
    state_class = PoolingState

    sig_result_changed = Signal(object)

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        self.state = self.restored_state()
        # a fresh start (no stored state) runs on the encoder found on disk, when there is one
        self._auto_model = read_state(self.settings, self.state_key, None) is None
        if self.state.model_dir and not os.path.isdir(self.state.model_dir):
            self.state.model_dir = ""
        self.result: PoolingResult | None = None
        self._stale = False  # a result came while the pane was hidden: drawn when shown
        self._deferred = False  # an encode asked for while the pane was hidden: run when shown
        self._encoder, self._encoder_dir = None, None
        self._load_failed = False  # keep the load error visible over the fallback result
        self._sweeps = SweepCache()  # stand-in sweeps computed so far, by (strength, seed)
        self._runner = TaskRunner(self)
        self._runner.sig_yielded.connect(self._on_result_ready)
        self._runner.sig_errored.connect(self._on_task_failed)
        self._runner.sig_progress.connect(lambda f: self.progress.setValue(int(100 * f)))
        self._runner.sig_busy_changed.connect(self._on_busy_changed)
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.encode_now)
        self._build()
        self._write_widgets()
        self._connect()
        self._shortcuts()
        QTimer.singleShot(0, self, self.encode_now)  # dropped if the pane is deleted first
        finder().sig_found.connect(self._on_encoders_found)
        if finder().found is not None:
            QTimer.singleShot(0, self, self._on_encoders_found)

    # -- construction --------------------------------------------------------------------
    def _build(self) -> None:
        """The encoder panel and the tabs (see :mod:`app.panes.pooling.controls`); their
        widgets become attributes of the pane."""
        panel = EncoderPanel(shared_model_dir() is not None)
        self.model_label, self.choose_button = panel.model_label, panel.choose_button
        self.source_label = panel.source_label
        self.source_label.linkActivated.connect(self._on_get_model)
        self.shared_button, self.standin_button = panel.shared_button, panel.standin_button
        self.text_edit, self.sentence_box, self.method_box = panel.text_edit, panel.sentence_box, panel.method_box
        self.encode_button, self.progress, self.message = panel.encode_button, panel.progress, panel.message
        self.notice = panel.notice
        self.tokens_view, self.similarity_view = TokensView(), SimilarityView()
        self.padding_view, self.sweep_view, self.chunk_view = PaddingView(), SweepView(), ChunkView()
        self.worked_view = WorkedView()
        inputs = TabInputs(self.state, self.padding_view, self.sweep_view, self.chunk_view)
        self.pad_spin, self.strength_spin, self.seed_spin = inputs.pad_spin, inputs.strength_spin, inputs.seed_spin
        self.content_spin, self.overlap_spin = inputs.content_spin, inputs.overlap_spin
        self.query_edit = inputs.query_edit
        self.tabs = QTabWidget()
        for view, name in ((self.tokens_view, "Tokens"), (self.similarity_view, "Similarity"),
                           (self.padding_view, "Padding"), (self.sweep_view, "Length sweep"),
                           (self.chunk_view, "Chunking"), (self.worked_view, "Worked examples")):
            self.tabs.addTab(view, name)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(panel)
        split.addWidget(self.tabs)
        split.setStretchFactor(1, 1)
        split.setSizes([330, 1000])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(split)
        wrap_plot_titles(self)

    def _connect(self) -> None:
        self.text_edit.textChanged.connect(self._on_text_changed)
        self.choose_button.clicked.connect(self._on_choose_requested)
        self.shared_button.clicked.connect(lambda: self.set_model_dir(str(shared_model_dir() or "")))
        self.standin_button.clicked.connect(lambda: self.set_model_dir(""))
        self.encode_button.clicked.connect(self.encode_now)
        self.sentence_box.currentIndexChanged.connect(self._on_sentence_changed)
        self.method_box.currentIndexChanged.connect(self._on_method_changed)
        self.pad_spin.valueChanged.connect(self._on_pad_length_changed)
        for box in (self.content_spin, self.overlap_spin, self.strength_spin, self.seed_spin):
            box.valueChanged.connect(self._on_settings_changed)
        self.query_edit.textChanged.connect(self._on_settings_changed)
        self.tokens_view.strip.sig_status_requested.connect(self.sig_status_requested)

    def _shortcuts(self) -> None:
        ctx = Qt.ShortcutContext.WidgetWithChildrenShortcut
        QShortcut(QKeySequence("Ctrl+Return"), self, self.encode_now, context=ctx)
        QShortcut(QKeySequence("Ctrl+Shift+M"), self, self._on_choose_requested, context=ctx)
        for i in range(len(METHODS)):
            QShortcut(QKeySequence(f"Alt+{i + 1}"), self, lambda i=i: self.method_box.setCurrentIndex(i),
                      context=ctx)

    def _write_widgets(self) -> None:
        s = self.state
        with QSignalBlocker(self.text_edit):
            self.text_edit.setPlainText(s.text)
        for box, v in ((self.pad_spin, s.pad_length), (self.content_spin, s.content),
                       (self.overlap_spin, s.overlap), (self.strength_spin, s.strength), (self.seed_spin, s.seed)):
            with QSignalBlocker(box):
                box.setValue(v)
        with QSignalBlocker(self.query_edit):
            self.query_edit.setText(s.query)
        with QSignalBlocker(self.method_box):
            self.method_box.setCurrentIndex(METHODS.index(s.method))
        self._show_model_label()

    def _show_model_label(self, loading: bool = False) -> None:
        d = self.state.model_dir
        text = STANDIN_LABEL if not d else f"Model: {finder().describe(d).short_name}"
        self.model_label.setText(text + (" — loading…" if loading else ""))
        self.model_label.setToolTip(d or "No model folder chosen: the synthetic stand-in is used")
        self.source_label.setText(source_text(d or None))

    # -- public API ----------------------------------------------------------------------
    def set_model_dir(self, path: str) -> None:
        """Use the encoder in folder ``path`` (``""``: the stand-in); loads in the background."""
        self.state.model_dir = str(path or "")
        self._auto_model = False  # a choice: kept from now on
        self._load_failed = False
        self.message.hide()
        self._show_model_label(loading=bool(path) and path != self._encoder_dir)
        self.encode_now()

    def set_text(self, text: str) -> None:
        """Replace the sentences (one per line); encodes after the debounce pause."""
        self.text_edit.setPlainText(text)

    def encode_now(self) -> None:
        """Submit the current state to the worker (cancels a running job). While the pane
        is a hidden tab of a shown window it only remembers to: it encodes when shown (an
        encode with the real encoder and its length sweep takes seconds of the CPU, which
        at start went to the tab the user was working in)."""
        self._timer.stop()
        if not self.state.sentences():
            self._show_empty_prompt()
            return
        window = self.window()
        if window is not self and window.isVisible() and not self.isVisible():
            self._deferred = True
            return
        self._deferred = False
        s = with_(self.state)
        enc = self._encoder if self._encoder_dir == s.model_dir else None
        self._runner.submit(compute, s, enc, self.result, sweeps=self._sweeps)

    def _show_empty_prompt(self) -> None:
        """No sentence to encode: say so inline, encode nothing, keep the last plots."""
        self._runner.cancel()
        kept = " The tabs still show the last encoded text." if self.result is not None else ""
        self._show_message(EMPTY_PROMPT + kept, error=False)
        self.sig_status_requested.emit("Pooling: " + EMPTY_PROMPT)

    def _show_message(self, text: str, *, error: bool = True) -> None:
        self.message.setStyleSheet("color: #b91c1c;" if error else "color: #555555;")
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def show_state(self) -> None:
        """Write the state into the widgets and encode (on the worker)."""
        self._write_widgets()
        self.encode_now()

    def save_state(self) -> None:
        self.store_state(self.state)

    # -- slots ---------------------------------------------------------------------------
    def _on_encoders_found(self, *_) -> None:
        """The encoder scan ended: on a fresh start, run on the encoder found (else keep the
        stand-in); the source line is refreshed either way."""
        default = finder().default()
        if self._auto_model and not self.state.model_dir and default is not None:
            self.set_model_dir(str(default.path))
        else:
            self.source_label.setText(source_text(self.state.model_dir or None))

    def _on_get_model(self, *_) -> None:
        """The stand-in's "Get a real model…" link: the download dialog, then that model."""
        folder = get_encoder(self)
        if folder:
            self.set_model_dir(folder)

    def _on_choose_requested(self) -> None:
        start = self.state.model_dir or str(shared_model_dir() or os.path.expanduser("~"))
        path = QFileDialog.getExistingDirectory(self, "Choose a model folder", start)
        if path:
            self.set_model_dir(path)

    def _on_text_changed(self) -> None:
        self.state.text = self.text_edit.toPlainText()
        self._timer.start()

    def _on_settings_changed(self, *_) -> None:
        s = self.state
        s.content, s.query = self.content_spin.value(), self.query_edit.text()
        s.strength, s.seed = float(self.strength_spin.value()), self.seed_spin.value()
        if self.overlap_spin.value() >= s.content:
            with QSignalBlocker(self.overlap_spin):
                self.overlap_spin.setValue(s.content - 1)
        s.overlap = self.overlap_spin.value()
        self._timer.start()

    def _on_sentence_changed(self, index: int) -> None:
        self.state.sentence = max(0, index)
        self._render_sentence()

    def _on_method_changed(self, index: int) -> None:
        self.state.method = METHODS[max(0, index)]
        self._render_sentence()

    def _on_pad_length_changed(self, value: int) -> None:
        self.state.pad_length = value
        self._render_padding()

    def _on_busy_changed(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        if busy:
            self.progress.setValue(0)

    def _on_result_ready(self, payload) -> None:
        encoder, result = payload
        self._encoder, self._encoder_dir = encoder, self.state.model_dir
        self.result = result
        if not self._load_failed:
            self.message.hide()
        self._show_model_label()
        self.notice.setText("\n".join(result.notices))
        self.notice.setVisible(bool(result.notices))
        if self.isVisible():
            self._render()
        else:  # drawn when the pane is shown: plotting takes ~0.3 s of the GUI thread
            self._stale = True
        self.sig_status_requested.emit(
            f"Pooling: encoded {plural(len(result.output.texts), 'sentence')} with {result.model_label}")
        if result.sweep is not None:  # complete (the partial result comes first)
            self.sig_result_changed.emit(result)

    def _on_task_failed(self, exc: object) -> None:
        text = str(exc) if isinstance(exc, SubwordScopeError) else f"{type(exc).__name__}: {exc}"
        if self.state.model_dir != self._encoder_dir:  # loading failed: keep what worked
            self.state.model_dir = self._encoder_dir or ""
            self._load_failed = True
            text = f"Could not load the model: {text}"
            self._show_model_label()
        self._show_message(text)
        self.sig_status_requested.emit(text)
        if self.result is None and self.state.model_dir == "":  # nothing shown yet: the stand-in
            self.encode_now()

    # -- rendering -----------------------------------------------------------------------
    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self._render()
        if self._deferred:
            self.encode_now()

    def _render(self) -> None:
        self._stale = False
        r = self.result
        with QSignalBlocker(self.sentence_box):
            self.sentence_box.clear()
            for i, t in enumerate(r.output.texts):
                self.sentence_box.addItem(f"{i + 1}. {t[:48]}" + ("…" if len(t) > 48 else ""))
            self.state.sentence = min(self.state.sentence, len(r.output.texts) - 1)
            self.sentence_box.setCurrentIndex(self.state.sentence)
        self._render_sentence()
        self.similarity_view.render(r)
        self.sweep_view.render(r)
        if r.sweep is not None:
            self.worked_view.render_padding(r.sweep.padding, r.sweep_key[1])
        self.chunk_view.render(r)

    def _render_sentence(self) -> None:
        if self.result is None:
            return
        self.tokens_view.render(self.result, self.state.sentence, self.state.method)
        self._render_padding()

    def padding(self):
        """The :class:`~core.pooling.compare.PaddingDemo` of the selected sentence."""
        out, b = self.result.output, self.state.sentence
        n = int(out.attention_mask[b].sum())
        L = max(self.state.pad_length, n)
        return padding_demo(out.last_hidden_state[b, :n], L)

    def _render_padding(self) -> None:
        if self.result is not None:
            self.padding_view.render(self.padding())

