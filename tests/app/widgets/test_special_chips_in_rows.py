"""Special tokens written in the text are drawn as chips (grey, violet outline) in the rows
built by hand — side by side and the Compare drill-down — with the span views' own style, so
the painter outlines them the same way everywhere (issue 26 §2)."""

from __future__ import annotations

from app.panes.alignment.side_by_side import row_line as side_row
from app.panes.compare.drilldown import drill_rows, row_line as drill_row
from app.widgets.span_segments import compose_style, special_chip
from core.align.side_by_side import side_by_side
from core.tokenizers import load

TEXT = "<|im_start|>user\nhi there<|im_end|>"


def _chips(line) -> list[tuple[int, int]]:
    return [(s, e) for s, e, style in line.segments if style.outline]


def test_side_by_side_and_drill_down_rows_draw_special_tokens_as_chips(data_dir):
    qwen = load(data_dir / "tokenizers" / "qwen3" / "tokenizer.json")
    gpt4o = load(data_dir / "tokenizers" / "gpt-4o" / "tokenizer.json")  # no such specials: plain text
    result = side_by_side(TEXT, [("qwen3", qwen), ("gpt-4o", gpt4o)])
    assert [row.special_spans for row in result.rows] == [((0, 12), (25, 35)), ()]
    lines = [side_row(row, TEXT) for row in result.rows]
    assert _chips(lines[0]) == [(0, 12), (25, 35)] and _chips(lines[1]) == []
    assert special_chip() == compose_style(frozenset({("spec",)})) and special_chip().outline
    assert {style for s, e, style in lines[0].segments if (s, e) == (0, 12)} == {special_chip()}
    rows, differing = drill_rows(TEXT, [("qwen3", qwen), ("gpt-4o", gpt4o)])
    assert rows[0].special[0] and rows[0].special[-1] and not any(rows[1].special)
    assert _chips(drill_row(TEXT, rows[0], 6, differing)) == [(0, 12), (25, 35)]
    assert _chips(drill_row(TEXT, rows[1], 6, differing)) == []
