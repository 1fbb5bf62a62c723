"""Table models of the Merges pane: the merges so far and the corpus words.

Both are plain ``QAbstractTableModel`` subclasses whose cells are computed lazily in
``data()``, so a corpus of 100,000 word types costs nothing until rows are shown. Small
tables of pre-formatted rows (candidates, n-best paths, replay steps) use the app's shared
:class:`~app.widgets.rows_model.RowsModel`.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from app.widgets.token_badges import readable, visible
from core.text.byte_alphabet import CHAR_TO_BYTE, from_byte_level
from core.training.bpe import BpeTrainer, MergeStep

TIE_COLOUR = QColor("#fff2cc")
CURRENT_COLOUR = QColor("#d9ead3")
CHANGED_COLOUR = QColor("#cfe2f3")
SEPARATOR = " · "

AnyIndex = QModelIndex | QPersistentModelIndex
# the word column's text for filtering: the word as shown (invisible characters made
# visible), never cut short the way the display role cuts long words
FILTER_ROLE = int(Qt.ItemDataRole.UserRole) + 1


def show_symbol(symbol: str) -> str:
    """``symbol`` with invisible characters made visible and a dotted circle (◌) before a
    leading combining mark, so that a lone accent or vowel sign is never blank."""
    shown = visible(symbol)
    return "◌" + shown if shown and unicodedata.category(shown[0]).startswith("M") else shown


def show_pair(pair: tuple[str, str], show: Callable[[str], str] = show_symbol) -> str:
    """``a + b`` with ``show`` (:func:`show_symbol`) applied to both parts."""
    return f"{show(pair[0])} + {show(pair[1])}"


def show_symbols(symbols: Sequence[str], limit: int = 60,
                 show: Callable[[str], str] = show_symbol) -> str:
    """Symbols shown by ``show`` (:func:`show_symbol`) joined by a middle dot (cut after
    ``limit`` symbols)."""
    shown = SEPARATOR.join(show(s) for s in symbols[:limit])
    return shown + (" …" if len(symbols) > limit else "")


def readable_symbol(symbol: str) -> str:
    """A byte-level symbol (GPT-2's alphabet) as a person reads it: its bytes decoded from
    UTF-8, bytes that are only part of a character here shown as ``⟨E0 A4⟩`` badges
    (:func:`app.widgets.token_badges.readable`), a leading mark after ``◌``; a symbol
    outside the byte alphabet (an added token) as :func:`show_symbol` shows it."""
    if not all(map(CHAR_TO_BYTE.__contains__, symbol)):
        return show_symbol(symbol)
    return readable(from_byte_level(symbol))  # ◌ before a leading mark, as in the token table


class _ReadOnlyTable(QAbstractTableModel):
    """Shared plumbing: fixed headers with tooltips, read-only cells."""

    HEADERS: tuple[str, ...] = ()
    TIPS: tuple[str, ...] = ()

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        if role == Qt.ItemDataRole.ToolTipRole and section < len(self.TIPS):
            return self.TIPS[section]
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class MergeTableModel(_ReadOnlyTable):
    """Rows = the merges done so far (rank order); the newest row is highlighted, ties flagged."""

    HEADERS = ("Merge", "Pair", "Count", "New symbol", "Ties")
    TIPS = (
        "Merge number: 1 is the first merge (as on the plot's marker)",
        "The two symbols merged",
        "Frequency of the pair just before the merge (occurrences × word count)",
        "The symbol the merge adds to the vocabulary",
        "How many candidates had the same best value; the tie-break rule chose this one",
    )

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._steps: list[MergeStep] = []

    def set_steps(self, steps: Sequence[MergeStep]) -> None:
        """Show ``steps``; only rows that changed are reset (appending or undoing is cheap)."""
        old, new = self._steps, list(steps)
        common = 0
        while common < min(len(old), len(new)) and old[common] is new[common]:
            common += 1
        if common < len(old):
            self.beginRemoveRows(QModelIndex(), common, len(old) - 1)
            self._steps = old[:common]
            self.endRemoveRows()
        if common < len(new):
            self.beginInsertRows(QModelIndex(), common, len(new) - 1)
            self._steps = new
            self.endInsertRows()
        self._steps = new
        if new:
            last = len(new) - 1
            top = max(0, last - 1)
            self.dataChanged.emit(self.index(top, 0), self.index(last, len(self.HEADERS) - 1))

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._steps)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._steps):
            return None
        step, col = self._steps[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            ties = len(step.ties)
            values = (step.rank + 1, show_pair(step.pair), step.count, show_symbol(step.new_symbol),
                      (f"⚑ {ties}{'+' if ties >= 16 else ''} tied" if ties > 1 else ""))
            return values[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            if step.is_tie:
                return "Tied candidates (chosen first):\n" + "\n".join(show_pair(p) for p in step.ties)
            return f"Changed {len(step.changed_words)} word type(s)"
        if role == Qt.ItemDataRole.BackgroundRole:
            if index.row() == len(self._steps) - 1:
                return CURRENT_COLOUR
            return TIE_COLOUR if step.is_tie and col == 4 else None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class WordTableModel(_ReadOnlyTable):
    """Rows = corpus word types in corpus order with their current segmentation; the words
    changed by the last merge are highlighted (and bold)."""

    HEADERS = ("Word", "Count", "Symbols", "Segmentation")
    TIPS = (
        "A word type of the corpus (pre-tokenized)",
        "How often it occurs",
        "Number of symbols",
        "Its current symbols, separated by ·",
    )

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._trainer: BpeTrainer | None = None
        self._changed: frozenset[str] = frozenset()

    def set_trainer(self, trainer: BpeTrainer, changed: Sequence[str] = ()) -> None:
        """Show ``trainer``'s words (read lazily, row by row); ``changed`` are highlighted."""
        if trainer is not self._trainer:
            self.beginResetModel()
            self._trainer, self._changed = trainer, frozenset(changed)
            self.endResetModel()
            return
        self._changed = frozenset(changed)
        if trainer.n_words:
            self.dataChanged.emit(self.index(0, 0), self.index(trainer.n_words - 1, 3))

    def is_changed(self, row: int) -> bool:
        return self._trainer is not None and self._trainer.word(row).word in self._changed

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() or self._trainer is None else self._trainer.n_words

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.rowCount():
            return None
        w, col = self._trainer.word(index.row()), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (visible(w.word), w.count, len(w.symbols), show_symbols(w.symbols))[col]
        if role == Qt.ItemDataRole.ToolTipRole and col == 3:
            return " ".join(w.symbols)
        if role == FILTER_ROLE and col == 0:
            return visible(w.word, limit=len(w.word))
        if w.word in self._changed:
            if role == Qt.ItemDataRole.BackgroundRole:
                return CHANGED_COLOUR
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setBold(True)
                return font
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (1, 2):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
