"""Short lines of plain text with spans painted behind them, one row each.

Each :class:`SpanLine` is a bold head, a text laid out on its own :class:`QTextLayout`
without any format (so it is shaped exactly like the plain text), the spans painted behind
it by :mod:`app.widgets.span_painter`, and a tail note. Rows are not wrapped; a long row
scrolls sideways. Rows holding the same text in the same font get the same layout, so
their characters line up in columns (the Compare drill-down shows one tokenizer per row).
Positions in a :class:`SpanLine` are **code points** of its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from PySide6.QtCore import QEvent, QPointF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QTextLayout, QTextOption
from PySide6.QtWidgets import QScrollArea, QWidget

from app.widgets.span_geometry import LineGeometry
from app.widgets.span_painter import Decorations, LineOps, line_items, line_ops, ops_from_items, paint_ops
from core.text.offsets import utf16_table

PAD, GAP, ROW_GAP = 6.0, 10.0, 9.0  # pixels (bars stick out of a row by 2)
CHUNK = 512  # UTF-16 positions: the ops of a long row are computed in chunks this long
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]")


@dataclass(frozen=True)
class SpanLine:
    """One row: ``head`` (bold), ``text`` with its decorations, ``tail`` (italic). The
    head and tail are left-to-right paragraphs (labels); the text takes its direction from
    its characters.

    ``segments`` are ``(start, end, SegmentStyle)``, disjoint and sorted; ``frames``
    ``(start, end, "unk" | "err")``; ``cuts`` token boundaries (a caret where one falls
    inside a grapheme cluster); ``bars`` ``(position, colour, width)`` — all code points.
    """

    text: str
    head: str = ""
    tail: str = ""
    segments: tuple = ()
    frames: tuple = ()
    cuts: tuple = ()
    bars: tuple = ()
    tail_colour: str = "#4b5563"

    def plain(self) -> str:
        """The row as plain text (head, text and tail)."""
        return " ".join(p for p in (self.head, self.text, self.tail) if p)


def single_line_layout(text: str, font: QFont, direction: Qt.LayoutDirection = Qt.LayoutDirection.LayoutDirectionAuto
                       ) -> QTextLayout:
    """``text`` laid out on one unwrapped line starting at x = 0 (right-to-left text too),
    no formats; the paragraph direction comes from the text unless ``direction`` says."""
    layout = QTextLayout(text.replace("\n", " "), font)
    option = QTextOption()
    option.setTextDirection(direction)
    option.setWrapMode(QTextOption.WrapMode.NoWrap)
    option.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute)  # RTL lines too
    layout.setTextOption(option)
    layout.setCacheEnabled(True)
    layout.beginLayout()
    line = layout.createLine()
    if line.isValid():
        line.setLeadingIncluded(True)
        line.setLineWidth(1e6)
    layout.endLayout()
    return layout


class _Row:
    """The three layouts of a :class:`SpanLine` and its paint operations, computed when the
    row is painted, and for a long row only for the part that is exposed (in chunks of
    :data:`CHUNK` positions, each kept): a row of 8,000 tokens costs what a screenful does."""

    def __init__(self, line: SpanLine, fonts: tuple[QFont, QFont, QFont]):
        self.line = line
        ltr, auto = Qt.LayoutDirection.LeftToRight, Qt.LayoutDirection.LayoutDirectionAuto
        self.head, self.body, self.tail = (single_line_layout(t, f, d) for t, f, d in
                                           zip((line.head, line.text, line.tail), fonts, (ltr, auto, ltr)))
        self.height = max(_height(lay) for lay in (self.head, self.body, self.tail))
        self._deco: Decorations | None = None
        self._ops: LineOps | None = None
        self._chunks: dict[int, LineOps] = {}
        # Chunks need x to grow with the position: no right-to-left characters in the row.
        self.chunked = len(line.text) > CHUNK and not _RTL.search(line.text)

    @property
    def deco(self) -> Decorations:
        if self._deco is None:
            line = self.line
            self._deco = Decorations.from_code_points(utf16_table(line.text), line.segments, line.frames,
                                                      line.cuts, line.bars)
        return self._deco

    @property
    def ops(self) -> LineOps:
        """Every paint operation of the row (layout x). O(items on the row)."""
        if self._ops is None:
            self._ops = line_ops(self._geometry(), self.deco) if self.line.text else LineOps()
        return self._ops

    def _geometry(self) -> LineGeometry:
        return LineGeometry(self.body, self.body.lineAt(0))

    def ops_between(self, x0: float, x1: float) -> list[LineOps]:
        """The paint operations of the row's text between layout x ``x0`` and ``x1``: the
        chunks of positions drawn there (all of them for a short or right-to-left row)."""
        if not self.chunked or not self.body.lineCount():
            return [self.ops]
        line = self.body.lineAt(0)
        lo, hi = (line.xToCursor(x) for x in (max(0.0, x0), max(0.0, x1)))
        out = []
        for k in range(max(0, lo // CHUNK - 1), hi // CHUNK + 2):
            ops = self._chunks.get(k)
            if ops is None:
                items = line_items(self.deco, max(0, k * CHUNK - 1), (k + 1) * CHUNK)  # cuts at k * CHUNK too
                ops = self._chunks[k] = ops_from_items(self._geometry(), items, 0)
            out.append(ops)
        return out


def _height(layout: QTextLayout) -> float:
    return layout.lineAt(0).height() if layout.lineCount() else 0.0


def _width(layout: QTextLayout) -> float:
    return layout.lineAt(0).naturalTextWidth() if layout.lineCount() else 0.0


class SpanLineView(QScrollArea):
    """Rows of :class:`SpanLine`, heads in one column and texts in the next."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._lines: list[SpanLine] = []
        self._rows: list[_Row] = []
        self._placeholder = ""
        self._canvas = _Canvas(self)
        self.setWidget(self._canvas)
        self.setWidgetResizable(False)
        self.setBackgroundRole(QPalette.ColorRole.Base)

    def set_lines(self, lines: Sequence[SpanLine], placeholder: str = "") -> None:
        """Show ``lines``; ``placeholder`` (grey) when there are none."""
        self._lines, self._placeholder = list(lines), placeholder
        self._rebuild()

    def lines(self) -> list[SpanLine]:
        return list(self._lines)

    def toPlainText(self) -> str:  # noqa: N802 - named like QTextEdit's
        """Every row as plain text, one a line (the placeholder when there are none)."""
        return "\n".join(line.plain() for line in self._lines) if self._lines else self._placeholder

    def body_layouts(self) -> list[QTextLayout]:
        """The layout each row's text is drawn with (no formats)."""
        return [row.body for row in self._rows]

    def row_ops(self) -> list[LineOps]:
        """What is painted behind each row's text (layout x)."""
        return [row.ops for row in self._rows]

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._rebuild()

    def _rebuild(self) -> None:
        font = QFont(self.font())
        head, tail = QFont(font), QFont(font)
        head.setBold(True)
        tail.setItalic(True)
        self._rows = [_Row(line, (head, font, tail)) for line in self._lines]
        self._canvas.setFont(font)
        self._canvas.resize(self._canvas.sizeHint())
        self._canvas.update()

    def geometry_of_rows(self) -> tuple[float, list[float], float]:
        """``(x of the text column, y of each row, total height)`` on the canvas."""
        body_x = PAD + max((_width(r.head) for r in self._rows), default=0.0)
        body_x += GAP if any(r.line.head for r in self._rows) else 0.0
        ys, y = [], PAD
        for row in self._rows:
            ys.append(y)
            y += row.height + ROW_GAP
        return body_x, ys, y + PAD


class _Canvas(QWidget):
    """The painted area inside :class:`SpanLineView`."""

    def __init__(self, view: SpanLineView):
        super().__init__()
        self.view = view
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        rows = self.view._rows
        if not rows:
            return QSize(200, 40)
        body_x, _, height = self.view.geometry_of_rows()
        width = max(body_x + _width(r.body) + GAP + _width(r.tail) for r in rows) + PAD
        return QSize(int(width) + 1, int(height) + 1)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.setPen(self.palette().text().color())
        rows = self.view._rows
        if not rows:
            painter.setPen(QColor("#6b7280"))
            painter.drawText(self.rect().adjusted(int(PAD), int(PAD), 0, 0), self.view._placeholder)
            return
        body_x, ys, _ = self.view.geometry_of_rows()
        for row, y in zip(rows, ys):
            row.head.draw(painter, QPointF(PAD, y))
            if row.body.lineCount():
                origin = QPointF(body_x, y)
                for ops in row.ops_between(event.rect().left() - body_x, event.rect().right() - body_x):
                    paint_ops(painter, ops, origin, row.body.lineAt(0))
                painter.setPen(self.palette().text().color())
                row.body.draw(painter, origin)
            painter.setPen(QColor(row.line.tail_colour))
            row.tail.draw(painter, QPointF(body_x + _width(row.body) + GAP, y))
            painter.setPen(self.palette().text().color())
        painter.end()
