"""The main window: menus, panes as tabs, the status bar, settings, tokenizer loading."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QThreadPool, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QTabWidget,
)

from app.panes.alignment import AlignmentPane
from app.panes.base import Pane
from app.panes.compare import ComparePane
from app.panes.merges import MergesPane
from app.panes.pooling import PoolingPane
from app.panes.positions import PositionsPane
from app.panes.retrieval import RetrievalPane
from app.settings import get_json, open_settings, set_json
from app.workers import TaskRunner
from core.hf_cache import find_cached_tokenizers, hub_cache_dir
from core.tokenizers import load

# (short name, pane class): the order of the tabs (View ▸ Ctrl+1 … Ctrl+6).
PANES: tuple[tuple[str, type[Pane]], ...] = (
    ("alignment", AlignmentPane),
    ("merges", MergesPane),
    ("positions", PositionsPane),
    ("pooling", PoolingPane),
    ("compare", ComparePane),
    ("retrieval", RetrievalPane),
)

MAX_RECENT = 8


def load_tokenizer_file(path: str, **options: Any) -> Any:
    """Load a tokenizer with ``core.tokenizers.load`` (runs in a worker)."""
    return load(path, **options)


class MainWindow(QMainWindow):
    """Subword Scope's main window."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Subword Scope")
        self.settings = open_settings()
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self.panes: dict[str, Pane] = {}
        for name, pane_cls in PANES:
            pane = pane_cls(self.settings, self)
            pane.sig_status_requested.connect(self._on_status_requested)
            self.panes[name] = pane
            self.tabs.addTab(pane, pane.title)
        self._loader = TaskRunner(self)
        self._loader.sig_returned.connect(self._on_tokenizer_loaded)
        self._loader.sig_errored.connect(self._on_tokenizer_failed)
        self._loader.sig_busy_changed.connect(self._on_loader_busy)
        self._pending_path: str | None = None
        self._build_status_bar()
        self._build_menus()
        geometry = self.settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1400, 900)
        self.tabs.setCurrentIndex(int(self.settings.value("window/tab", 0) or 0))
        QTimer.singleShot(0, self, self.restore_tokenizer)

    def restore_tokenizer(self) -> None:
        """Load the tokenizer remembered from the last run, unless one was asked for since
        the window was made (``--tokenizer`` on the command line wins over settings)."""
        last = self.settings.value("tokenizer/current")
        if self._pending_path is None and last and os.path.exists(str(last)):
            self.load_tokenizer(str(last))

    # -- menus and status ----------------------------------------------------------------
    def _build_status_bar(self) -> None:
        self._status_label = QLabel("Tokenizer: built-in demo vocabulary")
        self._progress = QProgressBar()
        self._progress.setMaximumWidth(160)
        self._progress.setRange(0, 0)
        self._progress.hide()
        self.statusBar().addPermanentWidget(self._status_label)
        self.statusBar().addPermanentWidget(self._progress)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        act = QAction("&Open Tokenizer…", self, shortcut=QKeySequence.StandardKey.Open)
        act.setStatusTip("Open a tokenizer.json, vocab.txt, vocab.json, .tiktoken or .model file")
        act.triggered.connect(self._on_open_tokenizer_requested)
        file_menu.addAction(act)
        self._recent_menu = file_menu.addMenu("Open &Recent")
        self._rebuild_recent_menu()
        self._cache_menu = file_menu.addMenu("Open from &Cache")
        self._cache_menu.setToolTipsVisible(True)
        self._cache_menu.aboutToShow.connect(self._rebuild_cache_menu)
        self._special_action = QAction("Parse &Special Tokens in .tiktoken Files", self, checkable=True)
        self._special_action.setChecked(self.settings.value("tokenizer/tiktoken_special", False, type=bool))
        self._special_action.setStatusTip(
            "tiktoken rank files carry no special tokens; turn this on to add the preset's "
            "special tokens (e.g. <|endoftext|>) so they are matched in the text"
        )
        self._special_action.toggled.connect(self._on_special_tokens_toggled)
        file_menu.addAction(self._special_action)
        demo = QAction("Use &Demo Tokenizer", self, shortcut=QKeySequence("Ctrl+D"))
        demo.setStatusTip("The 15-entry toy WordPiece vocabulary of the built-in example")
        demo.triggered.connect(self.use_demo_tokenizer)
        file_menu.addAction(demo)
        file_menu.addSeparator()
        shot = QAction("Save &Screenshot…", self, shortcut=QKeySequence("Ctrl+Shift+S"))
        shot.triggered.connect(self._on_screenshot_requested)
        file_menu.addAction(shot)
        file_menu.addSeparator()
        quit_act = QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit)
        quit_act.triggered.connect(self.close)
        file_menu.addAction(quit_act)

        view_menu = self.menuBar().addMenu("&View")
        for i, (name, _) in enumerate(PANES):
            pane = self.panes[name]
            act = QAction(pane.title, self, shortcut=QKeySequence(f"Ctrl+{i + 1}"))
            act.triggered.connect(lambda _=False, n=name: self.show_pane(n))
            view_menu.addAction(act)

        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About Subword Scope", self)
        about.triggered.connect(self._on_about_requested)
        help_menu.addAction(about)

    def _on_status_requested(self, message: str) -> None:
        """Show a pane's message, unless the pane is hidden behind another tab."""
        sender = self.sender()
        if sender is None or sender is self.tabs.currentWidget():
            self.statusBar().showMessage(message, 8000)

    def _on_about_requested(self) -> None:
        QMessageBox.about(
            self,
            "About Subword Scope",
            "Subword Scope shows what tokenizers really do to text: normalization with its "
            "offset map, tokens and their original spans, BPE training step by step, "
            "position encodings, pooling and cross-language comparisons.",
        )

    def _on_screenshot_requested(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save Screenshot", "subwordscope.png", "PNG (*.png)")
        if path:
            self.save_screenshot(path)

    # -- panes ---------------------------------------------------------------------------
    def show_pane(self, name: str) -> None:
        """Bring the pane called ``name`` (see :data:`PANES`) to the front."""
        pane = self.panes.get(name)
        if pane is None:
            self.statusBar().showMessage(f"No pane called {name!r}; panes: {', '.join(self.panes)}")
            return
        self.tabs.setCurrentWidget(pane)

    def set_text(self, text: str) -> None:
        """Give ``text`` to the alignment pane (used by ``--text-file``)."""
        pane = self.panes.get("alignment")
        if pane is not None and hasattr(pane, "set_text"):
            pane.set_text(text)

    def save_screenshot(self, path: str) -> bool:
        """Render the window to a PNG at ``path`` once pending work has settled."""
        app = QApplication.instance()
        for _ in range(3):
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 200)
        ok = self.grab().save(path)
        self.statusBar().showMessage(f"Saved {path}" if ok else f"Could not save {path}", 5000)
        return ok

    # -- tokenizers ----------------------------------------------------------------------
    def _on_open_tokenizer_requested(self) -> None:
        start = str(self.settings.value("tokenizer/last_dir", str(Path.home())))
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Open Tokenizer",
            start,
            "Tokenizer files (*.json *.txt *.tiktoken *.model);;All files (*)",
        )
        if path:
            self.settings.setValue("tokenizer/last_dir", str(Path(path).parent))
            self.load_tokenizer(path)

    def _load_options(self, path: str) -> dict[str, Any]:
        if path.endswith(".tiktoken") and self._special_action.isChecked():
            return {"special_tokens": True}
        return {}

    def load_tokenizer(self, path: str, *, wait: bool = False) -> None:
        """Load ``path`` off the GUI thread; ``wait=True`` blocks until done (screenshots)."""
        self._pending_path = str(path)
        self.statusBar().showMessage(f"Loading {path}…")
        options = self._load_options(str(path))
        if wait:
            try:
                tok = load_tokenizer_file(str(path), **options)
            except (ValueError, OSError) as exc:
                self._on_tokenizer_failed(exc)
            else:
                self._on_tokenizer_loaded(tok)
            return
        self._loader.submit(load_tokenizer_file, str(path), **options)

    def _on_special_tokens_toggled(self, on: bool) -> None:
        self.settings.setValue("tokenizer/tiktoken_special", on)
        current = str(self.settings.value("tokenizer/current", "") or "")
        if current.endswith(".tiktoken"):
            self.load_tokenizer(current)

    def _rebuild_cache_menu(self) -> None:
        self._cache_menu.clear()
        found = find_cached_tokenizers()
        for item in found:
            act = self._cache_menu.addAction(item.label)
            act.setToolTip(str(item.path))
            act.triggered.connect(lambda _=False, p=str(item.path): self.load_tokenizer(p))
        if not found:
            none = self._cache_menu.addAction(f"No tokenizers in {hub_cache_dir()}")
            none.setEnabled(False)

    def use_demo_tokenizer(self) -> None:
        """Switch every pane back to the built-in demo vocabulary."""
        self._loader.cancel()
        self.settings.remove("tokenizer/current")
        self._broadcast_tokenizer(None, "built-in demo vocabulary")

    def _on_loader_busy(self, busy: bool) -> None:
        self._progress.setVisible(busy)

    def _on_tokenizer_loaded(self, tokenizer: Any) -> None:
        path = self._pending_path or ""
        self.settings.setValue("tokenizer/current", path)
        self._remember_recent(path)
        self._broadcast_tokenizer(tokenizer, path)
        self.statusBar().showMessage(f"Loaded {path}", 5000)

    def _on_tokenizer_failed(self, exc: object) -> None:
        self.statusBar().showMessage(f"Could not load tokenizer: {exc}", 15000)
        alignment = self.panes.get("alignment")
        if alignment is not None and hasattr(alignment, "show_error"):
            alignment.show_error(f"Could not load tokenizer: {exc}")

    def _broadcast_tokenizer(self, tokenizer: Any, label: str) -> None:
        shown = "built-in demo vocabulary" if tokenizer is None else label
        self._status_label.setText(f"Tokenizer: {shown}")
        self._status_label.setToolTip(label)
        for pane in self.panes.values():
            pane.set_tokenizer(tokenizer, label)

    def _remember_recent(self, path: str) -> None:
        recent = [p for p in get_json(self.settings, "tokenizer/recent", []) if p != path]
        set_json(self.settings, "tokenizer/recent", ([path] + recent)[:MAX_RECENT])
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self._recent_menu.clear()
        recent = get_json(self.settings, "tokenizer/recent", [])
        for path in recent:
            act = self._recent_menu.addAction(path)
            act.triggered.connect(lambda _=False, p=path: self.load_tokenizer(p))
        self._recent_menu.setEnabled(bool(recent))

    # -- lifetime ------------------------------------------------------------------------
    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Cancel every pane's running task and wait (bounded) for the worker threads."""
        for runner in self.findChildren(TaskRunner):
            runner.cancel()
        QThreadPool.globalInstance().waitForDone(timeout_ms)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.shutdown()
        for pane in self.panes.values():
            pane.save_state()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/tab", self.tabs.currentIndex())
        self.settings.sync()
        super().closeEvent(event)
