"""Offset-map view: a table of :func:`core.text.offset_map.offset_rows` for the selection
(which original code points produced which normalized characters, and why)."""

from __future__ import annotations

import unicodedata

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from app.widgets.token_badges import visible
from core.text.normalize import NormalizedText
from core.text.offset_map import OffsetRow, offset_rows

HEADERS = ("Original", "Code points", "→ Normalized", "Code points", "What happened")


def _codepoints(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text[:6]) + (" …" if len(text) > 6 else "")


def _names(text: str) -> str:
    return "\n".join(f"U+{ord(c):04X} {unicodedata.name(c, '(no name)')}" for c in text[:12])


class OffsetMapView(QTableWidget):
    """A table of :class:`OffsetRow` for the current selection."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(0, len(HEADERS), parent)
        self.setHorizontalHeaderLabels(HEADERS)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.setWordWrap(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(True)
        for col, width in enumerate((70, 130, 100, 130)):
            self.setColumnWidth(col, width)
        self.setToolTip(
            "Offset map of the selection: which original code points produced which normalized "
            "characters. Hover a cell for the Unicode names."
        )
        self.rows: list[OffsetRow] = []
        self.changes_only = False
        self._shown: tuple[NormalizedText | None, int, int] = (None, 0, 0)

    def set_changes_only(self, on: bool) -> None:
        """List only rows whose characters normalization changed (and re-show)."""
        self.changes_only = bool(on)
        self.show_span(*self._shown)

    def show_span(self, nt: NormalizedText | None, start: int, end: int) -> None:
        """Show the offset map of original ``[start, end)``; an empty span clears the view."""
        self._shown = (nt, start, end)
        rows = offset_rows(nt, start, end) if nt is not None and end > start else []
        if self.changes_only:
            rows = [r for r in rows if r.kind != "unchanged"]
        if rows and rows == self.rows:
            return
        self.rows = rows
        self.setRowCount(len(self.rows))
        if not rows and nt is not None and end > start:
            self.setRowCount(1)
            note = QTableWidgetItem("(every selected character maps to itself)" if self.changes_only
                                    else "(nothing selected)")
            self.setItem(0, 0, note)
            self.setSpan(0, 0, 1, len(HEADERS))
            return
        self.clearSpans()
        for r, row in enumerate(self.rows):
            cells = (
                visible(row.original, 24),
                _codepoints(row.original),
                visible(row.normalized, 24) if row.normalized else "∅",
                _codepoints(row.normalized),
                row.kind,
            )
            tips = (_names(row.original), _names(row.original), _names(row.normalized),
                    _names(row.normalized), f"original {row.start}–{row.end} → normalized "
                    f"{row.norm_start}–{row.norm_end} ({row.shape})")
            for c, (value, tip) in enumerate(zip(cells, tips)):
                item = QTableWidgetItem(value)
                item.setToolTip(tip)
                self.setItem(r, c, item)
