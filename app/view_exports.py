"""File ▸ Export: one view of the current pane on its own (:func:`install_view_exports`).

- **Span View…** (Ctrl+Alt+P): the pane's span view as a PNG at 2× or an SVG, titled (a
  pane offers it as ``span_view()``: Alignment's text with its spans, Merges' held-out words);
- **Table…** (Ctrl+Alt+T): the table focused last in the current pane (else its first shown
  table) as CSV or TSV, the text each cell shows;
- **Segmentation…** (Ctrl+Alt+G): the pane's ``segmentation_text()`` as UTF-8 text
  (Alignment: the tokens; Merges: the held-out words' symbols).

The writing is :mod:`app.widgets.view_export`'s; a failure is a status-bar message, never an
exception. Plots keep their own Export buttons.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QFileDialog, QWidget

from app.widgets.view_export import (
    IMAGE_FILTERS,
    TABLE_FILTERS,
    export_view_image,
    last_table,
    write_table,
    write_text,
)


class ViewExports(QObject):
    """The three export actions of a main window (see the module notes)."""

    def __init__(self, window: Any, menu: Any):
        super().__init__(window)
        self.window = window
        self._last_view: QWidget | None = None  # the item view focused last
        QApplication.instance().focusChanged.connect(self._on_focus_changed)
        sub = menu.addMenu("&Export")
        self.actions: dict[str, QAction] = {}
        for key, text, keys, slot in (
                ("span", "&Span View as PNG or SVG…", "Ctrl+Alt+P", self._ask_span),
                ("table", "&Table as CSV or TSV…", "Ctrl+Alt+T", self._ask_table),
                ("segmentation", "Se&gmentation as Text…", "Ctrl+Alt+G", self._ask_segmentation)):
            act = QAction(text, window, shortcut=QKeySequence(keys))
            act.triggered.connect(slot)
            sub.addAction(act)
            self.actions[key] = act

    # -- what is exported ---------------------------------------------------------------
    def _pane(self) -> Any:
        return self.window.tabs.currentWidget()

    def span_view(self) -> QWidget | None:
        """The current pane's span view (None: it has none)."""
        get = getattr(self._pane(), "span_view", None)
        return get() if get is not None else None

    def table(self) -> QAbstractItemView | None:
        """The table a user means in the current pane (see :func:`last_table`)."""
        pane = self._pane()
        return last_table(pane, self._last_view) if pane is not None else None

    def segmentation(self) -> str | None:
        get = getattr(self._pane(), "segmentation_text", None)
        return get() if get is not None else None

    # -- writing (no dialogs) ---------------------------------------------------------------
    def export_span_view(self, path: str) -> bool:
        view = self.span_view()
        if view is None:
            return self._say(f"The {self._pane().title} pane has no span view to export.")
        title = f"{self._pane().title}: token spans"
        return self._write(lambda: export_view_image(view, path, title=title), f"Exported the span view to {path}")

    def export_table(self, path: str) -> bool:
        view = self.table()
        if view is None:
            return self._say(f"The {self._pane().title} pane shows no table to export.")
        return self._write(lambda: write_table(view.model(), path), "Exported {} rows to " + path)

    def export_segmentation(self, path: str) -> bool:
        text = self.segmentation()
        if not text:
            return self._say(f"The {self._pane().title} pane has no segmentation to export.")
        return self._write(lambda: write_text(path, text), "Exported {} lines to " + path)

    def _write(self, fn, message: str) -> bool:
        try:
            result = fn()
        except (OSError, ValueError) as exc:  # ValueError: e.g. a NUL in the path
            return self._say(f"Could not export: {exc}")
        self.window.statusBar().showMessage(message.format(f"{result:,}" if isinstance(result, int) else ""), 10000)
        return True

    def _say(self, message: str) -> bool:
        self.window.statusBar().showMessage(message, 10000)
        return False

    # -- dialogs -----------------------------------------------------------------------------
    def _ask(self, caption: str, name: str, filters: dict[str, str]) -> str:
        path, chosen = QFileDialog.getSaveFileName(self.window, caption, name, ";;".join(filters.values()))
        if not path:
            return ""
        ext = next((e for e, f in filters.items() if f == chosen), next(iter(filters)))
        return path if any(path.lower().endswith("." + e) for e in filters) else f"{path}.{ext}"

    def _ask_span(self) -> None:
        path = self._ask("Export Span View", "spans.png", IMAGE_FILTERS)
        if path:
            self.export_span_view(path)

    def _ask_table(self) -> None:
        path = self._ask("Export Table", "table.csv", TABLE_FILTERS)
        if path:
            self.export_table(path)

    def _ask_segmentation(self) -> None:
        path = self._ask("Export Segmentation", "segmentation.txt", {"txt": "Text (*.txt)"})
        if path:
            self.export_segmentation(path)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        while new is not None and not isinstance(new, QAbstractItemView):
            new = new.parentWidget()  # the viewport of a table has the focus
        if new is not None and self.window.isAncestorOf(new):
            self._last_view = new


def install_view_exports(window: Any, file_menu: Any) -> ViewExports:
    """Add File ▸ Export (span view, table, segmentation) to ``window``."""
    return ViewExports(window, file_menu)
