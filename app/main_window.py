"""The main window: menus, panes as tabs, the status bar, settings, tokenizer loading."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QTabWidget,
    QWidget,
)

from app import help as help_texts
from app.dialogs.encoders import finder, get_encoder
from app.first_run import SAMPLE_TEXT, default_tokenizer_path, side_by_side_path
from app.lessons import install_lessons
from app.panes.alignment import AlignmentPane
from app.panes.alignment.state import DEMO_LABELS, DEMO_TEXT, TOKENIZER_FILE_FILTER
from app.panes.base import Pane
from app.panes.compare import ComparePane
from app.panes.merges import MergesPane
from app.panes.pooling import PoolingPane
from app.panes.positions import PositionsPane
from app.panes.retrieval import RetrievalPane
from app.tokenizer_load import TokenizerLoad
from app.presentation import install_presentation
from app.view_exports import install_view_exports
from app.settings import (
    CHECKS, TEACHING_TOKENIZER, drop_invalid, flush_states, get_json, open_settings, read_state, set_json)
from app.workers import TaskRunner, wait_for_workers, wait_until_settled
from core.data import ResourceError, builtin_name
from core.encoder.sources import is_encoder_folder
from core.hf_cache import CacheScan, hub_cache_dir, scan_cache
from core.tokenizers import DEMO_NAME, TokenizerLike, load

# (short name, pane class): the order of the tabs (View ▸ Ctrl+1 … Ctrl+6).
PANES: tuple[tuple[str, type[Pane]], ...] = (
    ("alignment", AlignmentPane),
    ("merges", MergesPane),
    ("positions", PositionsPane),
    ("pooling", PoolingPane),
    ("compare", ComparePane),
    ("retrieval", RetrievalPane),
)
# The panes' stored state objects and the readers that check them field by field.
STATE_READERS = {f"{name}/state": cls.state_class.from_dict for name, cls in PANES if cls.state_class}
# Every settings.ini key read: the window's, and those older versions of the panes kept there.
SETTINGS_CHECKS = CHECKS | {key: check for _, cls in PANES for key, check in cls.legacy_checks.items()}

MAX_RECENT = 8
TEACHING = TEACHING_TOKENIZER  # tokenizer/current when the teaching example was chosen last
MAX_CACHE_ITEMS = 150  # File ▸ Open from Cache lists at most this many tokenizers


def load_tokenizer_file(path: str, **options: Any) -> Any:
    """Load a tokenizer with ``core.tokenizers.load`` (runs in a worker)."""
    return load(path, **options)


class MainWindow(QMainWindow):
    """Subword Scope's main window."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Subword Scope")
        self.settings = open_settings()
        self.dropped_settings = drop_invalid(self.settings, STATE_READERS, SETTINGS_CHECKS)  # never a failed start
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self.panes: dict[str, Pane] = {}
        for name, pane_cls in PANES:
            pane = pane_cls(self.settings, self)
            pane.sig_status_requested.connect(self._on_status_requested)
            self.panes[name] = pane
            self.tabs.addTab(pane, pane.title)
        self.loader = TaskRunner(self)  # loads tokenizer files off the GUI thread
        self.loader.sig_returned.connect(self._on_tokenizer_loaded)
        self.loader.sig_errored.connect(self._on_tokenizer_failed)
        self.loader.sig_busy_changed.connect(self._on_loader_busy)
        self.tokenizer_load = TokenizerLoad()  # where the loading stands (chosen, falling back, …)
        self._build_status_bar()
        self._build_menus()
        self.lesson_panel = install_lessons(self)  # Lessons menu + the lesson dock
        alignment = self.panes["alignment"]  # its toolbar's tokenizer picker
        alignment.sig_tokenizer_chosen.connect(self.load_tokenizer)
        alignment.sig_open_tokenizer_requested.connect(self._on_open_tokenizer_requested)
        compare = self.panes["compare"]  # a double-clicked atlas cell: its tokenizer, then its text
        compare.sig_tokenizer_requested.connect(lambda path, _label: path and self.load_tokenizer(path))
        compare.sig_text_requested.connect(self.show_text_in_alignment)
        geometry = self.settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1400, 900)
        self.tabs.setCurrentIndex(int(self.settings.value("window/tab", 0) or 0))
        self.tabs.currentChanged.connect(lambda i: self.settings.setValue("window/tab", i))
        if read_state(self.settings, "alignment/state") is None:  # no text saved: a first run
            self.set_text(SAMPLE_TEXT)  # in Tokenize mode (the state's default)
        QTimer.singleShot(0, self, self.restore_tokenizer)
        self.settings_note = QLabel()  # stays while later messages come and go (they used to hide it)
        self.settings_note.hide()
        if self.dropped_settings:
            message = ("Ignored unreadable settings (defaults or the nearest allowed values used): "
                       + ", ".join(self.dropped_settings))
            QTimer.singleShot(0, self, lambda: self.statusBar().showMessage(message, 20000))
            self.settings_note.setText(f"⚠ {len(self.dropped_settings)} unreadable setting"
                                       f"{'s' if len(self.dropped_settings) > 1 else ''} ignored")
            self.settings_note.setToolTip(message + "\n\n(Click to hide this note.)")
            self.settings_note.mousePressEvent = lambda _event: self.settings_note.hide()
            self.statusBar().addPermanentWidget(self.settings_note)
            self.settings_note.show()

    def restore_tokenizer(self) -> None:
        """Load the tokenizer remembered from the last run, else the bundled BERT, unless one
        was asked for since the window was made (``--tokenizer`` wins over settings)."""
        if not self.tokenizer_load.may_restore:
            return
        last = str(self.settings.value("tokenizer/current") or "")
        if last == TEACHING:
            self.tokenizer_load.choose_teaching()
            return  # the panes start on the teaching vocabulary
        if last and os.path.exists(last):
            self.load_tokenizer(last)
            return
        try:
            self.tokenizer_load.first_run_path = default_tokenizer_path()
        except ResourceError as exc:
            self._on_tokenizer_failed(exc)
            return
        self.load_tokenizer(self.tokenizer_load.first_run_path)

    # -- menus and status ----------------------------------------------------------------
    def _build_status_bar(self) -> None:
        self.tokenizer_status = QLabel(f"Tokenizer: {DEMO_NAME}")  # the permanent "Tokenizer: …"
        self._progress = QProgressBar()
        self._progress.setMaximumWidth(160)
        self._progress.setRange(0, 0)
        self._progress.hide()
        self.statusBar().addPermanentWidget(self.tokenizer_status)
        self.statusBar().addPermanentWidget(self._progress)

    def use_encoder(self, folder: str) -> None:
        """Run Pooling and Retrieval on the encoder in ``folder`` (remembered with their state)."""
        self.panes["pooling"].set_model_dir(folder)
        self.panes["retrieval"].set_model(True, folder)
        self.statusBar().showMessage(f"Encoder: {finder().describe(folder).label}", 5000)

    def _on_open_encoder_requested(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open an encoder folder", os.path.expanduser("~"))
        if not folder:
            return
        if not is_encoder_folder(folder):
            QMessageBox.warning(self, "Not an encoder folder", (
                f"{folder} holds no BERT-family encoder: it needs config.json (model_type "
                "\"bert\"), model.safetensors and a tokenizer (tokenizer.json, vocab.txt or a "
                "SentencePiece .model)."))
            return
        self.use_encoder(folder)

    def _on_get_encoder_requested(self) -> None:
        folder = get_encoder(self)
        if folder:
            self.use_encoder(folder)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        act = QAction("&Open Tokenizer…", self, shortcut=QKeySequence.StandardKey.Open)
        act.setStatusTip("Open a tokenizer.json, vocab.txt, vocab.json, .tiktoken or .model file")
        act.triggered.connect(self._on_open_tokenizer_requested)
        file_menu.addAction(act)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self._rebuild_recent_menu()
        self.cache_menu = file_menu.addMenu("Open from &Cache")
        self.cache_menu.setToolTipsVisible(True)
        self.cache_menu.aboutToShow.connect(self._on_cache_menu_requested)
        self.cache_scan = TaskRunner(self)  # the hub cache is scanned off the GUI thread
        self.cache_scan.sig_returned.connect(self._fill_cache_menu)
        self.cache_scan.sig_errored.connect(lambda exc: self._fill_cache_menu(CacheScan(), str(exc)))
        self._special_action = QAction("Parse &Special Tokens in .tiktoken Files", self, checkable=True)
        self._special_action.setChecked(self.settings.value("tokenizer/tiktoken_special", False, type=bool))
        self._special_action.setStatusTip(
            "tiktoken rank files carry no special tokens; turn this on to add the preset's "
            "special tokens (e.g. <|endoftext|>) so they are matched in the text"
        )
        self._special_action.toggled.connect(self._on_special_tokens_toggled)
        file_menu.addAction(self._special_action)
        demo = QAction("&Teaching Example", self, shortcut=QKeySequence("Ctrl+D"))
        demo.setStatusTip("A 15-entry WordPiece vocabulary on the sentence it was made for, with "
                          "entity labels (replaces the text; Ctrl+Z in the text brings yours back)")
        demo.triggered.connect(self.show_teaching_example)
        file_menu.addAction(demo)
        file_menu.addSeparator()
        enc = QAction("Open &Encoder…", self)
        enc.setStatusTip("A folder with config.json, model.safetensors and a tokenizer of a "
                         "BERT-family sentence encoder, for Pooling and Retrieval")
        enc.triggered.connect(self._on_open_encoder_requested)
        file_menu.addAction(enc)
        get = QAction("&Get an Encoder…", self)
        get.setStatusTip("Download a real sentence encoder (English or multilingual) into the "
                         "Hugging Face cache")
        get.triggered.connect(self._on_get_encoder_requested)
        file_menu.addAction(get)
        file_menu.addSeparator()
        shot = QAction("Save &Screenshot…", self, shortcut=QKeySequence("Ctrl+Shift+S"))
        shot.triggered.connect(self._on_screenshot_requested)
        file_menu.addAction(shot)
        self.view_exports = install_view_exports(self, file_menu)  # File ▸ Export ▸ span view, table, …
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
        self.presentation = install_presentation(self, view_menu)  # F11, Ctrl+= / Ctrl+- / Ctrl+0

        help_menu = self.menuBar().addMenu("&Help")
        looking = QAction("&What Am I Looking At?", self, shortcut=QKeySequence("F1"))
        looking.setStatusTip("What the current pane shows and how to read it")
        looking.triggered.connect(self.show_pane_help)
        help_menu.addAction(looking)
        keys = QAction("&Keyboard Shortcuts", self, shortcut=QKeySequence("Ctrl+/"))
        keys.triggered.connect(self.show_shortcuts)
        help_menu.addAction(keys)
        help_menu.addSeparator()
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

    def show_pane_help(self) -> QMessageBox:
        """Help ▸ What Am I Looking At?: the current pane's paragraph (non-modal)."""
        pane = self.tabs.currentWidget()
        return help_texts.show_pane_help(self, getattr(pane, "key", ""), getattr(pane, "title", ""))

    def show_shortcuts(self) -> Any:
        """Help ▸ Keyboard Shortcuts: every shortcut of the window, read from the window."""
        return help_texts.show_shortcuts(self, self.panes)

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

    def show_text_in_alignment(self, text: str) -> None:
        """Put ``text`` in the Alignment pane as one undoable edit (Ctrl+Z brings the user's
        text back) and bring that pane to the front (a Compare vocabulary example)."""
        self.panes["alignment"].replace_text(text)
        self.show_pane("alignment")

    def save_screenshot(self, path: str) -> bool:
        """Render the window to a PNG at ``path`` once pending work has settled."""
        app = QApplication.instance()
        app.processEvents()  # runs the start-up restore of the tokenizer
        self.wait_for_loader()
        for pane in self.panes.values():  # panes that compute on workers: their result first
            wait = getattr(pane, "wait_until_idle", None)
            if wait is not None:
                wait()
        current = self.tabs.currentWidget()
        if current is not None and getattr(current, "wait_until_idle", None) is None:
            self._wait_for_workers_of(current)
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
            TOKENIZER_FILE_FILTER,
        )
        if path:
            self.settings.setValue("tokenizer/last_dir", str(Path(path).parent))
            self.load_tokenizer(path)

    def _load_options(self, path: str) -> dict[str, Any]:
        if path.endswith(".tiktoken") and self._special_action.isChecked():
            return {"special_tokens": True}
        return {}

    def load_tokenizer(self, path: str, *, wait: bool = False) -> Exception | None:
        """Load ``path`` off the GUI thread; ``wait=True`` blocks until done (screenshots)
        and returns the error that stopped the load (None when it loaded or runs on)."""
        self.tokenizer_load.start(str(path))
        self.statusBar().showMessage(f"Loading {path}…")
        options = self._load_options(str(path))
        if wait:
            self.loader.cancel()  # a load still running (the start-up one) must not land after this one
            try:
                tok = load_tokenizer_file(str(path), **options)
            except (ValueError, OSError) as exc:
                self._on_tokenizer_failed(exc)
                return exc
            self._on_tokenizer_loaded(tok)
            return None
        self.loader.submit(load_tokenizer_file, str(path), **options)
        return None

    def _on_special_tokens_toggled(self, on: bool) -> None:
        self.settings.setValue("tokenizer/tiktoken_special", on)
        current = str(self.settings.value("tokenizer/current", "") or "")
        if current.endswith(".tiktoken"):
            self.load_tokenizer(current)

    def _on_cache_menu_requested(self) -> None:
        """Scan the hub cache on a worker; the menu says "Scanning…" until it is filled."""
        if self.cache_scan.busy:
            return
        self.cache_menu.clear()
        self.cache_menu.addAction(f"Scanning {hub_cache_dir()}…").setEnabled(False)
        self.cache_scan.submit(scan_cache, hub_cache_dir())

    def _fill_cache_menu(self, scan: CacheScan, error: str = "") -> None:
        """One action per cached tokenizer (at most :data:`MAX_CACHE_ITEMS`), then notes:
        none found, how many more there are, unreadable folders skipped."""
        menu = self.cache_menu
        menu.clear()
        for item in scan.found[:MAX_CACHE_ITEMS]:
            act = menu.addAction(item.label)
            act.setToolTip(str(item.path))
            act.triggered.connect(lambda _=False, p=str(item.path): self.load_tokenizer(p))
        notes = [f"Could not scan {hub_cache_dir()}: {error}"] if error else []
        if not scan.found and not error:
            notes.append(f"No tokenizers in {hub_cache_dir()}")
        if len(scan.found) > MAX_CACHE_ITEMS:
            notes.append(f"… {len(scan.found) - MAX_CACHE_ITEMS:,} more: File ▸ Open Tokenizer… opens any of them")
        if scan.skipped:
            notes.append(f"{len(scan.skipped):,} unreadable folder(s) skipped, e.g. {scan.skipped[0]}")
        for note in notes:
            menu.addAction(note).setEnabled(False)

    @staticmethod
    def _wait_for_workers_of(pane: QWidget, timeout_ms: int = 120_000) -> bool:
        """Run the event loop until none of ``pane``'s workers runs and none of its one-shot
        timers (debounces, deferred starts) is pending, for 200 ms in a row (a worker's
        result may start the next one), or ``timeout_ms`` passes; return whether it settled.
        For ``--screenshot`` of panes without their own ``wait_until_idle``."""
        return wait_until_settled(pane, timeout_ms)

    def wait_for_loader(self, timeout_ms: int = 30_000) -> None:
        """Run the event loop until a tokenizer being loaded has arrived (screenshots only)."""
        if not self.loader.busy:
            return
        loop = QEventLoop()
        self.loader.sig_busy_changed.connect(loop.quit)
        QTimer.singleShot(timeout_ms, loop.quit)
        loop.exec()
        self.loader.sig_busy_changed.disconnect(loop.quit)

    def use_demo_tokenizer(self) -> None:
        """Switch every pane to the 15-entry teaching vocabulary (the text stays)."""
        self.loader.cancel()
        self.tokenizer_load.choose_teaching()
        self.panes["alignment"].set_load_error(None)
        self.settings.setValue("tokenizer/current", TEACHING)
        self._broadcast_tokenizer(None, DEMO_NAME)

    def show_teaching_example(self) -> None:
        """File ▸ Teaching Example: the teaching vocabulary on its sentence, in labels mode.
        The text and labels are replaced as one edit each, so Ctrl+Z brings the user's back."""
        self.panes["alignment"].show_example(DEMO_TEXT, DEMO_LABELS)
        self.use_demo_tokenizer()
        self.show_pane("alignment")


    def _on_loader_busy(self, busy: bool) -> None:
        self._progress.setVisible(busy)

    def _on_tokenizer_loaded(self, tokenizer: TokenizerLike) -> None:
        path = self.tokenizer_load.path or ""
        self.settings.setValue("tokenizer/current", path)
        self._remember_recent(path)
        self._broadcast_tokenizer(tokenizer, path)
        alignment = self.panes["alignment"]
        if self.tokenizer_load.finish_first_run(path):  # BERT beside it, as a 2018 contrast
            try:
                alignment.compare_with(side_by_side_path())
            except ResourceError as exc:
                self.statusBar().showMessage(f"Side by side: {exc}", 10000)
        builtin = builtin_name(path)
        shown = f"{builtin} (built in)" if builtin else path
        failure = self.tokenizer_load.loaded()
        if failure:  # the request failed and this is the fallback: keep saying so
            alignment.set_load_error(f"{failure} — showing {shown} instead")
            self.statusBar().showMessage(failure, 15000)
        else:
            alignment.set_load_error(None)
            self.statusBar().showMessage(f"Loaded {shown}", 5000)

    def _on_tokenizer_failed(self, exc: object) -> None:
        """A load failed: say so in the status bar and in the Alignment pane's banner, which
        stays until a tokenizer loads (a result of the old tokenizer does not hide it). When
        nothing was shown yet (a bad ``--tokenizer`` at start-up), the remembered tokenizer
        (else the bundled BERT) is loaded instead of leaving the teaching vocabulary."""
        path = self.tokenizer_load.path
        message = f"Could not load tokenizer: {exc}"
        if path and path not in str(exc):  # name the file
            message = f"Could not load tokenizer {path}: {exc}"
        self.statusBar().showMessage(message, 15000)
        self.panes["alignment"].set_load_error(self.tokenizer_load.failed(message))
        if self.tokenizer_load.may_restore:  # nothing was shown yet: the remembered or bundled one
            self.restore_tokenizer()
            if self.tokenizer_load.path is not None:
                self.statusBar().showMessage(f"{message} — loading {self.tokenizer_load.path} instead…", 15000)

    def _broadcast_tokenizer(self, tokenizer: TokenizerLike, label: str) -> None:
        builtin = builtin_name(label) if tokenizer is not None else None
        shown = DEMO_NAME if tokenizer is None else f"{builtin} (built in)" if builtin else label
        self.tokenizer_status.setText(f"Tokenizer: {shown}")
        self.tokenizer_status.setToolTip(label)
        for pane in self.panes.values():
            pane.set_tokenizer(tokenizer, label)

    def _remember_recent(self, path: str) -> None:
        recent = [p for p in get_json(self.settings, "tokenizer/recent", []) if p != path]
        set_json(self.settings, "tokenizer/recent", ([path] + recent)[:MAX_RECENT])
        self._rebuild_recent_menu()

    def _rebuild_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = get_json(self.settings, "tokenizer/recent", [])
        for path in recent:
            act = self.recent_menu.addAction(path)
            act.triggered.connect(lambda _=False, p=path: self.load_tokenizer(p))
        self.recent_menu.setEnabled(bool(recent))

    # -- lifetime ------------------------------------------------------------------------
    def shutdown(self, timeout_ms: int = 500) -> None:
        """Cancel every pane's running task and wait (bounded) for the worker threads."""
        for runner in self.findChildren(TaskRunner):
            runner.cancel()
        wait_for_workers(timeout_ms / 1000)  # bounded: a blocked worker dies with the process

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.shutdown()
        for pane in self.panes.values():
            pane.save_state()
        flush_states()
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/tab", self.tabs.currentIndex())
        self.settings.sync()
        super().closeEvent(event)
