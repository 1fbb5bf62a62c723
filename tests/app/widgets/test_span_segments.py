"""The span views' Qt-free helpers: edit diffing, the segment sweep, style composition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from app.widgets.span_segments import (
    display_text,
    ERROR_BACKGROUND,
    ERROR_COLOUR,
    LINK_COLOUR,
    MULTI_COLOUR,
    TOKEN_COLOURS,
    boundaries,
    compose_style,
    entity_colour,
    first_difference,
    marks,
    outlines,
    sweep,
    window_intervals,
)
from core.text.edits import common_prefix


@settings(max_examples=150, deadline=None)
@given(a=st.lists(st.integers(0, 3), max_size=12), b=st.lists(st.integers(0, 3), max_size=12))
def test_first_difference_is_the_common_prefix(a, b):
    p = common_prefix(a, b)
    assert a[:p] == b[:p] and (p == min(len(a), len(b)) or a[p] != b[p])
    assert first_difference(np.array(a, int), np.array(b, int)) == p


def test_unknown_tokens_become_framed_intervals():
    intervals = window_intervals(0, 9, [(0, 2), (2, 4), (4, 8)], unknown=[False, True], error=(5, 6))
    assert intervals == [(0, 2, ("tok", 0)), (2, 4, ("tok", 1)), (2, 4, ("unk",)), (4, 8, ("tok", 0)),
                         (5, 6, ("err",))]
    assert outlines(intervals) == [(2, 4, "unk"), (5, 6, "err")]
    assert boundaries(intervals, 1, 8) == [2, 4, 8]


def test_segment_styles_layer_in_order():
    assert compose_style(frozenset({("tok", 1)})).background == TOKEN_COLOURS[1]
    shared = compose_style(frozenset({("tok", 0), ("tok", 1), ("multi",)}))
    assert (shared.background, shared.underline) == (MULTI_COLOUR, "dot")
    linked = compose_style(frozenset({("tok", 0), ("ent", "PER"), ("link",)}))
    assert (linked.background, linked.underline, linked.underline_colour) == (
        LINK_COLOUR, "single", entity_colour("PER"))
    error = compose_style(frozenset({("tok", 0), ("uncov",), ("link",), ("err",)}))
    assert (error.background, error.underline, error.underline_colour) == (ERROR_BACKGROUND, "wave", ERROR_COLOUR)
    assert compose_style(frozenset({("tok", 1), ("unk",)})) == compose_style(frozenset({("tok", 1)}))
    text = "a b\u3000c\u3001\U0001F600"  # U+3000 is a space, U+3001 (ideographic comma) is not
    assert marks(text, np.array([0, 0, 0, 0, 0, 0, 2], np.int16)) == [  # sorted by start
        (0, 1, "uncov"), (2, 3, "uncov"), (4, 6, "uncov"), (6, 7, "multi")]
    assert window_intervals(3, 9, [(0, 2), (2, 4), (4, 8), (9, 12), None], linked=[(5, 6)]) == [
        (2, 4, ("tok", 1)), (4, 8, ("tok", 0)), (5, 6, ("link",))]
    assert sweep([(0, 4, "a"), (2, 6, "b"), (9, 12, "c")], 1, 10) == [
        (1, 2, frozenset("a")), (2, 4, frozenset("ab")), (4, 6, frozenset("b")), (9, 10, frozenset("c"))]


@given(st.text(alphabet="ab \n\r\u0915\u093f", max_size=600), st.integers(8, 60))
def test_display_text_breaks_long_paragraphs_at_spaces_only(text, limit):
    """Same length (positions do not move); only spaces become line breaks (and CR ␍);
    a paragraph longer than ``limit`` keeps no space where a break could have gone."""
    shown = display_text(text, limit)
    assert len(shown) == len(text)
    assert all(a == b or (a, b) in ((" ", "\n"), ("\r", "\u240d")) for a, b in zip(text, shown))
    assert display_text(text) == text.replace("\r", "\u240d")  # short: only CRs change
    for para in shown.split("\n"):
        if len(para) > limit:
            assert " " not in para[limit // 2 : limit]


def test_window_intervals_read_a_span_array_as_a_list():
    import random

    from core.text.columns import SpanArray

    rng = random.Random(7)
    for _ in range(200):
        spans, at = [], 0
        for _ in range(rng.randint(0, 50)):
            if rng.random() < 0.1:
                spans.append(None)
                continue
            a = at + rng.randint(0, 2)
            spans.append((a, a + rng.randint(0, 5)))
            at = a + rng.randint(0, 3)
        spans += [None] * rng.randint(0, 2)
        unknown = [rng.random() < 0.2 for _ in spans]
        lo = rng.randint(0, at + 3)
        hi = lo + rng.randint(0, 20)
        assert (window_intervals(lo, hi, SpanArray.from_pairs(spans), unknown=unknown)
                == window_intervals(lo, hi, spans, unknown=unknown))


def _marks_one_by_one(text, cover):
    """What :func:`marks` gives, written plainly: a character at a time."""
    out = []
    for i, c in enumerate(cover.tolist()):
        kind = "multi" if c > 1 else "uncov" if c == 0 and not (text[i].isspace() or text[i] in "\u200b\ufeff") else None
        if kind and out and out[-1][1] == i and out[-1][2] == kind:
            out[-1] = (out[-1][0], i + 1, kind)
        elif kind:
            out.append((i, i + 1, kind))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ab \t\u3000\u200d\U0001F468"), st.integers(0, 3)), max_size=60))
def test_marks_and_what_a_view_reads_of_them_are_made_at_once(chars):
    """The runs, their ends and the characters counted per kind (the view's legend) are
    made on the worker with the marks, in numpy; each equals a plain count."""
    text = "".join(c for c, _ in chars)
    cover = np.array([k for _, k in chars], np.int64)
    got = marks(text, cover)
    want = _marks_one_by_one(text, cover)
    assert list(got) == want
    assert got.ends == [e for _, e, _ in want]
    assert got.counts == {k: sum(e - s for s, e, kind in want if kind == k) for k in ("multi", "uncov")}
