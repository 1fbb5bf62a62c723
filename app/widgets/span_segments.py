"""Pure helpers of :class:`~app.widgets.span_text_view.SpanTextView` (no Qt).

- edit diffing: :func:`first_difference` (what an edit leaves untouched, so only the changed
  table rows are repainted);
- the segment sweep: :func:`marks`, :func:`window_intervals` and :func:`sweep` cut the
  overlapping token spans, marks, entities and highlights of the drawn window into disjoint
  segments, each with its set of active keys (:func:`visible_lines` finds that window);
  :func:`outlines` picks the spans drawn with a frame (unknown tokens, the error);
- style composition: :func:`compose_style` turns a segment's keys into a
  :class:`SegmentStyle` (background and underline), which the painter draws *behind* the
  text — never as a character format, so the glyphs stay those of the plain text.

Positions are code points unless a name says otherwise.
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from core.text.offsets import code_points

TOKEN_COLOURS = ("#dbeafe", "#fde7c2")  # alternating token backgrounds
MULTI_COLOUR = "#e9d5ff"  # characters shared by several tokens
UNCOVERED_COLOUR = "#fecaca"  # non-space characters no token covers
ERROR_COLOUR = "#dc2626"  # frame of the place an alignment failed
ERROR_BACKGROUND = "#fca5a5"
LINK_COLOUR = "#facc15"  # hovered / selected linked parts
UNKNOWN_COLOUR = "#dc2626"  # outline of the model's unknown tokens and byte-fallback pieces
ENTITY_COLOURS = ("#15803d", "#b91c1c", "#1d4ed8", "#a16207", "#7e22ce", "#0f766e")

# _IS_SPACE[c]: str.isspace() of code point c (no code point above U+3000 is a space).
_IS_SPACE = np.array([chr(c).isspace() for c in range(0x3002)])


MAX_PARAGRAPH = 3000  # code points: longer paragraphs are shown broken at a space


def display_text(text: str, max_paragraph: int = MAX_PARAGRAPH) -> str:
    """``text`` as a span view's document holds it: one Qt position per UTF-16 unit (a CR
    is shown as ␍, not merged), and no paragraph much longer than ``max_paragraph`` where
    a space allows: one space in every such stretch is shown as a line break, so positions
    do not move (Qt lays out a paragraph as a whole, so editing a 1,000,000-character
    paragraph — BERT's normalized text has no newlines — costs its whole layout each time).
    A stretch with no space stays long. O(n) at C speed."""
    text = text.replace("\r", "\u240d")
    if len(text) <= max_paragraph:
        return text
    out, pos, n = [], 0, len(text)
    while pos < n:
        nl = text.find("\n", pos, pos + max_paragraph + 1)
        if nl >= 0 or n - pos <= max_paragraph:
            end = n if nl < 0 else nl + 1
            out.append(text[pos:end])
        else:
            cut = text.rfind(" ", pos + max_paragraph // 2, pos + max_paragraph)
            if cut < 0:  # no space: keep going to the next space or line break
                nxt = [i for i in (text.find(" ", pos + max_paragraph), text.find("\n", pos + max_paragraph)) if i >= 0]
                end = min(nxt) if nxt else n
                out.append(text[pos:end])
            else:
                out.append(text[pos:cut] + "\n")
                end = cut + 1
        pos = end
    return "".join(out)


def entity_colour(label: str) -> str:
    """A stable colour for an entity label."""
    return ENTITY_COLOURS[sum(map(ord, label)) % len(ENTITY_COLOURS)]


# -- edit diffing ------------------------------------------------------------------------
def first_difference(a: np.ndarray, b: np.ndarray) -> int:
    """The first index where two 1-D arrays differ (the shorter length if one is a prefix
    of the other; ``len(a)`` if they are equal)."""
    n = min(len(a), len(b))
    diff = np.flatnonzero(a[:n] != b[:n])
    return int(diff[0]) if len(diff) else n


# -- the segment sweep -------------------------------------------------------------------
def marks(text: str, cover: np.ndarray) -> list[tuple[int, int, str]]:
    """Runs of characters shared by several tokens ("multi") or by none ("uncov", non-space),
    sorted by start (they are disjoint, so by end too). O(n) at numpy speed."""
    if len(cover) != len(text) or not len(text):
        return []
    multi = cover > 1
    cps = code_points(text)
    space = _IS_SPACE[np.minimum(cps, len(_IS_SPACE) - 1)]
    uncovered = (cover == 0) & ~space
    return sorted(runs(multi, "multi") + runs(uncovered, "uncov"))


def runs(mask: np.ndarray, kind: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` for every run of True in ``mask``."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b), kind) for a, b in zip(edges[::2].tolist(), edges[1::2].tolist())]


def window_intervals(
    lo: int,
    hi: int,
    spans: Sequence[tuple[int, int] | None],
    *,
    marks: Iterable[tuple[int, int, str]] = (),
    entities: Iterable[tuple[int, int, str]] = (),
    linked: Iterable[tuple[int, int]] = (),
    error: tuple[int, int] | None = None,
    unknown: Sequence[bool] = (),
) -> list[tuple[int, int, object]]:
    """Everything to draw that overlaps ``[lo, hi)`` as ``(start, end, key)``: token spans
    (key ``("tok", i % 2)``; spans sorted by start, missing ones last, for the binary
    search), unknown tokens (``("unk",)`` where ``unknown[i]``), marks, entities, linked
    spans and the error span. O(tokens in the window + marks + entities)."""
    first = max(0, bisect.bisect_left(spans, lo, key=_span_start) - 64)
    out: list[tuple[int, int, object]] = []
    for i in range(first, len(spans)):
        sp = spans[i]
        if sp is None or sp[1] <= lo:
            continue
        if sp[0] >= hi:
            break
        out.append((sp[0], sp[1], ("tok", i % 2)))
        if i < len(unknown) and unknown[i]:
            out.append((sp[0], sp[1], ("unk",)))
    out.extend((s, e, (kind,)) for s, e, kind in marks if s < hi and e > lo)
    out.extend((s, e, ("ent", label)) for s, e, label in entities if s < hi and e > lo)
    out.extend((s, e, ("link",)) for s, e in linked if s < hi and e > lo)
    if error and error[0] < hi and error[1] > lo:
        out.append((*error, ("err",)))
    return out


def _span_start(span: tuple[int, int] | None) -> int:
    return span[0] if span else 1 << 40


def visible_lines(layout, y0: float, y1: float):
    """The first and last line of a text layout (anything with ``lineCount()`` and
    ``lineAt(i)`` giving lines with ``y()`` and ``height()``, in order) that overlap
    ``[y0, y1)``, found by binary search; None when no line does."""
    n = layout.lineCount()
    lo, hi = 0, n
    while lo < hi:  # the first line ending below y0
        mid = (lo + hi) // 2
        line = layout.lineAt(mid)
        if line.y() + line.height() <= y0:
            lo = mid + 1
        else:
            hi = mid
    first = lo
    lo, hi = first, n
    while lo < hi:  # the first line starting at or below y1
        mid = (lo + hi) // 2
        if layout.lineAt(mid).y() < y1:
            lo = mid + 1
        else:
            hi = mid
    if lo <= first:
        return None
    return layout.lineAt(first), layout.lineAt(lo - 1)


def sweep(intervals: Iterable[tuple[int, int, object]], lo: int, hi: int) -> list[tuple[int, int, frozenset]]:
    """Cut overlapping intervals into disjoint segments of ``[lo, hi)``, each with its set
    of active keys; positions no interval covers are left out."""
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


def outlines(intervals: Iterable[tuple[int, int, object]]) -> list[tuple[int, int, str]]:
    """The framed spans among ``intervals``: ``(start, end, "unk" | "err")`` sorted by start."""
    return sorted((s, e, key[0]) for s, e, key in intervals if key in (("unk",), ("err",)))


def boundaries(intervals: Iterable[tuple[int, int, object]], lo: int, hi: int) -> list[int]:
    """The sorted distinct starts and ends of the token spans among ``intervals`` (keys
    ``("tok", _)``) inside ``[lo, hi]``."""
    out = set()
    for s, e, key in intervals:
        if key[0] == "tok":
            out.update(p for p in (s, e) if lo <= p <= hi)
    return sorted(out)


# -- style composition -------------------------------------------------------------------
@dataclass(frozen=True)
class SegmentStyle:
    """How one segment's background is painted: colours are ``#rrggbb``; ``underline`` is
    ``None``, ``"dot"``, ``"wave"`` or ``"single"``. Text colour and weight never change."""

    background: str | None = None
    underline: str | None = None
    underline_colour: str | None = None


@lru_cache(maxsize=1024)
def compose_style(keys: frozenset) -> SegmentStyle:
    """One style from a segment's active keys; later rules win over earlier ones
    (token colour < shared < uncovered < entity < linked < error). Unknown tokens and the
    error also get a frame (:func:`outlines`). Cached: equal keys give the same object."""
    style: dict = {}
    kinds = {k[0]: k for k in keys}
    if "tok" in kinds:
        style["background"] = TOKEN_COLOURS[max(k[1] for k in keys if k[0] == "tok")]
    if "multi" in kinds:
        style.update(background=MULTI_COLOUR, underline="dot", underline_colour="#7e22ce")
    if "uncov" in kinds:
        style.update(background=UNCOVERED_COLOUR, underline="wave", underline_colour=ERROR_COLOUR)
    if "ent" in kinds:
        style.update(underline="single", underline_colour=entity_colour(kinds["ent"][1]))
    if "link" in kinds:
        style["background"] = LINK_COLOUR
    if "err" in kinds:
        style["background"] = ERROR_BACKGROUND
    return SegmentStyle(**style)
