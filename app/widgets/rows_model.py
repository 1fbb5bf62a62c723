"""The app's one read-only table model of plain rows, and its CSV export.

:class:`RowsModel` shows rows of values under a header. Two kinds of table use it:

- tables of pre-formatted cells (the Merges pane's candidates, n-best paths and replay steps):
  cells are shown as given, a row may carry a tooltip, one row may be highlighted, headers
  carry tooltips;
- tables of values (the Compare pane's damage, examples and sampling tables): built with
  ``formatted=True``, numbers are shown by :func:`format_value` and right-aligned, and each
  cell's tooltip is its value.

In both, ``UserRole`` is the raw value, so sorting through a ``QSortFilterProxyModel`` with
``setSortRole(UserRole)`` is numeric.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFileDialog, QPushButton, QWidget

HIGHLIGHT_COLOUR = QColor("#d9ead3")  # the highlighted ("current") row
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

AnyIndex = QModelIndex | QPersistentModelIndex


def format_value(value: Any) -> str:
    """Numbers shown with 4 significant decimals (integers exactly); ``nan`` as an em dash."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            return "\u2014"
        return f"{value:,.0f}" if value.is_integer() and abs(value) >= 1000 else f"{value:.4g}"
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class RowsModel(QAbstractTableModel):
    """Rows of values under a header (read-only).

    Parameters
    ----------
    header : column titles.
    rows : the first rows (see :meth:`set_rows`).
    header_tips : a tooltip per column title.
    formatted : False shows cells as given, with only the row tips as tooltips; True shows
        them through :func:`format_value`, numbers right-aligned, each cell's value as its
        tooltip (see the module docstring).
    """

    def __init__(self, header: Sequence[str] = (), rows: Sequence[Sequence[Any]] = (), *,
                 header_tips: Sequence[str] = (), formatted: bool = False, parent: Any = None):
        super().__init__(parent)
        self._header, self._header_tips = list(header), list(header_tips)
        self._formatted = formatted
        self._rows: list[tuple] = [tuple(r) for r in rows]
        self._tips: list[str | None] = [None] * len(self._rows)
        self.highlight = -1  # the row shown in the highlight colour (-1: none)

    def set_rows(self, rows: Sequence[Sequence[Any]], tips: Sequence[str | None] = (), *,
                 header: Sequence[str] | None = None, header_tips: Sequence[str] | None = None,
                 highlight: int = -1) -> None:
        """Show ``rows`` (``tips``: one tooltip per row, for unformatted tables; ``header``:
        new column titles, ``header_tips`` their tooltips); ``highlight`` is a row index or -1."""
        self.beginResetModel()
        if header is not None:
            self._header = list(header)
        if header_tips is not None:
            self._header_tips = list(header_tips)
        self._rows = [tuple(r) for r in rows]
        self._tips = list(tips) + [None] * (len(rows) - len(tips))
        self.highlight = highlight
        self.endResetModel()

    def set_highlight(self, row: int) -> None:
        """Highlight row ``row`` instead (-1: none); only the two rows concerned repaint."""
        old, self.highlight = self.highlight, row
        for r in (old, row):
            if 0 <= r < len(self._rows):
                self.dataChanged.emit(self.index(r, 0), self.index(r, len(self._header) - 1))

    def row(self, i: int) -> tuple:
        """The values of row ``i``."""
        return self._rows[i]

    def rows(self) -> list[list[Any]]:
        """Every row's values (a copy)."""
        return [list(r) for r in self._rows]

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self._header)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = index.column()
        value = row[col] if col < len(row) else ("" if self._formatted else None)
        if role == Qt.ItemDataRole.DisplayRole:
            return format_value(value) if self._formatted else value
        if role == Qt.ItemDataRole.UserRole:
            return value if isinstance(value, (int, float, str)) else str(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tips[index.row()] or (str(value) if self._formatted else None)
        if role == Qt.ItemDataRole.BackgroundRole and index.row() == self.highlight:
            return HIGHLIGHT_COLOUR
        if role == Qt.ItemDataRole.TextAlignmentRole and self._formatted and _is_number(value):
            return _RIGHT
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt override
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return section + 1 if role == Qt.ItemDataRole.DisplayRole else None
        if not 0 <= section < len(self._header):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._header[section]
        if role == Qt.ItemDataRole.ToolTipRole and section < len(self._header_tips):
            return self._header_tips[section]
        return None

    def to_csv(self, path: str | Path) -> Path:
        """Write header and raw rows as UTF-8 CSV (raises ``OSError``)."""
        return write_csv(path, self._header, self._rows)


def write_csv(path: str | Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Path:
    """Write a CSV file (UTF-8, raw values); returns the path. Raises ``OSError``."""
    path = Path(path)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


class CsvButton(QPushButton):
    """"Export CSV…" for one :class:`RowsModel`.

    Signals
    -------
    sig_status_requested(str) : "Saved PATH" or an error message.
    """

    sig_status_requested = Signal(str)

    def __init__(self, model: RowsModel, name: str, text: str = "Export CSV…", parent: QWidget | None = None):
        super().__init__(text, parent)
        self.model, self.name = model, name
        self.setToolTip(f"Save this table ({name}) as CSV")
        self.clicked.connect(self._on_clicked)

    def _on_clicked(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export {self.name}", f"{self.name}.csv", "CSV (*.csv)")
        if path:
            self.export_to(path)

    def export_to(self, path: str | Path) -> Path | None:
        """Write the model to ``path`` and report (never raises)."""
        try:
            written = self.model.to_csv(path)
        except OSError as exc:
            self.sig_status_requested.emit(f"Export failed: {exc}")
            return None
        self.sig_status_requested.emit(f"Saved {written}")
        return written
