"""A read-only text view that draws token spans as alternating background colours.

Positions in and out are **code points** of the text given to :meth:`SpanTextView.set_content`
(Qt counts UTF-16 units; the view converts). Highlighting sets character formats on the
text layouts of the visible blocks only (plus a margin), as a syntax highlighter does,
recomputed on scroll and resize and capped at :attr:`SpanTextView.max_segments` segments, so
a 100,000-character text costs no more to draw than a screenful. (Extra selections were
measured 20× slower to paint with a few hundred spans.)
"""

from __future__ import annotations

import bisect
from typing import Sequence

import numpy as np
from PySide6.QtCore import QPoint, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor, QTextLayout
from PySide6.QtWidgets import QPlainTextEdit, QWidget

TOKEN_COLOURS = ("#dbeafe", "#fde7c2")  # alternating token backgrounds
MULTI_COLOUR = "#e9d5ff"  # characters shared by several tokens
UNCOVERED_COLOUR = "#fecaca"  # non-space characters no token covers
ERROR_COLOUR = "#dc2626"
LINK_COLOUR = "#facc15"  # hovered / selected linked parts
ENTITY_COLOURS = ("#15803d", "#b91c1c", "#1d4ed8", "#a16207", "#7e22ce", "#0f766e")
SMALL_EDIT = 2000  # code points; bigger changes reset the document instead of editing it
MARGIN_CHARS = 300  # drawn beyond the visible part, so small scrolls need no redraw


def display_text(text: str) -> str:
    """``text`` with one Qt position per UTF-16 unit (a CR is shown as ␍, not merged)."""
    return text.replace("\r", "\u240d")


# Every character for which str.isspace() is true.
_SPACES = np.array([c for c in range(0x3001) if chr(c).isspace()], dtype=np.uint32)


def code_points(text: str) -> np.ndarray:
    """``(len(text),) uint32``: the code points of ``text`` (lone surrogates included)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def utf16_table(text: str) -> list[int]:
    """Cumulative UTF-16 offsets of every code-point boundary, length ``len(text) + 1``."""
    if text.isascii():
        return list(range(len(text) + 1))
    wide = (code_points(text) > 0xFFFF).astype(np.int64)
    return np.concatenate(([0], np.cumsum(1 + wide))).tolist()


def common_affixes(a: str, b: str) -> tuple[int, int]:
    """Lengths ``(p, q)`` of the longest common prefix and suffix, with ``p + q`` at most
    the shorter length (binary search on slice equality: fast for long strings)."""
    n = min(len(a), len(b))
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    p = lo
    lo, hi = 0, n - p
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return p, lo


def entity_colour(label: str) -> str:
    """A stable colour for an entity label."""
    return ENTITY_COLOURS[sum(map(ord, label)) % len(ENTITY_COLOURS)]


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
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.viewport().setMouseTracking(True)
        self._text = ""
        self._utf16: list[int] = [0]
        self._spans: list[tuple[int, int] | None] = []
        self._starts: list[int] = []
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
        self._starts = [sp[0] if sp else 1 << 40 for sp in self._spans]
        self._marks = _marks(text, cover) if cover is not None else []
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
            self._block_keys = {}
            return
        blocks = doc.blockCount()
        cursor = QTextCursor(doc)
        cursor.setPosition(old_utf16[p])
        cursor.setPosition(old_utf16[len(old) - q], QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(display_text(new[p : len(new) - q]))
        if doc.blockCount() != blocks:
            self._block_keys = {}
        else:
            first = doc.findBlock(self._utf16[p]).blockNumber()
            last = doc.findBlock(self._utf16[len(new) - q]).blockNumber()
            for number in range(first, last + 1):
                self._block_keys.pop(number, None)

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
        vp = self.viewport().rect()
        first = self.cursorForPosition(QPoint(0, 0)).position()
        last = self.cursorForPosition(QPoint(vp.width(), vp.height())).position()
        return self._to_cp(first), min(len(self._text), self._to_cp(last) + 1)

    def char_at(self, point: QPoint) -> int:
        """Code point under ``point`` (viewport coordinates), or -1."""
        cursor = self.cursorForPosition(point)
        qpos = cursor.position()
        if self.cursorRect(cursor).left() > point.x():
            qpos -= 1
        if qpos < 0 or qpos >= self._utf16[-1]:
            return -1
        cp = self._to_cp(qpos)
        return -1 if self._text[cp] in "\n\u2028\u2029" else cp

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
        first = max(0, bisect.bisect_left(self._starts, lo) - 64)
        out: list[tuple[int, int, object]] = []
        for i in range(first, len(self._spans)):
            sp = self._spans[i]
            if sp is None or sp[1] <= lo:
                continue
            if sp[0] >= hi:
                break
            out.append((sp[0], sp[1], ("tok", i % 2)))
        for s, e, kind in self._marks:
            if s < hi and e > lo:
                out.append((s, e, (kind,)))
        for s, e, label in self._entities:
            if s < hi and e > lo:
                out.append((s, e, ("ent", label)))
        for s, e in self._linked:
            if s < hi and e > lo:
                out.append((s, e, ("link",)))
        if self._error and self._error[0] < hi and self._error[1] > lo:
            out.append((*self._error, ("err",)))
        return out

    def _redraw(self) -> None:
        lo, hi = self.visible_range()
        lo, hi = max(0, lo - MARGIN_CHARS), min(len(self._text), hi + MARGIN_CHARS)
        self._drawn_window = (lo, hi)
        segments = _sweep(self._intervals(lo, hi), lo, hi)
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
        block = doc.findBlock(self._to_qt(lo))
        last = doc.findBlock(self._to_qt(hi)).blockNumber()
        keys_now: dict[int, tuple] = {}
        k = 0
        while block.isValid() and block.blockNumber() <= last:
            bpos, blen = block.position(), block.length()
            ranges = []
            while k < len(segments) and self._to_qt(segments[k][0]) < bpos + blen:
                s, e, keys = segments[k]
                qs, qe = max(self._to_qt(s), bpos), min(self._to_qt(e), bpos + blen)
                if qe > qs:
                    ranges.append((qs - bpos, qe - qs, keys))
                if self._to_qt(e) > bpos + blen:
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
            fmt = self._formats[keys] = _compose(keys)
        return fmt


def _marks(text: str, cover: np.ndarray) -> list[tuple[int, int, str]]:
    """Runs of characters shared by several tokens ("multi") or by none ("uncov", non-space)."""
    if len(cover) != len(text) or not len(text):
        return []
    multi = cover > 1
    space = np.isin(code_points(text), _SPACES)
    uncovered = (cover == 0) & ~space
    return _runs(multi, "multi") + _runs(uncovered, "uncov")


def _runs(mask: np.ndarray, kind: str) -> list[tuple[int, int, str]]:
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b), kind) for a, b in zip(edges[::2], edges[1::2])]


def _sweep(intervals, lo: int, hi: int) -> list[tuple[int, int, frozenset]]:
    """Cut overlapping intervals into disjoint segments, each with its set of active keys."""
    events: list[tuple[int, int, object]] = []
    for s, e, key in intervals:
        s, e = max(s, lo), min(e, hi)
        if e > s:
            events.append((s, 1, key))
            events.append((e, -1, key))
    events.sort(key=lambda ev: (ev[0], ev[1]))
    active: dict[object, int] = {}
    out: list[tuple[int, int, frozenset]] = []
    prev = None
    for pos, delta, key in events:
        if prev is not None and pos > prev and active:
            out.append((prev, pos, frozenset(active)))
        active[key] = active.get(key, 0) + delta
        if not active[key]:
            del active[key]
        prev = pos
    return out


def _compose(keys: frozenset) -> QTextCharFormat:
    """One character format from the active keys; later rules win over earlier ones."""
    fmt = QTextCharFormat()
    kinds = {k[0]: k for k in keys}
    for key in keys:
        if key[0] == "tok":
            fmt.setBackground(QColor(TOKEN_COLOURS[key[1]]))
    if "multi" in kinds:
        fmt.setBackground(QColor(MULTI_COLOUR))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        fmt.setUnderlineColor(QColor("#7e22ce"))
    if "uncov" in kinds:
        fmt.setBackground(QColor(UNCOVERED_COLOUR))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(QColor(ERROR_COLOUR))
    if "ent" in kinds:
        colour = QColor(entity_colour(kinds["ent"][1]))
        fmt.setForeground(colour)
        fmt.setFontWeight(QFont.Weight.Bold)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(colour)
    if "link" in kinds:
        fmt.setBackground(QColor(LINK_COLOUR))
    if "err" in kinds:
        fmt.setBackground(QColor(ERROR_COLOUR))
        fmt.setForeground(QColor("white"))
    return fmt
