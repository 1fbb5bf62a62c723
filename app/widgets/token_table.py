"""A table of tokens: index, token, id, code-point / UTF-16 / UTF-8 spans, original text.

Whitespace and invisible characters are shown visibly (space ␣, newline ↵, tab ⇥, ZWJ and
ZWNJ by name; see :mod:`app.widgets.token_badges`), so a token made of a space or a joiner
is never a blank cell. The model's unknown token and byte-fallback pieces are flagged
("⍰ unknown", "byte fallback", drawn in red) with the original text they swallowed; where
the reference span misplaces characters (core's audit: ``misleading``) the "Derived span"
column gives the span the token's own content occupies. Cells are computed lazily in
:meth:`TokenTableModel.data`, so 100,000 tokens cost nothing until shown.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Sequence

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from app.widgets.span_segments import first_difference
from app.widgets.token_badges import METASPACE, BadgeDelegate, readable, visible
from app.widgets.viewport_cache import ViewportCache
from app.widgets.token_flags import (
    BYTE_FALLBACK_FLAG, FLAG_TEXTS, MISLEADING_FLAG, UNKNOWN_FLAG, flag_bits, marks, short_note)
from core.align.audit import Audit, TokenFlags
from core.align.view import AlignmentView
from core.text.columns import SpanArray
from core.text.edits import common_prefix

__all__ = ["COLUMNS", "FLAG_TEXTS", "TIPS", "RowArrays", "TableRows", "TokenTableModel", "TokenTableView", "row_arrays"]

_COLUMN_TIPS = {
    "#": "Token index",
    "Token": "The token string as the tokenizer or the pasted list gives it; a byte-level marker "
             "(Ġ, Ċ, ĉ) or a SentencePiece ▁ is drawn as a coloured ␣ / ↵ / ⇥",
    "Readable": "Byte-level tokenizers: the bytes the token stands for, decoded as UTF-8; bytes of a "
                "character split over several tokens are shown as ⟨E0 A4⟩ badges",
    "Original": "The original text of the span, with invisible characters shown; for an unknown "
                "token or a byte-fallback piece, the text it swallowed (its derived span)",
    "Label": "The pasted BIO label of this token (labels mode)",
    "Flags": "Flags computed by core: ⍰ the model's unknown token, byte fallback (a <0xNN> piece), "
             "≠ the reference span differs from the derived span, ✂ cuts a grapheme cluster, ⧉ "
             "shares characters with another token, ∅ empty span, and which bytes of which "
             "character a byte-level token owns",
    "ID": "Vocabulary id (empty for a pasted token list)",
    "Code points": "Half-open span in code points (Python string indices), as the tokenizer reports it",
    "Derived span": "The span the token's own content occupies (code points), shown where the "
                    "reference library's span misplaces characters",
    "UTF-16": "Half-open span in UTF-16 code units (JavaScript, Java, Qt); an emoji is 2 units",
    "UTF-8": "Half-open span in UTF-8 bytes (Rust, most C libraries)",
}
COLUMNS = tuple(_COLUMN_TIPS)
TIPS = tuple(_COLUMN_TIPS.values())
_MARKED = QColor("#b91c1c")  # text of unknown tokens and byte-fallback pieces
SPECIAL_BACKGROUND = QColor("#e9d5ff")  # rows of special tokens (the template's or the text's)
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)  # data() compares plain ints: it runs per cell
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)  # and role on every repaint
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_RIGHT_COLUMNS = frozenset(COLUMNS.index(n) for n in ("#", "ID", "Code points", "Derived span",
                                                     "UTF-16", "UTF-8"))


_END = itemgetter(1)


@dataclass(frozen=True)
class RowArrays:
    """Per-row arrays :meth:`TokenTableModel.set_tokens` derives from its inputs, computed
    ahead (e.g. on a worker thread: :func:`row_arrays`) so the GUI thread does not.
    ``marks``: (rows,) int64 unknown / byte-fallback bits; ``bits``: (2 * rows,) int64 flag
    bits and byte starts; ``end_max``: (rows,) int64 running maximum of the span ends."""

    marks: np.ndarray
    bits: np.ndarray
    end_max: np.ndarray


@dataclass(frozen=True)
class TableRows:
    """What :meth:`TokenTableModel.set_tokens` lists: one alignment result (its reference
    spans, never the derived ones), with what was computed ahead for it (e.g. on a worker):
    ``arrays``, the :class:`RowArrays` of exactly this view (None: computed here), and
    ``specials``, ``(tokens,) int`` where each special token came from
    (:func:`core.align.specials.special_sources`; None: no special rows)."""

    view: AlignmentView = field(default_factory=lambda: AlignmentView("", "tokenize"))
    arrays: RowArrays | None = None
    specials: Sequence[int] | None = None


def row_arrays(spans: Sequence[tuple[int, int] | None], audit: Audit | None = None,
               unknown: Sequence[bool] = (), byte_fallback: Sequence[bool] = ()) -> RowArrays:
    """The :class:`RowArrays` of one token list (one row per span). O(rows), no Qt."""
    row_marks = marks(len(spans), unknown, byte_fallback)
    return RowArrays(row_marks, flag_bits(audit, len(spans), row_marks), _running_end_max(spans))


def _running_end_max(spans: Sequence[tuple[int, int] | None], floor: int | None = None) -> np.ndarray:
    """``out[r]``: the largest span end of ``spans[0..r]`` (and ``floor``); a missing span
    counts as the end of everything. O(len(spans)) at C speed when no span is missing or
    ``spans`` is a :class:`~core.text.columns.SpanArray`."""
    if isinstance(spans, SpanArray):
        starts, ends = spans.arrays()
        ends = np.where(starts < 0, 1 << 40, ends) if None in spans else ends
    elif None in spans:
        ends = np.fromiter((sp[1] if sp else 1 << 40 for sp in spans), np.int64, len(spans))
    else:
        ends = np.fromiter(map(_END, spans), np.int64, len(spans))
    if floor is not None:
        ends = np.maximum(ends, floor)
    return np.maximum.accumulate(ends) if len(ends) else ends


def _common_span_prefix(a: Sequence, b: Sequence) -> int:
    """How many leading spans ``a`` and ``b`` share: numpy on the columns of two
    :class:`~core.text.columns.SpanArray` (iterating one makes a tuple per span), else one
    pass that stops at the first difference. O(len) at C speed."""
    if isinstance(a, SpanArray) and isinstance(b, SpanArray):
        (s0, e0), (s1, e1) = a.arrays(), b.arrays()
        return min(first_difference(s0, s1), first_difference(e0, e1))
    return common_prefix(a, b)


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
        self._audit: Audit | None = None
        self._bits = np.zeros(0, np.int64)  # per row: flag bits and byte start (see _flag_bits)
        self._marks = np.zeros(0, np.int64)  # per row: 1 unknown token, 2 byte-fallback piece
        self._derived: list[tuple[int, int]] | None = None
        self._token_bytes: list[bytes] | None = None
        self._metaspace = False
        self._error_row = -1
        self._cells: dict[int, tuple[str, ...]] = {}  # row -> display texts, filled as rows are shown
        self._end_max = np.zeros(0, np.int64)  # running maximum of the span ends
        self.updating = False  # True while set_tokens inserts or removes rows
        self._specials: np.ndarray | None = None  # (rows,) int8: see special()

    def set_tokens(self, rows: TableRows) -> None:
        """Replace all rows with those of ``rows.view``: its audit (for the first
        ``len(audit)`` rows) gives the Flags column, its token bytes (byte-level tokenizers)
        the Readable column, its unknown / byte-fallback marks flag the model's unknown token
        and byte-fallback pieces, its derived spans the text they swallowed and the Derived
        span column, its labels (labels mode) the Label column and its mismatch the row that
        does not fit; ``rows.arrays`` are the per-row arrays of exactly this view, computed
        ahead (:func:`row_arrays`); ``rows.specials``
        (:func:`core.align.specials.special_sources`: 1 from the template, 2 found in the
        text, 0 not special) the ``special`` flag and tooltip.

        Rows are inserted or removed at the end and one ``dataChanged`` covers the rows
        from the first that differs (no model reset, so the view keeps its scroll position
        and current row, and repaints only rows it shows that changed)."""
        view, specials = rows.view, rows.specials
        text, audit, utf16, utf8 = view.text, view.audit, view.tables.utf16, view.tables.utf8
        error_row = -1 if view.mismatch is None else view.mismatch.token
        derived, token_bytes = view.rows.derived_spans, view.rows.token_bytes
        labels = view.labelled.labels if view.labelled is not None else ()
        tokens, ids, labels = list(view.rows.tokens), list(view.rows.ids), list(labels)
        spans = view.layer.spans
        spans = spans if isinstance(spans, SpanArray) else list(spans)  # a SpanArray is immutable
        ahead = rows.arrays
        if ahead is None or len(ahead.marks) != len(tokens):
            ahead = None
            row_marks = marks(len(tokens), view.rows.unknown, view.rows.byte_fallback)
            bits = flag_bits(audit, len(tokens), row_marks)
        else:
            row_marks, bits = ahead.marks, ahead.bits
        token_bytes = list(token_bytes) if token_bytes is not None else None
        first = self._first_changed_row(text, tokens, ids, spans, labels, bits, error_row)
        if (token_bytes is None) != (self._token_bytes is None):
            first = 0
        old_rows, new_rows = len(self._tokens), len(tokens)
        self.updating = True
        if new_rows > old_rows:
            self.beginInsertRows(QModelIndex(), old_rows, new_rows - 1)
        elif new_rows < old_rows:
            self.beginRemoveRows(QModelIndex(), new_rows, old_rows - 1)
        self._text, self._tokens, self._ids, self._spans = text, tokens, ids, spans
        self._utf16, self._utf8, self._labels = utf16, utf8, labels
        self._audit, self._bits, self._error_row = audit, bits, error_row
        self._marks = row_marks
        self._derived = derived if derived is None or isinstance(derived, SpanArray) else list(derived)
        self._token_bytes = token_bytes
        new_specials = None if specials is None or not len(specials) else np.asarray(specials, np.int8)
        old = self._specials
        if (old is None) != (new_specials is None):
            first = 0  # the special states came or went: every row's Flags cell and tooltip
        elif old is not None:  # from the first row whose special state changed (rows added or
            first = min(first, first_difference(old, new_specials))  # removed at the end: theirs)
        self._specials = new_specials
        self._metaspace = any(METASPACE in t for t in tokens[:256])
        self._cells = {row: cells for row, cells in self._cells.items() if row < first}
        if ahead is not None:
            self._end_max = ahead.end_max
        else:
            self._update_end_max(first)
        if new_rows > old_rows:
            self.endInsertRows()
        elif new_rows < old_rows:
            self.endRemoveRows()
        self.updating = False
        if first < min(old_rows, new_rows):
            self.dataChanged.emit(self.index(first, 0), self.index(min(old_rows, new_rows) - 1, len(COLUMNS) - 1))

    def _first_changed_row(self, text, tokens, ids, spans, labels, bits, error_row) -> int:
        """The first row whose cells may differ from what the model shows now: rows before it
        have the same token, id, label, span and flags, and their span lies in the part of
        the text that did not change."""
        rows = _common_span_prefix(self._spans, spans)
        rows = common_prefix(self._tokens, tokens, rows)
        for old, new in ((self._ids, ids), (self._labels, labels)):  # may be shorter than tokens
            if len(old) != len(new) or old != new:
                rows = common_prefix(old, new, rows)
        if error_row != self._error_row:
            rows = min(rows, *(r for r in (error_row, self._error_row) if r >= 0), rows)
        rows = min(rows, first_difference(self._bits, bits) // 2)
        same = common_prefix(self._text, text)
        return min(rows, int(np.searchsorted(self._end_max[:rows], same, side="right")))

    def _update_end_max(self, first: int) -> None:
        """``_end_max[r]``: the largest span end of rows ``0..r`` (a missing span counts as
        the end of everything), recomputed only from row ``first`` on."""
        tail = _running_end_max(self._spans[first:] if first else self._spans,
                                int(self._end_max[first - 1]) if first else None)
        self._end_max = np.concatenate((self._end_max[:first], tail))

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

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY):
        row = index.row()
        if not 0 <= row < len(self._tokens):
            return None
        if role == _DISPLAY:
            cells = self._cells.get(row)
            if cells is None:
                cells = self._cells[row] = tuple(self.cell(row, c) for c in range(len(COLUMNS)))
            return cells[index.column()]
        if role == _BACKGROUND:
            if row == self._error_row:
                return QColor("#fecaca")
            if self.special(row):
                return SPECIAL_BACKGROUND
            return QColor("#eeeeee") if self._spans[row] is None else None
        if role == _FOREGROUND:
            return _MARKED if self._marks[row] else None
        if role == _ALIGN:
            return _RIGHT if index.column() in _RIGHT_COLUMNS else None
        if role == _TOOLTIP:
            return self._tooltip(row)
        return None

    # -- values --------------------------------------------------------------------------
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
            "readable": None if self._token_bytes is None else readable(self._token_bytes[row], 1 << 30, dotted_circle=False),
            "flags": self._flags_cell(row),
            "unknown": bool(self._marks[row] & 1),
            "byte_fallback": bool(self._marks[row] & 2),
            "derived_start": None if self._derived is None else self._derived[row][0],
            "derived_end": None if self._derived is None else self._derived[row][1],
        }

    def swallowed(self, row: int) -> str:
        """The original text token ``row`` holds: its derived span's text where known."""
        span = self._derived[row] if self._derived is not None else self._spans[row]
        return "" if span is None else self._text[span[0] : span[1]]

    def cell(self, row: int, col: int) -> str:
        """The display text of one cell (``col`` indexes :data:`COLUMNS`)."""
        name = COLUMNS[col]
        span = self._spans[row]
        if name == "#":
            return str(row)
        if name == "Token":
            return visible(self._tokens[row], byte_level=self._token_bytes is not None,
                           metaspace=self._metaspace)
        if name == "Readable":
            return "" if self._token_bytes is None else readable(self._token_bytes[row])
        if name == "Original":
            if self._marks[row] and self._spans[row] is not None:
                return visible(self.swallowed(row))
            return "" if span is None else visible(self._text[span[0] : span[1]])
        if name == "Derived span":
            f = self.token_flags(row)
            return _span(f.derived_span) if f is not None and f.misleading else ""
        if name == "Flags":
            return self._flags_cell(row)
        if name == "ID":
            tid = self._ids[row] if row < len(self._ids) else None
            return "" if tid is None else str(tid)
        if name == "Code points":
            return _span(span)
        if name in ("UTF-16", "UTF-8"):
            table = self._utf16 if name == "UTF-16" else self._utf8
            return "—" if span is None else f"{table[span[0]]}–{table[span[1]]}"
        return self._labels[row] if row < len(self._labels) else ""

    def token_flags(self, row: int) -> TokenFlags | None:
        """Token ``row``'s flags from core's audit (None for a token without a span)."""
        if self._audit is None or row >= len(self._audit) or self._spans[row] is None:
            return None
        return self._audit.token_flags(row)

    def flag_symbols(self, row: int) -> str:
        """The flag symbols of token ``row``: ✂ ⧉ ∅ (see :data:`FLAG_TEXTS`)."""
        f = self.token_flags(row)
        if f is None:
            return ""
        return " ".join(sym for sym, on in zip("✂⧉∅", (f.cuts_grapheme, f.shares_chars, f.empty)) if on)

    def special(self, row: int) -> int:
        """Whether token ``row`` is special: 1 put there by the post-processor's template, 2
        found in the text (:func:`core.align.specials.special_sources`), 0 not special."""
        sp = self._specials
        return int(sp[row]) if sp is not None and row < len(sp) else 0

    def _flags_cell(self, row: int) -> str:
        if self.special(row):
            return "special"
        if row == self._error_row:
            return "does not fit"
        if self._spans[row] is None:
            return "not aligned"
        f = self.token_flags(row)
        notes = [short_note(n) for n in f.partial_chars] if f else []
        return "  ".join(x for x in (*self._marked_flags(row), self.flag_symbols(row), "; ".join(notes)) if x)

    def _marked_flags(self, row: int) -> list[str]:
        """``⍰ unknown`` / ``byte fallback`` / ``≠ span`` for token ``row``."""
        f = self.token_flags(row)
        mark = int(self._marks[row])
        return [text for on, text in ((mark & 1, UNKNOWN_FLAG), (mark & 2, BYTE_FALLBACK_FLAG),
                                      (f is not None and f.misleading, MISLEADING_FLAG)) if on]

    def _tooltip(self, row: int) -> str:
        span = self._spans[row]
        if self.special(row):
            where = "added by the post-processor" if self.special(row) == 1 else "found in the text"
            return f"{self._tokens[row]}\nspecial · id {self._ids[row]} · {where}"
        if span is None:
            return f"Token {row} {self._tokens[row]!r}: no span"
        names = ", ".join(
            f"U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in self._text[span[0] : span[1]][:8]
        )
        lines = [f"Token {row} {self._tokens[row]!r} ← original {span[0]}–{span[1]}: {names}"]
        if self._token_bytes is not None:
            data = self._token_bytes[row]
            lines.append(f"Bytes: {data.hex(' ').upper() or '(none)'} → {readable(data)}")
        lines += self._marked_tips(row)
        f = self.token_flags(row)
        if f is not None:
            lines += [FLAG_TEXTS[sym] for sym, on in zip("✂⧉∅", (f.cuts_grapheme, f.shares_chars, f.empty)) if on]
            lines += [f"owns {note}" for note in f.partial_chars]
            if f.byte_start is not None:
                lines.append(f"UTF-8 bytes owned: {f.byte_start}–{f.byte_end}")
        return "\n".join(lines)


    def _marked_tips(self, row: int) -> list[str]:
        lines = []
        swallowed = self.swallowed(row)
        if self._marks[row] & 1:
            lines.append(f"The model's unknown token: it stands for {swallowed!r} "
                         f"({len(swallowed)} code points) that the vocabulary cannot spell")
        if self._marks[row] & 2:
            lines.append(f"A byte-fallback piece: one UTF-8 byte of {swallowed!r}, which the "
                         "vocabulary has no piece for")
        f = self.token_flags(row)
        if f is not None and f.misleading:
            a, b = f.derived_span
            lines.append(f"The tokenizer's span {_span(self._spans[row])} misplaces characters: the "
                         f"token's own content is at {a}–{b} ({self._text[a:b]!r})")
        return lines


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
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # <|begin_of_text|> keeps both ends
        self.verticalHeader().setVisible(False)
        vh = self.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 6)
        hh = self.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        digits = self.fontMetrics().horizontalAdvance("00000–00000") + 14
        widths = {"#": 44, "Token": 100, "Readable": 100, "Original": 90, "Label": 70, "Flags": 150,
                  "ID": self.fontMetrics().horizontalAdvance("0000000") + 14,  # a 6-digit id fits
                  "Code points": digits, "Derived span": digits, "UTF-16": digits,
                  "UTF-8": digits}
        for col, name in enumerate(COLUMNS):
            self.setColumnWidth(col, widths[name])
        hh.moveSection(hh.visualIndex(COLUMNS.index("ID")), 1)  # beside "#": never scrolled off
        self._badges = BadgeDelegate(self)
        for name in ("Token", "Readable", "Original"):
            self.setItemDelegateForColumn(COLUMNS.index(name), self._badges)
        self.setColumnHidden(COLUMNS.index("Readable"), True)
        self.setColumnHidden(COLUMNS.index("Derived span"), True)
        self.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.setMouseTracking(True)
        self.entered.connect(lambda index: self.sig_token_hovered.emit(index.row()))
        self.paint_cache = ViewportCache(self)  # rows added below the visible ones repaint nothing new

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not self.paint_cache.paint(event):
            super().paintEvent(event)

    def leaveEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().leaveEvent(event)
        self.sig_token_hovered.emit(-1)

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.token_model.updating:  # rows removed under the current row: not the user's choice
            return
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

    def show_readable(self, on: bool) -> None:
        """Show the Readable column (byte-level tokenizers) or hide it."""
        self.setColumnHidden(COLUMNS.index("Readable"), not on)

    def show_derived(self, on: bool) -> None:
        """Show the Derived span column (some token's span misleads) or hide it."""
        self.setColumnHidden(COLUMNS.index("Derived span"), not on)

    def current_token(self) -> int:
        index = self.currentIndex()
        return index.row() if index.isValid() else -1
