"""``core.text.edits``: the common prefix and suffix of two texts or sequences.

Moved from the alignment pane's tests (the functions moved from the app to core).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.text.edits import common_affixes, common_prefix
from tests.core.strategies import tricky_text


@settings(max_examples=150, deadline=None)
@given(a=tricky_text, b=tricky_text)
def test_common_affixes(a, b):
    p, q = common_affixes(a, b)
    assert a[:p] == b[:p] and a[len(a) - q:] == b[len(b) - q:] and p + q <= min(len(a), len(b))
    assert p == len(a) or p == len(b) or a[p] != b[p]


@settings(max_examples=150, deadline=None)
@given(a=st.lists(st.integers(0, 3), max_size=12), b=st.lists(st.integers(0, 3), max_size=12),
       limit=st.integers(0, 14))
def test_common_prefix(a, b, limit):
    p = common_prefix(a, b)
    assert a[:p] == b[:p] and (p == min(len(a), len(b)) or a[p] != b[p])
    assert common_prefix(a, b, limit) == min(p, limit)
    assert common_prefix("".join(map(str, a)), "".join(map(str, b))) == p


@settings(max_examples=200, deadline=None)
@given(a=st.lists(st.integers(0, 2), max_size=700), data=st.data(), limit=st.one_of(st.none(), st.integers(0, 800)))
def test_common_prefix_of_long_lists_and_tuples(a, data, limit):
    """Lists and tuples longer than a block (compared block by block, then item by item)
    give the first difference, the limit and the end of the shorter as a plain scan does."""
    from unittest import mock

    from core.text import edits

    cut = data.draw(st.integers(0, len(a)))
    b = a[:cut] + data.draw(st.lists(st.integers(0, 2), max_size=300))
    n = min(len(a), len(b), len(a) if limit is None else limit)
    want = next((k for k in range(n) if a[k] != b[k]), n)
    for block in (edits._BLOCK, 3):
        with mock.patch.object(edits, "_BLOCK", block):
            assert common_prefix(a, b, limit) == want
            assert common_prefix(tuple(a), tuple(b), limit) == want
