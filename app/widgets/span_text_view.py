"""A read-only text view that draws token spans as background colours (alternating, or by token id).

Positions in and out are **code points** of the text given to :meth:`SpanTextView.set_content`
(Qt counts UTF-16 units; the view converts). The document has no character formats: every
highlight (token backgrounds, marks, entities, linked spans, unknown tokens, the error) is
painted *behind* the text from the layout's own geometry (:mod:`app.widgets.span_painter`),
so the glyphs are exactly those of the plain text — a token boundary inside a Devanagari
cluster, an Arabic word or a ZWJ emoji sequence does not break the shaping; a boundary inside
a grapheme cluster gets a red caret instead. Paragraphs take their direction from their text
(Qt's auto direction), and hit-testing searches the visual run under the point, so it
finds the character drawn there in right-to-left and mixed text.

Only the visible part (plus a margin) is prepared, recomputed on scroll and resize and capped
at :attr:`SpanTextView.max_segments` segments, so a 100,000-character text costs no more to
draw than a screenful. An edit replaces only the changed part of the document, so the layouts
of untouched paragraphs survive; a new long text goes into the document in chunks, one per
event-loop turn, so even 1,000,000 characters never freeze the GUI. A text may be shown
with line breaks it does not have (``breaks``: the normalized text of a SentencePiece or BERT
normalizer, which turns newlines into ``▁`` or spaces, is shown broken where the original
is), so Qt lays out a paragraph, not the whole text, when it changes. The Qt-free helpers
(edit diffing, line breaks, segment sweep, style composition) are in
:mod:`app.widgets.span_segments`.
"""

from __future__ import annotations

import bisect
from typing import Iterator, Sequence

import numpy as np
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, QRect, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from app.widgets.font_coverage import missing_characters, notes_for
from app.widgets.span_geometry import LineGeometry
from app.widgets.span_painter import Decorations, LineOps, OpsCache, paint_ops
from app.widgets.span_segments import (
    boundaries,
    break_affixes,
    SegmentStyle,
    compose_style,
    display_text,
    long_run_breaks,
    MarkList,
    marks as span_marks,
    outlines,
    qt_positions,
    sweep,
    visible_lines,
    window_intervals,
    with_breaks,
)
from core.text.edits import common_affixes
from core.text.columns import SpanArray
from core.text.offsets import utf16_offset, utf16_table

_NO_BREAKS = np.zeros(0, np.int64)
SMALL_EDIT = 2000  # code points; bigger changes reset the document instead of editing it
MARGIN_CHARS = 300  # prepared beyond the visible part, so small scrolls need no redraw
FILL_CHUNK = 32_768  # code points a reset puts into the document per event-loop turn
CACHED_LINE = 512
"""A paragraph with a visual line longer than this (Qt positions: a letter with hundreds of
combining marks, which Qt would shape again on every paint) keeps its shaped glyphs
(``QTextLayout.setCacheEnabled``) while it is not edited."""


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
        self._utf16: Sequence[int] = [0]  # code point -> Qt position (with the shown breaks)
        self._breaks = _NO_BREAKS  # shown line breaks that are not in the text (see set_content)
        self._spans: list[tuple[int, int] | None] = []
        self._marks: list[tuple[int, int, str]] = []
        self._mark_ends: list[int] = []
        self._mark_counts: dict[str, int] = {}
        self._entities: list[tuple[int, int, str]] = []
        self._error: tuple[int, int] | None = None
        self._linked: list[tuple[int, int]] = []
        self._unknown: list[bool] = []
        self._any_unknown = False  # some entry of _unknown is True (else the drawing skips it)
        self._colour_ids: Sequence[int | None] | None = None  # colour by id (None: alternate)
        self._special: Sequence[int] = ()  # per token: 0, or how it is special
        self._drawn: list[tuple[int, int, SegmentStyle]] = []  # the window's segments, code points
        self._missing: set[str] = set()  # characters no installed font draws
        self._hovered = -1
        self._pressed_at: QPoint | None = None
        self.capped = False
        self.drawn_segments = 0
        self._deco = Decorations()  # what paintEvent paints, in document (UTF-16) positions
        self._ops = OpsCache()
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._redraw)
        self._drawn_window: tuple[int, int] | None = None
        self._drawn_key: tuple | None = None  # what the last redraw prepared
        self._filled = 0  # code points of the text already in the document (see _fill_more)
        self._edits = 0  # changes of the shown text other than the fill's appends (see geometry_key)
        self._scroll_target = -1  # a position to scroll to once the document holds it
        self._display = ""  # the display text of a long text still going in
        self._fill_timer = QTimer(self, singleShot=True, interval=0)
        self._fill_timer.timeout.connect(self._fill_more)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.selectionChanged.connect(self._on_selection_changed)

    # -- content -------------------------------------------------------------------------
    def set_content(
        self,
        text: str,
        spans: Sequence[tuple[int, int] | None] = (),
        cover: np.ndarray | None = None,
        utf16: list[int] | None = None,
        *,
        chars: frozenset[str] | None = None,
        marks: list[tuple[int, int, str]] | None = None,
        breaks: np.ndarray | None = None,
    ) -> None:
        """Show ``text`` with token ``spans`` (code points); ``cover[c]`` = tokens covering c.
        ``utf16`` (the text's code point → UTF-16 table) and ``chars`` (its distinct
        characters) save computing them here, O(len(text)), e.g. when a worker did; so do
        ``marks`` (:func:`~app.widgets.span_segments.marks` of ``text`` and ``cover``).
        ``breaks`` (sorted ``(k,) int`` code points, :func:`~app.widgets.span_segments.line_breaks`)
        shows a line break before each of those characters that is not in the text (display
        only: positions in and out stay code points of ``text``); with them, ``utf16`` is the
        :func:`~app.widgets.span_segments.qt_positions` table of the text and breaks.
        Without ``breaks``, the view breaks long stretches with no space itself
        (:func:`~app.widgets.span_segments.long_run_breaks`, O(n) at numpy speed when the
        text changed), and ``utf16`` is the plain table; a caller passing ``breaks`` includes
        those (the alignment pane's worker does).
        Clears the entities, error, linked spans, unknown and special masks and the colour
        ids (set them after this)."""
        own = breaks is None  # the view finds the long-run breaks; utf16 is the plain table
        if own:
            breaks = self._breaks if text == self._text else long_run_breaks(text)
        breaks = _NO_BREAKS if not len(breaks) else np.asarray(breaks, np.int64)
        if text != self._text or not np.array_equal(breaks, self._breaks):
            old, old_utf16, old_breaks = self._text, self._utf16, self._breaks
            self._text, self._breaks = text, breaks
            if utf16 is None or len(utf16) != len(text) + 1:
                utf16 = qt_positions(utf16_table(text), breaks)
            elif own and len(breaks):
                utf16 = qt_positions(utf16, breaks)
            self._utf16 = utf16
            self._check_fonts(self._replace_text(old, old_utf16, old_breaks, text), chars)
        self._spans = spans if isinstance(spans, SpanArray) else list(spans)  # a SpanArray is immutable
        if marks is None:
            marks = span_marks(text, cover) if cover is not None else []
        if not isinstance(marks, MarkList):
            marks = MarkList(marks)
        self._marks = marks
        self._mark_ends = marks.ends  # marks are disjoint and sorted
        self._mark_counts = marks.counts
        self._error, self._linked, self._entities, self._unknown = None, [], [], []
        self._any_unknown = False
        self._special, self._colour_ids = (), None
        self.schedule_redraw()

    def set_unknown(self, mask: Sequence[bool]) -> None:
        """Draw the spans of the tokens whose ``mask`` entry is True (one bool per token of
        the last :meth:`set_content`: the model's unknown token or a byte-fallback piece)
        distinctly (red hatching/outline). A shorter mask leaves the remaining tokens plain."""
        self._unknown = mask if isinstance(mask, list) else [bool(m) for m in mask]
        self._any_unknown = any(self._unknown)  # O(tokens) at C speed, once per mask
        self.schedule_redraw()

    def set_special(self, special: Sequence[int]) -> None:
        """Draw the spans of the tokens whose ``special`` entry is not 0 (one per token of the
        last :meth:`set_content`, e.g. :func:`core.align.specials.special_sources`) as
        special tokens: a grey chip with a violet outline, whatever their colour."""
        self._special = special
        self.schedule_redraw()

    def set_colour_ids(self, ids: Sequence[int | None] | None) -> None:
        """Colour each token by its id (one per token of the last :meth:`set_content`; a
        repeated token gets the same colour, :data:`~app.widgets.span_segments.ID_COLOURS`),
        or alternate two colours (None; also for a token whose id is None). Kept by
        reference; O(1) here, the visible tokens' colours are looked up when drawn."""
        self._colour_ids = ids
        self.schedule_redraw()

    def drawn_styles(self) -> list[tuple[int, int, SegmentStyle]]:
        """The styled segments of the drawn window as ``(start, end, SegmentStyle)``, code
        points, disjoint and sorted (the window is the visible part plus a margin)."""
        return list(self._drawn)

    def dark(self) -> bool:
        """Whether the view's background is dark (its colours are then the dark variants)."""
        return self.palette().base().color().lightness() < 128

    def unknown_count(self) -> int:
        """How many tokens the last :meth:`set_unknown` marked."""
        return sum(self._unknown)

    def geometry_key(self, lo: int, hi: int) -> tuple:
        """What the on-screen places of code points ``lo``..``hi`` depend on: equal keys,
        equal places (for caches of things drawn at them). The appends of a long text's
        fill change it only while they reach into ``hi``; any other change of the shown text
        (:attr:`_edits`), a scroll, a resize or a font change always does. O(1)."""
        return (self._edits, min(self._filled, hi + 1), self.horizontalScrollBar().value(),
                self.verticalScrollBar().value(), self.viewport().size().toTuple(), self.font().key())

    def _replace_text(self, old: str, old_utf16: Sequence[int], old_breaks: np.ndarray, new: str) -> str | None:
        """Show ``new`` (with :attr:`_breaks`): a small edit replaces only what changed, so
        the layouts of untouched paragraphs survive; anything bigger resets the document.
        Returns the inserted text of a small edit, None after a reset."""
        self._edits += 1
        breaks = self._breaks
        p, q = common_affixes(old, new)
        if len(old_breaks) or len(breaks):
            p, q = break_affixes(old_breaks, breaks, len(old), len(new), p, q)
        doc = self.document()
        if (not old or self._filled < len(old) or len(new) - p - q > SMALL_EDIT
                or len(old) - p - q > SMALL_EDIT):
            doc.setUndoRedoEnabled(False)
            self._filled, self._scroll_target = min(len(new), FILL_CHUNK), -1
            # display_text keeps positions; the breaks are the only characters added
            self._display = with_breaks(display_text(new), breaks)
            self.setPlainText(self._display[: self._doc_index(self._filled)])
            if self._filled < len(new):
                self._fill_timer.start()
            return None
        self._filled = len(new)
        inserted = new[p : len(new) - q]
        # what the document shows of the replaced code points, old and new (a break before
        # the text is part of it when the edit starts there); only what differs between the
        # two goes into the document, so the paragraphs on either side keep their layouts
        # (a long cluster's empty paragraph before or after it takes a key typed next to it)
        start, end = (0 if p == 0 else old_utf16[p]), old_utf16[len(old) - q]
        was = with_breaks(display_text(old[p : len(old) - q]), old_breaks, p)
        shown = with_breaks(display_text(inserted), breaks, p)
        k, m = common_affixes(was, shown)
        start += utf16_offset(was, k)  # (Qt positions are UTF-16 units)
        end -= utf16_offset(was, len(was)) - utf16_offset(was, len(was) - m)
        cursor = QTextCursor(doc)
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(shown[k:len(shown) - m])
        return inserted

    def _doc_index(self, pos: int) -> int:
        """Where code point ``pos`` is in the display string (after the breaks before it)."""
        return pos + int(np.searchsorted(self._breaks, pos, side="right")) if len(self._breaks) else pos

    def _fill_more(self) -> None:
        """Append the next :data:`FILL_CHUNK` code points of a long text to the document, one
        chunk per event-loop turn (putting 1,000,000 characters in at once freezes the GUI
        for ~0.5 s). The spans are drawn as the text arrives."""
        text, start = self._text, self._filled
        if start >= len(text):
            return
        end = min(len(text), start + FILL_CHUNK)
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(self._display[self._doc_index(start) : self._doc_index(end)])
        self._filled = end
        if end < len(text):
            self._fill_timer.start()
        else:
            self._display = ""
        if 0 <= self._scroll_target < end or (self._scroll_target >= 0 and end == len(text)):
            self.scroll_to(min(self._scroll_target, len(text)))
        self._drawn_key = None
        self.schedule_redraw()

    @property
    def filling(self) -> bool:
        """The document does not hold the whole text yet (see :meth:`_fill_more`)."""
        return self._filled < len(self._text)

    def _check_fonts(self, inserted: str | None, chars: frozenset[str] | None = None) -> None:
        """Update the characters no installed font draws: after a small edit only the
        inserted ones are checked (and the known missing ones looked up in the text);
        after a reset every distinct character (``chars`` when given). O(edit) or O(text)
        at C speed."""
        text = self._text
        if inserted is None and chars is not None:
            known = {c for c in self._missing if c in chars}
            fresh = set(chars)
        else:
            known = {c for c in self._missing if c in text}
            fresh = set(text) if inserted is None else set(inserted)
        self._missing = known | set(missing_characters(fresh - known, self.font()))

    def font_notes(self) -> list[str]:
        """One note per script of the text that no installed font covers, e.g. "no font
        for Ethiopic: characters show as boxes — install a Noto font (fonts-noto-core)"."""
        return notes_for(self._missing)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._missing = set()
            self._check_fonts(None)
        elif event.type() == QEvent.Type.PaletteChange:  # a theme switch: light or dark colours
            self.schedule_redraw()

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

    def drawn_spans(self) -> Sequence[tuple[int, int] | None]:
        """The token spans drawn (code points; None for a token without a span)."""
        return self._spans

    def drawn_entities(self) -> list[tuple[int, int, str]]:
        """The entity spans drawn: ``(start, end, colour key)``, code points."""
        return list(self._entities)

    def drawn_unknown(self) -> list[bool]:
        """One bool per drawn span: marked as an unknown token or byte-fallback piece."""
        return list(self._unknown)

    def drawn_marks(self) -> list[tuple[int, int, str]]:
        """The characters' marks as drawn: ``(start, end, kind)`` runs (``"multi"``,
        ``"uncov"``; see :func:`app.widgets.span_segments.marks`)."""
        return self._marks

    def hovered(self) -> int:
        """The code point under the mouse, -1 for none."""
        return self._hovered

    def mark_count(self, kind: str) -> int:
        """Characters marked ``"multi"`` (shared by tokens) or ``"uncov"`` (in no token)."""
        return self._mark_counts.get(kind, 0)

    def error_span(self) -> tuple[int, int] | None:
        return self._error

    def text(self) -> str:
        return self._text

    def scroll_to(self, pos: int) -> None:
        """Make code point ``pos`` visible without moving the user's selection (once the
        document holds it, while a long text is still going in)."""
        if pos >= self._filled and self.filling:
            self._scroll_target = pos
            return
        self._scroll_target = -1
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
        """The code point at Qt position ``qpos``; at a shown break, the one after it."""
        cp = max(0, bisect.bisect_right(self._utf16, qpos) - 1)
        return cp + 1 if self._break_at(qpos, cp) else cp

    def _break_at(self, qpos: int, cp: int) -> bool:
        """Whether Qt position ``qpos`` (in code point ``cp`` or just after it) is a shown
        break that is not in the text. O(log breaks)."""
        breaks = self._breaks
        if not len(breaks) or cp + 1 >= len(self._utf16) or self._utf16[cp + 1] - 1 != qpos:
            return False
        i = int(np.searchsorted(breaks, cp + 1))
        return i < len(breaks) and breaks[i] == cp + 1

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
        on a line's text (the empty area below the text or beside a line's text). Bidi
        aware: in right-to-left and mixed text it is the character drawn at the point."""
        found = self._line_at(QPointF(point))
        if found is None:
            return -1
        block, geom, origin = found
        qpos = geom.position_at(point.x() - origin.x())
        if qpos < 0:
            return -1
        qpos += block.position()
        cp = max(0, bisect.bisect_right(self._utf16, qpos) - 1)
        if self._break_at(qpos, cp):
            return -1
        return -1 if cp >= len(self._text) or self._text[cp] in "\n\u2028\u2029" else cp

    def _line_at(self, point: QPointF):
        """``(block, LineGeometry, layout origin)`` of the visual line at ``point``'s
        height, or None below or above the text."""
        cursor = self.cursorForPosition(point.toPoint())
        block = cursor.block()
        layout = block.layout()
        if layout is None or not block.isValid():
            return None
        origin = self.blockBoundingGeometry(block).translated(self.contentOffset()).topLeft() + layout.position()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            if line.y() <= point.y() - origin.y() < line.y() + line.height():
                return block, LineGeometry(layout, line), origin
        return None

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

    copy_drops = ""
    """Characters of the shown text left out of a copied selection (e.g. the isolates a
    caller put around right-to-left parts); the shown-only line breaks are never copied."""

    def createMimeDataFromSelection(self) -> QMimeData:
        """The selected code points of the text itself (Ctrl+C, drag): no shown-only line
        breaks, none of :attr:`copy_drops`. O(selection)."""
        cursor, data = self.textCursor(), QMimeData()
        if cursor.hasSelection():
            text = self._text[self._to_cp(cursor.selectionStart()):self._to_cp(cursor.selectionEnd())]
            data.setText(text.translate(dict.fromkeys(map(ord, self.copy_drops))) if self.copy_drops else text)
        return data

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

    def redraw_if_due(self) -> None:
        """Run a scheduled redraw now (nothing if none is due, nor while a long text still
        goes in by chunks: each chunk's turn redraws, and one more redraw in the turn of the
        first would lengthen that turn's stall). A caller that changed the text and what is
        drawn on it calls this once it is done, so the next paint shows them together: the
        text's change asks for a paint before the redraw's timer runs, which would otherwise
        draw one frame of the new text with the old decorations first."""
        if self._timer.isActive() and not self.filling:
            self.redraw_now()

    def _redraw(self) -> None:
        """Prepare the decorations of the visible window (plus a margin) and repaint.
        O(tokens, marks and entities in the window)."""
        lo, hi = self.visible_range()
        lo, hi = max(0, lo - MARGIN_CHARS), min(len(self._text), hi + MARGIN_CHARS)
        self._drawn_window = (lo, hi)
        first = bisect.bisect_right(self._mark_ends, lo)  # the marks meeting the window
        last = bisect.bisect_left(self._marks, (hi,), lo=first)
        intervals = window_intervals(lo, hi, self._spans, marks=self._marks[first:last], entities=self._entities,
                                     linked=self._linked, error=self._error,
                                     unknown=self._unknown if self._any_unknown else (),
                                     text=self._text, ids=self._colour_ids, special=self._special)
        dark = self.dark()
        # The same window text (same Qt start, same breaks) and intervals paint the same.
        key = (lo, hi, self._utf16[lo], self._text[lo:hi], intervals, self._window_breaks(lo, hi), dark)
        if key == self._drawn_key:
            return
        self._drawn_key = key
        segments = sweep(intervals, lo, hi)
        self.capped = len(segments) > self.max_segments
        if self.capped:
            segments = segments[: self.max_segments]
            hi = segments[-1][1]
        self.drawn_segments = len(segments)
        u16 = self._utf16
        frames = [(s, e, k) for s, e, k in outlines(intervals) if s < hi]
        self._drawn = [(s, e, compose_style(keys, dark)) for s, e, keys in segments]
        deco = Decorations.from_code_points(u16, self._drawn, frames, boundaries(intervals, lo, hi))
        if deco != self._deco:  # unchanged decorations need no repaint (Qt repaints edits)
            self._deco = deco
            self.viewport().update()

    def _window_breaks(self, lo: int, hi: int) -> bytes:
        """The shown breaks in code points ``[lo, hi]``, as bytes (for a cache key)."""
        breaks = self._breaks
        if not len(breaks):
            return b""
        a, b = np.searchsorted(breaks, (lo, hi), side="right")
        return breaks[a:b].tobytes()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        """Paint the highlights of the exposed lines, then the plain text over them."""
        painter = QPainter(self.viewport())
        for _block, line, origin, ops in self._line_ops(event.rect()):
            paint_ops(painter, ops, origin, line)
        painter.end()
        super().paintEvent(event)

    def _line_ops(self, rect: QRect) -> Iterator[tuple]:
        """``(block, line, layout origin, LineOps)`` for every visual line meeting ``rect``
        (viewport coordinates). O(lines shown + items on them)."""
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        font = self.font().key()
        while block.isValid():
            geometry = self.blockBoundingGeometry(block).translated(offset)
            if geometry.top() > rect.bottom():
                break
            layout = block.layout()
            if block.isVisible() and geometry.bottom() >= rect.top() and layout is not None:
                origin = geometry.topLeft() + layout.position()
                lines = visible_lines(layout, rect.top() - origin.y(), rect.bottom() + 1 - origin.y())
                if lines:
                    text, direction = block.text(), block.textDirection()
                    for i in range(lines[0].lineNumber(), lines[1].lineNumber() + 1):
                        line = layout.lineAt(i)
                        if line.textLength() > CACHED_LINE and not layout.cacheEnabled():
                            layout.setCacheEnabled(True)  # keep its shaping for the next paints
                        # A line's x positions depend on its own text, the paragraph's
                        # direction and the font: lines before an edit keep their ops.
                        a = line.textStart()
                        key = (text[a : a + line.textLength()], direction, font)
                        yield block, line, origin, self._ops.ops(key, layout, line, self._deco, block.position())
            block = block.next()

    def cluster_cuts(self) -> list[tuple[int, float]]:
        """``(code point, x)`` of every token boundary on the visible lines that falls
        inside a grapheme cluster, where its caret is drawn (x in viewport coordinates)."""
        out = []
        for block, _line, origin, ops in self._line_ops(self.viewport().rect()):
            out.extend((self._to_cp(block.position() + pos), origin.x() + x) for pos, x in ops.cuts)
        return out

    def visible_ops(self) -> list[LineOps]:
        """The paint operations of the visible lines (what :meth:`paintEvent` draws)."""
        return [ops for *_, ops in self._line_ops(self.viewport().rect())]

