"""A read-only text view that draws token spans as alternating background colours.

Positions in and out are **code points** of the text given to :meth:`SpanTextView.set_content`
(Qt counts UTF-16 units; the view converts). Highlighting sets character formats on the
text layouts of the visible blocks only (plus a margin), as a syntax highlighter does,
recomputed on scroll and resize and capped at :attr:`SpanTextView.max_segments` segments, so
a 100,000-character text costs no more to draw than a screenful. (Extra selections were
measured 20× slower to paint with a few hundred spans.) An edit replaces only the changed
part of the document, and a redraw whose window, text and spans did not change does nothing,
so a keystroke far from the visible part costs no re-layout. The Qt-free helpers (edit
diffing, segment sweep, format composition) are in :mod:`app.widgets.span_segments`.
"""

from __future__ import annotations

import bisect
from typing import Sequence

import numpy as np
from PySide6.QtCore import QPoint, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextLayout
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from app.widgets.span_segments import (
    UNKNOWN,
    SegmentStyle,
    carry_block_keys,
    compose_style,
    display_text,
    marks,
    sweep,
    visible_lines,
    window_intervals,
)
from core.text.edits import common_affixes
from core.text.offsets import utf16_table

SMALL_EDIT = 2000  # code points; bigger changes reset the document instead of editing it
MARGIN_CHARS = 300  # drawn beyond the visible part, so small scrolls need no redraw
_UNDERLINES = {
    "dot": QTextCharFormat.UnderlineStyle.DotLine,
    "wave": QTextCharFormat.UnderlineStyle.WaveUnderline,
    "single": QTextCharFormat.UnderlineStyle.SingleUnderline,
}


class SpanTextView(QPlainTextEdit):
    """Read-only text with token spans, marks, entities, an error mark and linked highlights.

    Signals
    -------
    sig_hovered(int)
        Code point under the mouse, or -1 when the mouse is over no character.
    sig_selection_changed(int, int)
        The selected code-point span; a plain click gives the clicked character ``(c, c+1)``.
    """

    sig_hovered = Signal(int)
    sig_selection_changed = Signal(int, int)

    max_segments = 6000

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setReadOnly(True)
        font = QFont(self.font())  # one glyph per character, no font ligatures or kerning:
        font.setStyleStrategy(QFont.StyleStrategy.PreferNoShaping)  # spans stay exact and
        self.setFont(font)  # long paragraphs lay out ~2x faster (complex scripts are still shaped)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.viewport().setMouseTracking(True)
        self._text = ""
        self._utf16: list[int] = [0]
        self._spans: list[tuple[int, int] | None] = []
        self._marks: list[tuple[int, int, str]] = []
        self._entities: list[tuple[int, int, str]] = []
        self._error: tuple[int, int] | None = None
        self._linked: list[tuple[int, int]] = []
        self._hovered = -1
        self._pressed_at: QPoint | None = None
        self.capped = False
        self.drawn_segments = 0
        self._formats: dict[frozenset, QTextCharFormat] = {}
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._redraw)
        self._drawn_window: tuple[int, int] | None = None
        self._drawn_key: tuple | None = None  # what the last redraw drew
        self._block_keys: dict[int, tuple] = {}  # block number -> the formats set on its layout
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.selectionChanged.connect(self._on_selection_changed)

    # -- content -------------------------------------------------------------------------
    def set_content(
        self,
        text: str,
        spans: Sequence[tuple[int, int] | None] = (),
        cover: np.ndarray | None = None,
        utf16: list[int] | None = None,
    ) -> None:
        """Show ``text`` with token ``spans`` (code points); ``cover[c]`` = tokens covering c."""
        if text != self._text:
            old, old_utf16 = self._text, self._utf16
            self._text = text
            self._utf16 = utf16 if utf16 is not None and len(utf16) == len(text) + 1 else utf16_table(text)
            self._replace_text(old, old_utf16, text)
        self._spans = list(spans)
        self._marks = marks(text, cover) if cover is not None else []
        self._error, self._linked, self._entities = None, [], []
        self.schedule_redraw()

    def _replace_text(self, old: str, old_utf16: list[int], new: str) -> None:
        """Show ``new``: a small edit replaces only what changed, so the layouts (and
        formats) of untouched paragraphs survive; anything bigger resets the document."""
        p, q = common_affixes(old, new)
        doc = self.document()
        if not old or len(new) - p - q > SMALL_EDIT or len(old) - p - q > SMALL_EDIT:
            doc.setUndoRedoEnabled(False)
            self.setPlainText(display_text(new))
            self._block_keys, self._drawn_key = {}, None
            return
        blocks = doc.blockCount()
        first = doc.findBlock(old_utf16[p]).blockNumber()
        last = doc.findBlock(old_utf16[len(old) - q]).blockNumber()
        cursor = QTextCursor(doc)
        cursor.setPosition(old_utf16[p])
        cursor.setPosition(old_utf16[len(old) - q], QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(display_text(new[p : len(new) - q]))
        self._block_keys = carry_block_keys(self._block_keys, first, last, doc.blockCount() - blocks)

    def set_entities(self, spans: Sequence[tuple[int, int, str]]) -> None:
        """Entity spans ``(start, end, label)`` drawn as coloured bold underlined text."""
        self._entities = list(spans)
        self.schedule_redraw()

    def set_error(self, span: tuple[int, int] | None) -> None:
        """Mark ``span`` (code points) as the place an alignment failed; None clears it."""
        self._error = span
        self.schedule_redraw()
        if span is not None:
            self.scroll_to(span[0])

    def set_linked(self, spans: Sequence[tuple[int, int]], *, scroll: bool = True) -> None:
        """Highlight the linked ``spans`` (code points), e.g. the hovered token's span."""
        self._linked = [s for s in spans if s[1] > s[0]]
        self.schedule_redraw()
        if scroll and self._linked:
            self.scroll_to(self._linked[0][0])

    def linked_spans(self) -> list[tuple[int, int]]:
        """The currently highlighted linked spans (code points)."""
        return list(self._linked)

    def mark_count(self, kind: str) -> int:
        """Characters marked ``"multi"`` (shared by tokens) or ``"uncov"`` (in no token)."""
        return sum(e - s for s, e, k in self._marks if k == kind)

    def error_span(self) -> tuple[int, int] | None:
        return self._error

    def text(self) -> str:
        return self._text

    def scroll_to(self, pos: int) -> None:
        """Make code point ``pos`` visible without moving the user's selection."""
        cursor = QTextCursor(self.document())
        cursor.setPosition(self._to_qt(pos))
        rect = self.cursorRect(cursor)
        if not self.viewport().rect().contains(rect.center()):
            saved, bar = self.textCursor(), self.verticalScrollBar()
            with QSignalBlocker(self):
                self.setTextCursor(cursor)
                self.centerCursor()
                value = bar.value()
                self.setTextCursor(saved)  # keeps the user's selection; scrolls back ...
            bar.setValue(value)  # ... so scroll to the span again

    # -- positions -----------------------------------------------------------------------
    def _to_qt(self, pos: int) -> int:
        return self._utf16[max(0, min(pos, len(self._utf16) - 1))]

    def _to_cp(self, qpos: int) -> int:
        return max(0, bisect.bisect_right(self._utf16, qpos) - 1)

    def visible_range(self) -> tuple[int, int]:
        """Code-point span of the visible part of the text."""
        height = self.viewport().height()
        block = self.firstVisibleBlock()
        top = self.blockBoundingGeometry(block).translated(self.contentOffset()).top()
        first = last = -1
        while block.isValid() and top < height:
            lines = visible_lines(block.layout(), -top, height - top)
            if lines:
                a, b = lines
                first = block.position() + a.textStart() if first < 0 else first
                last = block.position() + b.textStart() + b.textLength()
            top += self.blockBoundingRect(block).height()
            block = block.next()
        if first < 0:  # nothing laid out yet
            return 0, min(len(self._text), 1)
        return self._to_cp(first), min(len(self._text), self._to_cp(last) + 1)

    def char_at(self, point: QPoint) -> int:
        """Code point under ``point`` (viewport coordinates), or -1 when the point is not
        on a line's text (the empty area below the text or right of a line's end)."""
        cursor = self.cursorForPosition(point)
        if not self._on_line(cursor, point):
            return -1
        qpos = cursor.position()
        if self.cursorRect(cursor).left() > point.x():
            qpos -= 1
        if qpos < 0 or qpos >= self._utf16[-1]:
            return -1
        cp = self._to_cp(qpos)
        return -1 if self._text[cp] in "\n\u2028\u2029" else cp

    def _on_line(self, cursor: QTextCursor, point: QPoint) -> bool:
        """Whether ``point`` lies inside the rectangle of the text of the visual line that
        ``cursor`` (the cursor nearest to ``point``) is on."""
        block = cursor.block()
        layout = block.layout()
        line = layout.lineForTextPosition(cursor.positionInBlock()) if layout is not None else None
        if line is None or not line.isValid():
            return False
        origin = self.blockBoundingGeometry(block).translated(self.contentOffset()).topLeft()
        rect = line.naturalTextRect().translated(origin + layout.position())
        return rect.top() <= point.y() < rect.bottom() and point.x() < rect.right() + 1

    # -- events --------------------------------------------------------------------------
    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().mouseMoveEvent(event)
        cp = self.char_at(event.position().toPoint())
        if cp != self._hovered:
            self._hovered = cp
            self.sig_hovered.emit(cp)

    def leaveEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().leaveEvent(event)
        if self._hovered != -1:
            self._hovered = -1
            self.sig_hovered.emit(-1)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().mouseReleaseEvent(event)
        if not self.textCursor().hasSelection():
            cp = self.char_at(event.position().toPoint())
            if cp >= 0:
                self.sig_selection_changed.emit(cp, cp + 1)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._drawn_window = None
        self.schedule_redraw()

    def _on_scrolled(self) -> None:
        lo, hi = self.visible_range()
        win = self._drawn_window
        if win is None or lo < win[0] or hi > win[1]:
            self.schedule_redraw()

    def _on_selection_changed(self) -> None:
        cursor = self.textCursor()
        if cursor.hasSelection():
            start, end = self._to_cp(cursor.selectionStart()), self._to_cp(cursor.selectionEnd())
            if end > start:
                self.sig_selection_changed.emit(start, end)

    # -- drawing -------------------------------------------------------------------------
    def schedule_redraw(self) -> None:
        """Coalesce redraw requests into one pass after control returns to the event loop."""
        self._timer.start()

    def redraw_now(self) -> None:
        self._timer.stop()
        self._redraw()

    def _intervals(self, lo: int, hi: int) -> list[tuple[int, int, object]]:
        return window_intervals(lo, hi, self._spans, marks=self._marks,
                                entities=self._entities, linked=self._linked, error=self._error)

    def _redraw(self) -> None:
        lo, hi = self.visible_range()
        lo, hi = max(0, lo - MARGIN_CHARS), min(len(self._text), hi + MARGIN_CHARS)
        self._drawn_window = (lo, hi)
        intervals = self._intervals(lo, hi)
        # Unchanged window text (same UTF-16 start) and intervals: every layout already has
        # its formats, unless an edit split or merged paragraphs in between.
        key = (lo, hi, self._utf16[lo], self._text[lo:hi], intervals)
        if key == self._drawn_key and UNKNOWN not in self._block_keys.values():
            return
        self._drawn_key = key
        segments = sweep(intervals, lo, hi)
        self.capped = len(segments) > self.max_segments
        segments = segments[: self.max_segments]
        self.drawn_segments = len(segments)
        self._apply(segments, lo, hi)

    def _apply(self, segments: list[tuple[int, int, frozenset]], lo: int, hi: int) -> None:
        """Set the segments' formats on the layouts of the blocks they fall in (the way a
        syntax highlighter does: far cheaper to paint than extra selections). A block whose
        formats did not change is left alone; blocks formatted before and now outside the
        window are cleared."""
        doc = self.document()
        u16 = self._utf16  # segments are inside [0, len(text)]: index the table directly
        qsegs = [(u16[s], u16[e], keys) for s, e, keys in segments]
        block = doc.findBlock(self._to_qt(lo))
        last = doc.findBlock(self._to_qt(hi)).blockNumber()
        keys_now: dict[int, tuple] = {}
        k = 0
        while block.isValid() and block.blockNumber() <= last:
            bpos, blen = block.position(), block.length()
            bend = bpos + blen
            ranges = []
            while k < len(qsegs) and qsegs[k][0] < bend:
                qs, qe, keys = qsegs[k]
                if qs < bpos:
                    qs = bpos
                if min(qe, bend) > qs:
                    ranges.append((qs - bpos, min(qe, bend) - qs, keys))
                if qe > bend:
                    break
                k += 1
            number = block.blockNumber()
            signature = tuple(ranges)
            if self._block_keys.get(number) != signature:
                self._set_block_formats(block, ranges)
            keys_now[number] = signature
            block = block.next()
        for number in self._block_keys.keys() - keys_now.keys():
            stale = doc.findBlockByNumber(number)
            if stale.isValid():
                self._set_block_formats(stale, [])
        self._block_keys = keys_now

    def _set_block_formats(self, block, ranges: list[tuple[int, int, frozenset]]) -> None:
        layout = block.layout()
        if not ranges and not layout.formats():
            return
        formats = []
        for start, length, keys in ranges:
            fr = QTextLayout.FormatRange()
            fr.start, fr.length, fr.format = start, length, self._format(keys)
            formats.append(fr)
        layout.setFormats(formats)
        self.document().markContentsDirty(block.position(), block.length())

    def _format(self, keys: frozenset) -> QTextCharFormat:
        fmt = self._formats.get(keys)
        if fmt is None:
            fmt = self._formats[keys] = qt_format(compose_style(keys))
        return fmt



def qt_format(style: SegmentStyle) -> QTextCharFormat:
    """The Qt character format drawing ``style``."""
    fmt = QTextCharFormat()
    if style.background:
        fmt.setBackground(QColor(style.background))
    if style.foreground:
        fmt.setForeground(QColor(style.foreground))
    if style.underline:
        fmt.setUnderlineStyle(_UNDERLINES[style.underline])
        fmt.setUnderlineColor(QColor(style.underline_colour))
    if style.bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    return fmt
