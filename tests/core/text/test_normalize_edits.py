"""The edit primitives core.tokenizers adds to NormalizedText (transform, map_chars_cached,
compose, slice, concat), against slow obviously-correct versions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import OffsetError
from core.text.normalize import NormalizedText, normalize
from tests.core.strategies import any_text


def test_transform_replace_insert_remove():
    nt = NormalizedText.identity("abcd")
    # 'a' -> 'A', insert 'x' after it, 'b' replaced by 'B' and 'c' removed, 'd' kept
    out = nt.transform([("A", 0), ("x", 1), ("B", -1), ("d", 0)])
    assert out.text == "AxBd"
    assert out.spans == [(0, 1), (0, 1), (1, 2), (3, 4)]


def test_transform_initial_offset_and_insert_at_start():
    nt = NormalizedText.identity("abc")
    assert nt.transform([("b", 0), ("c", 0)], initial_offset=1).spans == [(1, 2), (2, 3)]
    assert nt.transform([("_", 1), ("a", 0)]).spans == [(0, 0), (0, 1)]
    with pytest.raises(OffsetError):
        nt.transform([("a", 0)] * 4)


def test_map_chars_cached_expands_and_drops():
    nt = NormalizedText.identity("a\u4e2db\x00c")
    out = nt.map_chars_cached(lambda c: {"\u4e2d": " \u4e2d ", "\x00": ""}.get(c, c.upper()), {})
    assert out.text == "A \u4e2d BC"
    assert out.spans == [(0, 1), (1, 2), (1, 2), (1, 2), (2, 3), (4, 5)]


@settings(max_examples=100, deadline=None)
@given(text=any_text)
def test_map_chars_cached_equals_map_chars(text):
    def fn(c):
        return "" if c.isspace() else c.lower() if c.isupper() else c * (ord(c) % 3)
    nt = NormalizedText.identity(text)
    fast, slow = nt.map_chars_cached(fn, {}), nt.map_chars(fn)
    assert (fast.text, fast.starts, fast.ends) == (slow.text, slow.starts, slow.ends)


@settings(max_examples=100, deadline=None)
@given(text=any_text)
def test_compose_with_identity_is_neutral(text):
    outer = normalize(text)
    inner = NormalizedText.identity(outer.text)
    composed = outer.compose(inner)
    assert (composed.text, composed.spans) == (outer.text, outer.spans)


def test_compose_chains_two_maps():
    outer = NormalizedText.identity("\ufb01x").map_chars(lambda c: "fi" if c == "\ufb01" else c)
    inner = NormalizedText.identity(outer.text).map_chars(lambda c: "" if c == "i" else c)
    assert outer.compose(inner).spans == [(0, 1), (1, 2)]
    with pytest.raises(OffsetError):
        outer.compose(NormalizedText.identity("other"))


@settings(max_examples=100, deadline=None)
@given(text=any_text, cut=st.integers(0, 50))
def test_concat_of_slices_is_the_whole(text, cut):
    cut = min(cut, len(text))
    parts = [(0, NormalizedText.identity(text[:cut])), (cut, NormalizedText.identity(text[cut:]))]
    whole = NormalizedText.concat(text, parts)
    assert (whole.text, whole.spans) == (text, NormalizedText.identity(text).spans)
    nt = normalize(text)
    k = min(cut, len(nt.text))
    head, tail = nt.slice(0, k), nt.slice(k, len(nt.text))
    assert head.text + tail.text == nt.text and head.spans + tail.spans == nt.spans


@settings(max_examples=100, deadline=None)
@given(text=any_text, cuts=st.lists(st.integers(0, 60), max_size=6), rewrite=st.booleans())
def test_concat_of_one_to_one_pieces_equals_the_general_join(text, cuts, rewrite):
    """Identity pieces (and one-to-one rewrites of them) laid end to end join to the
    identity map directly; the result equals what the general join gives (pieces that are
    not marked one-to-one: the same maps built from plain columns)."""
    bounds = sorted({0, len(text), *(min(c, len(text)) for c in cuts)})
    pieces = []
    for a, b in zip(bounds, bounds[1:]):
        nt = NormalizedText.identity(text[a:b])
        pieces.append((a, nt.same_map(nt.text.replace(" ", "\u2581")) if rewrite else nt))
    plain = [(a, NormalizedText(nt.original, nt.text, list(nt.starts), list(nt.ends)))
             for a, nt in pieces]
    fast, general = NormalizedText.concat(text, pieces), NormalizedText.concat(text, plain)
    assert (fast.text, fast.spans) == (general.text, general.spans)
    assert fast.original == general.original == text
    if len(pieces) > 1:  # not end to end (a piece left out): the general join
        gap = NormalizedText.concat(text, pieces[1:])
        assert gap.spans == NormalizedText.concat(text, plain[1:]).spans


def test_slice_bounds():
    with pytest.raises(OffsetError):
        NormalizedText.identity("ab").slice(1, 3)
