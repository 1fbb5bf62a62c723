"""A grapheme cluster holding thousands of tokens (a letter with thousands of combining
marks, each its own token) costs the span geometry and drawing O(cluster), never
O(tokens in it × its length): the layout is asked about each position a bounded number of
times, and the tokens inside a dense cluster are drawn as one (issue 30, item 1)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QColor, QTextLayout

from app.widgets.span_geometry import LineGeometry
from app.widgets.span_painter import CUT_COLOUR
from app.widgets.span_segments import (
    CLUSTER_CARETS,
    DENSE_WINDOW,
    _window_arrays,
    boundaries,
    coalesce_dense,
    dense_clusters,
    sweep,
    token_colour,
    window_intervals,
)
from app.widgets.span_text_view import SpanTextView
from core.text.columns import SpanArray
from tests.app.widgets.shown import shown

MARKS = 3000


def _laid_out(text: str) -> QTextLayout:
    layout = QTextLayout(text)
    layout.beginLayout()
    line = layout.createLine()
    line.setLineWidth(100_000)
    layout.endLayout()
    return layout


def test_every_position_of_a_long_cluster_costs_a_bounded_number_of_layout_queries(qapp):
    text = "a e" + "\u0301" * MARKS + " b"
    layout = _laid_out(text)
    geom = LineGeometry(layout, layout.lineAt(0))
    xs = []
    for p in range(len(text)):
        geom.ranges(p, p + 1)
        geom.boundary_xs(p)
        geom.inside_cluster(p)
        xs.append(geom.x_at(p, geom.runs[0]))
    assert geom.probes <= 2 * len(text) + 10  # each position asked about once or twice: O(n)
    cluster = xs[2:3 + MARKS + 1]
    assert all(a < b for a, b in zip(cluster, cluster[1:]))  # interpolated across the cluster
    # hit-testing anywhere inside the cluster finds the cluster's first position
    assert {geom.position_at(x) for x in np.linspace(cluster[0] + 0.01, cluster[-1] - 0.01, 50)} == {2}
    assert geom.position_at(xs[0] + 0.5) == 0 and geom.position_at(xs[-1] + 0.5) == len(text) - 1


def test_a_dense_cluster_is_one_interval_with_a_few_carets():
    text = "ab e" + "\u0301" * MARKS + " cd"
    spans = [(0, 1), (1, 2), (2, 3)] + [(p, p + 1) for p in range(3, 4 + MARKS)] + [(4 + MARKS, len(text))]
    assert len(spans) > DENSE_WINDOW
    unknown = [False] * len(spans)
    unknown[100] = True
    for given in (spans, SpanArray.from_pairs(spans)):
        intervals = window_intervals(0, len(text), given, unknown=unknown, text=text)
        toks = sorted((s, e) for s, e, k in intervals if k[0] == "tok")
        assert toks == [(0, 1), (1, 2), (2, 3), (3, 4 + MARKS), (4 + MARKS, len(text))]
        assert [(s, e) for s, e, k in intervals if k == ("unk",)] == [(3, 4 + MARKS)]
        cuts = [p for p in boundaries(intervals, 0, len(text)) if 4 < p < 4 + MARKS]
        assert 0 < len(cuts) <= CLUSTER_CARETS
        assert len(sweep(intervals, 0, len(text))) <= 8
    # without the text (or with few tokens) every token stays its own interval
    assert len(window_intervals(0, len(text), spans, text="")) == len(spans)


def test_ordinary_text_is_not_coalesced():
    text = "x" * (DENSE_WINDOW + 500)  # one token per letter: many tokens, no dense cluster
    spans = [(p, p + 1) for p in range(len(text))]
    assert window_intervals(0, len(text), spans, text=text) == window_intervals(0, len(text), spans)
    assert len(dense_clusters(text, 0, len(text), np.arange(len(text) + 1))) == 0


def test_the_view_draws_a_ten_thousand_mark_cluster_as_a_few_segments(qtbot):
    view = shown(qtbot, SpanTextView(), 600, 300)
    text = "e" + "\u0301" * 10_000 + " ok"
    view.set_content(text, [(0, 2)] + [(p, p + 1) for p in range(2, len(text))])
    view.redraw_now()
    view.repaint()
    assert view.drawn_segments <= 8
    assert 0 < len(view.cluster_cuts()) <= CLUSTER_CARETS
    assert sum(len(ops.fills) for ops in view.visible_ops()) <= 8


FAMILY = "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"  # 7 code points, one cluster
PIECES = [FAMILY, "e" + "\u0301" * 40, "a", " ", "क्षि", "\U0001F3F3\uFE0F\u200D\U0001F308", "سلام", "xyz"]


def reference_coalesce(text, lo, hi, idx, starts, ends, unknown, out, ids=None):
    """What :func:`coalesce_dense` computes, written plainly: one pass over the window's
    tokens for every dense cluster."""
    clusters = dense_clusters(text, lo, hi, np.concatenate((starts, ends)))
    keep = np.ones(len(idx), bool)
    for cs, ce in clusters.tolist():
        members = [j for j in range(len(idx)) if cs <= starts[j] < ce and ends[j] <= ce]
        if not members:
            continue
        keep[members] = False
        out.append((cs, ce, ("tok", token_colour(int(idx[members[0]]), ids))))
        if any(unknown[i] for i in idx[members].tolist() if i < len(unknown)):
            out.append((cs, ce, ("unk",)))
        inner = sorted({int(p) for j in members for p in (starts[j], ends[j]) if cs < p < ce})
        if len(inner) > CLUSTER_CARETS:
            inner = [inner[int(r)] for r in np.linspace(0, len(inner) - 1, CLUSTER_CARETS).round()]
        out.extend((p, p, ("cut",)) for p in inner)
    return idx[keep], starts[keep], ends[keep]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=60), st.data())
def test_coalescing_equals_the_plain_per_cluster_loop(pieces, data):
    """Dense clusters are grouped in one numpy pass (it was a pass over the window's
    tokens per cluster: 30 ms for a window of family emoji); the result is unchanged."""
    text = "".join(pieces)
    n = len(text)
    some = set(data.draw(st.lists(st.integers(0, n), max_size=2 * n)))
    every = data.draw(st.booleans())  # a token per code point but the drawn cuts: dense clusters
    cuts = sorted((set(range(n + 1)) - some if every else some) | {0, n})
    spans = list(zip(cuts, cuts[1:]))
    spans += data.draw(st.lists(st.sampled_from(spans), max_size=5))  # tokens sharing a span
    spans.sort()
    unknown = data.draw(st.lists(st.booleans(), max_size=len(spans)))
    ids = data.draw(st.none() | st.lists(st.integers(0, 50_000) | st.none(), min_size=len(spans),
                                         max_size=len(spans)))
    lo = data.draw(st.integers(0, n))
    hi = data.draw(st.integers(lo, n))
    idx, starts, ends = _window_arrays(spans, lo, hi)
    got_out, want_out = [], []
    got = coalesce_dense(text, lo, hi, idx, starts, ends, unknown, got_out, ids)
    want = reference_coalesce(text, lo, hi, idx, starts, ends, unknown, want_out, ids)
    assert got_out == want_out
    assert all(np.array_equal(a, b) for a, b in zip(got, want))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=30), st.data())
def test_cut_positions_are_placed_as_each_boundary_alone(qapp, pieces, data):
    """:meth:`LineGeometry.cut_xs` places the cuts of a cluster together; each x equals
    :meth:`LineGeometry.boundary_xs` of that position, in mixed-direction text too."""
    text = "".join(pieces)
    positions = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=3 * len(text)))))
    layout = _laid_out(text)
    together = LineGeometry(layout, layout.lineAt(0)).cut_xs(positions)
    alone = LineGeometry(layout, layout.lineAt(0))
    assert together == [(p, x) for p in positions if alone.inside_cluster(p) for x in alone.boundary_xs(p)]


def test_a_line_of_family_emoji_draws_a_caret_at_every_cut(qtbot):
    """The carets of a line are painted with one pen and brush; each is still drawn (the
    caret colour above the line at each cut's x)."""
    view = shown(qtbot, SpanTextView(), 700, 200)
    text = FAMILY * 6 + " ok"
    view.set_content(text, [(p, p + 1) for p in range(len(text))])  # a token per code point
    view.redraw_now()
    view.repaint()
    cuts = view.cluster_cuts()
    assert len(cuts) == 6 * 6  # six inner boundaries in each of the six clusters
    image = view.viewport().grab().toImage()
    block = view.document().firstBlock()
    top = round(view.blockBoundingGeometry(block).translated(view.contentOffset()).top()
                + block.layout().position().y())
    caret = QColor(CUT_COLOUR)
    for _, x in cuts:
        colours = {image.pixelColor(round(x), y).name() for y in range(max(0, top - 2), top + 2)}
        assert caret.name() in colours, x
