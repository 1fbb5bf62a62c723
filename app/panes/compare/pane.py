"""Compare pane: several tokenizers across many languages, and where they differ on one text.

Tokenizers (files added here, or the main window's current tokenizer) × a parallel corpus
(one ``.txt`` per language; the data folder's UDHR texts, else the UDHR sample
shipped with the app). One worker task loads,
encodes and measures everything (cached per tokenizer file, corpus file and modification
time) and computes what the tabs show (:mod:`app.panes.compare.prepared`); the tabs render the
result: a heatmap + bars of any metric (drawn when its tab is shown), the atlas, a drill-down
of one line, normalization damage, and a sampling calculator. A cached atlas is shown without
loading its tokenizer files; they are loaded in a second worker when the drill-down or the
vocabulary tab is shown (which say so meanwhile).

Run alone: ``python -m app.panes.compare``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QTabWidget, QVBoxLayout, QWidget

from app.panes.base import Pane
from app.panes.compare.atlas_tab import AtlasTab
from app.panes.compare.atlas_views import AtlasData
from app.panes.compare.controls import (
    LEGACY_CHECKS,
    CompareControls,
    add_loaded,
    label_of,
    legacy_state,
    restored_entries,
    restored_folder,
    stored_pairs,
    unique_label,
)
from app.panes.compare.drilldown import DrillTab
from app.panes.compare.normalization import NormalizationView
from app.panes.compare.prepared import compare_and_prepare, with_tokenizers
from app.panes.compare.sampling import SamplingView
from app.panes.compare.state import (
    CompareResult,
    CompareState,
    TokenizerEntry,
    result_notes,
)
from app.panes.compare.table_tab import COMPUTING, TableTab
from app.panes.compare.vocab_tab import VocabTab
from app.settings import read_state
from app.widgets.rows_model import write_csv
from app.widgets.text_format import plural
from app.workers import TaskRunner
from app.widgets.plot_frame import wrap_plot_titles
from core.data import data_dir
from core.tokenizers import DEMO_NAME, TokenizerLike, demo_tokenizer


LOADING = "Loading the tokenizers…"
STORE_DELAY = 0.5
"""Seconds the state waits after an edit of the sampling inputs before it is written (one
write when typing pauses)."""


class ComparePane(Pane):
    """Languages × tokenizers metrics, drill-down, normalization damage and sampling.

    Signals
    -------
    sig_result_changed() : a new comparison result is shown.
    sig_text_requested(str) : a Vocabulary example or an Atlas cell was activated; its text.
    sig_tokenizer_requested(str, str) : an Atlas cell was double-clicked; its tokenizer's file
        (``""`` for a tokenizer without a file) and label, emitted just before its text.
    """

    title = "Compare"
    key = "compare"
    state_class = CompareState
    legacy_checks = LEGACY_CHECKS

    sig_result_changed = Signal()
    sig_text_requested = Signal(str)  # a vocabulary example's text, for the Alignment pane
    sig_tokenizer_requested = Signal(str, str)  # an atlas cell's tokenizer file and label

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        self.state = CompareState()
        self._chosen_reference = self.state.reference  # the reference the user chose (stored)
        self.entries: list[TokenizerEntry] = []  # the columns, in order (files, or objects loaded elsewhere)
        self.filters: dict = {}  # languages of the UDHR collection kept: "scripts", "stages", "directions" → values
        self.result: CompareResult | None = None
        self._cache: dict = {}
        self._loaded: dict[str, Any] = {}
        self._runner = TaskRunner(self)
        self._runner.sig_returned.connect(self._on_result_returned)
        self._runner.sig_errored.connect(self._on_task_errored)
        self._runner.sig_progress.connect(self._on_progress_changed)
        self._runner.sig_busy_changed.connect(self._on_busy_changed)
        self._tok_runner = TaskRunner(self)  # loads the tokenizers of a cached atlas when a view needs them
        self._tok_runner.sig_returned.connect(self._on_tokenizers_loaded)
        self._tok_runner.sig_errored.connect(self._on_tokenizers_failed)
        self._recompute_timer = QTimer(self, singleShot=True, interval=250)
        self._recompute_timer.timeout.connect(self.recompute)
        self._started = False  # the first comparison starts when the pane is first shown
        self._submitted_folder = ""  # corpus folder of the running comparison
        self._shown_folder = ""  # corpus folder of self.result
        self._unverified: set[str] = set()  # files added here, not loaded yet
        self._language_items: list[tuple[str, str]] = []  # the drill-down's languages
        self._atlas: AtlasData | None = None  # the atlas views' data of self.result (arrays kept per metric)
        self._table_stale = False  # the Table tab does not show self.result yet (it was hidden)
        self._build_controls()
        self._build_tabs()
        self._build_layout()
        self._restore_state()

    def _schedule_recompute(self) -> None:
        """Recompute soon, but never before the pane was first shown: loading several
        tokenizers and encoding a corpus costs hundreds of MB and seconds of CPU."""
        if self._started:
            self._recompute_timer.start()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._started:
            self._started = True
            self._recompute_timer.start(0)

    # -- construction ---------------------------------------------------------------------
    def _build_controls(self) -> None:
        """The controls widget (see :mod:`app.panes.compare.controls`), its widgets as
        attributes of the pane, their slots and the pane's shortcuts."""
        self.controls = c = CompareControls()
        self.tokenizer_list, self.add_button, self.remove_button = c.tokenizer_list, c.add_button, c.remove_button
        self.folder_edit, self.folder_button, self.metric_combo = c.folder_edit, c.folder_button, c.metric_combo
        self.reference_combo, self.sort_combo, self.compute_button = c.reference_combo, c.sort_combo, c.compute_button
        self.cancel_button, self.export_button = c.cancel_button, c.export_button
        self.progress, self.message = c.progress, c.message
        for signal, slot in ((c.add_button.clicked, self._on_add_requested),
                             (c.remove_button.clicked, self._on_remove_requested),
                             (c.folder_button.clicked, self._on_folder_requested),
                             (c.corpus_combo.activated, self._on_corpus_chosen),
                             (c.script_combo.activated, self._on_filter_changed),
                             (c.stage_combo.activated, self._on_filter_changed),
                             (c.direction_combo.activated, self._on_filter_changed),
                             (c.metric_combo.currentIndexChanged, self._on_metric_changed),
                             (c.reference_combo.currentIndexChanged, self._on_reference_changed),
                             (c.sort_combo.currentIndexChanged, self._on_sort_changed),
                             (c.compute_button.clicked, self.recompute), (c.cancel_button.clicked, self.cancel),
                             (c.export_button.clicked, self._on_export_requested)):
            signal.connect(slot)
        for seq, slot in (("Ctrl+Shift+T", self._on_add_requested), ("Ctrl+Shift+O", self._on_folder_requested),
                          ("F5", self.recompute), ("Escape", self.cancel), ("Ctrl+M", self.metric_combo.setFocus),
                          ("Delete", self._on_remove_requested)):
            QShortcut(QKeySequence(seq), self, activated=slot, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _build_tabs(self) -> None:
        self.table_tab = TableTab()
        self.table_tab.sig_language_picked.connect(self._on_language_picked)
        self.table_tab.sig_status_requested.connect(self.sig_status_requested)
        self.heatmap, self.bars = self.table_tab.heatmap, self.table_tab.bars
        self.bar_mode, self.bar_item = self.table_tab.bar_mode, self.table_tab.bar_item
        self.atlas_tab = AtlasTab()
        self.atlas_tab.sig_language_picked.connect(self._on_language_picked)
        self.atlas_tab.sig_cell_opened.connect(self._on_cell_opened)
        self.atlas_tab.sig_status_requested.connect(self.sig_status_requested)
        self.drill_tab = DrillTab()
        self.drill_language, self.drill_line, self.drill_view = self.drill_tab.language, self.drill_tab.line, self.drill_tab.view
        self.normalization = NormalizationView()
        self.normalization.sig_form_changed.connect(self._on_damage_changed)
        self.normalization.sig_language_changed.connect(self._on_damage_changed)
        self.normalization.sig_status_requested.connect(self.sig_status_requested)
        self.sampling = SamplingView()
        self.sampling.sig_inputs_changed.connect(self._on_sampling_changed)
        self.sampling.corpus_button.clicked.connect(self._on_corpus_sizes_requested)
        self.sampling.sig_status_requested.connect(self.sig_status_requested)
        self.sampling.plot.sig_status_requested.connect(self.sig_status_requested)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.table_tab, "Table")
        self.tabs.addTab(self.atlas_tab, "Atlas")
        self.tabs.addTab(self.drill_tab, "Drill-down")
        self.tabs.addTab(self.normalization, "Normalization")
        self.tabs.addTab(self.sampling, "Sampling")
        self.vocab_tab = VocabTab()
        self.vocab_tab.sig_text_requested.connect(self.sig_text_requested)
        self.tabs.addTab(self.vocab_tab, "Vocabulary")
        self.tabs.currentChanged.connect(self._on_tab_changed)

    def _build_layout(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.controls)
        layout.addWidget(self.tabs, 1)
        wrap_plot_titles(self)  # long titles (the atlas map's) wrap instead of widening the pane

    # -- state ----------------------------------------------------------------------------
    def _restore_state(self) -> None:
        """The state stored in ``state.json``; the first time, the options an older version
        kept in ``settings.ini`` (moved into ``state.json`` once, see
        :func:`~app.panes.compare.controls.legacy_state`)."""
        saved = read_state(self.settings, self.state_key, None)
        legacy = legacy_state(self.settings, self.key) if saved is None else None
        self.state = CompareState.from_dict(legacy if legacy is not None else saved)
        self._chosen_reference = self.state.reference  # stored; one picked for a corpus without it is not
        self.state.corpus_folder = restored_folder(self.state.corpus_folder)
        self.entries = restored_entries(self.state.tokenizer_paths)
        self._show_restored()
        if legacy is not None:
            self.save_state()

    def _show_restored(self) -> None:
        """Write :attr:`state` into the widgets (sampling inputs, damage form, the tab left
        open, the controls) without re-triggering their slots."""
        if self.state.sampling:
            self.sampling.set_inputs(*self.state.sampling)
        self.normalization.set_form(self.state.damage_form)
        titles = [self.tabs.tabText(i) for i in range(self.tabs.count())]
        if self.state.tab in titles:  # reopen on the tab left open
            with QSignalBlocker(self.tabs):  # stored and rendered by the caller
                self.tabs.setCurrentIndex(titles.index(self.state.tab))
        self._write_controls()

    def show_state(self) -> None:
        """Show :attr:`state` (a lesson set or put it back) and recompute; the tokenizer
        columns stay those compared."""
        self._show_restored()
        self._on_tab_changed(self.tabs.currentIndex())
        self._schedule_recompute()

    def save_state(self, delay: float = 0.0) -> None:
        """Store :attr:`state` (with the compared files, the sampling inputs, the tab shown
        and the reference the user chose) in ``state.json``, atomically and off the GUI
        thread, ``delay`` seconds from now (:meth:`~app.panes.base.Pane.store_state`)."""
        self.state.tokenizer_paths = stored_pairs(self.entries)
        self.state.sampling = list(self.sampling.inputs())
        self.state.tab = self.tabs.tabText(self.tabs.currentIndex())
        stored = replace(self.state, reference=self._chosen_reference)
        self.store_state(stored, delay)

    def _write_controls(self) -> None:
        """Write the state into the widgets without re-triggering their slots."""
        self.controls.write(self.state, self.entries)

    # -- tokenizers and corpus --------------------------------------------------------------
    def add_tokenizer_file(self, path: str) -> None:
        """Add a tokenizer file (loaded in the worker with ``core.tokenizers.load``)."""
        path = str(path)
        if any(e.path == path for e in self.entries):
            self.sig_status_requested.emit(f"{path} is already compared")
            return
        self.entries.append(TokenizerEntry(unique_label(label_of(path), self.entries), path))
        self._unverified.add(path)  # refused when the worker cannot load it
        self._on_entries_changed()

    def add_tokenizer(self, tokenizer: TokenizerLike, label: str) -> None:
        """Add (or refresh) an already loaded tokenizer; ``label`` is usually its path."""
        add_loaded(self.entries, tokenizer, label)
        self._on_entries_changed()

    def set_tokenizer(self, tokenizer: TokenizerLike, label: str) -> None:
        """The main window's tokenizer joins the comparison (``None`` = the demo vocabulary)."""
        if tokenizer is None:
            try:
                tokenizer, label = demo_tokenizer(), DEMO_NAME
            except (ImportError, ValueError, OSError) as exc:
                self.message.setText(f"The teaching vocabulary is not available: {exc}")
                return
        self.add_tokenizer(tokenizer, label)

    def remove_tokenizer(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            del self.entries[index]
            self._on_entries_changed()

    def set_corpus_folder(self, folder: str) -> None:
        """Use ``folder`` as the corpus (bad folders are reported by the computation)."""
        self.state.corpus_folder = str(folder)
        self.controls.write(self.state, self.entries)
        self.save_state()
        self._schedule_recompute()

    def _on_entries_changed(self) -> None:
        self._write_controls()
        self.save_state()
        self._schedule_recompute()

    def _on_add_requested(self) -> None:
        start = self.state.last_dir or str(data_dir() / "tokenizers")
        path, _ = QFileDialog.getOpenFileName(self, "Add Tokenizer", start,
                                              "Tokenizer files (*.json *.txt *.tiktoken *.model);;All files (*)")
        if path:
            self.state.last_dir = str(Path(path).parent)
            self.add_tokenizer_file(path)

    def _on_remove_requested(self) -> None:
        self.remove_tokenizer(self.tokenizer_list.currentRow())

    def _on_corpus_chosen(self, index: int) -> None:
        folder = self.controls.corpus_combo.itemData(index)
        if folder is None:
            self._on_folder_requested()
            self.controls.write(self.state, self.entries)
        else:
            self.set_corpus_folder(folder)

    def _on_filter_changed(self, _index: int) -> None:
        self.filters = self.controls.filters()
        self._schedule_recompute()

    def _on_folder_requested(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose Corpus Folder", self.state.corpus_folder or str(Path.home()))
        if folder:
            self.set_corpus_folder(folder)

    # -- computation ----------------------------------------------------------------------
    def recompute(self) -> None:
        """Start the comparison in the worker (cancels a running one)."""
        self._recompute_timer.stop()
        self._started = True
        if not self.state.corpus_folder:  # a missing folder is reported by the worker
            self.message.setText("Choose a corpus folder (Corpus folder…, Ctrl+Shift+O): one UTF-8 "
                                 ".txt file per language, the same text in each.")
            self.table_tab.set_placeholder("No corpus to compare on: see the message above.")
            return
        if not self.entries:
            self.message.setText("Add at least one tokenizer (Add tokenizer… or File ▸ Open Tokenizer).")
        self.progress.setValue(0)
        self._submitted_folder = self.state.corpus_folder
        if self.result is None:
            self.table_tab.set_placeholder(COMPUTING)
        elif self._submitted_folder != self._shown_folder:  # never old numbers under a new name
            self.heatmap.set_note(f"Computing {self._submitted_folder}… the table still shows "
                                  f"{self._shown_folder}.")
        self._runner.submit(compare_and_prepare, list(self.entries), self.state.corpus_folder,
                            self.state.reference, self._cache, self._loaded, metric=self.state.metric,
                            sort_by=self.state.sort_by, filters=dict(self.filters))

    def cancel(self) -> None:
        if self._runner.busy:
            self._runner.cancel()
            self.sig_status_requested.emit("Comparison cancelled")
            if self._keep_shown_folder():
                self.message.setText(f"Cancelled: still showing the results for {self._shown_folder}.")
            elif self.result is None:
                self.table_tab.set_placeholder("Cancelled: press Compute (F5) to compare.")

    @property
    def busy(self) -> bool:
        return self._runner.busy

    def wait_until_idle(self, timeout_ms: int = 120_000) -> bool:
        """Start a due comparison, then run the event loop until it is shown (or
        ``timeout_ms`` passes); return whether it was. For ``--screenshot``, never for a user
        action."""
        if self._recompute_timer.isActive():
            self.recompute()
        if not self._runner.busy:
            return True
        loop = QEventLoop()
        self._runner.sig_busy_changed.connect(loop.quit)
        QTimer.singleShot(timeout_ms, loop.quit)
        loop.exec()
        self._runner.sig_busy_changed.disconnect(loop.quit)
        return not self._runner.busy

    def _on_progress_changed(self, fraction: float) -> None:
        self.progress.setValue(int(fraction * 1000))

    def _on_busy_changed(self, busy: bool) -> None:
        self.cancel_button.setEnabled(busy)
        self.compute_button.setEnabled(not busy)

    def _on_task_errored(self, exc: object) -> None:
        failed = self.state.corpus_folder
        if self._keep_shown_folder():
            self.message.setText(f"Could not compare on {failed}: {exc} — still showing the "
                                 f"results for {self._shown_folder}.")
        else:
            self.message.setText(f"Could not compare: {exc}")
            if self.result is None:
                self.table_tab.set_placeholder("No table: see the message above.")

    def _keep_shown_folder(self) -> bool:
        """After a failed or cancelled run on another corpus, go back to the folder whose
        results are shown (never show old numbers under a new folder name)."""
        if self.result is None or self.state.corpus_folder == self._shown_folder:
            return False
        self.state.corpus_folder = self._shown_folder
        self.folder_edit.setText(self._shown_folder)
        self.save_state()
        self._render_table()  # drops the "Computing …" note
        return True

    def _on_result_returned(self, result: CompareResult) -> None:
        self.result = result
        self._shown_folder = self._submitted_folder
        self.progress.setValue(1000)
        self.message.setText(self._result_message(result))
        self._refresh_choices()
        self._render_table()
        if result.corpus and not any(f.lines for f in result.corpus):
            self.table_tab.set_placeholder(f"No text in {self._shown_folder}: every .txt file is empty.")
        self._render_damage()
        self.sig_status_requested.emit(
            f"Compared {plural(len(result.table.tokenizers), 'tokenizer')} on "
            f"{plural(len(result.table.languages), 'language')}")
        self.sig_result_changed.emit()

    def _result_message(self, result: CompareResult) -> str:
        """Refuse files added here that do not load; report other failures and empty text."""
        refused, text = result_notes(result, self.entries, self._unverified, self._shown_folder)
        self._unverified.clear()
        if refused:
            self.entries = [e for e in self.entries if e not in refused]
            self._write_controls()
            self.save_state()
        return text

    # -- rendering ------------------------------------------------------------------------
    def _refresh_choices(self) -> None:
        table = self.result.table
        langs, ref, self.state.sort_by = self.controls.set_choices(table, self.state.reference, self.state.sort_by)
        if ref and ref != self.state.reference:  # the reference is not in this corpus
            self.state.reference = ref
            self._schedule_recompute()  # cells are cached: only the premium changes
        self._language_items = langs
        self._install_tokenizers()
        self._ensure_tokenizers()

    def _install_tokenizers(self) -> None:
        """Give the drill-down and the vocabulary tab the result's tokenizers (or say they
        are loading)."""
        waiting = "" if self.result.loaded else LOADING
        labelled = list(zip(self.result.table.tokenizers, self.result.tokenizers))
        self.drill_tab.set_result(self.result.corpus, labelled, self._language_items, self.state.reference,
                                  waiting=waiting)
        self.vocab_tab.set_tokenizers(labelled, [f.lines for f in self.result.corpus], waiting=waiting)

    def _ensure_tokenizers(self) -> None:
        """Load the tokenizers of the shown result in the worker when the drill-down or the
        vocabulary tab is shown and some are not loaded (a cached atlas is shown without
        them: loading seven files takes seconds)."""
        if (self.result is None or self.result.loaded or self._tok_runner.busy
                or self.tabs.currentWidget() not in (self.drill_tab, self.vocab_tab)):
            return
        self._tok_runner.submit(with_tokenizers, self.result, self._loaded)

    def _on_tokenizers_loaded(self, pair: tuple[CompareResult, CompareResult]) -> None:
        before, after = pair
        if before is self.result:  # not replaced by a newer comparison meanwhile
            self.result = after
            self._install_tokenizers()
        else:
            self._ensure_tokenizers()

    def _on_tokenizers_failed(self, exc: object) -> None:
        self.drill_tab.set_waiting(f"Could not load the tokenizers: {exc}")
        self.vocab_tab.set_waiting(f"Could not load the tokenizers: {exc}")

    def heatmap_rows(self) -> list[int]:
        """Table row indices in the order the heatmap shows them (top to bottom)."""
        self._render_table_tab()
        return self.table_tab.heatmap_rows()

    def _render_table(self) -> None:
        """Show the result's table in the Atlas tab, and in the Table tab when it is the one
        shown (else when it is next shown: its plots draw one item per language)."""
        if self.result is None:
            return
        self._table_stale = True
        if self.tabs.currentWidget() is self.table_tab:
            self._render_table_tab()
        if self._atlas is None or self._atlas.table is not self.result.table:
            self._atlas = self.result.atlas or AtlasData.of(self.result.table, self.result.languages)
        self.atlas_tab.show_data(self._atlas, self.state.metric)

    def _render_table_tab(self) -> None:
        if self.result is None or not self._table_stale:
            return
        self._table_stale = False
        sort_by, model = self.result.heatmap or ("", None)
        fits = model is not None and model.metric == self.state.metric and sort_by == self.state.sort_by
        self.table_tab.show_table(self.result.table, self.state.metric, self.state.sort_by,
                                  model=model if fits else None)

    def _on_tab_changed(self, _index: int) -> None:
        self.save_state()
        if self.tabs.currentWidget() is self.table_tab:
            self._render_table_tab()
        self._ensure_tokenizers()

    def _render_damage(self) -> None:
        if self.result is not None:
            langs = sorted(self.result.table.languages)
            self.normalization.set_damage(self.result.damage, langs, self.state.damage_language or "hin")

    # -- slots ----------------------------------------------------------------------------
    def _on_metric_changed(self, _index: int) -> None:
        self.state.metric = self.metric_combo.currentData()
        self.save_state()
        self._render_table()

    def _on_reference_changed(self, _index: int) -> None:
        ref = self.reference_combo.currentData()
        if ref and ref != self.state.reference:
            self.state.reference = self._chosen_reference = ref
            self.save_state()
            self._schedule_recompute()

    def _on_sort_changed(self, _index: int) -> None:
        self.state.sort_by = self.sort_combo.currentData() or "language"
        self._render_table()

    def _on_language_picked(self, code: str) -> None:
        self.drill_tab.select(code)

    def _on_cell_opened(self, code: str, column: int) -> None:
        """An atlas cell was double-clicked: ask for its tokenizer, then its language's text
        (the main window puts it in Alignment)."""
        if self.result is None or not 0 <= column < len(self.result.table.tokenizers):
            return
        label = self.result.table.tokenizers[column]
        entry = (self.result.entries[column] if column < len(self.result.entries)
                 else next((e for e in self.entries if e.label == label), None))
        path = (entry.path if entry is not None else None) or getattr(self.result.tokenizers[column], "path", None)
        text = next((f for f in self.result.corpus if f.code == code), None)
        if text is None:
            return
        self.sig_tokenizer_requested.emit(str(path or ""), label)
        self.sig_text_requested.emit("\n".join(text.lines))
        self.sig_status_requested.emit(f"Opening {code} with {label} in Alignment")

    def _on_damage_changed(self, *_args) -> None:
        self.state.damage_form = self.normalization.form()
        self.state.damage_language = self.normalization.selected_language()
        self.save_state()

    def _on_sampling_changed(self) -> None:
        self.save_state(delay=STORE_DELAY)

    def _on_corpus_sizes_requested(self) -> None:
        self.sampling.use_corpus_sizes(None if self.result is None else self.result.table)

    def _on_export_requested(self) -> None:
        if self.result is None:
            self.message.setText("Nothing to export yet: compute a comparison first.")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export Table", "compare_table.csv", "CSV (*.csv)")
        if path:
            self.export_table_csv(path)

    def export_table_csv(self, path: str) -> bool:
        """Write every metric of every (language, tokenizer) to ``path`` (reports, never raises)."""
        if self.result is None:
            return False
        try:
            write_csv(path, *self.result.table.long_rows())
        except OSError as exc:
            self.message.setText(f"Could not export: {exc}")
            return False
        self.sig_status_requested.emit(f"Saved {path}")
        return True

