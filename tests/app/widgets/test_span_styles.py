"""Special tokens and colour by id in the span views: what is drawn, on light and dark themes."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

from app.widgets.span_line_view import SpanLine, SpanLineView
from app.widgets.span_segments import (
    ENTITY_COLOURS, ERROR_BACKGROUND, ID_COLOURS, ID_COLOURS_DARK, LINK_COLOUR, MULTI_COLOUR, SPECIAL_FILL,
    SPECIAL_FILL_DARK, SPECIAL_OUTLINE, TOKEN_COLOURS, UNCOVERED_COLOUR, SegmentStyle, id_colour_index)
from app.widgets.span_text_view import SpanTextView
from tests.app.widgets.shown import shown

TEXT = "<|begin_of_text|>the cat the dog"
SPANS = [(0, 17), (17, 20), (20, 24), (24, 28), (28, 32)]
IDS = [128000, 1820, 8415, 279, 5679]  # " the" (279) and "the" (1820) differ; repeats below


def _contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours."""
    def lum(c: str) -> float:
        rgb = [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _view(qtbot, text=TEXT, spans=SPANS):
    view = shown(qtbot, SpanTextView(), 500, 200)
    view.set_content(text, spans)
    return view


def _backgrounds(view):
    """The background drawn over each token's span (first segment inside it)."""
    styles = view.drawn_styles()
    return [next(st.background for s, e, st in styles if a <= s < b) for a, b in view.drawn_spans()]


def test_id_palette_keeps_contrast_on_light_and_dark_themes_and_is_its_own():
    assert len(set(ID_COLOURS)) == len(ID_COLOURS) == len(ID_COLOURS_DARK) == len(set(ID_COLOURS_DARK)) >= 12
    assert min(_contrast(c, "#000000") for c in ID_COLOURS) >= 9  # black text on a light theme
    assert min(_contrast(c, "#e5e7eb") for c in ID_COLOURS_DARK) >= 7  # light text on a dark theme
    others = {SPECIAL_FILL, SPECIAL_FILL_DARK, LINK_COLOUR, MULTI_COLOUR, UNCOVERED_COLOUR, ERROR_BACKGROUND,
              *TOKEN_COLOURS, *ENTITY_COLOURS}
    assert not others & set(ID_COLOURS) and not others & set(ID_COLOURS_DARK)
    assert len({id_colour_index(i) for i in range(128000, 128024)}) == len(ID_COLOURS)  # neighbours spread


def test_special_tokens_are_drawn_as_outlined_chips(qtbot):
    view = _view(qtbot)
    view.set_special([2, 0, 0, 0, 0])
    view.redraw_now()
    chips = [(s, e) for s, e, st in view.drawn_styles() if st.outline]
    assert chips == [(0, 17)]
    assert {st for s, e, st in view.drawn_styles() if s < 17} == {SegmentStyle(SPECIAL_FILL, outline=SPECIAL_OUTLINE)}
    assert [len(ops.outlines) for ops in view.visible_ops()] == [1]  # painted, as one chip
    view.set_content(TEXT, SPANS)  # new content: no token is special any more
    view.redraw_now()
    assert not any(st.outline for *_, st in view.drawn_styles())


def test_repeated_tokens_share_their_colour_and_the_toggle_goes_back_to_alternating(qtbot):
    text = "the cat the cat the"
    spans = [(0, 3), (3, 7), (7, 11), (11, 15), (15, 19)]
    view = _view(qtbot, text, spans)
    view.set_colour_ids([1820, 8415, 279, 8415, 279])
    view.redraw_now()
    drawn = _backgrounds(view)
    assert drawn[1] == drawn[3] == ID_COLOURS[id_colour_index(8415)]
    assert drawn[2] == drawn[4] == ID_COLOURS[id_colour_index(279)] != drawn[0]  # "the" is not " the"
    view.set_colour_ids(None)
    view.redraw_now()
    assert _backgrounds(view) == [TOKEN_COLOURS[i % 2] for i in range(5)]


def test_a_dark_theme_gets_the_dark_colours(qtbot):
    view = _view(qtbot)
    palette = view.palette()
    palette.setColor(QPalette.ColorRole.Base, QColor("#111827"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#e5e7eb"))
    view.setPalette(palette)
    view.set_colour_ids(IDS)
    view.set_special([1, 0, 0, 0, 0])
    view.redraw_now()
    assert view.dark()
    drawn = _backgrounds(view)
    assert drawn[0] == SPECIAL_FILL_DARK
    assert drawn[1:] == [ID_COLOURS_DARK[id_colour_index(i)] for i in IDS[1:]]


def test_a_span_line_paints_a_special_tokens_outline(qtbot):
    view = shown(qtbot, SpanLineView(), 500, 100)
    chip = SegmentStyle(SPECIAL_FILL, outline=SPECIAL_OUTLINE)
    view.set_lines([SpanLine(TEXT, head="llama", segments=((0, 17, chip), (17, 20, SegmentStyle(ID_COLOURS[0]))))])
    (ops,) = view.row_ops()
    assert [c for *_, c in ops.outlines] == [SPECIAL_OUTLINE] and ops.outlines[0][1] > ops.outlines[0][0]
    assert [c for *_, c in ops.fills] == [SPECIAL_FILL, ID_COLOURS[0]]
