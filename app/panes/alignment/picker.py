"""The tokenizer picker of the Alignment toolbar: the bundled tokenizers, the teaching
example, the data folder's tokenizers, recent files and the Hugging Face cache in one combo
box, plus "Open…".

The picker only asks: choosing an entry emits :attr:`TokenizerPicker.sig_path_chosen`
(the main window loads it through its usual path); "Teaching example", "More…" and
"Open…" emit their own signals. Where the tokenizers are is found once, on a worker
(:func:`find_sources`: unpacking the bundled files, walking the cache), never on the GUI
thread; the box lists at most :data:`MAX_CACHE_SHOWN` cache entries and is filled in one go.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QWidget

from app.workers import TaskRunner
from core.data import ResourceError, builtin_tokenizer, builtin_tokenizers, data_dir
from core.hf_cache import scan_cache
from core.tokenizers import DEMO_NAME

OPEN, MORE, TEACHING = "__open__", "__more__", "__teaching__"
MAX_CACHE_SHOWN = 150  # cache entries listed; "More…" opens the cache folder for the rest
TEACHING_ENTRY = DEMO_NAME[0].upper() + DEMO_NAME[1:]
DATA_TOKENIZERS = (("BERT uncased (tokenizer.json)", "bert-base-uncased/tokenizer.json"),
                   ("GPT-2 (tokenizer.json)", "gpt2/tokenizer.json"),
                   ("cl100k_base (tiktoken)", "cl100k_base/cl100k_base.tiktoken"),
                   ("Pegasus (Unigram)", "pegasus-unigram/tokenizer.json"))
_PATH_ROLE = int(Qt.ItemDataRole.UserRole)


@dataclass(frozen=True)
class Sources:
    """Where tokenizers were found: ``(label, path)`` lists, and what the cache scan left out."""

    builtin: list[tuple[str, str]] = field(default_factory=list)  # bundled, unpacked
    data: list[tuple[str, str]] = field(default_factory=list)  # in the data folder
    cache: list[tuple[str, str]] = field(default_factory=list)  # the first MAX_CACHE_SHOWN
    cache_found: int = 0  # tokenizers in the cache (all of them)
    skipped: int = 0  # cache folders that could not be read


def find_sources(should_stop: Callable[[], bool] | None = None) -> Sources:
    """The bundled tokenizers (unpacked on first use), the data folder's and the cache's
    (a worker runs this: O(models + snapshots in the cache) system calls).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True during the cache scan.
    """
    builtin = []
    for name, description in builtin_tokenizers().items():
        try:
            builtin.append((f"{name} — {description}", str(builtin_tokenizer(name))))
        except ResourceError:
            continue  # not installed or not writable: the main window reports it on use
    root = data_dir() / "tokenizers"
    data = [(label, str(root / rel)) for label, rel in DATA_TOKENIZERS if (root / rel).is_file()]
    scan = scan_cache(should_stop=should_stop)
    cache = [(item.label, str(item.path)) for item in scan.found[:MAX_CACHE_SHOWN]]
    return Sources(builtin, data, cache, len(scan.found), len(scan.skipped))


class TokenizerPicker(QComboBox):
    """A combo box of tokenizers; the first entry names the current one.

    Signals
    -------
    sig_path_chosen(str)
        The user chose the tokenizer file or folder at this path.
    sig_teaching_requested()
        The user chose the teaching example.
    sig_more_requested()
        The user chose "More…" (the cache holds more than the box lists).
    sig_open_requested()
        The user chose "Open…".
    sig_cache_scanned(int)
        :func:`find_sources` answered; the argument is how many tokenizers the cache holds.
    """

    sig_path_chosen = Signal(str)
    sig_teaching_requested = Signal()
    sig_more_requested = Signal()
    sig_open_requested = Signal()
    sig_cache_scanned = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._model = QStandardItemModel(self)
        self.setModel(self._model)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(28)
        self.setToolTip("Choose a tokenizer: built in, the teaching example, recently opened, or "
                        "already in the local Hugging Face cache; Open… picks a file or folder (Ctrl+O)")
        self._current = TEACHING_ENTRY.lower()
        self._recent: list[str] = []
        self.sources: Sources | None = None  # None: not found yet
        self._runner = TaskRunner(self)
        self._runner.sig_returned.connect(self._on_scanned)
        self._runner.sig_errored.connect(lambda _exc: self._on_scanned(Sources()))
        self.activated.connect(self._on_activated)
        self._rebuild()

    # -- contents ----------------------------------------------------------------------------
    def set_current(self, label: str) -> None:
        """Name the tokenizer in use (the first entry); emits nothing. O(1)."""
        self._current = label
        if self._model.rowCount():
            self._model.item(0).setText(f"Tokenizer: {label}")

    def set_recent(self, paths: Sequence[str]) -> None:
        """Recently opened tokenizer paths, newest first (the box is rebuilt if they changed)."""
        recent = [str(p) for p in paths]
        if recent != self._recent:
            self._recent = recent
            self._rebuild()

    def scan(self) -> None:
        """Find the tokenizers on a worker (once: later calls do nothing); the sections
        fill in when it answers."""
        if self.sources is None and not self._runner.busy:
            self._runner.submit(find_sources)

    def entries(self) -> list[tuple[str, str | None, bool]]:
        """``(text, path or OPEN/MORE/TEACHING or None, enabled)`` of every entry, in order."""
        out = []
        for row in range(self._model.rowCount()):
            item = self._model.item(row)
            out.append((item.text(), item.data(_PATH_ROLE), item.isEnabled()))
        return out

    # -- internals ---------------------------------------------------------------------------
    def _on_scanned(self, sources: Sources) -> None:
        self.sources = sources
        self._rebuild()
        self.sig_cache_scanned.emit(sources.cache_found)

    def _rebuild(self) -> None:
        """Replace every entry at once (one model reset). O(entries) ≤ O(MAX_CACHE_SHOWN + recent)."""
        s = self.sources
        waiting = "scanning…" if s is None else "(none found)"
        items = [_item(f"Tokenizer: {self._current}", None)]
        items += _section("Built-in", [] if s is None else s.builtin, waiting)
        items.append(_item(f"    {TEACHING_ENTRY}", TEACHING))
        if s is not None and s.data:
            items += _section("Data folder", s.data, "")
        items += _section("Recent", [(p, p) for p in self._recent], "(none yet)")
        items += _section("Hugging Face cache", [] if s is None else s.cache, waiting)
        if s is not None and s.cache_found > len(s.cache):
            items.append(_item(f"    More… ({s.cache_found - len(s.cache):,} more: Open from Cache)", MORE))
        if s is not None and s.skipped:
            items.append(_item(f"    {s.skipped:,} unreadable folder(s) skipped", None, enabled=False))
        items.append(_item("Open…", OPEN))
        self._model.clear()
        self._model.invisibleRootItem().appendRows(items)
        self.setCurrentIndex(0)

    def _on_activated(self, row: int) -> None:
        path = self._model.item(row).data(_PATH_ROLE) if 0 <= row < self._model.rowCount() else None
        self.setCurrentIndex(0)
        signal = {OPEN: self.sig_open_requested, MORE: self.sig_more_requested,
                  TEACHING: self.sig_teaching_requested}.get(path)
        if signal is not None:
            signal.emit()
        elif path:
            self.sig_path_chosen.emit(str(path))


def _item(text: str, path: str | None, *, enabled: bool = True, tip: str = "") -> QStandardItem:
    item = QStandardItem(text)
    item.setData(path, _PATH_ROLE)
    item.setEnabled(enabled)
    item.setEditable(False)
    if tip:
        item.setToolTip(tip)
    return item


def _section(title: str, items: Sequence[tuple[str, str]], empty: str) -> list[QStandardItem]:
    """A bold, disabled heading, then one entry per ``(label, path)`` (or ``empty``)."""
    head = _item(title, None, enabled=False)
    font = head.font()
    font.setBold(True)
    head.setFont(font)
    rows = [_item(f"    {label}", path, tip=path) for label, path in items]
    return [head] + (rows or [_item(f"    {empty}", None, enabled=False)])
