"""A read-only table model of plain rows, with CSV export (used by the Compare pane's tables)."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QPushButton, QWidget


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


class RowsModel(QAbstractTableModel):
    """Rows of values under a header; ``DisplayRole`` is formatted, ``UserRole`` the raw value
    (so sorting through a ``QSortFilterProxyModel`` with ``setSortRole(UserRole)`` is numeric)."""

    def __init__(self, header: Sequence[str] = (), rows: Sequence[Sequence[Any]] = (), parent=None):
        super().__init__(parent)
        self._header, self._rows = list(header), [list(r) for r in rows]
        self._tooltips: dict[int, str] = {}

    def set_rows(self, header: Sequence[str], rows: Sequence[Sequence[Any]], tooltips: dict[int, str] | None = None) -> None:
        self.beginResetModel()
        self._header, self._rows = list(header), [list(r) for r in rows]
        self._tooltips = dict(tooltips or {})
        self.endResetModel()

    def rows(self) -> list[list[Any]]:
        return [list(r) for r in self._rows]

    def header(self) -> list[str]:
        return list(self._header)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self._header)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        row = self._rows[index.row()]
        value = row[index.column()] if index.column() < len(row) else ""
        if role == Qt.ItemDataRole.DisplayRole:
            return format_value(value)
        if role == Qt.ItemDataRole.UserRole:
            return value if isinstance(value, (int, float, str)) else str(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltips.get(index.column()) or str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._header[section] if 0 <= section < len(self._header) else None
        return section + 1

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
