"""SpanLineView: rows of plain text with spans painted behind, shaped like the plain text."""

from __future__ import annotations

import pytest

from app.widgets.span_line_view import SpanLine, SpanLineView
from app.widgets.span_segments import SegmentStyle
from tests.app.widgets.glyphs import SAMPLES, cutting_spans, glyph_signature, plain_layout

pytestmark = pytest.mark.fonts  # also run with the Noto fonts hidden (.ci/run)

BLUE, ORANGE = SegmentStyle(background="#dbe9f6"), SegmentStyle(background="#fde7c7")


def _line(text: str, step: int, head: str = "row") -> SpanLine:
    spans = cutting_spans(text, step)
    return SpanLine(text, head=head, tail="note",
                    segments=tuple((s, e, (BLUE, ORANGE)[k % 2]) for k, (s, e) in enumerate(spans)),
                    frames=tuple((s, e, "unk") for k, (s, e) in enumerate(spans) if k % 3 == 1),
                    cuts=tuple(e for _, e in spans[:-1]), bars=tuple((e, "#d62728", 2.0) for _, e in spans))


def test_rows_are_shaped_like_the_plain_text_and_line_up(qtbot):
    view = SpanLineView()
    qtbot.addWidget(view)
    view.set_lines([_line(SAMPLES[name], step, f"{name}/{step}") for name in sorted(SAMPLES) for step in (1, 2)])
    layouts = view.body_layouts()
    assert len(layouts) == 2 * len(SAMPLES)
    for layout, line in zip(layouts, view.lines()):
        assert not layout.formats()
        assert glyph_signature(layout) == glyph_signature(plain_layout(line.text, layout))
    for first, second in zip(layouts[::2], layouts[1::2]):  # the same text: the same glyphs,
        assert glyph_signature(first) == glyph_signature(second)  # whatever the spans
    assert all(ops.fills and ops.bars for ops in view.row_ops())


def test_right_to_left_rows_start_at_the_text_column(qtbot):
    view = SpanLineView()
    qtbot.addWidget(view)
    text = SAMPLES["arabic"]
    view.set_lines([_line(text, 2)])
    line = view.body_layouts()[0].lineAt(0)
    assert abs(line.naturalTextRect().left()) < 0.5
    assert line.cursorToX(0)[0] > line.cursorToX(len(text))[0]  # laid out right to left


def test_carets_mark_the_boundaries_inside_clusters(qtbot):
    view = SpanLineView()
    qtbot.addWidget(view)
    text = "कि a"  # क + ि is one cluster
    view.set_lines([SpanLine(text, cuts=(1, 2, 3), bars=((1, "#d62728", 2.0),))])
    (ops,) = view.row_ops()
    layout = view.body_layouts()[0]
    line = layout.lineAt(0)
    assert [pos for pos, _ in ops.cuts] == [1]
    assert line.cursorToX(0)[0] < ops.cuts[0][1] < line.cursorToX(2)[0]
    assert [x for x, _, _ in ops.bars] == [ops.cuts[0][1]]


def test_plain_text_and_placeholder(qtbot):
    view = SpanLineView()
    qtbot.addWidget(view)
    view.set_lines([], "Type words to segment.")
    assert view.toPlainText() == "Type words to segment." and view.row_ops() == []
    view.set_lines([SpanLine("lowest</w>", head="lowest →", tail="after: rank 0, e + s")])
    assert view.toPlainText() == "lowest → lowest</w> after: rank 0, e + s"
    size = view.widget().sizeHint()
    assert size.width() > view.body_layouts()[0].lineAt(0).naturalTextWidth()


def test_a_long_row_is_painted_in_chunks_that_hold_the_same_operations(qtbot):
    """A row of thousands of tokens: its paint operations are computed for the exposed
    part only, in chunks, and together they are those of the whole row."""
    text = "ab\U0001F600 " * 800
    view = SpanLineView()
    qtbot.addWidget(view)
    view.set_lines([_line(text, 3)])
    # private: the rows and their lazily computed chunks (nothing public says what was computed)
    (row,) = view._rows
    assert row.chunked and not row._chunks  # nothing computed before painting
    width = row.body.lineAt(0).naturalTextWidth()
    first = row.ops_between(0, 50)
    assert len(first) <= 3 and len(row._chunks) == len(first)  # the exposed start only
    chunks = row.ops_between(0, width + 1)
    fills = {f for ops in chunks for f in ops.fills}
    cuts = {c for ops in chunks for c in ops.cuts}
    assert fills == set(row.ops.fills) and cuts == set(row.ops.cuts) and row.ops.fills
