"""The Compare pane's controls: tokenizer list, corpus folder, metric / reference / sort
choices, compute and export buttons, and the tokenizer entries they start from.

The widgets only; the pane connects their signals, owns the shortcuts and the state.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.panes.compare.state import CompareState, TokenizerEntry, sampling_inputs, tokenizer_pairs
from app.panes.compare.table_tab import fill_combo
from app.settings import Check, get_json, is_json, is_text, state_file
from core.data import (
    COMPARED_BUILTINS, ResourceError, builtin_name, builtin_tokenizer, builtin_tokenizers, data_dir, udhr_files,
    udhr_sample_dir)
from core.metrics import METRICS, CompareTable
from core.metrics.measures import TOOLTIPS
from core.collection import COLLECTION
from core.text.scripts import OTHER_SCRIPTS, SCRIPTS, script_label
from core.text.scripts import language_name
from core.tokenizers import TokenizerLike

SHARED_TOKENIZERS = ("bert-base-uncased/tokenizer.json", "gpt2/tokenizer.json",
                     "pegasus-unigram/tokenizer.json", "cl100k_base/cl100k_base.tiktoken")


def default_entries() -> list[TokenizerEntry]:
    """The data folder's tokenizer files that exist, else the built-in tokenizers (loaded in
    the worker; failures are reported)."""
    root = data_dir() / "tokenizers"
    found = [TokenizerEntry(Path(rel).parent.name, str(root / rel)) for rel in SHARED_TOKENIZERS if (root / rel).exists()]
    return found or _builtin_entries()




def _builtin_entries() -> list[TokenizerEntry]:
    try:
        return [TokenizerEntry(name, str(builtin_tokenizer(name))) for name in builtin_tokenizers()
                if name in COMPARED_BUILTINS]
    except ResourceError:
        return []  # the pane still compares the main window's tokenizer


def default_folder() -> str:
    """The data folder's UDHR texts when there, else the UDHR sample shipped with the app."""
    files = udhr_files()
    return str(files[0].parent) if files else str(udhr_sample_dir())


def corpus_choices() -> list[tuple[str, str | None]]:
    """The corpus chooser's items: (label, folder): the shared UDHR texts when the data folder
    has them, the shipped UDHR collection, and "Folder…" (``None``: the user's choice)."""
    files = udhr_files()
    shared = [(f"Shared UDHR ({len(files)} texts)", str(files[0].parent))] if files else []
    return shared + [("UDHR collection (532 texts, shipped)", COLLECTION), ("Folder…", None)]


def restored_folder(folder: str) -> str:
    """The stored corpus folder if it still exists (or the UDHR collection), else the
    shared UDHR folder."""
    return folder if folder == COLLECTION or (folder and os.path.isdir(folder)) else default_folder()


def restored_entries(pairs: list | None) -> list[TokenizerEntry]:
    """The stored ``[label, path]`` files that still exist (the shared ones when ``pairs``
    is ``None``: nothing stored yet)."""
    if pairs is None:
        return default_entries()
    return [TokenizerEntry(label, path) for label, path in pairs if os.path.exists(path)]


def stored_pairs(entries: list[TokenizerEntry]) -> list[list[str]]:
    """``[label, path]`` of the compared files (tokenizers loaded elsewhere have no path)."""
    return [[e.label, e.path] for e in entries if e.path]


LEGACY_KEYS = ("corpus_folder", "tokenizer_paths", "metric", "reference", "damage_form", "sampling", "tab",
               "last_dir")
"""The ``settings.ini`` keys (under ``compare/``) of versions before ``state.json``: each the
field of :class:`~app.panes.compare.state.CompareState` of the same name."""
_LEGACY_JSON = ("tokenizer_paths", "sampling")  # stored as JSON strings
LEGACY_CHECKS: dict[str, Check] = {
    f"compare/{key}": is_json(tokenizer_pairs if key == "tokenizer_paths" else sampling_inputs)
    if key in _LEGACY_JSON else is_text for key in LEGACY_KEYS}
"""What a readable value of each legacy key looks like (checked when the window opens, before
:func:`legacy_state` moves them)."""


def legacy_state(settings: QSettings, group: str) -> dict | None:
    """The Compare options an older version kept as separate ``settings.ini`` keys
    (``compare/metric`` …), as a :class:`CompareState` dict, and removed from the file (so
    they are moved once; kept there while ``state.json`` cannot be written); ``None`` when
    there are none. Values are read as stored: the state
    class checks them. O(number of keys)."""
    found = {}
    keep = bool(state_file(settings).refused)
    for key in LEGACY_KEYS:
        full = f"{group}/{key}"
        if settings.contains(full):
            found[key] = get_json(settings, full, None) if key in _LEGACY_JSON else settings.value(full)
            if not keep:
                settings.remove(full)
    return found or None


def label_of(path: str) -> str:
    """A short label for a tokenizer file: its folder for generic names, else its stem."""
    p = Path(path)
    return p.parent.name if p.name in ("tokenizer.json", "vocab.txt", "vocab.json") else p.stem


def unique_label(label: str, entries: list[TokenizerEntry]) -> str:
    """``label``, or ``label (2)``, ``label (3)`` … if an entry already has it."""
    taken = {e.label for e in entries}
    out, k = label, 2
    while out in taken:
        out, k = f"{label} ({k})", k + 1
    return out


def add_loaded(entries: list[TokenizerEntry], tokenizer: TokenizerLike, label: str) -> None:
    """Add an already loaded tokenizer to ``entries``, or give it to the entry with the same
    path or label; ``label`` is usually its path. A built-in tokenizer (a file
    :func:`core.data.builtin_tokenizer` unpacked) whose name an entry already has is not
    added again: it is the same model (the first screen compares the shared files, and the
    main window's built-in BERT would be a twin column "bert-base-uncased (2)")."""
    path = label if label and os.path.exists(label) else None
    for e in entries:
        if (path and e.path == path) or e.label == label:
            e.tokenizer = tokenizer
            return
    shipped = builtin_name(path) if path else None
    if shipped is not None and any(e.label == shipped for e in entries):
        return  # the built-in copy of a tokenizer already compared under its name: no twin column
    name = label_of(path) if path else (getattr(tokenizer, "name", None) or label)
    entries.append(TokenizerEntry(unique_label(str(name), entries), path, tokenizer))


class CompareControls(QWidget):
    """The widgets above the Compare pane's tabs (no signal is connected here)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._build_tokenizer_list()
        self._build_options()
        self._build_layout()

    def _build_tokenizer_list(self) -> None:
        self.tokenizer_list = QListWidget()
        self.tokenizer_list.setToolTip("Tokenizers compared (columns of the heatmap)")
        self.tokenizer_list.setMaximumHeight(110)  # about six rows; more scroll
        self.tokenizer_list.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.tokenizer_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.add_button = QPushButton("Add tokenizer…")
        self.add_button.setToolTip("Add a tokenizer.json, vocab.txt, .tiktoken or .model file (Ctrl+Shift+T)")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Remove the selected tokenizer from the comparison (Delete)")

    def _build_options(self) -> None:
        self.folder_edit = QLineEdit()
        self.folder_edit.setReadOnly(True)
        self.folder_edit.setMinimumWidth(80)  # a long path scrolls inside; the row stays narrow
        self.folder_edit.setToolTip("Corpus folder: one UTF-8 .txt file per language, same content in each; "
                                    "or udhr-all: the UDHR collection shipped with the app (532 texts)")
        self.folder_button = QPushButton("Corpus folder…")
        self.folder_button.setToolTip("Choose the parallel corpus folder (Ctrl+Shift+O)")
        self.corpus_combo = QComboBox()
        self.corpus_combo.setToolTip("The corpus: the shared UDHR texts, the whole UDHR collection shipped "
                                     "with the app, or a folder of your own (Corpus folder…)")
        for label, folder in corpus_choices():
            self.corpus_combo.addItem(label, folder)
        self.script_combo, self.stage_combo, self.direction_combo = QComboBox(), QComboBox(), QComboBox()
        for combo, tip, items in (
                (self.script_combo, "Keep the languages written in this script (UDHR collection)",
                 [("All scripts", None)] + [(script_label(s), s) for s in SCRIPTS if s not in ("Common", "Inherited")]
                 + [("Other scripts", OTHER_SCRIPTS)]),
                (self.stage_combo, "Keep the texts of this completeness stage (UDHR collection; 4 = complete and checked)",
                 [("All stages", None), ("Complete (4)", (4,)), ("Partial (1–3)", (1, 2, 3))]),
                (self.direction_combo, "Keep the languages written in this direction (UDHR collection)",
                 [("Both directions", None), ("Left to right", ("ltr",)), ("Right to left", ("rtl",))])):
            combo.setToolTip(tip)
            for label, value in items:
                combo.addItem(label, value)
        self.metric_combo = QComboBox()
        for key, (label, desc) in METRICS.items():
            self.metric_combo.addItem(label, key)
            self.metric_combo.setItemData(self.metric_combo.count() - 1, TOOLTIPS.get(key, desc), Qt.ItemDataRole.ToolTipRole)
        self.metric_combo.setToolTip("Metric shown in the heatmap and the bars (Ctrl+M)")
        # sized for most labels, not the longest: the row fits a 1280-pixel window (the list is full width)
        self.metric_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.metric_combo.setMinimumContentsLength(18)
        self.reference_combo = QComboBox()
        self.reference_combo.setMinimumContentsLength(14)
        self.reference_combo.setToolTip("Reference language of the premium (token count ratio on the same content)")
        self.sort_combo = QComboBox()
        self.sort_combo.setMinimumContentsLength(16)
        self.sort_combo.setToolTip("Order of the heatmap rows: by language, or by value (largest first)")
        self.compute_button = QPushButton("Compute")
        self.compute_button.setToolTip("Encode the corpus with every tokenizer (F5)")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running computation (Esc)")
        self.cancel_button.setEnabled(False)
        self.export_button = QPushButton("Export table CSV…")
        self.export_button.setToolTip("Save every metric of every language × tokenizer as CSV")
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(180)
        self.progress.setToolTip("Progress of the comparison (language × tokenizer cells)")
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020;")

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
        folder.addWidget(self.corpus_combo)
        folder.addWidget(self.folder_edit, 1)
        folder.addWidget(self.folder_button)
        right.addLayout(folder)
        keep = QHBoxLayout()
        keep.addWidget(QLabel("Languages"))
        for widget in (self.script_combo, self.stage_combo, self.direction_combo):
            keep.addWidget(widget)
        keep.addStretch(1)
        right.addLayout(keep)
        opts = QHBoxLayout()
        for label, widget in (("Metric", self.metric_combo), ("Reference", self.reference_combo), ("Sort rows", self.sort_combo)):
            opts.addWidget(QLabel(label))
            opts.addWidget(widget)
        opts.addStretch(1)
        right.addLayout(opts)
        run = QHBoxLayout()  # a row of its own: the options above fit beside a lesson at 1.35×
        for widget in (self.compute_button, self.cancel_button, self.progress, self.export_button):
            run.addWidget(widget)
        run.addStretch(1)
        right.addLayout(run)
        right.addWidget(self.message)
        top = QHBoxLayout(self)
        top.setContentsMargins(0, 0, 0, 0)
        top.addLayout(left, 1)
        top.addLayout(right, 3)

    def write(self, state: CompareState, entries: list[TokenizerEntry]) -> None:
        """Write the tokenizer list (``entries``), corpus folder and metric of ``state`` into
        the widgets without re-triggering their slots."""
        with QSignalBlocker(self.tokenizer_list):
            self.tokenizer_list.clear()
            for e in entries:
                self.tokenizer_list.addItem(e.label)
                self.tokenizer_list.item(self.tokenizer_list.count() - 1).setToolTip(e.path or "loaded in the main window")
        self.folder_edit.setText(state.corpus_folder)
        with QSignalBlocker(self.corpus_combo):
            at = self.corpus_combo.findData(state.corpus_folder)
            self.corpus_combo.setCurrentIndex(at if at >= 0 else self.corpus_combo.count() - 1)
        for combo in (self.script_combo, self.stage_combo, self.direction_combo):
            combo.setEnabled(state.corpus_folder == COLLECTION)
        with QSignalBlocker(self.metric_combo):
            self.metric_combo.setCurrentIndex(max(0, self.metric_combo.findData(state.metric)))

    def filters(self) -> dict:
        """The language filters chosen (keys of :func:`core.collection.filter_languages`)."""
        out = {}
        for key, combo in (("scripts", self.script_combo), ("stages", self.stage_combo),
                           ("directions", self.direction_combo)):
            value = combo.currentData()
            if value is not None:
                out[key] = (value,) if isinstance(value, str) and key == "scripts" else tuple(value)
        return out

    def set_choices(self, table: CompareTable, reference: str, sort_by: str) -> tuple[list[tuple[str, str]], str, str]:
        """Fill the reference and sort combos for ``table``, keeping ``reference`` and
        ``sort_by`` where they still exist; return the ``(label, code)`` languages and the
        reference and sort order now selected (the reference is ``None`` without languages)."""
        langs = [(f"{language_name(c)} ({c})", c) for c in sorted(table.languages)]
        fill_combo(self.reference_combo, langs, reference)
        fill_combo(self.sort_combo, [("language", "language"), ("mean over tokenizers", "mean")]
                   + [(f"value: {t}", t) for t in table.tokenizers], sort_by)
        return langs, self.reference_combo.currentData(), self.sort_combo.currentData() or "language"
