"""The token-id view: the ids of the shown tokens as copyable text, space-separated or JSON.

Writing 1,000,000 ids into a text box costs seconds on the GUI thread (Qt lays out a
paragraph whole), so the view shows at most :data:`MAX_SHOWN` ids, :data:`PER_LINE` to a
line, and builds that text on a worker only while it is visible (a hidden view builds it
when it is shown). New ids are built :data:`BUILD_DELAY_MS` after they arrive, so the
build never competes for the interpreter with the pane drawing the tokens they belong to
(the box follows a frame later; a burst of results builds once), and an edit of the text
stops a build whose ids are stale (:meth:`TokenIdsView.text_edited`). Copy builds the text
of *all* ids on a worker and puts it on the clipboard as one line.
"""

from __future__ import annotations

import json
from typing import Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from app.widgets.layout_boundary import LayoutBoundary
from app.workers import TaskRunner

FORMATS = {"space": "Space-separated", "json": "JSON list"}
MAX_SHOWN = 20_000  # ids written into the box; Copy copies all
PER_LINE = 25  # ids per line of the box (short blocks: Qt lays out only the visible ones)
BUILD_DELAY_MS = 16  # new ids wait this long (a frame) before the box's text is built


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
    """

    sig_shown = Signal(str)
    sig_copied = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._ids: Sequence[int | None] = []
        self._stale = False  # the box does not show self._ids in the current format yet
        self._shown = ""  # the box's text
        self._copy_count = 0
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

    def set_ids(self, ids: Sequence[int | None]) -> None:
        """Show ``ids`` (one per token, in order; None: no id). Kept by reference (do not
        change the sequence afterwards); the text is built on a worker when the view is
        visible (:data:`BUILD_DELAY_MS` later), else when it is shown. O(1) here."""
        self._ids = ids
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
        self.sig_shown.emit(text)

    def _on_copy_built(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.sig_copied.emit(self._copy_count)
