"""A plain-text editor that lays out no more of a long line than it shows.

Qt lays a paragraph (a block of the document) out whole, whichever part of it is on screen:
a line of 1,000,000 code points with no line break is one block, 0.3–0.6 s to lay out. A
:class:`LongLineEditor` holds every line longer than :data:`FOLD_AT` code points as blocks of
about :data:`PIECE` code points, so that Qt lays out only the pieces on screen (a few
milliseconds each). The block separators between the pieces are **soft breaks**: they are
not part of the text. :meth:`LongLineEditor.text` leaves them out, and so do copying and
dragging out of the editor; the editor draws a small mark where a line goes on in the next
piece.

A soft break is a block separator whose character format carries :data:`SOFT_BREAK`, so the
mark lives and dies with the separator itself: deleting it joins the pieces (the text stays
the same), undo brings it back with its format, and the editor's own insertions
(:meth:`~LongLineEditor.insert_text`) give every character they insert a plain format. Only
a key typed at the start of an emptied piece could inherit the mark; the editor clears its
cursor's format first (:meth:`~LongLineEditor.keyPressEvent`). Where the soft breaks are is
kept as a sorted list of document positions, moved along with every change of the document
(``contentsChange``): reading the text costs O(n) at C speed plus O(soft breaks).

Positions are the document's: UTF-16 code units, each block separator one unit.
"""

from __future__ import annotations

import bisect
from functools import lru_cache

import numpy as np
import regex
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QPainter, QTextBlockFormat, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QPlainTextEdit

from app.widgets.span_segments import next_cluster_start, starts_cluster
from core.text.char_classes import capped_lookup

FOLD_AT = 8192  # code points: a longer line is held as pieces
PIECE = 4096  # code points in each piece of a folded line (a few more to end a word or cluster)
SOFT_BREAK = int(QTextFormat.Property.UserProperty) + 17  # char-format property of a soft break
# Qt starts a new block at each of these (QTextCursor::insertText; "\r\n" is one break).
_BREAKS = np.zeros(0xFDD3, bool)
_BREAKS[[0x0A, 0x0D, 0x2029, 0xFDD0, 0xFDD1]] = True
SPACE_LOOK = 512  # code points looked ahead from a piece's end for a space to cut after
_SPACE = regex.compile(r"[ \t\u3000]")


def fold_points(text: str, fold_at: int = FOLD_AT, piece: int = PIECE
                ) -> tuple[list[int], list[Qt.LayoutDirection]]:
    """Where soft breaks go in ``text`` and the paragraph direction of the piece after each.

    Points are code point indices: in every line longer than ``fold_at`` code points, one
    after each ``piece`` code points, moved forward to just after a space (up to
    :data:`SPACE_LOOK` code points: a word stays whole, and so does its shaping) or else to
    where a grapheme cluster starts (up to ``piece`` code points,
    :func:`~app.widgets.span_segments.next_cluster_start`; exactly there if none does: a
    cluster of thousands of marks is cut, so no piece is ever long). Lines end where Qt
    starts a block: ``\\n``, ``\\r``, U+2029, U+FDD0, U+FDD1.

    Each piece is laid out as the line it belongs to: in the direction of the line's first
    strong character (Unicode's rule P2–P3, by :func:`_strong_table`; left to right when
    there is none). Qt would guess each piece's direction from the piece alone (a piece of
    Arabic in a Hindi line would be laid out right to left).

    O(n) at numpy and C speed, plus O(points) in Python."""
    points: list[int] = []
    directions: list[Qt.LayoutDirection] = []
    if len(text) <= fold_at:
        return points, directions
    breaks = np.flatnonzero(capped_lookup(_BREAKS, text))
    starts, ends = np.concatenate(([0], breaks + 1)), np.concatenate((breaks, [len(text)]))
    long = ends - starts > fold_at
    for start, end in zip(starts[long].tolist(), ends[long].tolist()):
        strong = capped_lookup(_strong_table(), text[start:end])
        first = np.flatnonzero(strong)
        direction = (Qt.LayoutDirection.RightToLeft if len(first) and strong[first[0]] == 2
                     else Qt.LayoutDirection.LeftToRight)
        cut = start + piece
        while cut < end:
            space = _SPACE.search(text, cut - 1, min(cut + SPACE_LOOK, end - 1))
            if space is not None and starts_cluster(text, space.end()):
                cut = space.end()
            else:
                found = next_cluster_start(text, cut, min(cut + piece, end))
                cut = found if found > 0 else cut
            points.append(cut)
            directions.append(direction)
            cut += piece
    return points, directions


@lru_cache(maxsize=1)
def _strong_table() -> np.ndarray:
    """``(0x20001,) int8`` by code point: 1 for a strong left-to-right character (bidi
    class L), 2 for a strong right-to-left one (R, AL), else 0; the last entry stands for
    every code point above U+1FFFF (CJK and private use: L). Built on first use by
    matching ``regex``'s bidi classes against every one of those code points (~10 ms)."""
    cps = np.arange(0x20000, dtype=np.uint32)
    cps[0xD800:0xE000] = 0x20  # (no lone surrogate in the probe: a space, class WS)
    probe = cps.tobytes().decode("utf-32-le")
    table = np.zeros(0x20001, np.int8)
    table[-1] = 1
    for value, pattern in ((1, r"\p{Bidi_Class=L}+"), (2, r"[\p{Bidi_Class=R}\p{Bidi_Class=AL}]+")):
        for m in regex.finditer(pattern, probe):
            table[m.start():m.end()] = value
    return table


def _joined(parts: list[str], soft: list[int]) -> str:
    """``parts`` joined with a line break, except before each part whose index is in
    ``soft`` (sorted). O(n) at C speed plus O(len(soft))."""
    runs, at = [], 0
    for k in soft:
        runs.append("\n".join(parts[at:k]))
        at = k
    runs.append("\n".join(parts[at:]))
    return "".join(runs)


class LongLineEditor(QPlainTextEdit):
    """A :class:`QPlainTextEdit` that folds long lines (see the module doc). Read its text
    with :meth:`text`; replace it with ``setPlainText`` (not undoable) or
    :meth:`replace_undoably`."""

    def __init__(self, *args, fold_at: int = FOLD_AT, piece: int = PIECE):
        super().__init__(*args)
        self.fold_at, self.piece = fold_at, piece
        self._soft: list[int] = []  # document positions of the soft breaks, sorted
        self._own: list[int] | None = None  # soft breaks being inserted by this editor
        self.document().contentsChange.connect(self._on_change)

    # -- reading -------------------------------------------------------------------------
    @property
    def soft_breaks(self) -> list[int]:
        """Document positions (UTF-16 units) of the soft breaks, sorted (a copy)."""
        return list(self._soft)

    def text(self) -> str:
        """The text: the document's raw text (no-break spaces kept, unlike
        ``toPlainText``) with a line break for each block separator but the soft ones.
        O(n) at C speed plus O(soft breaks · log blocks)."""
        raw = self.document().toRawText()
        if not self._soft:
            return raw.replace("\u2029", "\n")
        return _joined(raw.split("\u2029"), self._block_numbers(self._soft, 0))

    def toPlainText(self) -> str:  # noqa: N802 - Qt's name (Python callers get this one)
        """Qt's plain text (line and paragraph separators as line breaks, no-break spaces
        as spaces) without the soft breaks."""
        text = self.text()
        return text.replace("\u2028", "\n").replace("\xa0", " ") if self._soft else super().toPlainText()

    def _block_numbers(self, positions: list[int], first: int) -> list[int]:
        """For each soft break at ``positions``, the number of the block it starts, counted
        from block ``first``."""
        doc = self.document()
        return [doc.findBlock(p + 1).blockNumber() - first for p in positions]

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802 - Qt override
        """The selection as plain text, without the soft breaks in it."""
        cursor = self.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        soft = self._soft[bisect.bisect_left(self._soft, start):bisect.bisect_left(self._soft, end)]
        if not soft:
            return super().createMimeDataFromSelection()
        first = self.document().findBlock(start).blockNumber()
        # Qt's own object (one made here would be freed twice: by Python and by the
        # clipboard), its formats filled in by a first read, then only our plain text kept.
        mime = super().createMimeDataFromSelection()
        mime.text()
        for kind in mime.formats():
            mime.removeFormat(kind)
        mime.setText(_joined(cursor.selectedText().split("\u2029"), self._block_numbers(soft, first)))
        return mime

    # -- writing -------------------------------------------------------------------------
    def setPlainText(self, text: str) -> None:  # noqa: N802 - Qt override
        """Replace the text (not undoable, as Qt's), folding its long lines."""
        self._may_bring_back = False  # Qt's setPlainText empties the undo stack
        folds = fold_points(text, self.fold_at, self.piece)
        if not folds[0]:
            super().setPlainText(text)
            return
        doc = self.document()
        undo = doc.isUndoRedoEnabled()
        super().setPlainText("")
        doc.setUndoRedoEnabled(False)
        try:
            self.insert_text(QTextCursor(doc), text, folds)
        finally:
            doc.setUndoRedoEnabled(undo)
        cursor = self.textCursor()
        cursor.setPosition(0)  # (as Qt's setPlainText leaves it; moving by an operation lays out)
        self.setTextCursor(cursor)

    def replace_undoably(self, text: str) -> None:
        """Replace the whole text with ``text`` as one undoable edit (nothing when equal)."""
        if self.text() == text:
            return
        cursor = self.textCursor()
        cursor.select(QTextCursor.SelectionType.Document)
        self.insert_text(cursor, text)

    def insert_text(self, cursor: QTextCursor, text: str,
                    folds: tuple[list[int], list[Qt.LayoutDirection]] | None = None) -> None:
        """Put ``text`` in place of ``cursor``'s selection as one edit, its long lines
        folded (``folds``: :func:`fold_points`, computed when None), every character in a
        plain format. O(n) plus Qt's insertion."""
        points, directions = folds if folds is not None else fold_points(text, self.fold_at, self.piece)
        plain, soft = QTextCharFormat(), QTextCharFormat()
        soft.setProperty(SOFT_BREAK, True)
        cursor.beginEditBlock()
        self._own = []
        try:
            cursor.removeSelectedText()
            at = 0
            for k, cut in enumerate(points + [len(text)]):
                if k:
                    self._own.append(cursor.position())
                    block = QTextBlockFormat()
                    block.setLayoutDirection(directions[k - 1])
                    cursor.insertBlock(block, soft)
                cursor.insertText(text[at:cut], plain)
                at = cut
        finally:
            cursor.endEditBlock()
            self._own = None

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 - Qt override
        """A paste or a drop: its text goes in with :meth:`insert_text`."""
        if not source.hasText():
            return super().insertFromMimeData(source)
        cursor = self.textCursor()
        self.insert_text(cursor, source.text())
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        """Qt's, as if the soft breaks were not there: Backspace at the start of a piece
        deletes the character before it, Delete at the end of one the character after
        it, and ←/→ step over the break (rather than deleting or crossing the break
        alone, a key that would change nothing). And a key that types text first clears
        the cursor's format if it carries the soft-break mark (only at the start of an
        emptied piece), so that what it types never does, and the emptied piece's
        direction."""
        if self._soft:
            self._step_over_soft_break(event)
            typed = event.text()
            if typed and (typed.isprintable() or typed in "\r\n"):
                cursor = self.textCursor()
                if cursor.charFormat().hasProperty(SOFT_BREAK):
                    cursor.removeSelectedText()
                    cursor.setCharFormat(QTextCharFormat())
                    if not cursor.block().length() - 1:  # (Qt's Enter in an empty block with
                        cursor.setBlockFormat(QTextBlockFormat())  # a format only resets it)
                    self.setTextCursor(cursor)
        super().keyPressEvent(event)

    def _step_over_soft_break(self, event) -> None:
        """Move the cursor across the soft break it touches when ``event`` is Backspace
        or ← at the start of a piece, Delete or → at the end of one (no modifier but
        Shift for the arrows). O(log soft breaks)."""
        key, mods = event.key(), event.modifiers()
        cursor = self.textCursor()
        pos = cursor.position()
        if key in (Qt.Key.Key_Backspace, Qt.Key.Key_Left):
            at, step = pos - 1, QTextCursor.MoveOperation.PreviousCharacter
        elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Right):
            at, step = pos, QTextCursor.MoveOperation.NextCharacter
        else:
            return
        arrow = key in (Qt.Key.Key_Left, Qt.Key.Key_Right)
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        allowed = Qt.KeyboardModifier.KeypadModifier | (Qt.KeyboardModifier.ShiftModifier if arrow
                                                         else Qt.KeyboardModifier.NoModifier)
        if mods & ~allowed or (cursor.hasSelection() and not shift) or not self._soft_at(at):
            return
        keep = QTextCursor.MoveMode.KeepAnchor if shift else QTextCursor.MoveMode.MoveAnchor
        cursor.movePosition(step, keep)  # now on the far side of the break: the key acts from there
        self.setTextCursor(cursor)

    def _soft_at(self, pos: int) -> bool:
        """Whether a soft break sits at document position ``pos``. O(log soft breaks)."""
        i = bisect.bisect_left(self._soft, pos)
        return i < len(self._soft) and self._soft[i] == pos

    # -- keeping the soft breaks' positions ----------------------------------------------
    def _on_change(self, pos: int, removed: int, added: int) -> None:
        """Move the soft breaks after the change, drop those inside it and find the ones
        it brought (this editor's insertion, or undo and redo bringing one back). O(soft
        breaks) plus O(blocks changed) once the document has had a soft break."""
        if not self._soft and self._own is None and not self._may_bring_back:
            return
        shift = added - removed
        keep = self._soft[:bisect.bisect_left(self._soft, pos)]
        keep += [p + shift for p in self._soft[bisect.bisect_left(self._soft, pos + removed):]]
        if self._own is not None:
            found = list(self._own)
        elif self._may_bring_back:
            found = self._found(pos, pos + added)
        else:
            found = []
        had = bool(self._soft)
        self._soft = sorted(set(keep).union(found))
        self._may_bring_back = self._may_bring_back or bool(found)
        if had != bool(self._soft):
            self._write_tip()

    _may_bring_back = False  # the document has held a soft break: undo may bring one back
    _tip: str | None = None  # the tooltip set from outside, once a note was added to it

    def _write_tip(self) -> None:
        """Add to the tooltip how long lines are shown while some are folded (and take the
        note away after)."""
        if self._tip is None:
            self._tip = self.toolTip()
        note = (f"Lines longer than {self.fold_at:,} characters are shown in pieces of about "
                f"{self.piece:,} characters, each marked \u21b5: the text has no line break there.")
        self.setToolTip("\n\n".join(t for t in (self._tip, note if self._soft else "") if t))

    def _found(self, start: int, end: int) -> list[int]:
        """Positions of the soft breaks among the block separators in ``[start, end)``."""
        doc, found = self.document(), []
        block = doc.findBlock(start)
        while block.isValid():
            sep = block.position() + block.length() - 1
            if sep >= end:
                break
            after = block.next()
            if sep >= start and after.isValid() and after.charFormat().hasProperty(SOFT_BREAK):
                found.append(sep)
            block = after
        return found

    # -- drawing -------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        """Qt's, then a small mark after each piece that a soft break continues."""
        super().paintEvent(event)
        if not self._soft:
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().placeholderText().color())
        block, offset = self.firstVisibleBlock(), self.contentOffset()
        bottom = event.rect().bottom()
        while block.isValid():
            rect = self.blockBoundingGeometry(block).translated(offset)
            if rect.top() > bottom:
                break
            after = block.next()
            layout = block.layout()
            if after.isValid() and layout is not None and layout.lineCount() \
                    and after.charFormat().hasProperty(SOFT_BREAK):
                line = layout.lineAt(layout.lineCount() - 1)
                x = rect.left() + line.x() + line.naturalTextWidth() + 3
                y = rect.top() + line.y() + line.ascent()
                painter.drawText(QPointF(x, y), "\u21b5")  # the line goes on below
            block = after
        painter.end()

