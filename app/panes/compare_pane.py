"""Compare pane: several tokenizers across many languages, and where they differ on one text.

Tokenizers (files added here, or the main window's current tokenizer) × a parallel corpus
(one ``.txt`` per language; the shared UDHR folder by default). One worker task loads,
encodes and measures everything (cached per tokenizer file, corpus file and modification
time); the tabs render the result: a heatmap + bars of any metric, a drill-down of one line,
normalization damage, and a sampling calculator.

Run alone: ``python -m app.panes.compare_pane``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.panes.base import Pane, run_alone
from app.panes.compare_drilldown import DrillTab
from app.panes.compare_models import write_csv
from app.panes.compare_normalization import NormalizationView
from app.panes.compare_sampling import SamplingView
from app.panes.compare_state import (
    CompareResult,
    CompareState,
    TokenizerEntry,
    result_notes,
    run_comparison,
)
from app.panes.compare_table_tab import COMPUTING, TableTab, fill_combo
from app.settings import get_json, set_json
from app.widgets.text_format import plural
from app.workers import TaskRunner
from core.data import data_dir, udhr_files
from core.metric_table import METRICS
from core.scripts import language_name

SHARED_TOKENIZERS = ("bert-base-uncased/tokenizer.json", "gpt2/tokenizer.json",
                     "pegasus-unigram/tokenizer.json", "cl100k_base/cl100k_base.tiktoken")
DEMO_LABEL = "built-in demo vocabulary"


def default_entries() -> list[TokenizerEntry]:
    """The shared tokenizer files that exist (loaded in the worker; failures are reported)."""
    root = data_dir() / "tokenizers"
    return [TokenizerEntry(Path(rel).parent.name, str(root / rel)) for rel in SHARED_TOKENIZERS if (root / rel).exists()]


def default_folder() -> str:
    files = udhr_files()
    return str(files[0].parent) if files else ""


class ComparePane(Pane):
    """Languages × tokenizers metrics, drill-down, normalization damage and sampling.

    Signals
    -------
    sig_result_changed() : a new comparison result is shown.
    """

    title = "Compare"
    key = "compare"

    sig_result_changed = Signal()

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        self.state = CompareState()
        self.result: CompareResult | None = None
        self._cache: dict = {}
        self._loaded: dict[str, Any] = {}
        self._runner = TaskRunner(self)
        self._runner.sig_returned.connect(self._on_result_returned)
        self._runner.sig_errored.connect(self._on_task_errored)
        self._runner.sig_progress.connect(self._on_progress_changed)
        self._runner.sig_busy_changed.connect(self._on_busy_changed)
        self._recompute_timer = QTimer(self, singleShot=True, interval=250)
        self._recompute_timer.timeout.connect(self.recompute)
        self._started = False  # the first comparison starts when the pane is first shown
        self._submitted_folder = ""  # corpus folder of the running comparison
        self._shown_folder = ""  # corpus folder of self.result
        self._unverified: set[str] = set()  # files added here, not loaded yet
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
        self.tokenizer_list = QListWidget()
        self.tokenizer_list.setToolTip("Tokenizers compared (columns of the heatmap)")
        self.tokenizer_list.setMaximumHeight(110)  # about six rows; more scroll
        self.tokenizer_list.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.tokenizer_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.add_button = QPushButton("Add tokenizer…")
        self.add_button.setToolTip("Add a tokenizer.json, vocab.txt, .tiktoken or .model file (Ctrl+Shift+T)")
        self.add_button.clicked.connect(self._on_add_requested)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Remove the selected tokenizer from the comparison (Delete)")
        self.remove_button.clicked.connect(self._on_remove_requested)
        self.folder_edit = QLineEdit()
        self.folder_edit.setReadOnly(True)
        self.folder_edit.setToolTip("Corpus folder: one UTF-8 .txt file per language, same content in each")
        self.folder_button = QPushButton("Corpus folder…")
        self.folder_button.setToolTip("Choose the parallel corpus folder (Ctrl+Shift+O)")
        self.folder_button.clicked.connect(self._on_folder_requested)
        self.metric_combo = QComboBox()
        for key, (label, desc) in METRICS.items():
            self.metric_combo.addItem(label, key)
            self.metric_combo.setItemData(self.metric_combo.count() - 1, desc, Qt.ItemDataRole.ToolTipRole)
        self.metric_combo.setToolTip("Metric shown in the heatmap and the bars (Ctrl+M)")
        self.metric_combo.currentIndexChanged.connect(self._on_metric_changed)
        self.reference_combo = QComboBox()
        self.reference_combo.setMinimumContentsLength(14)
        self.reference_combo.setToolTip("Reference language of the premium (token count ratio on the same content)")
        self.reference_combo.currentIndexChanged.connect(self._on_reference_changed)
        self.sort_combo = QComboBox()
        self.sort_combo.setMinimumContentsLength(16)
        self.sort_combo.setToolTip("Order of the heatmap rows: by language, or by value (largest first)")
        self.sort_combo.currentIndexChanged.connect(self._on_sort_changed)
        self.compute_button = QPushButton("Compute")
        self.compute_button.setToolTip("Encode the corpus with every tokenizer (F5)")
        self.compute_button.clicked.connect(self.recompute)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running computation (Esc)")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.export_button = QPushButton("Export table CSV…")
        self.export_button.setToolTip("Save every metric of every language × tokenizer as CSV")
        self.export_button.clicked.connect(self._on_export_requested)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(180)
        self.progress.setToolTip("Progress of the comparison (language × tokenizer cells)")
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020;")
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
        self.drill_tab = DrillTab()
        self.drill_language, self.drill_line, self.drill_view = self.drill_tab.language, self.drill_tab.line, self.drill_tab.view
        self.normalization = NormalizationView()
        self.normalization.sig_form_changed.connect(self._on_damage_changed)
        self.normalization.sig_language_changed.connect(self._on_damage_changed)
        self.normalization.sig_status_requested.connect(self.sig_status_requested)
        self.sampling = SamplingView()
        self.sampling.corpus_button.clicked.connect(self._on_corpus_sizes_requested)
        self.sampling.sig_status_requested.connect(self.sig_status_requested)
        self.sampling.plot.sig_status_requested.connect(self.sig_status_requested)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.table_tab, "Table")
        self.tabs.addTab(self.drill_tab, "Drill-down")
        self.tabs.addTab(self.normalization, "Normalization")
        self.tabs.addTab(self.sampling, "Sampling")

    def _build_layout(self) -> None:
        left = QVBoxLayout()
        left.addWidget(QLabel("<b>Tokenizers</b>"))
        left.addWidget(self.tokenizer_list)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        left.addLayout(buttons)
        right = QVBoxLayout()
        folder = QHBoxLayout()
        folder.addWidget(QLabel("<b>Corpus</b>"))
        folder.addWidget(self.folder_edit, 1)
        folder.addWidget(self.folder_button)
        right.addLayout(folder)
        opts = QHBoxLayout()
        for label, widget in (("Metric", self.metric_combo), ("Reference", self.reference_combo), ("Sort rows", self.sort_combo)):
            opts.addWidget(QLabel(label))
            opts.addWidget(widget)
        opts.addStretch(1)
        opts.addWidget(self.compute_button)
        opts.addWidget(self.cancel_button)
        opts.addWidget(self.progress)
        opts.addWidget(self.export_button)
        right.addLayout(opts)
        right.addWidget(self.message)
        top = QHBoxLayout()
        top.addLayout(left, 1)
        top.addLayout(right, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)

    # -- state ----------------------------------------------------------------------------
    def _restore_state(self) -> None:
        g = self.key
        folder = str(self.settings.value(f"{g}/corpus_folder", "") or "")
        self.state.corpus_folder = folder if folder and os.path.isdir(folder) else default_folder()
        paths = get_json(self.settings, f"{g}/tokenizer_paths", None)
        if paths is None:
            self.state.entries = default_entries()
        else:
            self.state.entries = [TokenizerEntry(label, path) for label, path in paths if os.path.exists(path)]
        self.state.metric = str(self.settings.value(f"{g}/metric", "fertility"))
        self.state.reference = str(self.settings.value(f"{g}/reference", "eng"))
        self.state.damage_form = str(self.settings.value(f"{g}/damage_form", "strip_accents"))
        sampling = get_json(self.settings, f"{g}/sampling", None)
        if sampling:
            self.sampling.set_inputs(*sampling)
        self.normalization.set_form(self.state.damage_form)
        self._write_controls()

    def save_state(self) -> None:
        g = self.key
        self.settings.setValue(f"{g}/corpus_folder", self.state.corpus_folder)
        set_json(self.settings, f"{g}/tokenizer_paths", [[e.label, e.path] for e in self.state.entries if e.path])
        self.settings.setValue(f"{g}/metric", self.state.metric)
        self.settings.setValue(f"{g}/damage_form", self.state.damage_form)
        set_json(self.settings, f"{g}/sampling", list(self.sampling.inputs()))

    def _write_controls(self) -> None:
        """Write the state into the widgets without re-triggering their slots."""
        with QSignalBlocker(self.tokenizer_list):
            self.tokenizer_list.clear()
            for e in self.state.entries:
                self.tokenizer_list.addItem(e.label)
                self.tokenizer_list.item(self.tokenizer_list.count() - 1).setToolTip(e.path or "loaded in the main window")
        self.folder_edit.setText(self.state.corpus_folder)
        with QSignalBlocker(self.metric_combo):
            self.metric_combo.setCurrentIndex(max(0, self.metric_combo.findData(self.state.metric)))

    # -- tokenizers and corpus --------------------------------------------------------------
    def add_tokenizer_file(self, path: str) -> None:
        """Add a tokenizer file (loaded in the worker with ``core.tokenizers.load``)."""
        path = str(path)
        if any(e.path == path for e in self.state.entries):
            self.sig_status_requested.emit(f"{path} is already compared")
            return
        self.state.entries.append(TokenizerEntry(self._unique_label(_label_of(path)), path))
        self._unverified.add(path)  # refused when the worker cannot load it
        self._on_entries_changed()

    def add_tokenizer(self, tokenizer: Any, label: str) -> None:
        """Add (or refresh) an already loaded tokenizer; ``label`` is usually its path."""
        path = label if label and os.path.exists(label) else None
        for e in self.state.entries:
            if (path and e.path == path) or e.label == label:
                e.tokenizer = tokenizer
                break
        else:
            name = _label_of(path) if path else (getattr(tokenizer, "name", None) or label)
            self.state.entries.append(TokenizerEntry(self._unique_label(str(name)), path, tokenizer))
        self._on_entries_changed()

    def set_tokenizer(self, tokenizer: Any, label: str) -> None:
        """The main window's tokenizer joins the comparison (``None`` = the demo vocabulary)."""
        if tokenizer is None:
            try:
                from core.tokenizers import demo_tokenizer

                tokenizer, label = demo_tokenizer(), DEMO_LABEL
            except (ImportError, ValueError, OSError) as exc:
                self.message.setText(f"The demo tokenizer is not available: {exc}")
                return
        self.add_tokenizer(tokenizer, label)

    def remove_tokenizer(self, index: int) -> None:
        if 0 <= index < len(self.state.entries):
            del self.state.entries[index]
            self._on_entries_changed()

    def set_corpus_folder(self, folder: str) -> None:
        """Use ``folder`` as the corpus (bad folders are reported by the computation)."""
        self.state.corpus_folder = str(folder)
        self.folder_edit.setText(self.state.corpus_folder)
        self.settings.setValue(f"{self.key}/corpus_folder", self.state.corpus_folder)
        self._schedule_recompute()

    def _unique_label(self, label: str) -> str:
        taken = {e.label for e in self.state.entries}
        out, k = label, 2
        while out in taken:
            out, k = f"{label} ({k})", k + 1
        return out

    def _on_entries_changed(self) -> None:
        self._write_controls()
        set_json(self.settings, f"{self.key}/tokenizer_paths", [[e.label, e.path] for e in self.state.entries if e.path])
        self._schedule_recompute()

    def _on_add_requested(self) -> None:
        start = str(self.settings.value(f"{self.key}/last_dir", str(data_dir() / "tokenizers")))
        path, _ = QFileDialog.getOpenFileName(self, "Add Tokenizer", start,
                                              "Tokenizer files (*.json *.txt *.tiktoken *.model);;All files (*)")
        if path:
            self.settings.setValue(f"{self.key}/last_dir", str(Path(path).parent))
            self.add_tokenizer_file(path)

    def _on_remove_requested(self) -> None:
        self.remove_tokenizer(self.tokenizer_list.currentRow())

    def _on_folder_requested(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Choose Corpus Folder", self.state.corpus_folder or str(Path.home()))
        if folder:
            self.set_corpus_folder(folder)

    # -- computation ----------------------------------------------------------------------
    def recompute(self) -> None:
        """Start the comparison in the worker (cancels a running one)."""
        self._recompute_timer.stop()
        self._started = True
        if not self.state.corpus_folder:
            self.message.setText("Choose a corpus folder (one .txt file per language) to compare tokenizers.")
            return
        if not self.state.entries:
            self.message.setText("Add at least one tokenizer (Add tokenizer… or File ▸ Open Tokenizer).")
        self.progress.setValue(0)
        self._submitted_folder = self.state.corpus_folder
        if self.result is None:
            self.table_tab.set_placeholder(COMPUTING)
        elif self._submitted_folder != self._shown_folder:  # never old numbers under a new name
            self.heatmap.set_note(f"Computing {self._submitted_folder}… the table still shows "
                                  f"{self._shown_folder}.")
        self._runner.submit(run_comparison, list(self.state.entries), self.state.corpus_folder,
                            self.state.reference, self._cache, self._loaded)

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
        self.settings.setValue(f"{self.key}/corpus_folder", self._shown_folder)
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
        refused, text = result_notes(result, self.state.entries, self._unverified, self._shown_folder)
        self._unverified.clear()
        if refused:
            self.state.entries = [e for e in self.state.entries if e not in refused]
            self._write_controls()
            set_json(self.settings, f"{self.key}/tokenizer_paths",
                     [[e.label, e.path] for e in self.state.entries if e.path])
        return text

    # -- rendering ------------------------------------------------------------------------
    def _refresh_choices(self) -> None:
        table = self.result.table
        langs = [(f"{language_name(c)} ({c})", c) for c in sorted(table.languages)]
        fill_combo(self.reference_combo, langs, self.state.reference)
        ref = self.reference_combo.currentData()
        if ref and ref != self.state.reference:  # the reference is not in this corpus
            self.state.reference = ref
            self._schedule_recompute()  # cells are cached: only the premium changes
        fill_combo(self.sort_combo, [("language", "language"), ("mean over tokenizers", "mean")]
                   + [(f"value: {t}", t) for t in table.tokenizers], self.state.sort_by)
        self.state.sort_by = self.sort_combo.currentData() or "language"
        labelled = list(zip(table.tokenizers, self.result.tokenizers))
        self.drill_tab.set_result(self.result.corpus, labelled, langs, self.state.reference)

    def heatmap_rows(self) -> list[int]:
        """Table row indices in the order the heatmap shows them (top to bottom)."""
        return self.table_tab.heatmap_rows()

    def _render_table(self) -> None:
        if self.result is not None:
            self.table_tab.show_table(self.result.table, self.state.metric, self.state.sort_by)

    def _render_damage(self) -> None:
        if self.result is not None:
            langs = sorted(self.result.table.languages)
            self.normalization.set_damage(self.result.damage, langs, self.state.damage_language or "hin")

    # -- slots ----------------------------------------------------------------------------
    def _on_metric_changed(self, _index: int) -> None:
        self.state.metric = self.metric_combo.currentData()
        self.settings.setValue(f"{self.key}/metric", self.state.metric)
        self._render_table()

    def _on_reference_changed(self, _index: int) -> None:
        ref = self.reference_combo.currentData()
        if ref and ref != self.state.reference:
            self.state.reference = ref
            self.settings.setValue(f"{self.key}/reference", ref)
            self._schedule_recompute()

    def _on_sort_changed(self, _index: int) -> None:
        self.state.sort_by = self.sort_combo.currentData() or "language"
        self._render_table()

    def _on_language_picked(self, code: str) -> None:
        self.drill_tab.select(code)

    def _on_damage_changed(self, *_args) -> None:
        self.state.damage_form = self.normalization.form()
        self.state.damage_language = self.normalization.selected_language()
        self.settings.setValue(f"{self.key}/damage_form", self.state.damage_form)

    def _on_corpus_sizes_requested(self) -> None:
        if self.result is None:
            self.sampling.message.setText("Compute a comparison first: the sizes come from the corpus.")
            return
        col = self.result.table.values("utf8_bytes")[:, 0] if self.result.table.tokenizers else []
        if len(col) == 0:
            self.sampling.message.setText("Add a tokenizer first: the corpus is read with the comparison.")
            return
        self.sampling.set_sizes(list(self.result.table.languages), [float(v) for v in col])

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


def _label_of(path: str) -> str:
    p = Path(path)
    return p.parent.name if p.name in ("tokenizer.json", "vocab.txt", "vocab.json") else p.stem


def main() -> int:
    return run_alone(ComparePane, 1400, 900)


if __name__ == "__main__":  # pragma: no cover
    main()
