"""Markers painted over a :class:`~app.widgets.span_text_view.SpanTextView`: whitespace
(``·`` ``→`` ``¶``), zero-width characters no token covers, and special-token badges.

Nothing is inserted into the document, so the text is shaped exactly as before: the
markers are drawn after the view has painted, at the x the layout gives each position
(``QPlainTextEdit.cursorRect``). Only the visible part of the text is looked at, so the cost
of a repaint is O(visible characters) (the visible range is found once per paint), and
setting the text's cover or special tokens is O(1) / O(special tokens): nothing here grows
with the text. Positions are **code points** of the view's text.
"""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF, QTextCursor

from core.text.invisibles import whitespace_marks, zero_width_chars

WHITESPACE_COLOUR = "#9ca3af"
ZERO_WIDTH_COLOUR = "#0d9488"
SPECIAL_COLOUR = "#7c3aed"


class TextMarkers(QObject):
    """Paints markers over ``view`` (a SpanTextView) after it paints itself.

    Installed as an event filter on the view's viewport: a paint event is handed to the
    view first, then the markers are drawn on top in the same paint pass.
    """

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.show_whitespace = False
        self._text, self._cover = "", None
        self._specials: list[tuple[int, str]] = []
        self._painting = False
        self._scanned: tuple = (None, [])  # the last zero_width scan: (text, cover, lo, hi), marks
        self._placed: tuple = (None, None)  # the last paint's markers: (what they depend on, markers)
        view.viewport().installEventFilter(self)

    # -- what to draw ----------------------------------------------------------------------
    def set_whitespace_visible(self, on: bool) -> None:
        """Paint ``·`` over spaces, ``→`` over tabs and ``¶`` at line ends (or stop)."""
        self.show_whitespace = bool(on)
        self.view.viewport().update()

    def set_cover(self, text: str, cover) -> None:
        """Mark the zero-width characters of ``text`` that no token covers (``cover[i]``
        tokens cover code point i, length ``len(text)``; None or a cover of another length:
        mark none). Kept by reference; only the visible part is scanned: here, to repaint
        only when its marks change (a new result after each keystroke mostly keeps them),
        and when painting."""
        ok = cover is not None and len(cover) == len(text)
        visible = self.view.visible_range()
        before = self.zero_width(visible)
        self._text, self._cover = (text, cover) if ok else ("", None)
        self._scanned, self._placed = (None, []), (None, None)  # a cover changed in place is scanned again
        if self.zero_width(visible) != before:
            self.view.viewport().update()

    def set_specials(self, marks: Sequence[tuple[int, str]]) -> None:
        """Draw a zero-width badge for each ``(code point, token)`` (``[CLS]`` at 0 …)."""
        specials = [(int(p), str(t)) for p, t in marks]
        if specials != self._specials:
            self._specials = specials
            self.view.viewport().update()

    def zero_width(self, visible: tuple[int, int] | None = None) -> list[tuple[int, str]]:
        """``(code point, short name)`` of the uncovered zero-width characters in the
        visible part of the text (``visible``: its code-point range, found when None).
        O(visible characters), scanned once per text, cover and window (the paint after
        :meth:`set_cover` reuses its scan)."""
        if self._cover is None:
            return []
        lo, hi = visible or self.view.visible_range()
        hi = min(len(self._text), hi + 1)
        key = self._scanned[0]  # the same text, cover and window: the same marks
        if key is not None and key[0] is self._text and key[1] is self._cover and key[2:] == (lo, hi):
            return list(self._scanned[1])
        found = [(lo + z.position, z.name)
                 for z in zero_width_chars(self._text[lo:hi], self._cover[lo:hi])]
        self._scanned = ((self._text, self._cover, lo, hi), found)
        return list(found)

    def specials(self) -> list[tuple[int, str]]:
        return list(self._specials)

    # -- geometry (what the tests look at) -------------------------------------------------
    def _rect(self, pos: int) -> QRectF:
        cursor = QTextCursor(self.view.document())
        cursor.setPosition(min(self.view._to_qt(pos), self.view.document().characterCount() - 1))
        return QRectF(self.view.cursorRect(cursor))

    def whitespace_ops(self, visible: tuple[int, int] | None = None) -> list[tuple[float, float, str]]:
        """``(x, baseline y, marker)`` of each visible whitespace marker (viewport pixels).
        O(visible characters)."""
        if not self.show_whitespace:
            return []
        text = self.view.text()
        lo, hi = visible or self.view.visible_range()
        out = []
        for m in whitespace_marks(text, lo, hi + 1):
            here = self._rect(m.position)
            if m.char == "\n" or m.position + 1 > len(text):
                out.append((here.left() + 1, here.bottom() - 3, m.name))
                continue
            after = self._rect(m.position + 1)
            x = (here.left() + after.left()) / 2 if abs(after.top() - here.top()) < 1 else here.left() + 2
            out.append((x, here.bottom() - 3, m.name))
        return out

    def point_ops(self, items: list[tuple[int, str]],
                  visible: tuple[int, int] | None = None) -> list[tuple[float, QRectF, str]]:
        """``(x, line rect, label)`` of each visible item (viewport pixels). O(items)."""
        if not items:
            return []
        lo, hi = visible or self.view.visible_range()
        return [(r.left(), r, label) for pos, label in items if lo <= pos <= hi + 1
                for r in (self._rect(pos),)]

    # -- painting --------------------------------------------------------------------------
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() != QEvent.Type.Paint or self._painting:
            return False
        if not (self.show_whitespace or self._cover is not None or self._specials):
            return False
        self._painting = True
        try:
            self.view.viewportEvent(event)  # the view paints its spans and text
            painter = QPainter(obj)
            self._paint(painter)
            painter.end()
        finally:
            self._painting = False
        return True

    def _placed_markers(self) -> tuple[list, list, list]:
        """The visible whitespace marks, zero-width pins and special badges with their
        places, kept while nothing they depend on changed (the view's
        :meth:`~app.widgets.span_text_view.SpanTextView.geometry_key`, the text, cover,
        specials and the whitespace switch): a repaint of an unchanged view — each chunk of
        a long text's fill asks for one — places none again (a line of family emoji has
        three zero-width joiners a glyph, each placed through a cursor rectangle)."""
        visible = self.view.visible_range()
        key = (self.view.geometry_key(*visible), visible, self.show_whitespace, self._specials)
        held, placed = self._placed
        if (held is not None and held[0] == key and held[1] is self._text and held[2] is self._cover):
            return placed
        placed = (self.whitespace_ops(visible), self.point_ops(self.zero_width(visible), visible),
                  self.point_ops(self._specials, visible))
        self._placed = ((key, self._text, self._cover), placed)
        return placed

    def _paint(self, painter: QPainter) -> None:
        small = QFont(self.view.font())
        small.setPointSizeF(max(7.0, small.pointSizeF() * 0.7))
        whitespace, zero_width, specials = self._placed_markers()
        painter.setPen(QColor(WHITESPACE_COLOUR))
        for x, y, mark in whitespace:
            painter.drawText(QPointF(x - 2, y), mark)
        painter.setFont(small)
        metrics = QFontMetricsF(small)
        for x, rect, name in zero_width:
            self._pin(painter, metrics, x, rect, name, QColor(ZERO_WIDTH_COLOUR), top=False)
        for x, rect, token in specials:
            self._pin(painter, metrics, x, rect, token, QColor(SPECIAL_COLOUR), top=True)

    @staticmethod
    def _pin(painter: QPainter, metrics: QFontMetricsF, x: float, rect: QRectF, label: str,
             colour: QColor, *, top: bool) -> None:
        """A thin vertical line at ``x`` (zero-width: no glyph moves). A special token
        (``top``) gets its name in a small pill over the line's top; a zero-width
        character a dashed line and a small triangle at the bottom (its name is shown on
        hover, in the info strip)."""
        painter.setPen(QPen(colour, 1.5, Qt.PenStyle.SolidLine if top else Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
        fill = QColor(colour)
        if not top:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(fill)
            b = rect.bottom()
            painter.drawPolygon(QPolygonF([QPointF(x - 3, b), QPointF(x + 3, b), QPointF(x, b - 4)]))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            return
        w, h = metrics.horizontalAdvance(label) + 4, metrics.height()
        pill = QRectF(x - w / 2, max(0.0, rect.top() - h / 2), w, h)
        fill.setAlpha(50)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawRoundedRect(pill, 3, 3)
        painter.setPen(colour)
        painter.drawText(pill, int(Qt.AlignmentFlag.AlignCenter), label)
        painter.setBrush(Qt.BrushStyle.NoBrush)
