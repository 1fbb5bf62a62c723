"""Span diff of two tokenizations: hand cases and properties (self-diff empty, symmetric)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import OffsetError
from core.metrics import boundaries, differing_boundaries, span_diff


def test_hand_case():
    a = [(0, 3), (4, 8)]  # "zoe", "flew"   on "Zoé flew"
    b = [(0, 2), (2, 3), (3, 8)]  # "Zo", "é", " flew"
    d = span_diff(a, b)
    assert d.only_a == (4,) and d.only_b == (2,) and d.shared == (0, 3, 8)
    assert d.spans_only_a == ((0, 3), (4, 8))
    assert d.spans_only_b == ((0, 2), (2, 3), (3, 8))
    assert differing_boundaries([a, b, a]) == {2, 4}


def test_special_and_empty_spans_are_ignored():
    e = SimpleNamespace(tokens=["[CLS]", "hi", "[SEP]"], offsets=[(0, 0), (0, 2), (0, 0)], special_tokens_mask=[1, 0, 1])
    assert boundaries(e) == {0, 2}
    assert span_diff(e, [(0, 2)]).empty


def test_bad_span_raises():
    with pytest.raises(OffsetError):
        boundaries([(3, 1)])


@st.composite
def tokenizations(draw):
    n = draw(st.integers(0, 40))
    cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=10)) + [0, n]))
    return [(s, e) for s, e in zip(cuts[:-1], cuts[1:]) if s < e]


@settings(max_examples=200, deadline=None)
@given(tokenizations())
def test_diff_with_itself_is_empty(a):
    d = span_diff(a, a)
    assert d.empty and set(d.shared) == boundaries(a)


@settings(max_examples=200, deadline=None)
@given(tokenizations(), tokenizations())
def test_diff_is_symmetric_and_partitions_the_boundaries(a, b):
    ab, ba = span_diff(a, b), span_diff(b, a)
    assert ab.only_a == ba.only_b and ab.only_b == ba.only_a and ab.shared == ba.shared
    assert ab.spans_only_a == ba.spans_only_b
    assert set(ab.only_a) | set(ab.shared) == boundaries(a)
    assert not set(ab.only_a) & set(ab.only_b)
    assert differing_boundaries([a, b]) == set(ab.only_a) | set(ab.only_b)
