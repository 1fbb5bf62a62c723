"""Tokenizers side by side over the Alignment pane's text: one row per tokenizer.

Each row is the same text drawn on the same unformatted layout (so characters line up in x
across rows), its tokens as alternating backgrounds, unknown tokens framed, and a tick at
every boundary — red where some other row does not cut there, grey where all rows do (the
boundary sets come from :func:`core.align.side_by_side.side_by_side`, which uses
:mod:`core.align.span_diff`). The tail gives the token count, code points per token and
unknown tokens. Loading and encoding run on :class:`~app.workers.TaskRunner`s.

Cost per edit of the pane's text: none while no tokenizer was added (the panel then only
keeps the text), and none for an edit past the first :data:`MAX_CHARS` code points; with
added rows, one encode per row of the compared text, :attr:`SideBySidePanel.debounce_ms`
after the last edit (a newer edit cancels the pending and the running work).
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QHBoxLayout, QLabel, QSplitter, QToolButton, QVBoxLayout, QWidget)

from app.panes.alignment.state import TOKENIZER_FILE_FILTER
from app.widgets.span_line_view import SpanLine, SpanLineView
from app.widgets.span_segments import TOKEN_COLOURS, SegmentStyle, special_chip
from app.workers import TaskRunner
from core.align.side_by_side import SideBySide, TokenizerRow, side_by_side
from core.tokenizers import TokenizerLike, load

MAX_ROWS = 4  # the current tokenizer and up to three more
OPEN_FILE = "\x00open-file"  # the Add box's "Open file…" entry (never a path)

ROOM = 125  # pixels of the column the rows get back when a tokenizer is added
UNBOUNDED = (1 << 24) - 1  # Qt's QWIDGETSIZE_MAX: no maximum height
MAX_CHARS = 600  # code points compared (a row is one unwrapped line)
DIFFER_COLOUR, SHARED_COLOUR = "#dc2626", "#9ca3af"
_STYLES = tuple(SegmentStyle(background=c) for c in TOKEN_COLOURS)


def row_line(row: TokenizerRow, text: str) -> SpanLine:
    """The :class:`SpanLine` of one row: token backgrounds (overlapping spans, such as the
    byte pieces of one character, drawn once), special tokens as chips, unknown frames and
    boundary ticks.
    O(tokens of the row)."""
    segments, end = [], 0
    chips = set(row.special_spans)  # special tokens written in the text: chips, as in the span views
    for k, (s, e) in enumerate(row.spans):
        chip = (s, e) in chips
        s = max(s, end)
        if e > s:
            segments.append((s, e, special_chip() if chip else _STYLES[k % 2]))
            end = e
    differ = set(row.differing)
    bars = tuple((p, DIFFER_COLOUR, 2.5) if p in differ else (p, SHARED_COLOUR, 1.0)
                 for p in row.boundaries if p <= len(text))
    tail = (f"{row.tokens:,} tokens · {row.chars_per_token:.2f} chars/token · "
            f"{row.unknown:,} unknown · {len(row.differing):,} boundaries not shared")
    return SpanLine(text, head=row.name, tail=tail, segments=tuple(segments),
                    frames=tuple((s, e, "unk") for s, e in row.unknown_spans),
                    cuts=tuple(p for p in row.boundaries if 0 < p < len(text)), bars=bars,
                    tail_colour="#b91c1c" if row.unknown else "#4b5563")


def compare_rows(text: str, tokenizers: Sequence[tuple[str, Any]], should_stop=None) -> SideBySide:
    """:func:`side_by_side` of the first :data:`MAX_CHARS` code points (a worker runs this)."""
    return side_by_side(text[:MAX_CHARS], tokenizers, should_stop=should_stop)


class SideBySidePanel(QWidget):
    """The current tokenizer and up to three more over the same text.

    Signals
    -------
    sig_computed(object)
        A :class:`~core.align.side_by_side.SideBySide` has been drawn.
    sig_failed(str)
        Loading a tokenizer or encoding failed (the message says why).
    """

    sig_computed = Signal(object)
    sig_failed = Signal(str)

    debounce_ms = 300  # after the last edit of the text, the rows are encoded

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._text = ""  # the compared text: the first MAX_CHARS code points
        self._cut = False  # the pane's text is longer than the compared text
        self._primary: tuple[str, Any] | None = None
        self._extra: list[tuple[str, Any]] = []
        self.result: SideBySide | None = None
        self.view = SpanLineView()
        font = self.view.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        self.view.setFont(font)
        self.view.setMinimumHeight(self.view.fontMetrics().lineSpacing() + 30)  # a row and its scroll bar: it scrolls
        self.add = QComboBox()
        self.add.setToolTip("Add a tokenizer to compare with the current one (at most "
                            f"{MAX_ROWS} rows)")
        self.clear = QToolButton()
        self.clear.setText("Clear")
        self.clear.setToolTip("Remove the added tokenizers")
        self.note = QLabel()
        self.note.setStyleSheet("color:#6b7280")
        self.note.setWordWrap(True)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        title = QLabel("<b>Side by side</b>")
        title.setToolTip("Each row: one tokenizer's tokens over the same text; red ticks mark "
                         "boundaries another row does not have, grey ticks boundaries all rows share")
        head.addWidget(title)
        head.addWidget(self.note, 1)
        head.addWidget(self.add)
        head.addWidget(self.clear)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.setSpacing(3)
        lay.addLayout(head)
        lay.addWidget(self.view, 1)
        self._loader = TaskRunner(self)
        self._loader.sig_returned.connect(self._on_loaded)
        self._loader.sig_errored.connect(lambda exc: self._fail(f"Could not load tokenizer: {exc}"))
        self._encoder = TaskRunner(self)
        self._encoder.sig_returned.connect(self._on_computed)
        self._encoder.sig_errored.connect(lambda exc: self._fail(f"Could not compare ({type(exc).__name__}): {exc}"))
        self._pending_name = ""
        self._room = ROOM  # the rows' height when shown again
        self._timer = QTimer(self, singleShot=True, interval=self.debounce_ms)
        self._timer.timeout.connect(self.recompute)
        self.add.activated.connect(self._on_add_activated)
        self.clear.clicked.connect(self.clear_added)
        self.set_choices([])
        self._show_empty()

    # -- inputs --------------------------------------------------------------------------------
    def set_choices(self, sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> None:
        """The tokenizers the Add box offers, by section (``(title, [(label, path), ...])``:
        built in, data folder, recent, Hugging Face cache), then "Open file…" (a file dialog).
        Empty sections are left out. O(entries)."""
        self.add.clear()
        self.add.addItem("Add tokenizer…", None)
        model = self.add.model()
        for title, items in sections:
            if not items:
                continue
            self.add.addItem(title, None)
            heading = model.item(self.add.count() - 1)
            heading.setEnabled(False)
            font = heading.font()
            font.setBold(True)
            heading.setFont(font)
            for label, path in items:
                self.add.addItem(f"    {label}", path)
                self.add.setItemData(self.add.count() - 1, path, Qt.ItemDataRole.ToolTipRole)
        self.add.addItem("Open file…", OPEN_FILE)
        self.add.setItemData(self.add.count() - 1, "Choose a tokenizer file or folder to add",
                             Qt.ItemDataRole.ToolTipRole)

    def choices(self) -> list[tuple[str, str | None]]:
        """``(text, path or OPEN_FILE or None)`` of every entry of the Add box, in order."""
        return [(self.add.itemText(k), self.add.itemData(k)) for k in range(self.add.count())]

    def set_text(self, text: str) -> None:
        """The pane's text changed: re-encode the rows after a pause, if there are rows to
        compare and the compared part changed. O(MAX_CHARS)."""
        head = text[:MAX_CHARS]
        self._cut = len(text) > MAX_CHARS
        if head != self._text:
            self._text = head
            self._schedule()

    def set_primary(self, name: str, tokenizer: TokenizerLike) -> None:
        """The pane's current tokenizer (always the first row)."""
        self._primary = (name, tokenizer)
        self._schedule()

    def add_tokenizer(self, name: str, tokenizer: TokenizerLike) -> None:
        """Add a row (the oldest added row goes when there would be more than :data:`MAX_ROWS`)."""
        self._extra = ([e for e in self._extra if e[0] != name] + [(name, tokenizer)])[-(MAX_ROWS - 1):]
        self.recompute()

    def add_path(self, path: str, name: str | None = None) -> None:
        """Load ``path`` on a worker, then add it."""
        self._pending_name = name or path
        self.note.setText(f"loading {self._pending_name}…")
        self._loader.submit(load, path)

    def clear_added(self) -> None:
        self._extra = []
        self.recompute()

    def names(self) -> list[str]:
        return [n for n, _ in self._rows()]

    # -- work ----------------------------------------------------------------------------------
    def _rows(self) -> list[tuple[str, Any]]:
        return ([self._primary] if self._primary else []) + self._extra

    def _schedule(self) -> None:
        """Cancel the work of the previous text and encode this one after
        :attr:`debounce_ms` (nothing while no tokenizer was added)."""
        self._encoder.cancel()
        if self._extra:
            self._timer.start()

    def recompute(self) -> None:
        """Encode the text with every row's tokenizer on a worker now; with no added rows,
        show the empty panel instead (nothing to compare)."""
        self._timer.stop()
        if not self._extra or not self._primary:
            self._encoder.cancel()
            self._show_empty()
            return
        self._encoder.submit(compare_rows, self._text, self._rows())

    def _show_empty(self) -> None:
        self.result = None
        self.view.set_lines([], "")
        self.note.setText("Add a tokenizer to compare with this one")  # one line: the folded panel is one line high
        self._fold(True)

    def _fold(self, empty: bool) -> None:
        """With no row to show, only the title line (the column's other views get the room);
        with rows, the rows' view, given back :data:`ROOM` pixels of the column if it has
        less (taken from the tallest other view)."""
        if self.view.isHidden() == empty:
            return
        self.view.setVisible(not empty)
        if empty:
            self._room = max(self.height(), ROOM)
            self.setMaximumHeight(self.minimumSizeHint().height())
            return
        self.setMaximumHeight(UNBOUNDED)
        splitter = self.parentWidget()
        if isinstance(splitter, QSplitter):
            sizes = splitter.sizes()
            at = splitter.indexOf(self)
            tallest = max((k for k in range(len(sizes)) if k != at), key=sizes.__getitem__, default=at)
            give = min(max(0, self._room - sizes[at]), max(0, sizes[tallest] - 60))
            sizes[at] += give
            sizes[tallest] -= give
            splitter.setSizes(sizes)

    def _on_add_activated(self, index: int) -> None:
        path = self.add.itemData(index)
        self.add.setCurrentIndex(0)
        if path == OPEN_FILE:
            path, _ = QFileDialog.getOpenFileName(
                self, "Add a tokenizer to compare", "", TOKENIZER_FILE_FILTER)
            if path:
                self.add_path(path, os.path.basename(os.path.dirname(path)) or path)
        elif path:
            self.add_path(str(path), self.add.itemText(index).strip())

    def _on_loaded(self, tokenizer: TokenizerLike) -> None:
        self.note.setText("")
        self.add_tokenizer(self._pending_name, tokenizer)

    def _on_computed(self, result: SideBySide) -> None:
        self.result = result
        self._fold(not result.rows)
        self.view.set_lines([row_line(r, result.text) for r in result.rows],
                            "Add a tokenizer to compare")
        self.note.setText(f"{len(result.differing):,} boundaries differ"
                          + (f" (first {MAX_CHARS:,} code points)" if self._cut else ""))
        self.sig_computed.emit(result)

    def _fail(self, message: str) -> None:
        self.note.setText(message)
        self.sig_failed.emit(message)
