"""The span views' Qt-free helpers: edit diffing, the segment sweep, format composition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from app.widgets.span_segments import (
    ERROR_COLOUR,
    LINK_COLOUR,
    MULTI_COLOUR,
    TOKEN_COLOURS,
    UNKNOWN,
    carry_block_keys,
    compose_style,
    entity_colour,
    first_difference,
    marks,
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


def test_block_keys_follow_an_edit():
    keys = {0: ("a",), 1: ("b",), 2: ("c",), 5: ("f",)}
    assert carry_block_keys(keys, 1, 1, 0) is keys  # an edit inside one block keeps every format
    assert carry_block_keys(keys, 1, 2, 2) == {0: ("a",), 1: UNKNOWN, 2: UNKNOWN, 3: UNKNOWN, 4: UNKNOWN,
                                               7: ("f",)}  # two paragraphs added
    assert carry_block_keys(keys, 1, 2, -1) == {0: ("a",), 1: UNKNOWN, 4: ("f",)}  # two merged into one


def test_segment_styles_layer_in_order():
    assert compose_style(frozenset({("tok", 1)})).background == TOKEN_COLOURS[1]
    shared = compose_style(frozenset({("tok", 0), ("tok", 1), ("multi",)}))
    assert (shared.background, shared.underline) == (MULTI_COLOUR, "dot")
    linked = compose_style(frozenset({("tok", 0), ("ent", "PER"), ("link",)}))
    assert (linked.background, linked.foreground, linked.bold) == (LINK_COLOUR, entity_colour("PER"), True)
    error = compose_style(frozenset({("tok", 0), ("uncov",), ("link",), ("err",)}))
    assert (error.background, error.foreground, error.underline) == (ERROR_COLOUR, "#ffffff", "wave")
    text = "a b\u3000c\u3001\U0001F600"  # U+3000 is a space, U+3001 (ideographic comma) is not
    assert marks(text, np.array([0, 0, 0, 0, 0, 0, 2], np.int16)) == [
        (6, 7, "multi"), (0, 1, "uncov"), (2, 3, "uncov"), (4, 6, "uncov")]
    assert window_intervals(3, 9, [(0, 2), (2, 4), (4, 8), (9, 12), None], linked=[(5, 6)]) == [
        (2, 4, ("tok", 1)), (4, 8, ("tok", 0)), (5, 6, ("link",))]
    assert sweep([(0, 4, "a"), (2, 6, "b"), (9, 12, "c")], 1, 10) == [
        (1, 2, frozenset("a")), (2, 4, frozenset("ab")), (4, 6, frozenset("b")), (9, 10, frozenset("c"))]
