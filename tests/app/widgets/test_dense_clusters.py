"""A grapheme cluster holding thousands of tokens (a letter with thousands of combining
marks, each its own token) costs the span geometry and drawing O(cluster), never
O(tokens in it × its length): the layout is asked about each position a bounded number of
times, and the tokens inside a dense cluster are drawn as one (issue 30, item 1)."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QTextLayout

from app.widgets.span_geometry import LineGeometry
from app.widgets.span_segments import (
    CLUSTER_CARETS,
    DENSE_WINDOW,
    boundaries,
    dense_clusters,
    sweep,
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
