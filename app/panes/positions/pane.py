"""Positions pane: sinusoidal, RoPE, ALiBi and context-extension schemes plotted live.

One set of shared controls (T, d, base, pairing, selected pair, position cursor, seed, scale s,
training length L, H, head, causal) drives six sub-views (see
:mod:`app.panes.positions.views`). The pane keeps a frozen :class:`PositionsState`; a control
change updates it, marks every view stale and restarts a short debounce timer; the visible view
is then recomputed by ``core`` in the pane's :class:`~app.workers.TaskRunner` and rendered into
the plot items it already has. Stale results are dropped. ``PositionsState`` and the table
of controls live in :mod:`app.panes.positions.state` and :mod:`app.panes.positions.controls`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.panes.base import Pane
from app.panes.positions.controls import (
    CONTROLS,
    LOCAL_CONTROLS,
    control_signal,
    control_value,
    make_control,
    set_control_value,
)
from app.panes.positions.state import PositionsState
from app.panes.positions.view_base import PositionsView
from app.panes.positions.views import VIEW_CLASSES, BlockAnatomyView, EmbeddingCostView
from app.widgets.plot_export import export_plot
from app.widgets.text_format import plural
from app.workers import TaskRunner
from core.errors import SubwordScopeError

DEBOUNCE_MS = 60


def compute_view(compute, key: str, state: PositionsState) -> tuple[str, PositionsState, dict]:
    """Worker task: run a view's pure ``compute`` and tag the result with its request."""
    return key, state, compute(state)


class PositionsPane(Pane):
    """Position schemes, plotted live from ``core.positional``.

    Signals
    -------
    sig_plots_changed(str) : the view with this key has rendered the current state.
    sig_error_changed(str) : the inline error message ("" when cleared).
    """

    title = "Positions"
    key = "positions"
    state_class = PositionsState
    sig_plots_changed = Signal(str)
    sig_error_changed = Signal(str)

    def __init__(self, settings, parent: QWidget | None = None):
        super().__init__(settings, parent)
        self.state = self.restored_state()
        self.controls: dict[str, QWidget] = {}
        for name, label, kind, spec, tip, _ in CONTROLS + LOCAL_CONTROLS:
            self.controls[name] = make_control(kind, spec, tip, label if kind == "check" else "")
        self.views: dict[str, PositionsView] = {}
        self._dirty: set[str] = set()
        self._build_ui()
        self._write_controls(self.state)
        self.runner = TaskRunner(self)
        self.runner.sig_returned.connect(self._on_result_returned)
        self.runner.sig_errored.connect(self._on_task_errored)
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.recompute)
        for w in self.controls.values():
            control_signal(w).connect(self._on_control_changed)
        self.tabs.currentChanged.connect(self._on_view_changed)
        self._build_shortcuts()
        self.refresh_now()  # the first screen already shows real plots

    # -- construction --------------------------------------------------------------------
    def _build_ui(self) -> None:
        panel = QWidget()
        side = QVBoxLayout(panel)
        groups: dict[str, QFormLayout] = {}
        for name, label, kind, _, _, group in CONTROLS:
            if group not in groups:
                box = QGroupBox(group)
                groups[group] = QFormLayout(box)
                side.addWidget(box)
            groups[group].addRow("" if kind == "check" else label, self.controls[name])
        reset = QPushButton("Reset controls")
        reset.setToolTip("Back to the default settings (Ctrl+Shift+R)")
        reset.clicked.connect(self.reset_controls)
        side.addWidget(reset)
        side.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(panel)
        scroll.setWidgetResizable(True)
        scroll.setFixedWidth(panel.sizeHint().width() + 24)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #fde8e8; color: #8a1c1c; padding: 4px; border-radius: 3px;")
        self.banner.hide()
        self.tabs = QTabWidget()
        self._pages: dict[str, QWidget] = {}
        for cls in VIEW_CLASSES:  # each view is built the first time it is shown
            page = QWidget()
            QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
            self._pages[cls.key] = page
            self.tabs.addTab(page, cls.title)
        right = QVBoxLayout()
        right.addWidget(self.banner)
        right.addWidget(self.tabs, 1)
        layout = QHBoxLayout(self)
        layout.addWidget(scroll)
        layout.addLayout(right, 1)
        keys = [cls.key for cls in VIEW_CLASSES]
        self.tabs.setCurrentIndex(keys.index(self.state.view) if self.state.view in keys else 0)

    def show_view(self, key: str) -> None:
        """Bring the sub-view called ``key`` to the front (builds it if needed)."""
        self.tabs.setCurrentWidget(self._pages[key])

    def view(self, key: str) -> PositionsView:
        """The sub-view called ``key``, built on first use."""
        if key not in self.views:
            cls = next(c for c in VIEW_CLASSES if c.key == key)
            view = cls(self.controls) if cls in (EmbeddingCostView, BlockAnatomyView) else cls()
            view.sig_cursor_requested.connect(self._on_cursor_requested)
            for frame in view.plots():
                frame.sig_status_requested.connect(self.sig_status_requested)
            self._pages[key].layout().addWidget(view)
            self.views[key] = view
            self._dirty.add(key)
        return self.views[key]

    def _build_shortcuts(self) -> None:
        for i in range(len(VIEW_CLASSES)):
            sc = QShortcut(QKeySequence(f"Alt+{i + 1}"), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(lambda i=i: self.tabs.setCurrentIndex(i))
        for keys, slot in (("Ctrl+Shift+E", self._on_export_view_requested), ("Ctrl+Shift+R", self.reset_controls)):
            sc = QShortcut(QKeySequence(keys), self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)
        self.tabs.setToolTip("Alt+1..6 switch views; Ctrl+Shift+E exports every plot of this view")

    # -- state <-> widgets ---------------------------------------------------------------
    def _write_controls(self, state: PositionsState) -> None:
        self._sync_ranges(state.T, state.d, state.H)
        for name, w in self.controls.items():
            set_control_value(w, getattr(state, name))

    def _sync_ranges(self, T: int, d: int, H: int) -> None:
        for name, top in (("cursor", T - 1), ("pair", max(0, d // 2 - 1)), ("head", H - 1)):
            with QSignalBlocker(self.controls[name]):
                self.controls[name].setMaximum(max(0, top))

    def _read_controls(self) -> PositionsState:
        c = self.controls
        self._sync_ranges(c["T"].value(), c["d"].value(), c["H"].value())
        values = {name: control_value(w) for name, w in c.items()}
        return replace(self.state, **values, view=self.current_view().key)

    def current_view(self) -> PositionsView:
        return self.view(VIEW_CLASSES[self.tabs.currentIndex()].key)

    # -- updates -------------------------------------------------------------------------
    def _on_control_changed(self, *_: Any) -> None:
        self.state = self._read_controls()
        self._dirty = {cls.key for cls in VIEW_CLASSES}
        self._timer.start()  # restarts: one recompute after the last change

    def _on_cursor_requested(self, t: int) -> None:
        self.controls["cursor"].setValue(t)  # clamps to 0..T-1 and triggers the update

    def _on_view_changed(self, _index: int) -> None:
        self.state = replace(self.state, view=self.current_view().key)
        if self.current_view().key in self._dirty:
            self.recompute()

    def recompute(self) -> None:
        """Compute the view shown now from :attr:`state`, on the worker (a pending debounced
        request is dropped: this one supersedes it)."""
        self._timer.stop()
        view = self.current_view()
        self.runner.submit(compute_view, type(view).compute, view.key, self.state)

    def _on_result_returned(self, result: tuple[str, PositionsState, dict]) -> None:
        key, state, data = result
        if state != replace(self.state, view=state.view) or key != self.current_view().key:
            return  # computed for controls that have changed since
        self._render(key, data)

    def _render(self, key: str, data: dict) -> None:
        self.views[key].render(data)
        self._dirty.discard(key)
        self._show_error("")
        self.sig_plots_changed.emit(key)

    def _on_task_errored(self, exc: object) -> None:
        if isinstance(exc, SubwordScopeError):
            self._show_error(str(exc))
        else:
            self._show_error(f"Internal error ({type(exc).__name__}: {exc}); the plots show the last good settings.")

    def _show_error(self, message: str) -> None:
        if message == self.banner.text() and self.banner.isVisible() == bool(message):
            return
        self.banner.setText(message)
        self.banner.setVisible(bool(message))
        self.sig_error_changed.emit(message)

    def refresh_now(self) -> None:
        """Recompute and render the visible view on the GUI thread (first screen, benchmarks)."""
        view = self.current_view()
        try:
            data = type(view).compute(self.state)
        except SubwordScopeError as exc:
            self._show_error(str(exc))
            return
        self._render(view.key, data)

    def reset_controls(self) -> None:
        """Put every control back to its default value and redraw."""
        self.state = PositionsState(view=self.current_view().key)
        self._write_controls(self.state)
        self._on_control_changed()

    # -- export and persistence ----------------------------------------------------------
    def export_view(self, folder: str | Path) -> list[Path]:
        """Write every plot of the visible view to ``folder`` as PNG, SVG and CSV."""
        folder = Path(folder)
        written = []
        for frame in self.current_view().plots():
            for fmt in ("png", "svg", "csv"):
                written.append(export_plot(frame.plot, folder / f"{frame.export_button.name}.{fmt}",
                                           title=frame.export_button.title))
        return written

    def _on_export_view_requested(self) -> None:
        if not self.current_view().plots():
            self.sig_status_requested.emit("This view has no plots to export")
            return
        folder = QFileDialog.getExistingDirectory(self, "Export the plots of this view to…")
        if not folder:
            return
        try:
            paths = self.export_view(folder)
        except (OSError, ValueError) as exc:
            self.sig_status_requested.emit(f"Export failed: {exc}")
        else:
            self.sig_status_requested.emit(f"Saved {plural(len(paths), 'file')} to {folder}")

    def show_state(self) -> None:
        """Write the state into the controls and the view tabs, then recompute (debounced)."""
        state = self.state
        blockers = [QSignalBlocker(w) for w in self.controls.values()]
        self._write_controls(state)
        del blockers
        self.show_view(state.view)
        self.state = state
        self._on_control_changed()

    def save_state(self) -> None:
        self.store_state(self.state)

