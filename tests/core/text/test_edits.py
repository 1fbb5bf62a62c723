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
