"""The token-id view: the ids of the shown tokens as copyable text, space-separated or JSON.

Writing 1,000,000 ids into a text box costs seconds on the GUI thread (Qt lays out a
paragraph whole), so the view shows at most :data:`MAX_SHOWN` ids, :data:`PER_LINE` to a
line, and builds that text on a worker only while it is visible (a hidden view builds it
when it is shown). New ids are built :data:`BUILD_DELAY_MS` after they arrive, so the
build never competes for the interpreter with the pane drawing the tokens they belong to
(the box follows a frame later; a burst of results builds once), and an edit of the text
stops a build whose ids are stale (:meth:`TokenIdsView.text_edited`). Copy builds the text
of *all* ids on a worker and puts it on the clipboard as one line.

The box is linked to the tokens: :meth:`TokenIdsView.highlight` marks one token's id (the
pane calls it for the hovered or selected token), and the mouse over an id, or a click on
it, says which token it belongs to (:attr:`TokenIdsView.sig_id_hovered`,
:attr:`TokenIdsView.sig_id_clicked`); both look only at the id's line of the box, O(1).
"""

from __future__ import annotations

import json
import re
from typing import Sequence

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QLabel, QPlainTextEdit, QTextEdit, QToolButton, QVBoxLayout, QWidget)

from app.widgets.layout_boundary import LayoutBoundary
from app.widgets.span_segments import LINK_COLOUR
from app.workers import TaskRunner

FORMATS = {"space": "Space-separated", "json": "JSON list"}
MAX_SHOWN = 20_000  # ids written into the box; Copy copies all
PER_LINE = 25  # ids per line of the box (short blocks: Qt lays out only the visible ones)
BUILD_DELAY_MS = 16  # new ids wait this long (a frame) before the box's text is built
_ID = re.compile(r"-?\d+|\?|null")  # one id as the box writes it (see format_ids)


def id_columns(line: str) -> list[tuple[int, int]]:
    """``(start, end)`` columns of each id on one line of the box (either format). O(line)."""
    return [m.span() for m in _ID.finditer(line)]


def format_ids(ids: Sequence[int | None], fmt: str) -> str:
    """``ids`` as ``"101 7592 102"`` (``fmt="space"``) or ``"[101, 7592, 102]"`` (``"json"``),
    on one line. A token with no id (an aligned token list: no vocabulary) is ``?`` / ``null``.
    O(len(ids)).

    Raises
    ------
    ValueError
        If ``fmt`` is not a key of :data:`FORMATS`.
    """
    if fmt == "space":
        return " ".join("?" if i is None else str(int(i)) for i in ids)
    if fmt == "json":
        return json.dumps([None if i is None else int(i) for i in ids])
    raise ValueError(f"unknown id format {fmt!r}; use one of {', '.join(FORMATS)}")


def shown_text(ids: Sequence[int | None], fmt: str, limit: int = MAX_SHOWN, per_line: int = PER_LINE) -> str:
    """What the box shows: the first ``limit`` ids in ``fmt``, ``per_line`` to a line (a JSON
    list stays valid JSON when nothing is left out); past ``limit`` a last line says how many
    ids there are. O(min(len(ids), limit)); a worker runs it.

    Raises
    ------
    ValueError
        If ``fmt`` is not a key of :data:`FORMATS`.
    """
    head = ids[:limit]
    lines = [format_ids(head[k:k + per_line], fmt) for k in range(0, len(head), per_line)]
    cut = len(ids) > limit
    note = f"… {len(ids):,} ids: Copy copies all"
    if fmt == "json":
        body = ",\n ".join(line[1:-1] for line in lines)
        return f"[{body},\n {note}" if cut else f"[{body}]"
    return "\n".join(lines + [note] if cut else lines)


class TokenIdsView(QWidget):
    """A read-only box of token ids with a format switch and a Copy button (Ctrl+Shift+C).

    Signals
    -------
    sig_shown(str)
        The box now shows this text (built on a worker after :meth:`set_ids`).
    sig_copied(int)
        The ids were put on the clipboard; the argument is how many.
    sig_id_hovered(int)
        The mouse is over the id of this token (-1: over no id, or it left the box).
    sig_id_clicked(int)
        The user clicked the id of this token.
    """

    sig_shown = Signal(str)
    sig_copied = Signal(int)
    sig_id_hovered = Signal(int)
    sig_id_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._ids: Sequence[int | None] = []
        self._stale = False  # the box does not show self._ids in the current format yet
        self._shown = ""  # the box's text
        self._copy_count = 0
        self._linked = True  # the i-th id is token i's (not so with the template's specials)
        self._highlight = -1  # the token whose id is highlighted
        self._hovered = -1
        self.format = QComboBox()
        for key, name in FORMATS.items():
            self.format.addItem(name, key)
        self.format.setToolTip("How the ids are written: separated by spaces, or as a JSON list")
        self.copy = QToolButton()
        self.copy.setText("Copy ids")
        self.copy.setToolTip("Copy all the token ids to the clipboard, on one line (Ctrl+Shift+C)")
        self.count = QLabel()
        self.box = QPlainTextEdit()
        self.box.setReadOnly(True)
        self.box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.box.setPlaceholderText("The token ids appear here")
        self._build_layout()
        self._builder = TaskRunner(self)
        self._builder.sig_returned.connect(self._on_built)
        self._delay = QTimer(self, singleShot=True, interval=BUILD_DELAY_MS)
        self._delay.timeout.connect(self._refresh)
        self._copier = TaskRunner(self)
        self._copier.sig_returned.connect(self._on_copy_built)
        self.format.currentIndexChanged.connect(self._refresh)
        self.copy.clicked.connect(self.copy_ids)
        self.box.viewport().setMouseTracking(True)
        self.box.viewport().installEventFilter(self)
        QShortcut(QKeySequence("Ctrl+Shift+C"), self, self.copy_ids,
                  context=Qt.ShortcutContext.WindowShortcut)

    def _build_layout(self) -> None:
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(QLabel("<b>Token ids</b>"))
        head.addWidget(LayoutBoundary(self.count))  # it changes with every result: no relayout above
        head.addStretch(1)
        head.addWidget(self.format)
        head.addWidget(self.copy)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.setSpacing(3)
        lay.addLayout(head)
        lay.addWidget(self.box, 1)

    def set_ids(self, ids: Sequence[int | None], *, linked: bool = True) -> None:
        """Show ``ids`` (one per token, in order; None: no id). Kept by reference (do not
        change the sequence afterwards); the text is built on a worker when the view is
        visible (:data:`BUILD_DELAY_MS` later), else when it is shown. ``linked``: the i-th id
        is token i's (False for ids with the template's special tokens: then nothing is
        highlighted and the mouse over an id names no token). O(1) here."""
        self._ids, self._linked = ids, linked
        n = len(ids)
        self.count.setText(f"{n:,} ids" + (f" (first {MAX_SHOWN:,} shown)" if n > MAX_SHOWN else ""))
        self._stale = True
        self._builder.cancel()  # it builds superseded ids
        self._delay.start()

    def text_edited(self) -> None:
        """The text changed: new ids will come, so a build of the shown ones stops (it would
        take the interpreter from their tokenization); the box keeps its text until
        :meth:`set_ids`. O(1)."""
        self._delay.stop()
        self._builder.cancel()

    def ids(self) -> Sequence[int | None]:
        return self._ids

    def text(self) -> str:
        """The ids as shown."""
        return self._shown

    def set_format(self, fmt: str) -> None:
        self.format.setCurrentIndex(max(0, self.format.findData(fmt)))

    def fmt(self) -> str:
        return self.format.currentData() or "space"

    def copy_ids(self) -> None:
        """Put all the ids on the clipboard, one line in the chosen format (built on a worker;
        :attr:`sig_copied` says when)."""
        self._copy_count = len(self._ids)
        self._copier.submit(format_ids, self._ids, self.fmt())

    # -- linking ---------------------------------------------------------------------------
    def highlight(self, index: int, *, scroll: bool = True) -> None:
        """Highlight the id of token ``index`` (-1: none), scrolled into view with ``scroll``;
        kept while new ids are built (an index past the shown ids highlights nothing). O(1)."""
        self._highlight = index
        self._apply_highlight(scroll)

    def highlighted(self) -> tuple[int, str]:
        """``(token index, the text highlighted in the box)``; ``(-1, "")`` for none."""
        sel = self.box.extraSelections()
        return (self._highlight, sel[0].cursor.selectedText()) if sel else (-1, "")

    def token_at(self, line: int, column: int) -> int:
        """The token whose id is at ``column`` of ``line`` of the box (-1: none). O(line)."""
        shown = min(len(self._ids), MAX_SHOWN)
        if not self._linked or self._stale or not 0 <= line < -(-shown // PER_LINE):
            return -1
        block = self.box.document().findBlockByNumber(line)
        for k, (a, b) in enumerate(id_columns(block.text())):
            if a <= column <= b:
                index = line * PER_LINE + k
                return index if index < shown else -1
        return -1

    def _id_cursor(self, index: int) -> QTextCursor | None:
        if not self._linked or self._stale or not 0 <= index < min(len(self._ids), MAX_SHOWN):
            return None
        block = self.box.document().findBlockByNumber(index // PER_LINE)
        columns = id_columns(block.text()) if block.isValid() else []
        if index % PER_LINE >= len(columns):
            return None
        a, b = columns[index % PER_LINE]
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + a)
        cursor.setPosition(block.position() + b, QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def _apply_highlight(self, scroll: bool = False) -> None:
        cursor = self._id_cursor(self._highlight)
        if cursor is None:
            self.box.setExtraSelections([])
            return
        sel = QTextEdit.ExtraSelection()
        sel.cursor = cursor
        sel.format.setBackground(QColor(LINK_COLOUR))
        self.box.setExtraSelections([sel])
        if scroll and not self.box.viewport().rect().contains(self.box.cursorRect(cursor).center()):
            bar = self.box.verticalScrollBar()  # in lines: put the id's line a third down
            bar.setValue(max(0, cursor.blockNumber() - self.box.viewport().height() // (3 * max(1, self.box.fontMetrics().height()))))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind == QEvent.Type.MouseMove or kind == QEvent.Type.MouseButtonRelease:
            cursor = self.box.cursorForPosition(event.position().toPoint())
            index = self.token_at(cursor.blockNumber(), cursor.positionInBlock())
            if kind == QEvent.Type.MouseButtonRelease:
                self._hovered = index  # the mouse is there now (a click selects it below)
                if index >= 0 and not self.box.textCursor().hasSelection():
                    self.sig_id_clicked.emit(index)
            elif index != self._hovered:
                self._hovered = index
                self.sig_id_hovered.emit(index)
        elif kind == QEvent.Type.Leave and self._hovered != -1:
            self._hovered = -1
            self.sig_id_hovered.emit(-1)
        return False

    # -- internals ---------------------------------------------------------------------------
    def _refresh(self, *_: object) -> None:
        self._stale = True
        self._delay.stop()
        if self.isVisible():
            self._builder.submit(shown_text, self._ids, self.fmt())

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale and not self._builder.busy:
            self._delay.stop()
            self._builder.submit(shown_text, self._ids, self.fmt())

    def _on_built(self, text: str) -> None:
        self._stale = False
        if text != self._shown:
            self._shown = text
            self.box.setPlainText(text)
        self._apply_highlight()
        self.sig_shown.emit(text)

    def _on_copy_built(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.sig_copied.emit(self._copy_count)
