"""Where a span of a laid-out text line is drawn: x ranges from the line's own geometry.

The span views paint highlights *behind* a text layout that has no formats, so the glyphs are
exactly those of the plain text (Qt shapes each format run alone; a format boundary inside a
grapheme cluster or an Arabic word would break the shaping). This module answers the one
question that needs: which horizontal ranges of a :class:`~PySide6.QtGui.QTextLine` show the
characters ``[start, end)``.

Positions here are **Qt positions** (UTF-16 units) of the layout's text; x values are in the
layout's coordinates (as :meth:`QTextLine.cursorToX` gives them).

A line is cut into *visual runs*: its glyph runs (one per bidi level, script item and font),
each a contiguous logical range drawn left-to-right or right-to-left. Inside a run
``cursorToX`` is unambiguous; at a run's logical ends the run's own edges are used (where
``cursorToX`` must pick one of two places in mixed-direction text). So a logical span in
mixed text becomes one x range per run it touches, each right for its direction.

A position inside a grapheme cluster (not a valid cursor position: between a consonant and
its vowel sign, inside a ZWJ emoji sequence) gets an x interpolated across the cluster, so
two tokens that share a cluster each get a part of its width; the views mark such a cut.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtGui import QTextLayout, QTextLine

_STRING_INDEXES = QTextLayout.GlyphRunRetrievalFlag.RetrieveStringIndexes


@dataclass(frozen=True)
class Run:
    """One visual run of a line: logical positions ``[start, end)`` drawn between ``left``
    and ``right`` (layout x), right-to-left when ``rtl``."""

    start: int
    end: int
    left: float
    right: float
    rtl: bool


def line_runs(line: QTextLine) -> list[Run]:
    """The visual runs of ``line`` in logical order (one glyph-run query, O(glyphs)).

    A run's end is the next run's start (or the line's end): runs tile the line's text.
    Positions the line draws no glyph for (none in practice) belong to the run before.
    """
    found = []
    for glyph_run in line.glyphRuns(-1, -1, _STRING_INDEXES):
        indexes = glyph_run.stringIndexes()
        if indexes:
            rect = glyph_run.boundingRect()
            found.append((min(indexes), rect.left(), rect.right(), glyph_run.isRightToLeft()))
    found.sort()
    line_end = line.textStart() + line.textLength()
    ends = [f[0] for f in found[1:]] + [line_end]
    return [Run(start, end, left, right, rtl)
            for (start, left, right, rtl), end in zip(found, ends) if end > start]


class LineGeometry:
    """x positions of logical positions on one line of ``layout``.

    Cluster edges and the x of valid cursor positions are looked up once per line and kept
    (:meth:`cluster`, :meth:`_cursor_x`), so finding the x of every position of a cluster
    of length k costs O(k) layout queries in all, not O(k) each: a cluster of one letter
    and 10,000 combining marks holding 10,000 tokens costs O(10,000), not O(10,000²).
    :attr:`probes` counts the positions the layout is asked about (one per
    ``isValidCursorPosition`` or ``cursorToX`` call, a cluster's length per cluster walk),
    for tests.

    Parameters
    ----------
    layout : QTextLayout
        The laid-out text (no formats needed).
    line : QTextLine
        One of its lines.
    """

    def __init__(self, layout: QTextLayout, line: QTextLine):
        self.layout = layout
        self.line = line
        self.start = line.textStart()
        self.end = self.start + line.textLength()
        self.runs = line_runs(line)
        self.probes = 0
        self._valid: dict[int, bool] = {}  # position -> isValidCursorPosition
        self._edges: dict[int, tuple[int, int]] = {}  # position inside a cluster -> its edges
        self._xs: dict[int, float] = {}  # valid position -> cursorToX

    def _is_valid(self, pos: int) -> bool:
        """``isValidCursorPosition(pos)``, each position asked once. O(1) amortized."""
        valid = self._valid.get(pos)
        if valid is None:
            self.probes += 1
            valid = self._valid[pos] = self.layout.isValidCursorPosition(pos)
        return valid

    def _cursor_x(self, pos: int) -> float:
        """``cursorToX(pos)`` of a valid position, each position asked once."""
        x = self._xs.get(pos)
        if x is None:
            self.probes += 1
            x = self._xs[pos] = self.line.cursorToX(pos)[0]
        return x

    def inside_cluster(self, pos: int) -> bool:
        """Whether ``pos`` falls strictly inside a grapheme cluster (Qt's clusters)."""
        return self.start < pos < self.end and not self._is_valid(pos)

    def cluster(self, pos: int) -> tuple[int, int]:
        """The edges ``(a, b)`` of the grapheme cluster ``pos`` is strictly inside (the
        nearest valid cursor positions around it, within the line); ``(pos, pos)`` when
        ``pos`` is itself valid. The first query of a cluster asks the layout for its edges
        (two calls, each walking the cluster in C++) and remembers them for every position
        inside it, O(its length); later queries are O(1)."""
        if not self.inside_cluster(pos):
            return pos, pos
        edges = self._edges.get(pos)
        if edges is None:
            edges = (max(self.start, self.layout.previousCursorPosition(pos)),
                     min(self.end, self.layout.nextCursorPosition(pos)))
            self.probes += edges[1] - edges[0]  # the positions the two calls walk
            self._edges.update(dict.fromkeys(range(edges[0] + 1, edges[1]), edges))
        return edges

    def x_at(self, pos: int, run: Run) -> float:
        """The x of logical position ``pos`` on ``run`` (clamped to the run's ends); inside
        a cluster, interpolated between the cluster's edges (clamped to the run).
        O(1) amortized (see :meth:`cluster`)."""
        if pos <= run.start:
            return run.right if run.rtl else run.left
        if pos >= run.end:
            return run.left if run.rtl else run.right
        a, b = self.cluster(pos)
        if a == b:
            return self._cursor_x(pos)
        a, b = max(a, run.start), min(b, run.end)
        xa, xb = self.x_at(a, run), self.x_at(b, run)
        return xa + (xb - xa) * (pos - a) / (b - a)

    def ranges(self, start: int, end: int) -> list[tuple[float, float]]:
        """The x ranges ``(left, right)`` showing positions ``[start, end)`` of this line,
        one per visual run they touch, touching ranges merged; O(runs of the line)."""
        start, end = max(start, self.start), min(end, self.end)
        out: list[tuple[float, float]] = []
        if end <= start:
            return out
        for run in self.runs:
            if run.end <= start or run.start >= end:
                continue
            xa, xb = self.x_at(max(start, run.start), run), self.x_at(min(end, run.end), run)
            out.append((min(xa, xb), max(xa, xb)))
        return merge_ranges(out)

    def boundary_xs(self, pos: int) -> list[float]:
        """Where a boundary at logical position ``pos`` is drawn: the edge after the
        character before it and the edge before the character at it — one x, or two where
        the two characters are in runs of different direction; empty when ``pos`` is not
        on this line. O(runs of the line)."""
        xs: list[float] = []
        if not self.start <= pos <= self.end:
            return xs
        for run in self.runs:
            if run.start < pos <= run.end or run.start <= pos < run.end:
                x = self.x_at(pos, run)
                if all(abs(x - y) > 0.5 for y in xs):
                    xs.append(x)
        return xs

    def cut_xs(self, positions: Sequence[int]) -> list[tuple[int, float]]:
        """``(position, x)`` for each of the sorted ``positions`` that falls strictly
        inside a grapheme cluster, one per x of :meth:`boundary_xs`. The positions inside
        one cluster lying within one run are placed together: the cluster's edges are
        looked up once and each position interpolated between them (as :meth:`x_at`), so a
        cluster holding many cuts costs O(1) layout queries plus O(1) per cut; the rest go
        through :meth:`boundary_xs`. O(positions + clusters × runs of the line)."""
        out: list[tuple[int, float]] = []
        i, n = 0, len(positions)
        while i < n:
            pos = positions[i]
            if not self.inside_cluster(pos):
                i += 1
                continue
            a, b = self.cluster(pos)
            j = bisect.bisect_left(positions, b, i)  # the positions inside this cluster
            run = next((r for r in self.runs if r.start <= a and b <= r.end), None)
            if run is None:  # a cluster across runs: each position on its own
                out.extend((p, x) for p in positions[i:j] for x in self.boundary_xs(p))
            else:
                xa, xb = self.x_at(a, run), self.x_at(b, run)
                out += [(p, xa + (xb - xa) * (p - a) / (b - a)) for p in positions[i:j]]
            i = j
        return out

    def position_at(self, x: float) -> int:
        """The logical position of the grapheme cluster drawn at ``x`` (its first
        position), or -1 when ``x`` is outside the line's text. Bidi aware: the run under
        ``x`` is searched, so the answer is the character whose painted range holds ``x``.
        A binary search over the run's positions (x grows with the position in a
        left-to-right run and shrinks in a right-to-left one): O(log(run length)) x
        lookups, plus one walk of the cluster found (:meth:`cluster`)."""
        for run in self.runs:
            if not run.left <= x < run.right:
                continue
            lo, hi = run.start, run.end - 1  # the last position whose x is before x
            while lo < hi:
                mid = (lo + hi + 1) // 2
                xm = self.x_at(mid, run)
                if (xm > x) if run.rtl else (xm <= x):
                    lo = mid
                else:
                    hi = mid - 1
            p = max(self.cluster(lo)[0], run.start)
            q = min(self.cluster(p + 1)[1], run.end) if p + 1 < run.end and self.inside_cluster(p + 1) else p + 1
            xa, xb = self.x_at(p, run), self.x_at(q, run)
            if min(xa, xb) <= x < max(xa, xb):
                return p
        return -1


def merge_ranges(ranges: list[tuple[float, float]], gap: float = 0.5) -> list[tuple[float, float]]:
    """Sort x ranges and merge those that touch or overlap (within ``gap`` pixels)."""
    out: list[tuple[float, float]] = []
    for left, right in sorted(ranges):
        if out and left <= out[-1][1] + gap:
            out[-1] = (out[-1][0], max(out[-1][1], right))
        else:
            out.append((left, right))
    return out
