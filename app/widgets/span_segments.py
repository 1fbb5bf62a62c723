"""Pure helpers of :class:`~app.widgets.span_text_view.SpanTextView` (no Qt).

- edit diffing: :func:`first_difference` (what an edit leaves untouched, so only the changed
  table rows are repainted);
- line breaks a view shows that its text does not have: :func:`line_breaks`,
  :func:`qt_positions`, :func:`with_breaks`, :func:`break_affixes`;
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
import unicodedata
from array import array
from functools import lru_cache
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

import numpy as np

from core.text.columns import SpanArray
from core.text.graphemes import grapheme_bounds
from core.text.offsets import code_points, int_table

TOKEN_COLOURS = ("#dbeafe", "#fde7c2")  # alternating token backgrounds
TOKEN_COLOURS_DARK = ("#1e3a5f", "#4a3416")  # the same on a dark theme (light text)
# Colour by token id: a token's id hashed into one of these (id_colour_index), so a repeated
# token has the same colour everywhere. Light fills keep a contrast ratio of at least 9:1
# with black text, dark fills at least 7:1 with #e5e7eb (WCAG 2 AAA is 7:1); none is one of
# the colours of marks, links, errors or special tokens.
ID_COLOURS = ("#bfdbfe", "#fed7aa", "#bbf7d0", "#fbcfe8", "#a5f3fc", "#d9f99d",
              "#c7d2fe", "#fde68a", "#99f6e4", "#f5d0fe", "#d6d3d1", "#fecdd3")
ID_COLOURS_DARK = ("#1e3a8a", "#7c2d12", "#14532d", "#831843", "#164e63", "#365314",
                   "#312e81", "#78350f", "#134e4a", "#701a75", "#44403c", "#881337")
SPECIAL_FILL, SPECIAL_FILL_DARK = "#e2e8f0", "#334155"  # special tokens: a grey chip ...
SPECIAL_OUTLINE, SPECIAL_OUTLINE_DARK = "#7c3aed", "#a78bfa"  # ... with a violet outline
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


_CLUSTER_LOOK = 32  # code points a forced break may move forward to reach a cluster start


def long_run_breaks(text: str, max_paragraph: int = MAX_PARAGRAPH) -> np.ndarray:
    """Where a span view shows ``text`` broken inside a stretch with neither a space nor a
    line break longer than ``max_paragraph`` code points (a line of hex, DNA or "a"s, which
    :func:`display_text` cannot break): ``(k,) int64`` sorted code points ``b``, a line
    break shown before character ``b`` (see :func:`line_breaks`), one about every
    ``max_paragraph`` code points of such a stretch. Qt lays out a paragraph as a whole, so
    one unbroken 1,000,000-character line would be laid out whole on every paint and edit
    (and appending it in chunks would lay it out again per chunk). A break moves forward
    (up to :data:`_CLUSTER_LOOK` code points) past combining marks, joiners and variation
    selectors so it does not split a grapheme cluster; a cluster longer than that is not
    broken. A cluster of :data:`LONG_CLUSTER` code points or more (a letter with thousands
    of combining marks) is shown as a paragraph of its own (:func:`long_cluster_breaks`).
    O(n) at numpy speed plus O(breaks × _CLUSTER_LOOK)."""
    clusters = long_cluster_breaks(text)
    if len(text) <= max_paragraph:
        return clusters
    cps = code_points(text)
    cuts = np.concatenate(([-1], np.flatnonzero((cps == 32) | (cps == 10)), [len(text)]))
    long = np.flatnonzero(np.diff(cuts) > max_paragraph + 1)
    out: list[int] = []
    for start, end in zip((cuts[long] + 1).tolist(), cuts[long + 1].tolist()):
        b = start + max_paragraph
        while b < end:
            c = next((c for c in range(b, min(b + _CLUSTER_LOOK, end)) if starts_cluster(text, c)), -1)
            if c < 0:
                b += max_paragraph
                continue
            out.append(c)
            b = c + max_paragraph
    return merge_breaks(np.array(out, np.int64), clusters)


LONG_CLUSTER = 64
"""Code points of marks, joiners and selectors in a row from which a span view shows their
cluster as a paragraph of its own."""


@lru_cache(maxsize=1)
def _continues() -> np.ndarray:
    """``_continues()[c]``: code point ``c`` (below U+1F400) continues the grapheme cluster
    before it: a mark (category M*), a joiner, a variation selector or a skin tone. Built on
    first use, O(0x1F400)."""
    category = unicodedata.category
    table = np.array([category(chr(c))[0] == "M" for c in range(0x1F400)] + [False])
    table[[0x200C, 0x200D]] = True
    table[0xFE00:0xFE10] = True
    table[0x1F3FB:0x1F400] = True
    return table


def long_cluster_breaks(text: str, longest: int = LONG_CLUSTER) -> np.ndarray:
    """Display breaks (as :func:`long_run_breaks` gives them) around each grapheme cluster
    holding ``longest`` or more marks, joiners or variation selectors in a row: one before
    its first character and one after it, where each starts a cluster
    (:func:`starts_cluster`), also at the start (a break at 0: the view then starts with an
    empty line) and at the end of the text. Qt lays out and shapes a paragraph whole on
    every edit, so a letter with 10,000 combining marks would be shaped again at every
    keystroke typed next to it, and its line's span geometry recomputed; on a paragraph of
    its own it is left as it is (the breaks at the ends are there before the first key
    typed before or after it: putting one in then would change the cluster's paragraph).
    O(n) at numpy speed."""
    none = np.zeros(0, np.int64)
    if len(text) < longest:
        return none
    cps = code_points(text)
    at = np.flatnonzero(cps >= 0x300)  # no mark or joiner comes before U+0300
    if len(at) < longest:
        return none
    c = cps[at]
    table = _continues()
    cont = table[np.minimum(c, len(table) - 1)]  # the table's last entry is False
    cont |= c >= 0xE0020  # tags and variation selectors (what lies above them is unassigned)
    pos = at[cont]
    if len(pos) < longest:
        return none
    gaps = np.flatnonzero(np.diff(pos) != 1)  # runs of consecutive positions
    starts = pos[np.concatenate(([0], gaps + 1))]
    ends = pos[np.concatenate((gaps, [len(pos) - 1]))] + 1
    long = ends - starts >= longest
    starts, ends = starts[long], ends[long]
    out = []
    for a, b in zip(starts.tolist(), ends.tolist()):
        if a == 1 or (a > 1 and starts_cluster(text, a - 1)):  # at 0: a break before the text
            out.append(a - 1)
        if b == len(text) or starts_cluster(text, b):
            out.append(b)
    return np.unique(np.array(out, np.int64))  # (one cluster's end can be the next one's start)


def starts_cluster(text: str, c: int) -> bool:
    """Whether code point ``c`` (0 < c < len) can start a grapheme cluster: it is no mark,
    joiner or variation selector and does not follow a zero-width joiner (an
    approximation of UAX #29, for display breaks only)."""
    ch = text[c]
    return not (unicodedata.category(ch).startswith("M") or ch in "\u200c\u200d" or "\ufe00" <= ch <= "\ufe0f"
                or "\U000e0100" <= ch <= "\U000e01ef" or text[c - 1] == "\u200d"
                or ("\U0001f3fb" <= ch <= "\U0001f3ff") or ("\U000e0020" <= ch <= "\U000e007f"))


def next_cluster_start(text: str, start: int, end: int) -> int:
    """The first ``c`` in ``[start, end)`` (``0 < start``) where :func:`starts_cluster`
    holds, or -1 (the same test, by table: a code point above the table that is U+E0020 or
    more counts as continuing). O(end - start) at numpy speed."""
    end = min(end, len(text))
    if not 0 < start < end:
        return -1
    cps = code_points(text[start - 1:end])
    table = _continues()
    cont = table[np.minimum(cps, len(table) - 1)] | (cps >= 0xE0020)
    ok = np.flatnonzero(~cont[1:] & (cps[:-1] != 0x200D))
    return start + int(ok[0]) if len(ok) else -1


def merge_breaks(*parts: np.ndarray) -> np.ndarray:
    """The sorted distinct union of several break arrays (``(k,) int64``)."""
    parts = [p for p in parts if p is not None and len(p)]
    if not parts:
        return np.zeros(0, np.int64)
    return np.unique(np.concatenate(parts)).astype(np.int64) if len(parts) > 1 else np.asarray(parts[0], np.int64)


def line_breaks(original: str, text: str, ends: np.ndarray) -> np.ndarray:
    """Where a span view shows a normalized ``text`` broken into paragraphs as its
    ``original`` is: ``(k,) int64`` sorted normalized positions ``b`` (``0 < b < len(text)``),
    a line break shown *before* character ``b`` that is not in the text (a SentencePiece
    normalizer turns every newline into ``▁``, BERT's into a space: the normalized text is
    then one paragraph, which Qt lays out whole on every edit). One per line break of
    ``original`` whose normalized form is not a line break; after a space it became (the
    space ends the line). ``ends`` is the normalized text's ``ends`` array (non-decreasing,
    see :class:`core.text.normalize.NormalizedText`). O(n) at numpy speed."""
    none = np.zeros(0, np.int64)
    if not text or not original:
        return none
    newlines = np.flatnonzero(code_points(original) == 10)
    if not len(newlines):
        return none
    cps = code_points(text)
    at = np.searchsorted(ends, newlines, side="right")  # the first character from it or after
    at = at[at < len(text)]
    at = np.where(cps[at] == 32, at + 1, at)
    at = np.unique(at[(at > 0) & (at < len(text))])
    return at[(cps[at] != 10) & (cps[at - 1] != 10)].astype(np.int64)


def qt_positions(utf16: Sequence[int], breaks: np.ndarray) -> Sequence[int]:
    """The Qt position of every code-point boundary of a text shown with ``breaks`` (see
    :func:`line_breaks`): ``utf16[c]`` plus the breaks at or before ``c``; ``utf16`` itself
    when there are none. Length ``len(utf16)``. O(n) at numpy speed."""
    if not len(breaks):
        return utf16
    compact = isinstance(utf16, array) and utf16.itemsize == 4  # an int_table: no copy
    table = np.frombuffer(utf16, np.int32) if compact else np.asarray(utf16, np.int64)
    shift = np.zeros(len(table), table.dtype)
    shift[breaks] = 1
    np.cumsum(shift, out=shift)
    shift += table
    return int_table(shift)


def with_breaks(display: str, breaks: np.ndarray, start: int = 0) -> str:
    """``display`` (the display text of code points ``start ..``) with a line break put
    before every code point ``b`` of ``breaks`` with ``start < b <= start + len(display)``
    (a break at the end is appended: the next part starts after it), and ``b = 0`` too when
    ``start`` is 0 (a break before the text: no part came before). O(len + breaks)."""
    lo = int(np.searchsorted(breaks, start, side="left" if start == 0 else "right"))
    hi = int(np.searchsorted(breaks, start + len(display), side="right"))
    if lo == hi:
        return display
    cuts = (breaks[lo:hi] - start).tolist()
    return "\n".join(display[a:b] for a, b in zip([0, *cuts], [*cuts, len(display)]))


def break_affixes(old: np.ndarray, new: np.ndarray, n_old: int, n_new: int, p: int, q: int) -> tuple[int, int]:
    """Shrink the common prefix ``p`` and suffix ``q`` (code points) of two texts shown
    with the breaks ``old`` and ``new`` so that the breaks in them are the same too: the
    prefix keeps the breaks at or before ``p``, the suffix those after ``n - q``; the part
    between is replaced with its breaks. O(breaks) at numpy speed."""
    i, j = np.searchsorted(old, p, side="right"), np.searchsorted(new, p, side="right")
    k = min(i, j)
    diff = np.flatnonzero(old[:k] != new[:k])
    k = int(diff[0]) if len(diff) else k
    if k < max(i, j):  # a break in the prefix differs: the prefix ends before it
        p = min(p, *(int(b[k]) - 1 for b in (old, new) if k < len(b)))
    i, j = np.searchsorted(old, n_old - q, side="right"), np.searchsorted(new, n_new - q, side="right")
    tail_old, tail_new = n_old - old[i:][::-1], n_new - new[j:][::-1]  # distances from the end
    k = min(len(tail_old), len(tail_new))
    diff = np.flatnonzero(tail_old[:k] != tail_new[:k])
    k = int(diff[0]) if len(diff) else k
    if k < max(len(tail_old), len(tail_new)):  # a break in the suffix differs
        q = min(q, *(int(t[k]) for t in (n_old - old[::-1], n_new - new[::-1]) if k < len(t)))
    return max(0, p), max(0, q)


def id_colour_index(token_id: int) -> int:
    """Where token id ``token_id`` falls in :data:`ID_COLOURS` (a multiplicative hash, so
    neighbouring ids, which often are neighbouring tokens, spread over the palette)."""
    return ((token_id * 2654435761) & 0xFFFFFFFF) * len(ID_COLOURS) >> 32


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
class MarkList(list):
    """The marks of :func:`marks` (a list of ``(start, end, kind)``), with what a view
    reads of them made alongside, at numpy speed (on the worker that makes them):
    ``ends`` (each mark's end, a list in mark order) and ``counts`` (kind → characters
    marked)."""

    def __init__(self, items=(), ends: list[int] | None = None, counts: dict[str, int] | None = None):
        super().__init__(items)
        self.ends = [e for _, e, _ in self] if ends is None else ends
        self.counts = counts if counts is not None else {
            kind: sum(e - s for s, e, k in self if k == kind) for kind in ("multi", "uncov")}


def marks(text: str, cover: np.ndarray) -> MarkList:
    """Runs of characters shared by several tokens ("multi") or by none ("uncov", non-space),
    sorted by start (they are disjoint, so by end too). O(n) at numpy speed, plus one tuple
    per run."""
    if len(cover) != len(text) or not len(text):
        return MarkList()
    multi = cover > 1
    cps = code_points(text)
    space = _IS_SPACE[np.minimum(cps, len(_IS_SPACE) - 1)]
    uncovered = (cover == 0) & ~space
    (ma, mb), (ua, ub) = _run_edges(multi), _run_edges(uncovered)
    order = np.argsort(np.concatenate((ma, ua)), kind="stable")
    starts, ends = np.concatenate((ma, ua))[order].tolist(), np.concatenate((mb, ub))[order].tolist()
    kinds = np.array(["multi", "uncov"], object)[(order >= len(ma)).astype(np.int64)].tolist()
    return MarkList(zip(starts, ends, kinds), ends,
                    {"multi": int((mb - ma).sum()), "uncov": int((ub - ua).sum())})


def _run_edges(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, ends)`` of the runs of True in ``mask``, ``(k,) int64`` each."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return edges[::2], edges[1::2]


DENSE_WINDOW = 1000  # token spans in a window beyond which dense clusters are looked for
DENSE_CLUSTER = 16  # token boundaries inside one grapheme cluster that make it dense
CLUSTER_CARETS = 8  # the cut carets drawn in a dense cluster


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
    text: str = "",
    ids: Sequence[int | None] | None = None,
    special: Sequence[int] = (),
) -> list[tuple[int, int, object]]:
    """Everything to draw that overlaps ``[lo, hi)`` as ``(start, end, key)``: token spans
    (key ``("tok", c)``: ``c = i % 2`` alternating, or with ``ids`` (one per token) ``2 +``
    :func:`id_colour_index` of token ``i``'s id, alternating for a None id; spans sorted by
    start, missing ones last, for the binary search), special tokens (``("spec",)`` where
    ``special[i]`` is not 0), unknown tokens (``("unk",)`` where ``unknown[i]``), marks,
    entities, linked spans and the error span. O(tokens in the window + marks + entities); a
    :class:`~core.text.columns.SpanArray` is read through its columns (numpy), not a tuple
    per span.

    Given the ``text``, a window of more than :data:`DENSE_WINDOW` token spans has its
    dense grapheme clusters drawn as one (:func:`coalesce_dense`): the thousands of tokens
    inside one letter with thousands of combining marks are a few pixels wide, and would
    otherwise cost the drawing O(tokens) per repaint for nothing visible."""
    out: list[tuple[int, int, object]] = []
    idx, starts, ends = _window_arrays(spans, lo, hi)
    if text and len(idx) > DENSE_WINDOW:
        idx, starts, ends = coalesce_dense(text, lo, hi, idx, starts, ends, unknown, out, ids)
    flags = [bool(unknown[i]) for i in idx.tolist() if i < len(unknown)] if len(unknown) else []
    for j, (i, start, end) in enumerate(zip(idx.tolist(), starts.tolist(), ends.tolist())):
        out.append((start, end, ("tok", token_colour(i, ids))))
        if j < len(flags) and flags[j]:
            out.append((start, end, ("unk",)))
        if i < len(special) and special[i]:
            out.append((start, end, ("spec",)))
    out.extend((s, e, (kind,)) for s, e, kind in marks if s < hi and e > lo)
    out.extend((s, e, ("ent", label)) for s, e, label in entities if s < hi and e > lo)
    out.extend((s, e, ("link",)) for s, e in linked if s < hi and e > lo)
    if error and error[0] < hi and error[1] > lo:
        out.append((*error, ("err",)))
    return out


def token_colour(i: int, ids: Sequence[int | None] | None) -> int:
    """The colour key of token ``i`` (see :func:`window_intervals`)."""
    if ids is not None and i < len(ids) and ids[i] is not None:
        return 2 + id_colour_index(int(ids[i]))
    return i % 2


def dense_clusters(text: str, lo: int, hi: int, positions: np.ndarray, least: int = DENSE_CLUSTER) -> np.ndarray:
    """``(k, 2) int64``: the grapheme clusters ``[start, end)`` of ``text[lo:hi]`` (code
    points of ``text``; a cluster cut by ``lo`` or ``hi`` counts from there) that hold at
    least ``least`` of the token boundaries ``positions`` strictly inside, sorted.
    O(hi - lo + positions) at numpy speed (one ``\\X`` pass over the window)."""
    bounds = np.asarray(grapheme_bounds(text[lo:hi]), np.int64) + lo
    pos = positions[(positions > lo) & (positions < hi)]
    k = np.searchsorted(bounds, pos, side="right") - 1
    counts = np.bincount(k[bounds[k] != pos], minlength=len(bounds))
    dense = np.flatnonzero(counts >= least)
    return np.stack((bounds[dense], bounds[dense + 1]), axis=1)


def coalesce_dense(text: str, lo: int, hi: int, idx: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                   unknown: Sequence[bool], out: list[tuple[int, int, object]],
                   ids: Sequence[int | None] | None = None) -> tuple[np.ndarray, ...]:
    """The token spans ``(idx, starts, ends)`` (``(k,) int64`` each, sorted by start) of
    the window ``[lo, hi)`` without those lying inside a dense grapheme cluster
    (:func:`dense_clusters`); each such cluster is appended to ``out`` instead as one
    token span (the key ``("tok", c)`` of its first token, :func:`token_colour`), ``("unk",)`` if any of its
    tokens is unknown, and at most :data:`CLUSTER_CARETS` of its inner boundaries as empty
    ``("cut",)`` intervals (where :func:`boundaries` puts the cut carets). O(window +
    k log k) for the window's k tokens, at numpy speed, plus O(1) per dense cluster and per
    caret in Python; only the window's part of ``unknown`` is read."""
    clusters = dense_clusters(text, lo, hi, np.concatenate((starts, ends)))
    if not len(clusters):
        return idx, starts, ends
    k = np.searchsorted(clusters[:, 0], starts, side="right") - 1
    kk = np.maximum(k, 0)
    within = (k >= 0) & (starts < clusters[kk, 1]) & (ends <= clusters[kk, 1])
    # starts are sorted, so the tokens of one cluster are consecutive among those within
    members, owner = idx[within], k[within]
    group = np.flatnonzero(np.concatenate(([True], owner[1:] != owner[:-1])))  # first member of each
    flags = np.zeros(len(members), bool)
    known = members < len(unknown)
    if known.any():  # read only the window's part of a long list of flags
        i0, i1 = int(members.min()), int(members[known].max()) + 1
        flags[known] = np.asarray(unknown[i0:i1], bool)[members[known] - i0]
    any_unknown = np.logical_or.reduceat(flags, group) if len(group) else flags[:0]
    inner, inner_owner = _inner_cuts(clusters, owner, starts[within], ends[within])
    cut_from = np.searchsorted(inner_owner, owner[group], side="left").tolist()
    cut_to = np.searchsorted(inner_owner, owner[group], side="right").tolist()
    cuts = [(p, p, ("cut",)) for p in inner.tolist()]
    edges, firsts, unknown_any = clusters.tolist(), members[group].tolist(), any_unknown.tolist()
    for g, c in enumerate(owner[group].tolist()):
        cs, ce = edges[c]
        out.append((cs, ce, ("tok", token_colour(firsts[g], ids))))
        if unknown_any[g]:
            out.append((cs, ce, ("unk",)))
        out += cuts[cut_from[g]:cut_to[g]]
    keep = ~within
    return idx[keep], starts[keep], ends[keep]


def _inner_cuts(clusters: np.ndarray, owner: np.ndarray, starts: np.ndarray,
                ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cut positions drawn in each dense cluster: the distinct token boundaries
    strictly inside it (``starts``/``ends`` of the tokens whose cluster index is ``owner``),
    at most :data:`CLUSTER_CARETS` per cluster, spread evenly over them (the first, the last
    and evenly spaced ones between, as ``np.linspace``). Returns ``(positions, cluster
    index)``, sorted. O(k log k) for k boundaries at worst, about O(k) for token spans
    sorted by start and end; O(clusters × CLUSTER_CARETS) for the picks; at numpy speed."""
    pos = np.concatenate((starts, ends))
    who = np.concatenate((owner, owner))
    inside = (pos > clusters[who, 0]) & (pos < clusters[who, 1])
    pos, who = pos[inside], who[inside]
    if not len(pos):
        return pos, who
    # one key per (cluster, position), sorted: two nearly sorted runs (starts, then ends),
    # which a stable sort (timsort) merges in about linear time
    m = int(pos.max()) + 1
    key = np.sort(who * m + pos, kind="stable")
    key = key[np.concatenate(([True], key[1:] != key[:-1]))]
    who, pos = np.divmod(key, m)
    first = np.flatnonzero(np.concatenate(([True], who[1:] != who[:-1])))
    count = np.diff(np.append(first, len(pos)))
    few = count <= CLUSTER_CARETS
    wanted = np.repeat(few, count)  # every cut of a cluster with few
    many = np.flatnonzero(~few)
    if len(many):  # the ranks linspace(0, n - 1, CLUSTER_CARETS).round() picks
        step = (count[many] - 1) / (CLUSTER_CARETS - 1)
        picks = (np.arange(CLUSTER_CARETS)[None, :] * step[:, None]).round().astype(np.int64)
        wanted[(first[many][:, None] + picks).ravel()] = True
    return pos[wanted], who[wanted]


def _window_arrays(spans: Sequence[tuple[int, int] | None], lo: int, hi: int) -> tuple[np.ndarray, ...]:
    """``(index, start, end)`` ``(k,) int64`` arrays of the spans of :func:`_window_spans`
    that end after ``lo`` (a :class:`~core.text.columns.SpanArray` read the same way through
    its columns). O(log n + spans in the window), at numpy speed for a SpanArray."""
    if isinstance(spans, SpanArray):
        starts, ends = spans.arrays()
        missing = None in spans
        keys = np.where(starts < 0, 1 << 40, starts) if missing else starts
        first = max(0, int(np.searchsorted(keys, lo)) - 64)
        if missing:  # a missing span does not end the window
            after = np.flatnonzero(starts[first:] >= hi)
            stop = first + int(after[0]) if len(after) else len(starts)
        else:
            stop = first + int(np.searchsorted(starts[first:], hi))
        s, e = starts[first:stop], ends[first:stop]
        keep = np.flatnonzero((s >= 0) & (e > lo))
        return keep + first, s[keep], e[keep]
    found = np.array([t for t in _window_spans(spans, lo, hi) if t[2] > lo], np.int64).reshape(-1, 3)
    return found[:, 0], found[:, 1], found[:, 2]


def _window_spans(spans: Sequence[tuple[int, int] | None], lo: int, hi: int) -> Iterator[tuple[int, int, int]]:
    """``(index, start, end)`` of the spans (a list, sorted by start, missing ones last)
    from a little before the first one that can reach ``lo`` up to the first that starts
    at or after ``hi`` (missing spans skipped). O(log n + spans in the window)."""
    for i in range(max(0, bisect.bisect_left(spans, lo, key=_span_start) - 64), len(spans)):
        sp = spans[i]
        if sp is None:
            continue
        if sp[0] >= hi:
            break
        yield i, sp[0], sp[1]


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
    ``("tok", _)``, and the ``("cut",)`` boundaries of :func:`coalesce_dense`) inside
    ``[lo, hi]``."""
    out = set()
    for s, e, key in intervals:
        if key[0] in ("tok", "cut"):
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
    outline: str | None = None  # a rounded frame (a special token's chip)


@lru_cache(maxsize=1024)
def compose_style(keys: frozenset, dark: bool = False) -> SegmentStyle:
    """One style from a segment's active keys; later rules win over earlier ones
    (token colour < special < shared < uncovered < entity < linked < error). Unknown tokens
    and the error also get a frame (:func:`outlines`), special tokens a rounded outline.
    ``dark``: the colours for a dark theme (light text) where they differ. Cached: equal
    keys give the same object."""
    style: dict = {}
    kinds = {k[0]: k for k in keys}
    if "tok" in kinds:
        c = max(k[1] for k in keys if k[0] == "tok")
        if c < 2:
            style["background"] = (TOKEN_COLOURS_DARK if dark else TOKEN_COLOURS)[c]
        else:
            style["background"] = (ID_COLOURS_DARK if dark else ID_COLOURS)[c - 2]
    if "spec" in kinds:
        style.update(background=SPECIAL_FILL_DARK if dark else SPECIAL_FILL,
                     outline=SPECIAL_OUTLINE_DARK if dark else SPECIAL_OUTLINE)
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


def special_chip(dark: bool = False) -> SegmentStyle:
    """The style of a special token's span (a grey chip with a violet outline), as the span
    views compose it (:func:`compose_style` of ``("spec",)``), for rows built by hand (side by
    side, the Compare drill-down): the painter draws its outline the same way everywhere."""
    return compose_style(frozenset({("spec",)}), dark)
