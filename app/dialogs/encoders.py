"""The sentence encoders the app can run: found once per process on a worker
(:class:`EncoderFinder`: the data folder and the Hugging Face cache, see
:mod:`core.encoder.sources`), and fetched in one click (:class:`GetEncoderDialog`: a few real
models with size and languages, downloaded into the Hugging Face cache with progress, cancel
and resume, see :mod:`core.encoder.download`).

The Pooling and Retrieval panes ask :func:`finder` for the encoder to run when the user chose
none, and open :func:`get_encoder` from their "Get a real model…" link; File ▸ Open Encoder…
and File ▸ Get an Encoder… in the main window lead to the same places.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.workers import TaskRunner
from core.data import data_dir
from core.hf_cache import hub_cache_dir
from core.encoder.download import OFFERS, DownloadError, download_encoder
from core.encoder.sources import FoundEncoder, default_encoder, describe, find_encoders
from core.errors import SubwordScopeError

STANDIN_SOURCE = "stand-in: a fixed random vector per word — hits share words, not meaning"
GET_LINK = "<a href='get'>Get a real model…</a>"


class EncoderFinder(QObject):
    """The encoders found in the data folder and the Hugging Face cache, scanned on a worker.

    ``found`` is None until the first scan ends; ``sig_found(list)`` then carries the
    :class:`~core.encoder.sources.FoundEncoder` list (again after :meth:`rescan`). A scan is
    of the folders the environment named when it started (``SUBWORDSCOPE_DATA``,
    ``HF_HUB_CACHE``…); when they change, :meth:`default` answers None and scans again.
    """

    sig_found = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.found: list[FoundEncoder] | None = None
        self._roots: tuple | None = None  # the folders the last scan looked in
        self._runner = TaskRunner(self)
        self._runner.sig_returned.connect(self._on_found)
        self._runner.sig_errored.connect(lambda exc: self._on_found([]))

    def scan(self) -> None:
        """Start a scan unless one ran or runs."""
        if self.found is None and not self._runner.busy:
            self.rescan()

    def rescan(self) -> None:
        """Scan again (after a download or an opened folder)."""
        self._roots = _roots()
        self._runner.submit(_scan)

    def default(self) -> FoundEncoder | None:
        """The encoder to run when the user chose none (None: nothing found, or not yet)."""
        if self._roots != _roots():
            self.found = None
            self.rescan()
        return default_encoder(self.found or [])

    def describe(self, folder: str) -> FoundEncoder:
        """Which model ``folder`` holds and where it came from."""
        return describe(folder, self.found)

    def _on_found(self, found) -> None:
        self.found = list(found)
        self.sig_found.emit(self.found)


def _roots() -> tuple[Path, Path]:
    return data_dir() / "models", hub_cache_dir()


def _scan(*, should_stop=None) -> list[FoundEncoder]:
    return find_encoders(should_stop=should_stop)


_finder: EncoderFinder | None = None


def finder() -> EncoderFinder:
    """The process's :class:`EncoderFinder` (created, and its scan started, on first use;
    call it on the GUI thread)."""
    global _finder
    if _finder is None:
        _finder = EncoderFinder()
        _finder.scan()
    return _finder


def source_text(folder: str | None) -> str:
    """``"all-MiniLM-L6-v2 — Hugging Face cache"``, or the stand-in named with the way to a
    real model (rich text with :data:`GET_LINK`) when ``folder`` is None."""
    if not folder:
        return f"Stand-in: a fixed random vector per word — hits share words, not meaning · {GET_LINK}"
    return finder().describe(folder).label


class GetEncoderDialog(QDialog):
    """Offers :data:`core.encoder.download.OFFERS` (name, languages, size) and downloads the
    chosen one into the Hugging Face cache on a worker, with progress and cancel; a partial
    download resumes next time. ``sig_downloaded(str)`` carries the model folder."""

    sig_downloaded = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Get a sentence encoder")
        self.folder: str | None = None
        intro = QLabel("Pooling and Retrieval run on a real sentence encoder when one is present. "
                       "Choose one to download into the Hugging Face cache (where transformers "
                       "and sentence-transformers find it too):")
        intro.setWordWrap(True)
        self.table = QTableWidget(len(OFFERS), 4)
        self.table.setHorizontalHeaderLabels(["Model", "Languages", "Size", "About"])
        for r, o in enumerate(OFFERS):
            for c, text in enumerate((o.repo_id, o.languages, f"{o.size_mb} MB", o.note)):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(r, c, item)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.selectRow(0)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        for c in range(3):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # About wraps: never cut off
        self.table.setWordWrap(True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.hide()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.download_button = QPushButton("Download")
        self.cancel_button = QPushButton("Cancel download")
        self.cancel_button.setEnabled(False)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.download_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for w in (intro, self.table, self.progress, self.message, buttons):
            layout.addWidget(w)
        self.resize(1100, 300)
        self._runner = TaskRunner(self)
        self._runner.sig_progress.connect(lambda f: self.progress.setValue(int(1000 * f)))
        self._runner.sig_returned.connect(self._on_done)
        self._runner.sig_errored.connect(self._on_failed)
        self._runner.sig_busy_changed.connect(self._on_busy)
        self.download_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)

    def chosen(self) -> str:
        rows = self.table.selectionModel().selectedRows()
        return OFFERS[rows[0].row() if rows else 0].repo_id

    def start(self, repo_id: str | None = None, **options) -> None:
        """Download ``repo_id`` (default: the selected row); ``options`` go to
        :func:`core.encoder.download.download_encoder` (``cache_dir``, ``endpoint``)."""
        repo = repo_id or self.chosen()
        self._repo = repo
        self.message.setStyleSheet("")
        self.message.setText(f"Downloading {repo}…")
        self.progress.setValue(0)
        self.progress.show()
        self._runner.submit(download_encoder, repo, **options)

    def cancel(self) -> None:
        if self._runner.busy:
            self._runner.cancel()
            self.message.setText("Cancelled. The part downloaded is kept: Download resumes it.")

    def reject(self) -> None:
        self._runner.cancel()
        super().reject()

    def _on_busy(self, busy: bool) -> None:
        self.download_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)
        self.table.setEnabled(not busy)

    def _on_done(self, folder) -> None:
        self.folder = str(folder)
        self.progress.setValue(1000)
        self.message.setText(f"{self._repo} is in the Hugging Face cache ({folder}); "
                             "Pooling and Retrieval use it now.")
        finder().rescan()
        self.sig_downloaded.emit(self.folder)

    def _on_failed(self, exc) -> None:
        self.progress.hide()
        text = str(exc) if isinstance(exc, (SubwordScopeError, DownloadError)) else (
            f"{type(exc).__name__}: {exc}")
        self.message.setStyleSheet("color: #b91c1c;")
        self.message.setText(text)


def get_encoder(parent: QWidget | None = None) -> str | None:
    """Show :class:`GetEncoderDialog` (modal); the downloaded model folder, or None."""
    dialog = GetEncoderDialog(parent)
    dialog.exec()
    return dialog.folder
