"""Alignment pane: text → normalized text → tokens, with every span linked across the layers.

Three linked layers (original text with token spans, normalized text, token table) plus an
offset-map view; modes "tokenize", "align a token list" and "labels". The pane keeps an
:class:`~app.panes.alignment.state.AlignmentState` and renders from the
:class:`~core.align.view.AlignmentView` that :func:`compute` returns — short
texts synchronously, long ones on a :class:`~app.workers.TaskRunner` after a debounce.

Run alone: ``python -m app.panes.alignment``.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QWidget

from app.panes.alignment import render, ui
from app.panes.alignment.export import write_tokens
from app.panes.alignment.state import DEMO_LABELS, AlignmentState, Request, compute
from app.panes.base import Pane
from app.settings import get_json, set_json
from app.widgets.token_table import COLUMNS
from app.workers import TaskRunner
from core.align.modes import MODES
from core.align.view import AlignmentView
from core.text.graphemes import GraphemeBounds
from core.tokenizers import demo_tokenizer

DEMO_LABEL = "built-in demo vocabulary (15 WordPiece entries, SPEC §2)"
MAX_SAVED_CHARS = 2_000_000


class AlignmentPane(Pane):
    """Paste text, see its normalized text, tokens and their original spans, all linked.

    Signals
    -------
    sig_encoding_changed(object)
        An :class:`AlignmentView` has just been rendered (tokens, spans, errors shown).
    """

    title = "Alignment"
    key = "alignment"
    sig_encoding_changed = Signal(object)

    sync_limit = 2000  # texts up to this many code points are computed on the GUI thread
    debounce_ms = 150

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        self.state = AlignmentState.from_json(get_json(settings, f"{self.key}/state", None))
        self._demo = demo_tokenizer()
        self._tokenizer: Any = None
        self._tokenizer_label = DEMO_LABEL
        self.result: AlignmentView | None = None
        self.current_token = -1
        self.linked_tokens: list[int] = []
        self._compute_started = 0.0
        self.seconds = 0.0  # how long the shown result took to compute
        self._graphemes = GraphemeBounds()  # the last text's clusters, reused per keystroke
        self.w = ui.build(self)
        self._pool = QThreadPool(self)  # its own pool: other panes' jobs cannot starve it
        self._pool.setMaxThreadCount(2)
        self._runner = TaskRunner(self, pool=self._pool)
        self._runner.sig_returned.connect(self._on_result_ready)
        self._runner.sig_errored.connect(self._on_compute_failed)
        self._timer = QTimer(self, singleShot=True, interval=self.debounce_ms)
        self._timer.timeout.connect(self._on_debounced)
        self._pending = False
        self._write_widgets()
        self._connect()
        self._shortcuts()
        self.recompute()

    # -- the main window's API -----------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Replace the original text (e.g. from ``--text-file``) and re-tokenize."""
        self.state.text = text
        with QSignalBlocker(self.w.editor):
            self.w.editor.setPlainText(text)
        self.recompute()

    def set_tokenizer(self, tokenizer: Any, label: str) -> None:
        """Use ``tokenizer`` (None = the built-in demo) and re-tokenize."""
        self._tokenizer = tokenizer
        self._tokenizer_label = DEMO_LABEL if tokenizer is None else label
        if tokenizer is not None and self.state.mode == "labels" and self.state.labels_text == DEMO_LABELS:
            self.state.mode = "tokenize"  # the demo labels only fit the demo tokens: show tokens
            self._write_widgets()
        self._write_tokenizer_label()
        self.recompute()

    def show_error(self, message: str) -> None:
        """Show ``message`` in the inline banner (the text and results stay as they are)."""
        self.show_banner(message, "error")

    def save_state(self) -> None:
        data = self.state.to_json()
        if len(self.state.text) > MAX_SAVED_CHARS:
            data.pop("text")
        set_json(self.settings, f"{self.key}/state", data)

    # -- building ------------------------------------------------------------------------
    def _write_widgets(self) -> None:
        w, s = self.w, self.state
        with QSignalBlocker(w.editor):
            w.editor.setPlainText(s.text)
        for widget, value in ((w.tokens_input, s.tokens_text), (w.labels_input, s.labels_text)):
            with QSignalBlocker(widget):
                widget.setPlainText(value)
        with QSignalBlocker(w.mode):
            w.mode.setCurrentIndex(list(MODES).index(s.mode))
        with QSignalBlocker(w.form):
            w.form.setCurrentText(s.form)
        with QSignalBlocker(w.scheme):
            w.scheme.setCurrentIndex(max(0, w.scheme.findData(s.scheme)))
        for box, value in ((w.strip_accents, s.strip_accents), (w.lowercase, s.lowercase),
                           (w.collapse, s.collapse_whitespace), (w.repair, s.repair),
                           (w.derived, s.derived_spans)):
            with QSignalBlocker(box):
                box.setChecked(value)
        self._write_tokenizer_label()
        self._write_mode_widgets()

    def _write_tokenizer_label(self) -> None:
        w = self.w
        tok = self._tokenizer
        if tok is None:
            w.tokenizer.setText(DEMO_LABEL)
        else:
            kind, size = getattr(tok, "model_type", "?"), getattr(tok, "vocab_size", 0)
            w.tokenizer.setText(f"{getattr(tok, 'name', self._tokenizer_label)} ({kind}, {size:,} tokens)")
        w.tokenizer.setToolTip(f"{self._tokenizer_label}\nFile ▸ Open Tokenizer… (Ctrl+O) loads vocab.txt / "
                               "tokenizer.json; File ▸ Use Demo Tokenizer (Ctrl+D) goes back to the demo")
        self._write_mode_widgets()

    def _write_mode_widgets(self) -> None:
        w, mode = self.w, self.state.mode
        w.input_box.setVisible(mode != "tokenize")
        w.tokens_input.setVisible(mode == "align")
        w.labels_input.setVisible(mode == "labels")
        w.repair.setVisible(mode == "labels")
        w.scheme.setVisible(mode == "align")
        w.entities_box.setVisible(mode == "labels")
        w.table.setColumnHidden(COLUMNS.index("Label"), mode != "labels")
        w.input_title.setText("<b>Token list to align</b>" if mode == "align" else
                              "<b>Labels, one per token</b>")
        teaching = self._tokenizer is None or mode == "align"
        for box in (w.form, w.strip_accents, w.lowercase, w.collapse):
            box.setEnabled(teaching)
        if not teaching:
            w.form.setToolTip("The loaded tokenizer uses its own normalizer; these options apply "
                              "to the demo tokenizer and to aligning a token list")

    def _connect(self) -> None:
        w = self.w
        w.editor.textChanged.connect(self._on_text_changed)
        w.tokens_input.textChanged.connect(self._on_inputs_changed)
        w.labels_input.textChanged.connect(self._on_inputs_changed)
        w.mode.currentIndexChanged.connect(self._on_mode_changed)
        w.form.currentTextChanged.connect(self._on_options_changed)
        w.scheme.currentIndexChanged.connect(self._on_options_changed)
        for box in (w.strip_accents, w.lowercase, w.collapse, w.repair):
            box.toggled.connect(self._on_options_changed)
        w.export.clicked.connect(self._on_export_requested)
        w.original.sig_hovered.connect(self._on_original_hovered)
        w.original.sig_selection_changed.connect(self._on_original_selected)
        w.normalized.sig_hovered.connect(self._on_normalized_hovered)
        w.normalized.sig_selection_changed.connect(self._on_normalized_selected)
        w.table.sig_token_selected.connect(self.select_token)
        w.table.sig_token_hovered.connect(self._on_table_hovered)
        w.derived.toggled.connect(self._on_derived_toggled)
        w.changes_only.toggled.connect(w.offset_map.set_changes_only)
        w.offset_map.set_changes_only(w.changes_only.isChecked())

    def _shortcuts(self) -> None:
        ctx = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for keys, slot in (
            ("Ctrl+L", lambda: self._focus_input("align")),
            ("Ctrl+Shift+L", lambda: self._focus_input("labels")),
            ("Ctrl+T", self.w.editor.setFocus),
            ("Ctrl+E", self._on_export_requested),
            ("Alt+Left", lambda: self.step_token(-1)),
            ("Alt+Right", lambda: self.step_token(1)),
        ):
            QShortcut(QKeySequence(keys), self, slot, context=ctx)

    def _focus_input(self, mode: str) -> None:
        self.w.mode.setCurrentIndex(list(MODES).index(mode))
        (self.w.tokens_input if mode == "align" else self.w.labels_input).setFocus()

    # -- state changes -------------------------------------------------------------------
    def _on_text_changed(self) -> None:
        self.state.text = self.w.editor.document().toRawText().replace("\u2029", "\n")
        self.schedule()

    def _on_inputs_changed(self) -> None:
        self.state.tokens_text = self.w.tokens_input.toPlainText()
        self.state.labels_text = self.w.labels_input.toPlainText()
        self.schedule()

    def _on_mode_changed(self, index: int) -> None:
        self.state.mode = list(MODES)[index]
        self._write_mode_widgets()
        self.recompute()

    def _on_options_changed(self, *_: object) -> None:
        w, s = self.w, self.state
        s.form, s.repair = w.form.currentText(), w.repair.isChecked()
        s.strip_accents, s.lowercase = w.strip_accents.isChecked(), w.lowercase.isChecked()
        s.collapse_whitespace = w.collapse.isChecked()
        s.scheme = w.scheme.currentData() or "auto"
        self.recompute()

    def _on_derived_toggled(self, on: bool) -> None:
        """Draw the derived spans (or the tokenizer's) in the span views; nothing is recomputed."""
        self.state.derived_spans = on
        if self.result is not None:
            render.render_spans(self, self.result)
            render.refresh_status(self)
            if self.current_token >= 0:
                render.link_tokens(self, [self.current_token], scroll=False)

    def schedule(self) -> None:
        """Re-tokenize after an edit: short texts at once; long texts on the leading edge of a
        burst of edits and once more when the burst settles (a restarting debounce timer)."""
        if len(self.state.text) <= self.sync_limit:
            self._timer.stop()
            self.recompute()
        elif self._timer.isActive() or self._runner.busy:
            self._pending = True
            self._timer.start()
        else:
            self.recompute()
            self._timer.start()  # edits within the next debounce_ms wait for the trailing edge

    def _on_debounced(self) -> None:
        if self._pending:
            self.recompute()

    def recompute(self) -> None:
        """Compute the result of the current state (synchronously when the text is short)."""
        self._pending = False
        tokenizer = self._tokenizer if self._tokenizer is not None else self._demo
        request = Request(replace(self.state), tokenizer, self._tokenizer is None, self._graphemes)
        self._compute_started = time.perf_counter()
        if len(self.state.text) <= self.sync_limit:
            self._runner.cancel()
            try:
                result = compute(request)
            except Exception as exc:  # a bug in core must not take the pane down  # noqa: BLE001
                self._on_compute_failed(exc)
                return
            self._on_result_ready(result)
            return
        self.w.status.setText(f"Tokenizing {len(self.state.text):,} characters…")
        self._runner.submit(compute, request)

    def _on_compute_failed(self, exc: object) -> None:
        self.show_banner(f"Could not tokenize this text ({type(exc).__name__}): {exc}", "error")

    # -- rendering -----------------------------------------------------------------------
    def _on_result_ready(self, result: AlignmentView) -> None:
        self.result = result
        self.seconds = time.perf_counter() - self._compute_started
        render.render(self, result, self.seconds)
        self.sig_encoding_changed.emit(result)

    def show_banner(self, message: str | None, kind: str = "info") -> None:
        """Show ``message`` in the inline banner styled as ``kind`` ("info" or "error");
        None or "" hides it."""
        banner = self.w.banner
        banner.setVisible(bool(message))
        banner.setText(message or "")
        if message and banner.property("kind") != kind:
            banner.setProperty("kind", kind)
            banner.setStyleSheet(f"QLabel {{ {ui.BANNER_STYLES[kind]} padding:5px; border-radius:3px; }}")

    # -- linking -------------------------------------------------------------------------
    def select_token(self, index: int) -> None:
        """Make token ``index`` current: highlight its span in every layer, show its offset map."""
        if self.result is None or not 0 <= index < len(self.result.tokens):
            return
        self.current_token = index
        render.link_tokens(self, [index], select=True)

    def step_token(self, delta: int) -> None:
        """Select the previous (``-1``) or next (``+1``) token."""
        if self.result is not None and self.result.tokens:
            n = len(self.result.tokens)
            self.select_token(min(n - 1, max(0, self.current_token + delta)))

    def _on_original_hovered(self, pos: int) -> None:
        render.link_hover(self, pos, normalized=False)

    def _on_normalized_hovered(self, pos: int) -> None:
        render.link_hover(self, pos, normalized=True)

    def _on_table_hovered(self, row: int) -> None:
        if row < 0 or self.result is None or row >= len(self.result.tokens):
            render.link_hover(self, -1, normalized=False)
        else:
            render.link_tokens(self, [row], source=self.w.table)

    def _on_original_selected(self, start: int, end: int) -> None:
        render.link_selection(self, start, end)

    def _on_normalized_selected(self, start: int, end: int) -> None:
        nt = self.result.normalized if self.result else None
        if nt is not None and 0 <= start < end <= len(nt.text):
            render.link_selection(self, *nt.to_original(start, end))

    def _on_export_requested(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export Tokens", "tokens.csv",
                                              "CSV (*.csv);;JSON (*.json)")
        if path:
            self.export_tokens(path)

    def export_tokens(self, path: str) -> None:
        """Write the token table to ``path`` (CSV, or JSON for ``.json``); errors go to the banner."""
        try:
            n = write_tokens(path, self.w.table.token_model, self.state.text)
        except OSError as exc:
            self.show_error(f"Could not export the tokens: {exc}")
            return
        self.sig_status_requested.emit(f"Exported {n:,} tokens to {path}")
