"""Alignment pane: text → normalized text → tokens, with every span linked across the layers.

Three linked layers (original text with token spans, normalized text, token table) plus an
offset-map view; modes "tokenize", "align a token list" and "labels". The pane keeps an
:class:`~app.panes.alignment.state.AlignmentState` and renders from the
:class:`~core.align.view.AlignmentView` that :func:`prepare` computes (with what drawing it
needs) on a :class:`~app.workers.TaskRunner`, never on the GUI thread, whatever the text's
length: the
first edit of a burst at once, the rest when the burst settles (a restarting debounce
timer). A new edit cancels the running computation; one still running after
:attr:`AlignmentPane.busy_after_ms` shows a busy indicator with a Cancel button.

Run alone: ``python -m app.panes.alignment``.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import replace
from typing import Callable

from PySide6.QtCore import QEvent, QEventLoop, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QWidget

from app.panes.alignment import ui
from app.panes.alignment.chat_mode import wire_chat
from app.panes.alignment.render import AlignmentRendering, shown_cover
from app.panes.alignment.export import write_tokens
from app.panes.alignment.extras import wire_extras
from app.panes.alignment import state as pane_state
from app.panes.alignment.state import DEMO_LABELS, AlignmentState, Prepared, Request
from app.panes.base import Pane
from app.settings import read_state, write_state
from app.widgets.span_segments import marks as span_marks
from app.widgets.token_table import COLUMNS, row_arrays
from app.widgets.wrap_guard import set_plain_text
from app.workers import TaskRunner, gc_paused
from core.align.modes import MODES
from core.align.view import AlignmentView
from core.data import builtin_name
from core.tokenizers.pipeline_steps import pipeline_steps
from core.text.graphemes import GraphemeBounds
from core.tokenizers import DEMO_NAME, TokenizerLike, demo_tokenizer

MAX_SAVED_CHARS = 2_000_000  # code points of the text saved; a longer text keeps this prefix
FILL_AFTER_PAINT_CHARS = 200_000
"""A restored text this long (code points) goes into the editor once the window has been
painted: Qt's document and layout of 2,000,000 characters take ~1 s, which would
otherwise come before the window is shown (the editor says meanwhile that it is coming)."""
GC_FREEZE_CHARS = 200_000  # the result of a text this long is frozen (see prepare)


def cut_notice(saved: object, restored: int) -> str | None:
    """The start's note when the saved state kept only a prefix of a longer text (its
    ``text_length`` says how long the text was), else None."""
    length = saved.get("text_length") if isinstance(saved, dict) else None
    if not isinstance(length, int) or isinstance(length, bool) or length <= restored:
        return None
    return (f"The text was {length:,} characters long when it was saved; only its first {restored:,} "
            f"were kept (at most {MAX_SAVED_CHARS:,} are saved). Paste it again to see all of it.")


_EDITOR_CANNOT_HOLD = re.compile("[\r\u2029\ufdd0\ufdd1\ud800-\udfff]")


def held_notice(text: str, held: str) -> str | None:
    """What the pane says when its editor cannot hold ``text`` as it is (``held``: what
    it holds; Qt's document makes ``\\r\\n``, ``\\r``, U+2029, U+FDD0 and U+FDD1 line
    breaks and drops a lone surrogate), else None. The tokens stay those of ``text``
    until an edit: then they are the editor's. O(n)."""
    if held == text or _EDITOR_CANNOT_HOLD.search(text) is None:
        return None
    kinds = []
    if "\r" in text:
        kinds.append("its carriage returns (\\r\\n, \\r) as line breaks (\\n)")
    if re.search("[\u2029\ufdd0\ufdd1]", text):
        kinds.append("its paragraph separators as line breaks")
    if re.search("[\ud800-\udfff]", text):
        kinds.append("its lone surrogates left out")
    return (f"The editor shows this text with {' and '.join(kinds)}: the tokens are those of the text as "
            "it was given until you edit it, then those of the text in the editor.")


def prepare(request: Request, should_stop: Callable[[], bool] | None = None) -> Prepared:
    """What the pane's worker computes: :func:`~app.panes.alignment.state.prepare` and the
    token table's per-row arrays (O(n + tokens), never on the GUI thread).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    # no collection while the result is built (it holds the interpreter lock); the objects
    # of a huge result are then frozen, so later collections skip them (frozen objects are
    # never collected: a small result is left to the collector)
    with gc_paused(freeze=len(request.state.text) >= GC_FREEZE_CHARS):
        ready = pane_state.prepare(request, should_stop)
        view, derived = ready.view, request.state.derived_spans
        return replace(ready, rows=row_arrays(view.spans, view.audit, view.rows.unknown, view.rows.byte_fallback),
                       marks=span_marks(view.text, shown_cover(view, derived)), marks_derived=derived)


class AlignmentPane(AlignmentRendering, Pane):
    """Paste text, see its normalized text, tokens and their original spans, all linked.

    Signals
    -------
    sig_encoding_changed(object)
        An :class:`AlignmentView` has just been rendered (tokens, spans, errors shown).
    sig_tokenizer_chosen(str)
        The user picked a tokenizer file in the pane's picker (the main window loads it).
    sig_open_tokenizer_requested()
        The user asked to browse for a tokenizer file (File ▸ Open Tokenizer…).
    """

    title = "Alignment"
    key = "alignment"
    state_class = AlignmentState
    sig_encoding_changed = Signal(object)
    sig_tokenizer_chosen = Signal(str)
    sig_open_tokenizer_requested = Signal()

    debounce_ms = 150
    save_ms = 200  # the state is written (atomically, by the writer thread) this long after the last edit
    busy_after_ms = 300  # a computation running this long shows the busy indicator
    release_chars = 200_000  # before computing a text this long, the shown result is dropped

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        saved = read_state(settings, self.state_key, None)
        self.state = self.state_class.from_dict(saved)
        self.start_notice = cut_notice(saved, len(self.state.text))  # shown until the text changes
        self.mode_notice: str | None = None  # why Labels mode was left (shown until the mode changes)
        self._labels_must_fit = False  # a tokenizer changed in Labels mode: its labels may not fit
        self._demo = demo_tokenizer()
        self._tokenizer: TokenizerLike | None = None
        self._tokenizer_label = DEMO_NAME
        self.result: AlignmentView | None = None
        self.prepared: Prepared | None = None  # the shown result's Prepared
        self.current_token = -1
        self._compute_started = 0.0
        self.seconds = 0.0  # how long the shown result took to compute
        self._graphemes = GraphemeBounds()  # the last text's clusters, reused per keystroke
        self.w = ui.build(self)
        self._runner = TaskRunner(self)  # its own threads: other panes' jobs cannot starve it
        self._runner.sig_returned.connect(self._on_result_ready)
        self._runner.sig_errored.connect(self._on_compute_failed)
        self._runner.sig_busy_changed.connect(self._on_busy_changed)
        self._busy_timer = QTimer(self, singleShot=True, interval=self.busy_after_ms)
        self._busy_timer.timeout.connect(self._show_busy)
        self._timer = QTimer(self, singleShot=True, interval=self.debounce_ms)
        self._timer.timeout.connect(self._on_debounced)
        self._pending = False
        self._fill_text: str | None = None  # a restored text waiting for the first paint
        self._write_widgets()
        self._connect()
        self._shortcuts()
        self.extras = wire_extras(self)  # picker, side by side, token ids, markers, info strip
        self.extras.picker.sig_path_chosen.connect(self.sig_tokenizer_chosen)
        self.extras.picker.sig_open_requested.connect(self.sig_open_tokenizer_requested)
        self._wire_decoded()
        self.chat = wire_chat(self)  # Chat mode: messages rendered into the text
        self.recompute(save=False)  # the restored state: nothing new to save (and a first
        # run stays one: the main window asks the store whether a text was ever saved)

    # -- the main window's API -----------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Replace the original text (e.g. from ``--text-file``) and re-tokenize."""
        self.state.text, self.start_notice = text, None
        self._stop_waiting()
        with QSignalBlocker(self.w.editor):
            set_plain_text(self.w.editor, text)  # a long unbroken line wraps anywhere: linear layout
        self._note_what_the_editor_holds(text)
        self.recompute()

    def replace_text(self, text: str) -> None:
        """Put ``text`` in the editor as one undoable edit (Ctrl+Z brings the user's text
        back); the result follows as after typing."""
        self.fill_editor()
        self.w.editor.replace_undoably(text)

    def show_example(self, text: str, labels: str) -> None:
        """Show ``text`` with its BIO ``labels`` in Labels mode; the text and the labels are
        replaced as one undoable edit each (Ctrl+Z in either brings the user's back)."""
        self.fill_editor()
        self.w.editor.replace_undoably(text)
        self.w.labels_input.replace_undoably(labels)
        self.w.mode.setCurrentIndex(list(MODES).index("labels"))

    def compare_with(self, path: str, name: str | None = None) -> None:
        """Add the tokenizer at ``path`` to side by side (loaded on a worker; ``name``
        labels its row, by default the built-in name or the file's folder)."""
        self.extras.side.add_path(path, name or builtin_name(path) or os.path.basename(
            os.path.dirname(path)) or path)

    def set_tokenizer(self, tokenizer: TokenizerLike, label: str) -> None:
        """Use ``tokenizer`` (None = the built-in demo) and re-tokenize."""
        self._tokenizer = tokenizer
        self._tokenizer_label = DEMO_NAME if tokenizer is None else label
        self.mode_notice = None
        self._labels_must_fit = self.state.mode == "labels"  # checked when its result arrives
        if tokenizer is not None and self.state.mode == "labels" and self.state.labels_text == DEMO_LABELS:
            self.state.mode = "tokenize"  # the demo labels only fit the demo tokens: show tokens
            self._labels_must_fit = False
            self._write_widgets()
        self.extras.set_tokenizer(tokenizer, label)
        self.chat.set_tokenizer(tokenizer, label)
        self.w.decoded.set_tokenizer(tokenizer if tokenizer is not None else self._demo)
        self.w.pipeline.set_steps(pipeline_steps(tokenizer) if tokenizer is not None else [])
        self._write_tokenizer_label()
        self.recompute()

    @property
    def tokenizer(self) -> TokenizerLike | None:
        """The tokenizer in use; None for the teaching vocabulary."""
        return self._tokenizer

    @property
    def busy(self) -> bool:
        """A computation for the current state is pending or running."""
        return self._runner.busy or self._pending

    def wait_until_idle(self, timeout_ms: int = 30_000) -> bool:
        """Run the event loop until the current state's result is shown (or ``timeout_ms``
        passes), then until the Decoded view's comparison is; return whether they were. For
        ``--screenshot`` and benchmarks, never for a user action."""
        if not self.busy:
            return self.w.decoded.wait_until_idle(timeout_ms)
        loop = QEventLoop()
        timer = QTimer(singleShot=True, interval=timeout_ms)
        timer.timeout.connect(loop.quit)
        self._runner.sig_busy_changed.connect(loop.quit)
        timer.start()
        while self.busy and timer.isActive():
            loop.exec()
        self._runner.sig_busy_changed.disconnect(loop.quit)
        return not self.busy and self.w.decoded.wait_until_idle(timeout_ms)

    def cancel_compute(self) -> None:
        """Stop the running computation (the Cancel button); the shown result stays and the
        status line says it belongs to the text as it was."""
        if not self.busy:
            return
        self._timer.stop()
        self._pending = False
        self._runner.cancel()
        shown = "the tokens shown are of the text before the last edit" if self.result else "no tokens shown"
        self.w.status.setText(f"Cancelled: {shown}; edit the text to compute again")

    def show_error(self, message: str) -> None:
        """Show ``message`` in the inline banner (the text and results stay as they are)."""
        self.show_banner(message, "error")

    def show_state(self) -> None:
        """Write the state into the widgets (text, mode, normalizer) and recompute."""
        self.start_notice = None
        self._write_widgets()
        self.recompute()

    def save_state(self, delay: float = 0.0) -> None:
        """Hand the state to ``state.json``'s writer thread, to be written ``delay`` seconds
        from now unless saved again before (the snapshot shares the strings; a text longer
        than :data:`MAX_SAVED_CHARS` is cut to that prefix, and the start says so)."""
        data = self.state.to_dict()
        if len(self.state.text) > MAX_SAVED_CHARS:
            data.update(text=self.state.text[:MAX_SAVED_CHARS], text_length=len(self.state.text))
        write_state(self.settings, self.state_key, data, delay)

    def _save_soon(self) -> None:
        """Save after every state change: written :attr:`save_ms` after the last one, so a
        kill loses nothing older than that (and the write time)."""
        self.save_state(self.save_ms / 1000)

    # -- building ------------------------------------------------------------------------
    def _write_widgets(self) -> None:
        w, s = self.w, self.state
        if len(s.text) >= FILL_AFTER_PAINT_CHARS and not w.editor.isVisible():
            self._fill_after_paint(s.text)
        else:
            self._stop_waiting()
            with QSignalBlocker(w.editor):
                set_plain_text(w.editor, s.text)
            self._note_what_the_editor_holds(s.text)
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
                           (w.derived, s.derived_spans), (w.parse_special, s.parse_special),
                           (w.colour_by_id, s.colour_by_id)):
            with QSignalBlocker(box):
                box.setChecked(value)
        self._write_tokenizer_label()
        self._write_mode_widgets()

    def _fill_after_paint(self, text: str) -> None:
        """Leave the editor empty and read-only, saying that ``text`` is coming, until its
        first paint; the text goes in on the next turn of the event loop
        (:meth:`fill_editor`). The state holds the text meanwhile: it is computed and
        saved as usual."""
        editor = self.w.editor
        self._fill_text = text
        with QSignalBlocker(editor):
            editor.clear()
        editor.setReadOnly(True)
        editor.setPlaceholderText(f"Restoring the saved text ({len(text):,} characters)…")
        editor.viewport().installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Paint and self._fill_text is not None \
                and watched is self.w.editor.viewport():
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self, self.fill_editor)
        return super().eventFilter(watched, event)

    def fill_editor(self) -> None:
        """Put a restored text that waited for the first paint into the editor now
        (nothing when none is waiting)."""
        text = self._fill_text
        if text is None:
            return
        self._stop_waiting()
        with QSignalBlocker(self.w.editor):
            set_plain_text(self.w.editor, text)
        self._note_what_the_editor_holds(text)

    def _note_what_the_editor_holds(self, text: str) -> None:
        """Add :func:`held_notice` to the start's notice (shown until the text changes).
        O(n) at C speed (the editor's text is read only when ``text`` has a character it
        may not hold)."""
        if _EDITOR_CANNOT_HOLD.search(text) is None:
            return
        held = held_notice(text, self.w.editor.text())
        if held is not None:
            self.start_notice = f"{self.start_notice} {held}" if self.start_notice else held
            if self.result is not None:
                self._show_result_error(self.result)

    def _stop_waiting(self) -> None:
        """Give the editor back its usual state if it waits for a restored text (nothing
        otherwise): the text is put in by the caller."""
        if self._fill_text is None:
            return
        self._fill_text = None
        editor = self.w.editor
        editor.viewport().removeEventFilter(self)
        editor.setReadOnly(False)
        editor.setPlaceholderText(ui.EDITOR_PLACEHOLDER)

    def _write_tokenizer_label(self) -> None:
        w = self.w
        tok = self._tokenizer
        if tok is None:
            w.tokenizer.setText(DEMO_NAME)
        else:
            kind, size = getattr(tok, "model_type", "?"), getattr(tok, "vocab_size", 0)
            w.tokenizer.setText(f"{getattr(tok, 'name', self._tokenizer_label)} ({kind}, {size:,} tokens)")
        w.tokenizer.setToolTip(f"{self._tokenizer_label}\nFile ▸ Open Tokenizer… (Ctrl+O) loads vocab.txt / "
                               "tokenizer.json; File ▸ Teaching Example (Ctrl+D) shows the 15-entry teaching vocabulary")
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
        w.teaching_norm.setVisible(teaching)  # else the tokenizer's own pipeline instead
        w.pipeline.setVisible(not teaching)

    def _connect(self) -> None:
        w = self.w
        w.editor.textChanged.connect(self._on_text_changed)
        w.tokens_input.textChanged.connect(self._on_inputs_changed)
        w.labels_input.textChanged.connect(self._on_inputs_changed)
        w.mode.currentIndexChanged.connect(self._on_mode_changed)
        w.form.currentTextChanged.connect(self._on_options_changed)
        w.scheme.currentIndexChanged.connect(self._on_options_changed)
        for box in (w.strip_accents, w.lowercase, w.collapse, w.repair, w.parse_special):
            box.toggled.connect(self._on_options_changed)
        w.export.clicked.connect(self._on_export_requested)
        w.cancel_button.clicked.connect(self.cancel_compute)
        w.original.sig_hovered.connect(self._on_original_hovered)
        w.original.sig_selection_changed.connect(self._on_original_selected)
        w.normalized.sig_hovered.connect(self._on_normalized_hovered)
        w.normalized.sig_selection_changed.connect(self._on_normalized_selected)
        w.table.sig_token_selected.connect(self.select_token)
        w.table.sig_token_hovered.connect(self._on_table_hovered)
        w.derived.toggled.connect(self._on_derived_toggled)
        w.colour_by_id.toggled.connect(self._on_colour_by_id_toggled)
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
        self.state.text = self.w.editor.text()
        self.start_notice = None
        self.schedule()

    def _on_inputs_changed(self) -> None:
        self.state.tokens_text = self.w.tokens_input.text()
        self.state.labels_text = self.w.labels_input.text()
        self.schedule()

    def _on_mode_changed(self, index: int) -> None:
        self.state.mode = list(MODES)[index]
        self.mode_notice, self._labels_must_fit = None, False
        self._write_mode_widgets()
        self.recompute()

    def _on_options_changed(self, *_: object) -> None:
        w, s = self.w, self.state
        s.form, s.repair = w.form.currentText(), w.repair.isChecked()
        s.strip_accents, s.lowercase = w.strip_accents.isChecked(), w.lowercase.isChecked()
        s.collapse_whitespace = w.collapse.isChecked()
        s.parse_special = w.parse_special.isChecked()
        s.scheme = w.scheme.currentData() or "auto"
        self.recompute()

    def _wire_decoded(self) -> None:
        """The Decoded view follows the shown result and the tokenizer (it computes on its
        own worker, only while unfolded); its fold state is part of the pane's state."""
        decoded = self.w.decoded
        decoded.set_tokenizer(self._demo)
        decoded.set_expanded(self.state.decoded_view)
        decoded.sig_expanded_changed.connect(self._on_decoded_toggled)
        self.sig_encoding_changed.connect(decoded.set_view)

    def _on_decoded_toggled(self, on: bool) -> None:
        self.state.decoded_view = on
        self._save_soon()

    def _on_derived_toggled(self, on: bool) -> None:
        """Draw the derived spans (or the tokenizer's) in the span views; nothing is recomputed."""
        self.state.derived_spans = on
        self._save_soon()
        if self.result is not None:
            self.render_spans(self.result, self.prepared)
            self.refresh_status()
            if self.current_token >= 0:
                self.link_tokens([self.current_token], scroll=False)

    def _on_colour_by_id_toggled(self, on: bool) -> None:
        """Colour the tokens by id or alternately (remembered); nothing is recomputed."""
        self.state.colour_by_id = on
        self._save_soon()
        self.render_colours()

    def schedule(self) -> None:
        """Re-tokenize after an edit: at once on the leading edge of a burst of edits, once
        more when the burst settles (a restarting debounce timer). The edit cancels the
        running computation, whose result would be stale. Every edit is saved (written
        :attr:`save_ms` after the last)."""
        self._save_soon()
        if self._timer.isActive():
            self._runner.cancel()
            self._pending = True
            self._timer.start()
        else:
            self.recompute()
            self._timer.start()  # edits within the next debounce_ms wait for the trailing edge

    def _on_debounced(self) -> None:
        if self._pending:
            self.recompute(save=False)  # the burst's edits were saved as they came

    def recompute(self, save: bool = True) -> None:
        """Compute the result of the current state on the worker (cancelling the running one);
        ``save``: save the state too (every state change ends here)."""
        self._pending = False
        if save:
            self._save_soon()
        tokenizer = self._tokenizer if self._tokenizer is not None else self._demo
        request = Request(replace(self.state), tokenizer, self._tokenizer is None, self._graphemes)
        if len(self.state.text) >= self.release_chars and self.result is not None:
            self._release_result()  # two results of a huge text would not fit in memory
        self._compute_started = time.perf_counter()
        self.w.decoded.text_edited()  # the comparison of the old text would compete with this
        self._runner.submit(prepare, request)
        self._busy_timer.start()

    def _release_result(self) -> None:
        """Drop the shown result and what the widgets hold of it (its text stays in the
        editor): computing a huge text then needs memory for one result, not two."""
        self._runner.cancel()
        self.result = self.prepared = None
        self.current_token = -1
        self.clear_views()

    def _on_compute_failed(self, exc: object) -> None:
        self.show_banner(f"Could not tokenize this text ({type(exc).__name__}): {exc}", "error")

    # -- the busy indicator --------------------------------------------------------------
    @property
    def busy_shown(self) -> bool:
        """The busy indicator (and its Cancel button) is on screen."""
        return self.w.cancel_button.isVisibleTo(self)

    def _show_busy(self) -> None:
        if self._runner.busy:
            n = len(self.state.text)
            self.w.busy_label.setText(f"Tokenizing {n:,} characters… (a new edit or Cancel stops it)")
            for widget in (self.w.busy_bar, self.w.busy_label, self.w.cancel_button):
                widget.show()

    def _on_busy_changed(self, busy: bool) -> None:
        if not busy:
            self._busy_timer.stop()
            for widget in (self.w.busy_bar, self.w.busy_label, self.w.cancel_button):
                widget.hide()

    # -- rendering -----------------------------------------------------------------------
    def _on_result_ready(self, prepared: Prepared) -> None:
        if self._leave_labels_if_unfit(prepared.view):
            return
        result = self.result = prepared.view
        self.prepared = prepared  # what drawing it again needs (see _on_derived_toggled)
        self.seconds = time.perf_counter() - self._compute_started
        self.show_result(result, self.seconds, prepared)
        self.sig_encoding_changed.emit(result)

    def _leave_labels_if_unfit(self, result: AlignmentView) -> bool:
        """Labels mode keeps its labels only while they fit: when the first Labels result
        after a tokenizer change has another count of labels than tokens, switch to Tokenize
        (the labels stay in their box) and say why; return whether it switched."""
        if not self._labels_must_fit or result.mode != "labels":
            return False
        self._labels_must_fit = False
        labels = result.labelled.labels if result.labelled is not None else []
        if not labels or len(labels) == len(result.tokens):
            return False
        notice = (f"Showing tokens: the {len(labels):,} labels do not fit this tokenizer's "
                  f"{len(result.tokens):,} tokens (they stay in Labels mode's box; give one label per token there)")
        self.w.mode.setCurrentIndex(list(MODES).index("tokenize"))  # recomputes
        self.mode_notice = notice
        return True

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
        self.link_tokens([index], select=True)

    def step_token(self, delta: int) -> None:
        """Select the previous (``-1``) or next (``+1``) token."""
        if self.result is not None and self.result.tokens:
            n = len(self.result.tokens)
            self.select_token(min(n - 1, max(0, self.current_token + delta)))

    def _on_original_hovered(self, pos: int) -> None:
        self.link_hover(pos, normalized=False)

    def _on_normalized_hovered(self, pos: int) -> None:
        self.link_hover(pos, normalized=True)

    def _on_table_hovered(self, row: int) -> None:
        if row < 0 or self.result is None or row >= len(self.result.tokens):
            self.link_hover(-1, normalized=False)
        else:
            self.link_tokens([row], source=self.w.table)

    def _on_original_selected(self, start: int, end: int) -> None:
        self.link_selection(start, end)

    def _on_normalized_selected(self, start: int, end: int) -> None:
        nt = self.result.normalized if self.result else None
        if nt is not None and 0 <= start < end <= len(nt.text):
            self.link_selection(*nt.to_original(start, end))

    # the banner an export error replaced: (text, kind, shown), put back by the next
    # successful export while the banner still shows that export error
    _banner_before_export_error: tuple[str, str, bool] | None = None
    _export_error_message: str | None = None

    def _on_export_requested(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export Tokens", "tokens.csv",
                                              "CSV (*.csv);;JSON (*.json)")
        if path:
            self.export_tokens(path)

    def span_view(self) -> QWidget:
        """The span view File ▸ Export ▸ Span View exports: the original text with its spans."""
        return self.w.original

    def segmentation_text(self) -> str:
        """The text's segmentation as File ▸ Export ▸ Segmentation writes it: the tokens
        shown, separated by ' | ' (one line; O(tokens))."""
        return " | ".join(self.result.tokens) if self.result is not None else ""

    def export_tokens(self, path: str) -> None:
        """Write the token table to ``path`` (CSV, or JSON for ``.json``) and say so on the
        status bar. A failure (unwritable folder, a directory, a bad path) shows a "Could not
        export the tokens" banner instead of raising; a later successful export takes that
        banner away again (putting back what it covered), leaving any other banner alone."""
        try:
            n = write_tokens(path, self.w.table.token_model, self.state.text)
        except (OSError, ValueError) as exc:  # ValueError: e.g. a NUL in the path
            self._show_export_error(f"Could not export the tokens: {exc}")
            return
        self._clear_export_error()
        self.sig_status_requested.emit(f"Exported {n:,} tokens to {path}")

    def _export_error_shown(self) -> bool:
        banner = self.w.banner
        return (self._export_error_message is not None and not banner.isHidden()
                and banner.text() == self._export_error_message)

    def _show_export_error(self, message: str) -> None:
        if not self._export_error_shown():  # a second failure keeps the first one's cover
            banner = self.w.banner
            self._banner_before_export_error = (banner.text(), banner.property("kind") or "info",
                                                not banner.isHidden())
        self._export_error_message = message
        self.show_error(message)

    def _clear_export_error(self) -> None:
        if self._export_error_shown():
            text, kind, shown = self._banner_before_export_error or ("", "info", False)
            self.show_banner(text if shown else None, kind)
        self._export_error_message = self._banner_before_export_error = None
