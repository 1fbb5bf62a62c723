"""``core.text.graphemes.GraphemeBounds``: bounds reused across edits equal a fresh segmentation.

Moved from the alignment pane's tests (the class moved from the app to core).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.text.graphemes import GraphemeBounds, grapheme_bounds
from tests.core.strategies import tricky_text


_EDIT_PIECES = st.one_of(tricky_text, st.sampled_from(["\U0001F1EB\U0001F1F7", "\U0001F1EB", "\u1100\u1161\u11a8",
                                                       "\r", "\n", "\u200d", "\U0001F469"]))


@settings(max_examples=150, deadline=None)
@given(a=st.lists(_EDIT_PIECES, max_size=6).map("".join), data=st.data())
def test_grapheme_bounds_reused_across_edits_equal_a_fresh_run(a, data):
    cut = data.draw(st.tuples(st.integers(0, len(a)), st.integers(0, len(a))).map(sorted))
    b = a[: cut[0]] + data.draw(st.lists(_EDIT_PIECES, max_size=3).map("".join)) + a[cut[1]:]
    cache = GraphemeBounds()
    assert cache.bounds(a).tolist() == grapheme_bounds(a)
    assert cache.bounds(b).tolist() == grapheme_bounds(b)
    assert cache.starts(a).nonzero()[0].tolist() == grapheme_bounds(a)


def test_regional_indicator_pairs_stay_paired_after_an_edit():
    flags = "\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA"  # FR DE
    cache = GraphemeBounds()
    cache.bounds("x" + flags)
    assert cache.bounds(flags).tolist() == [0, 2, 4] == grapheme_bounds(flags)  # one RI fewer before
    assert cache.bounds("\U0001F1EB" + flags).tolist() == [0, 2, 4, 5] == grapheme_bounds("\U0001F1EB" + flags)
