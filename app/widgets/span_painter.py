"""Painting span highlights behind plain text, from the layout's geometry.

:class:`Decorations` says what to paint (in Qt positions, UTF-16 units): disjoint styled
segments (backgrounds and underlines), framed spans (unknown tokens: red frame and hatching;
the error: a thick red frame), token boundaries to check for cuts inside a grapheme cluster,
and vertical boundary bars. :func:`line_ops` turns them into x ranges on one
:class:`~app.widgets.span_geometry.LineGeometry` (pure geometry, what the tests look at) and
:func:`paint_ops` draws those before the text is drawn on top. Used by
:class:`~app.widgets.span_text_view.SpanTextView` (document blocks) and
:class:`~app.widgets.span_line_view.SpanLineView` (one layout per row).
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from dataclasses import dataclass, field

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF, QTextLine

from app.widgets.span_geometry import LineGeometry, merge_ranges
from app.widgets.span_segments import ERROR_COLOUR, UNKNOWN_COLOUR, SegmentStyle

CUT_COLOUR = "#c026d3"  # the carets marking a token boundary inside a grapheme cluster
TICK = 5.0  # pixels: a boundary bar is a tick this long at the top and at the bottom of a line
_LOOK_BACK = 64  # framed spans starting this many items before a line are still checked


@dataclass
class Decorations:
    """What to paint behind a text, in Qt positions of that text (all lists sorted).

    Attributes
    ----------
    segments : list of (start, end, SegmentStyle)
        Disjoint, sorted by start; a style's ``outline`` is drawn as a rounded frame.
    frames : list of (start, end, kind)
        ``kind`` is ``"unk"`` (unknown token: red frame + hatching) or ``"err"``.
    cuts : list of int
        Token boundaries; each inside a grapheme cluster gets a caret.
    bars : list of (position, colour, width)
        Vertical bars at boundaries (the drill-down's columns); width in pixels.
    """

    segments: list[tuple[int, int, SegmentStyle]] = field(default_factory=list)
    frames: list[tuple[int, int, str]] = field(default_factory=list)
    cuts: list[int] = field(default_factory=list)
    bars: list[tuple[int, str, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._seg_starts = [s for s, _, _ in self.segments]
        self._seg_ends = [e for _, e, _ in self.segments]
        self._frame_starts = [s for s, _, _ in self.frames]
        self._bar_pos = [b[0] for b in self.bars]

    @classmethod
    def from_code_points(cls, utf16: list[int], segments=(), frames=(), cuts=(), bars=()) -> "Decorations":
        """The same decorations given in code points, converted with ``utf16`` (the
        code point → UTF-16 table of the text, ``len(text) + 1`` entries)."""
        return cls([(utf16[s], utf16[e], st) for s, e, st in segments],
                   [(utf16[s], utf16[e], k) for s, e, k in frames],
                   [utf16[p] for p in cuts], [(utf16[p], c, w) for p, c, w in bars])


@dataclass
class LineOps:
    """One line's paint operations in layout x (see :func:`line_ops`)."""

    fills: list[tuple[float, float, str]] = field(default_factory=list)
    underlines: list[tuple[float, float, str, str]] = field(default_factory=list)
    outlines: list[tuple[float, float, str]] = field(default_factory=list)  # rounded chips (special tokens)
    frames: list[tuple[float, float, str]] = field(default_factory=list)
    bars: list[tuple[float, str, float]] = field(default_factory=list)
    cuts: list[tuple[int, float]] = field(default_factory=list)  # (position, x) inside a cluster
    _built: dict = field(default_factory=dict, repr=False, compare=False)  # shapes made once

    def fill_batches(self, top: float, height: float) -> dict[str, list[QRectF]]:
        """The fills grouped by colour as rectangles from ``top`` (layout y), built once."""
        batches = self._built.get("fills")
        if batches is None:
            batches = self._built["fills"] = {}
            for left, right, colour in self.fills:
                batches.setdefault(colour, []).append(QRectF(left, top, right - left, height))
        return batches

    def underline_shapes(self, y: float) -> list[tuple[str, str, object]]:
        """``(kind, colour, shape)`` for each kind and colour of the underlines (joined by
        :func:`ops_from_items`) at layout ``y``: a ``QPainterPath`` of waves (phase from
        x = 0, so neighbouring pieces join up) or a list of ``QLineF``; built once.
        O(underlines + wave length)."""
        shapes = self._built.get("underlines")
        if shapes is None:
            groups: dict[tuple[str, str], list[tuple[float, float]]] = {}
            for left, right, kind, colour in self.underlines:
                groups.setdefault((kind, colour), []).append((left, right))
            shapes = self._built["underlines"] = [
                (kind, colour, _waves(ranges, y) if kind == "wave" else [QLineF(a, y, b, y) for a, b in ranges])
                for (kind, colour), ranges in groups.items()]
        return shapes

    def caret_shapes(self, top: float, height: float) -> list[QPolygonF]:
        """Two small triangles for each cut (layout coordinates, the line from ``top``,
        ``height`` tall), pointing at it from the top and the bottom of the line: a token
        boundary inside a grapheme cluster, the glyphs left uncrossed. Bases 2 px outside
        the line box, tips 2 px inside: clear of a Devanagari head-line and of Thai vowels
        below the base, which reach close to the box but not into its edge. Built once."""
        shapes = self._built.get("carets")
        if shapes is None:
            down, up = _CARET_SHAPES
            shapes = self._built["carets"] = [
                shape.translated(x, y) for shape, y in ((down, top - 2.0), (up, top + height + 2.0))
                for _, x in self.cuts]
        return shapes


def line_items(deco: Decorations, lo: int, hi: int) -> tuple:
    """The decorations meeting the line ``[lo, hi)`` (document positions):
    ``(segments, frames, cuts, bars)``, each a tuple. O(log items + items on the line)."""
    i = bisect.bisect_right(deco._seg_ends, lo)
    j = bisect.bisect_left(deco._seg_starts, hi, lo=i)
    f0 = max(0, bisect.bisect_left(deco._frame_starts, lo) - _LOOK_BACK)
    f1 = bisect.bisect_left(deco._frame_starts, hi, lo=f0)
    frames = tuple(f for f in deco.frames[f0:f1] if f[1] > lo)
    cuts = tuple(deco.cuts[bisect.bisect_left(deco.cuts, lo + 1):bisect.bisect_left(deco.cuts, hi)])
    bars = tuple(deco.bars[bisect.bisect_left(deco._bar_pos, lo):bisect.bisect_right(deco._bar_pos, hi)])
    return tuple(deco.segments[i:j]), frames, cuts, bars


def line_ops(geom: LineGeometry, deco: Decorations, offset: int = 0) -> LineOps:
    """What to paint on the line of ``geom``; ``deco`` positions minus ``offset`` are the
    layout's positions (a document block's position). O(items on the line × its runs)."""
    return ops_from_items(geom, line_items(deco, geom.start + offset, geom.end + offset), offset)


def ops_from_items(geom: LineGeometry, items: tuple, offset: int) -> LineOps:
    """:func:`line_ops` from the line's items (:func:`line_items`)."""
    segments, frames, cuts, bars = items
    ops = LineOps()
    for s, e, style in segments:
        for left, right in geom.ranges(s - offset, e - offset):
            if style.background:
                ops.fills.append((left, right, style.background))
            if style.underline:
                ops.underlines.append((left, right, style.underline, style.underline_colour))
            if style.outline:
                ops.outlines.append((left, right, style.outline))
    if ops.underlines:
        ops.underlines = _joined_underlines(ops.underlines)
    for s, e, kind in frames:
        ops.frames.extend((left, right, kind) for left, right in geom.ranges(s - offset, e - offset))
    if cuts:
        ops.cuts = geom.cut_xs([pos - offset for pos in cuts])
    for pos, colour, width in bars:
        ops.bars.extend((x, colour, width) for x in geom.boundary_xs(pos - offset))
    return ops


class OpsCache:
    """Remembers each line's :class:`LineOps` while neither the line's layout (its text,
    range, width and font) nor the decorations on it change, so a repaint after a hover or
    an edit elsewhere recomputes only the lines that changed (``layout_key`` may name the
    line's own text rather than its paragraph's: then the lines of a long paragraph before
    an edit keep theirs). Holds at most ``size`` lines."""

    def __init__(self, size: int = 512):
        self.size = size
        self._cache: dict[tuple, tuple[tuple, LineOps]] = {}

    def ops(self, layout_key: tuple, layout, line: QTextLine, deco: Decorations, offset: int) -> LineOps:
        """The ops of ``line`` of ``layout`` (a block at document position ``offset``);
        ``layout_key`` identifies the layout's text and font (the block's position, the
        line's range and width are added here)."""
        start = line.textStart()
        # the block's position is part of the key: lines of the same text in different
        # blocks (a pasted text repeated) each keep their own ops instead of evicting
        # each other's on every paint
        key = (layout_key, offset, start, line.textLength(), line.width(), line.x(), line.y())
        items = line_items(deco, start + offset, start + line.textLength() + offset)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == items:
            return hit[1]
        ops = ops_from_items(LineGeometry(layout, line), items, offset)
        if len(self._cache) >= self.size:
            self._cache.clear()
        self._cache[key] = (items, ops)
        return ops


def paint_ops(painter: QPainter, ops: LineOps, origin: QPointF, line: QTextLine) -> None:
    """Paint ``ops`` for ``line`` of a layout whose top-left is at ``origin`` (painter
    coordinates); call before the text is drawn. Everything is drawn in layout
    coordinates (the shapes made once per line are), under one translation."""
    top, height = line.y(), line.height()
    painter.save()
    painter.translate(origin)
    painter.setPen(Qt.PenStyle.NoPen)
    for colour, rects in ops.fill_batches(top, height).items():  # one call per colour
        painter.setBrush(_colour(colour))
        painter.drawRects(rects)
    for left, right, colour in ops.outlines:  # a chip: inset, so neighbouring chips stay apart
        painter.setPen(QPen(_colour(colour), 1.25))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(left + 1, top + 1, max(1.0, right - left - 2), height - 2), 3, 3)
    if ops.underlines:
        _underlines(painter, ops.underline_shapes(top + line.ascent() + 2))
    if ops.frames:
        _frames(painter, top, height, ops.frames)
    for x, colour, width in ops.bars:  # ticks that leave the glyphs uncrossed
        painter.setPen(QPen(_colour(colour), width))
        painter.drawLine(QLineF(x, top - 2, x, top + TICK))
        painter.drawLine(QLineF(x, top + height - TICK, x, top + height + 2))
    if ops.cuts:  # carets: pen and brush set once, each small triangle filled on its own
        painter.setPen(Qt.PenStyle.NoPen)  # (one polygon holding them all was slower to fill)
        painter.setBrush(_colour(CUT_COLOUR))
        for shape in ops.caret_shapes(top, height):
            painter.drawPolygon(shape)
    painter.restore()


@lru_cache(maxsize=64)
def _colour(name: str) -> QColor:
    return QColor(name)


def _joined_underlines(underlines: list) -> list:
    """Underlines ``(left, right, kind, colour)`` with those of one kind and colour that
    touch joined, in order of kind and colour (a run of marked characters is one line, not
    one per token segment). O(u log u) for u underlines."""
    groups: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for left, right, kind, colour in underlines:
        groups.setdefault((kind, colour), []).append((left, right))
    return [(left, right, kind, colour) for (kind, colour), ranges in groups.items()
            for left, right in merge_ranges(ranges)]


def _underlines(painter: QPainter, shapes: list[tuple[str, str, object]]) -> None:
    """Draw :meth:`LineOps.underline_shapes`: one call per kind and colour."""
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for kind, colour, shape in shapes:
        pen = QPen(_colour(colour), 2 if kind == "single" else 1)
        if kind == "dot":
            pen.setStyle(Qt.PenStyle.DotLine)
        painter.setPen(pen)
        if kind == "wave":
            painter.drawPath(shape)
        else:
            painter.drawLines(shape)


def _waves(ranges: list[tuple[float, float]], y: float) -> QPainterPath:
    """A wavy underline at ``y`` under each x range, phase from x = 0. O(total length)."""
    path = QPainterPath()
    for left, right in ranges:
        x = float(int(left) // 4 * 4)
        path.moveTo(max(x, left), y)
        while x < right:
            x += 2
            path.lineTo(min(x, right), y + (1.5 if int(x) % 4 else -0.5))
    return path


def _frames(painter: QPainter, top: float, height: float, frames: list) -> None:
    """Every frame of a line, batched per kind (one ``drawRects`` call each); frames on
    the same place are drawn once (the byte pieces of one glyph share its box, and a
    hatch drawn four times over would look darker than one drawn once). O(frames)."""
    by_kind: dict[str, dict] = {}
    for left, right, kind in frames:
        by_kind.setdefault(kind, {})[(left, right)] = None
    for kind, places in by_kind.items():
        rects = [QRectF(left, top, right - left, height) for left, right in places]
        if kind == "unk":
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(_unknown_hatch())
            painter.drawRects(rects)
            colour, width = _colour(UNKNOWN_COLOUR), 1.5
        else:
            colour, width = _colour(ERROR_COLOUR), 2.5
        painter.setPen(QPen(colour, width))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        half = width / 2
        painter.drawRects([r.adjusted(half, half, -half, -half) for r in rects])


@lru_cache(maxsize=1)
def _unknown_hatch() -> QBrush:
    hatch = QColor(UNKNOWN_COLOUR)
    hatch.setAlpha(90)
    return QBrush(hatch, Qt.BrushStyle.BDiagPattern)


# a caret's triangle below and above its base at (0, 0), 7 px wide and 4.5 px tall
_CARET_SHAPES = tuple(QPolygonF([QPointF(-3.5, 0.0), QPointF(3.5, 0.0), QPointF(0.0, d)]) for d in (4.5, -4.5))
