"""A table of tokens: index, token, id, code-point / UTF-16 / UTF-8 spans, original text.

Whitespace and invisible characters are shown visibly (space ␣, newline ↵, tab ⇥, ZWJ and
ZWNJ by name), so a token made of a space or a joiner is never a blank cell. Cells are
computed lazily in :meth:`TokenTableModel.data`, so 100,000 tokens cost nothing until shown.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

COLUMNS = ("#", "Token", "ID", "Code points", "UTF-16", "UTF-8", "Original", "Label", "Notes")
TIPS = (
    "Token index",
    "The token string as the tokenizer or the pasted list gives it",
    "Vocabulary id (empty for a pasted token list)",
    "Half-open span in code points (Python string indices)",
    "Half-open span in UTF-16 code units (JavaScript, Java, Qt); an emoji is 2 units",
    "Half-open span in UTF-8 bytes (Rust, most C libraries)",
    "The original text of the span, with invisible characters shown",
    "The pasted BIO label of this token (labels mode)",
    "Cuts a grapheme cluster (a user-perceived character); shares characters with another "
    "token; no span (after an alignment error); empty span",
)
_NAMED = {
    " ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍", "\u00a0": "⍽",
    "\u200d": "⟨ZWJ⟩", "\u200c": "⟨ZWNJ⟩", "\u200b": "⟨ZWSP⟩", "\ufeff": "⟨BOM⟩",
    "\u2028": "⟨LS⟩", "\u2029": "⟨PS⟩",
}


_ROLES = frozenset({
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.BackgroundRole,
})


def visible(text: str, limit: int = 80) -> str:
    """``text`` with whitespace and control/format characters made visible, cut to ``limit``."""
    cut = len(text) > limit
    out = []
    for ch in text[:limit]:
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") or ch.isspace():
            out.append(f"⟨U+{ord(ch):04X}⟩")
        else:
            out.append(ch)
    return "".join(out) + ("…" if cut else "")


def _span(span: tuple[int, int] | None) -> str:
    return "—" if span is None else f"{span[0]}–{span[1]}"


class TokenTableModel(QAbstractTableModel):
    """Rows = tokens of one result; see :data:`COLUMNS`."""

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._text = ""
        self._tokens: list[str] = []
        self._ids: list[int | None] = []
        self._spans: list[tuple[int, int] | None] = []
        self._utf16: list[int] = [0]
        self._utf8: list[int] = [0]
        self._labels: list[str] = []
        self._cover = np.zeros(0, np.int16)
        self._boundary = np.ones(1, bool)
        self._error_row = -1

    def set_tokens(
        self,
        text: str,
        tokens: Sequence[str],
        ids: Sequence[int | None],
        spans: Sequence[tuple[int, int] | None],
        utf16: list[int],
        utf8: list[int],
        *,
        labels: Sequence[str] = (),
        cover: np.ndarray | None = None,
        grapheme_start: np.ndarray | None = None,
        error_row: int = -1,
    ) -> None:
        """Replace all rows (one model reset)."""
        self.beginResetModel()
        self._text, self._tokens, self._ids, self._spans = text, list(tokens), list(ids), list(spans)
        self._utf16, self._utf8, self._labels = utf16, utf8, list(labels)
        self._cover = cover if cover is not None else np.zeros(len(text), np.int16)
        self._boundary = grapheme_start if grapheme_start is not None else np.ones(len(text) + 1, bool)
        self._error_row = error_row
        self.endResetModel()

    # -- Qt model API --------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._tokens)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return TIPS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if role not in _ROLES or not index.isValid() or not 0 <= index.row() < len(self._tokens):
            return None
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(row, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2, 3, 4, 5):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole:
            if row == self._error_row:
                return QColor("#fecaca")
            if self._spans[row] is None:
                return QColor("#eeeeee")
        return None

    # -- values --------------------------------------------------------------------------
    def token_span(self, row: int) -> tuple[int, int] | None:
        """Token ``row``'s original code-point span."""
        return self._spans[row]

    def row_values(self, row: int) -> dict[str, Any]:
        """Token ``row`` as plain values (for export): offsets in all three units."""
        span = self._spans[row]
        s, e = span if span else (None, None)
        return {
            "index": row,
            "token": self._tokens[row],
            "id": self._ids[row] if row < len(self._ids) else None,
            "start": s,
            "end": e,
            "utf16_start": None if span is None else self._utf16[s],
            "utf16_end": None if span is None else self._utf16[e],
            "utf8_start": None if span is None else self._utf8[s],
            "utf8_end": None if span is None else self._utf8[e],
            "original": None if span is None else self._text[s:e],
            "label": self._labels[row] if row < len(self._labels) else None,
        }

    def cell(self, row: int, col: int) -> str:
        """The display text of one cell."""
        span = self._spans[row]
        if col == 0:
            return str(row)
        if col == 1:
            return visible(self._tokens[row])
        if col == 2:
            tid = self._ids[row] if row < len(self._ids) else None
            return "" if tid is None else str(tid)
        if col == 3:
            return _span(span)
        if col in (4, 5):
            table = self._utf16 if col == 4 else self._utf8
            return "—" if span is None else f"{table[span[0]]}–{table[span[1]]}"
        if col == 6:
            return "" if span is None else visible(self._text[span[0] : span[1]])
        if col == 7:
            return self._labels[row] if row < len(self._labels) else ""
        return self._notes(row)

    def _notes(self, row: int) -> str:
        span = self._spans[row]
        if row == self._error_row:
            return "does not fit"
        if span is None:
            return "not aligned"
        if span[0] == span[1]:
            return "empty span"
        notes = []
        if not (self._boundary[span[0]] and self._boundary[span[1]]):
            notes.append("cuts a grapheme")
        if (self._cover[span[0] : span[1]] > 1).any():
            notes.append("shares characters")
        return ", ".join(notes)

    def _tooltip(self, row: int) -> str:
        span = self._spans[row]
        if span is None:
            return f"Token {row} {self._tokens[row]!r}: no span"
        names = ", ".join(
            f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in self._text[span[0] : span[1]][:8]
        )
        return f"Token {row} {self._tokens[row]!r} ← original {span[0]}–{span[1]}: {names}"


class TokenTableView(QTableView):
    """The token table; emits :attr:`sig_token_selected` with the current row (-1 for none)
    and :attr:`sig_token_hovered` with the row under the mouse."""

    sig_token_selected = Signal(int)
    sig_token_hovered = Signal(int)  # row under the mouse, -1 when the mouse leaves

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.token_model = TokenTableModel(self)
        self.setModel(self.token_model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        vh = self.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 6)
        hh = self.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        digits = self.fontMetrics().horizontalAdvance("00000–00000") + 14
        for col, width in enumerate((52, 110, 60, digits, digits, digits, 110, 64)):
            self.setColumnWidth(col, width)
        self.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.setMouseTracking(True)
        self.entered.connect(lambda index: self.sig_token_hovered.emit(index.row()))

    def leaveEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().leaveEvent(event)
        self.sig_token_hovered.emit(-1)

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.sig_token_selected.emit(current.row() if current.isValid() else -1)

    def select_token(self, row: int) -> None:
        """Make ``row`` current and visible without emitting :attr:`sig_token_selected`."""
        if not 0 <= row < self.token_model.rowCount():
            return
        index = self.token_model.index(row, 0)
        model = self.selectionModel()
        with QSignalBlocker(model):
            model.setCurrentIndex(index, model.SelectionFlag.ClearAndSelect | model.SelectionFlag.Rows)
        self.viewport().update()
        self.scrollTo(index)

    def current_token(self) -> int:
        index = self.currentIndex()
        return index.row() if index.isValid() else -1
