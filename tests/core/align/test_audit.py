"""SPEC §8: flags where offsets mislead."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.align.audit import audit
from core.text.graphemes import grapheme_bounds
from core.errors import OffsetError
from tests.core.strategies import any_text


def test_bert_leaves_the_combining_accent_uncovered():
    text = "Zoe\u0301 flew"
    a = audit(text, [(0, 3), (5, 9)])
    assert a.uncovered == [3]
    assert a.uncovered_whitespace == [4]
    assert a.tokens[0].cuts_grapheme  # ends between e and its accent
    assert not a.tokens[1].any


def test_byte_level_pieces_share_a_character():
    text = "Zoe\u0301"
    a = audit(text, [(0, 3), (3, 4), (3, 4)], byte_lengths=[3, 1, 1])
    assert a.shared == [3]
    assert [t.shares_chars for t in a.tokens] == [False, True, True]
    assert a.tokens[1].partial_chars == ("byte 1 of \u0301 (U+0301)",)
    assert a.tokens[2].partial_chars == ("byte 2 of \u0301 (U+0301)",)
    assert (a.tokens[2].byte_start, a.tokens[2].byte_end) == (4, 5)
    assert all(t.cuts_grapheme for t in a.tokens)


def test_emoji_split_over_two_tokens():
    text = "hi \U0001F600"
    a = audit(text, [(0, 2), (2, 4), (3, 4)], byte_lengths=[2, 4, 1])
    assert a.tokens[1].partial_chars == ("bytes 1\u20133 of \U0001F600 (U+1F600)",)
    assert a.tokens[2].partial_chars == ("byte 4 of \U0001F600 (U+1F600)",)
    assert a.char_tokens[3] == [1, 2]
    assert not a.tokens[1].cuts_grapheme  # (2,4) covers whole clusters
    assert not a.tokens[2].cuts_grapheme


def test_empty_spans_and_special_tokens():
    a = audit("ab", [(0, 0), (0, 2), (2, 2)], special_tokens_mask=[1, 0, 0])
    assert not a.tokens[0].any
    assert a.tokens[2].empty and a.tokens[2].any


def test_zwj_sequence_is_one_grapheme():
    text = "\U0001F469\u200d\U0001F4BB!"
    assert grapheme_bounds(text) == [0, 3, 4]
    a = audit(text, [(0, 1), (1, 3), (3, 4)])
    assert a.tokens[0].cuts_grapheme and a.tokens[1].cuts_grapheme
    assert not a.tokens[2].cuts_grapheme


@pytest.mark.parametrize(
    "offsets, kwargs",
    [([(0, 9)], {}), ([(2, 1)], {}), ([(0, 1)], {"byte_lengths": [1, 2]}), ([(0, 1)], {"special_tokens_mask": []})],
)
def test_bad_input(offsets, kwargs):
    with pytest.raises(OffsetError):
        audit("abc", offsets, **kwargs)


@settings(max_examples=150, deadline=None)
@given(any_text, st.data())
def test_char_and_token_indexes_are_symmetric(text, data):
    n = len(text)
    bounds = sorted(data.draw(st.lists(st.integers(0, n), max_size=8)))
    offsets = list(zip(bounds[::2], bounds[1::2]))
    a = audit(text, offsets)
    for j, chars in enumerate(a.token_chars):
        for i in chars:
            assert j in a.char_tokens[i]
    for i, toks in enumerate(a.char_tokens):
        for j in toks:
            assert i in a.token_chars[j]
    covered = {i for r in a.token_chars for i in r}
    assert set(a.uncovered) | set(a.uncovered_whitespace) == set(range(n)) - covered


def _reference_flags(text, offsets, lengths):
    """The per-character definition of the flags (slow, obviously right)."""
    starts8 = [0]
    for ch in text:
        starts8.append(starts8[-1] + len(ch.encode("utf-8", "surrogatepass")))
    cover = [0] * len(text)
    for s, e in offsets:
        for i in range(s, e):
            cover[i] += 1
    bounds = set(grapheme_bounds(text))
    prev_end, out = 0, []
    for (s, e), n in zip(offsets, lengths):
        lo, hi = starts8[s], starts8[e]
        b0 = prev_end if lo < prev_end < hi else lo
        b1 = min(b0 + n, hi) if n else b0
        if b1 > b0:
            prev_end = b1
        out.append((s < e and (s not in bounds or e not in bounds), s == e,
                    any(cover[i] > 1 for i in range(s, e)), b0, b1))
    return out


@settings(max_examples=150, deadline=None)
@given(any_text, st.data())
def test_vectorized_flags_match_the_per_character_definition(text, data):
    n = len(text)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=10)))
    offsets = []
    for a, b in zip(cuts, cuts[1:] + [n]):  # overlapping and repeated spans on purpose
        offsets += [(a, b)] * data.draw(st.integers(1, 3))
    lengths = data.draw(st.lists(st.integers(0, 5), min_size=len(offsets), max_size=len(offsets)))
    a = audit(text, offsets, byte_lengths=lengths)
    got = [(f.cuts_grapheme, f.empty, f.shares_chars, f.byte_start, f.byte_end) for f in a.tokens]
    assert got == _reference_flags(text, offsets, lengths)


def test_precomputed_graphemes_and_arrays_agree():
    text = "a\U0001F469\u200d\U0001F4BB e\u0301"
    offsets = [(0, 2), (2, 4), (4, 6)]
    a = audit(text, offsets)
    b = audit(text, offsets, graphemes=grapheme_bounds(text))
    assert a.cuts_grapheme.tolist() == b.cuts_grapheme.tolist() == [True, True, True]
    assert a.cover.tolist() == [1, 1, 1, 1, 1, 1, 0]
    assert a.uncovered == [6]


def test_misleading_tokens_carry_both_spans():
    a = audit("mug", [(0, 2)], derived_offsets=[(1, 3)])  # huggingface/tokenizers#517
    flags = a.tokens[0]
    assert flags.misleading and flags.any and flags.derived_span == (1, 3)
    assert a.misleading_count == 1
    same = audit("ab", [(0, 0), (0, 2)], special_tokens_mask=[1, 0], derived_offsets=[(0, 0), (0, 2)])
    assert same.misleading_count == 0 and not same.tokens[1].misleading
    assert same.tokens[1].derived_span == (0, 2)
    assert audit("ab", [(0, 2)]).tokens[0].derived_span is None


@pytest.mark.parametrize("derived", [[(0, 3)], [(2, 1)], [(0, 1), (1, 2)]])
def test_bad_derived_spans_are_refused(derived):
    with pytest.raises(OffsetError):
        audit("ab", [(0, 2)], derived_offsets=derived)


def _notes_one_by_one(a, j):
    """The partial-character notes of token ``j``, character by character (the plain rule)."""
    from core.text.offsets import byte_part_label

    if a.byte_starts is None:
        return ()
    b0, b1, notes = int(a.byte_starts[j]), int(a.byte_ends[j]), []
    for i in range(int(a.starts[j]), int(a.ends[j])):
        c0, c1 = int(a.utf8[i]), int(a.utf8[i + 1])
        lo, hi = max(b0, c0), min(b1, c1)
        if hi > lo and (lo > c0 or hi < c1):
            notes.append(byte_part_label(a.text[i], lo - c0 + 1, hi - c0))
    return tuple(notes)


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=30),
       st.data())
def test_partial_notes_in_bulk_equal_the_plain_rule(text, data):
    """Byte-level tokens cut anywhere in the UTF-8 bytes (several pieces of one character,
    one piece over several characters): the bulk notes equal the per-character rule."""
    size = len(text.encode("utf-8"))
    cuts = sorted(set(data.draw(st.lists(st.integers(1, size - 1), max_size=size)))) if size > 1 else []
    bounds = [0, *cuts, size]
    starts8 = [0]
    for c in text:
        starts8.append(starts8[-1] + len(c.encode("utf-8")))
    spans = []
    for b0, b1 in zip(bounds, bounds[1:]):  # the characters a byte range touches
        s = max(i for i in range(len(text)) if starts8[i] <= b0)
        e = min(i for i in range(1, len(text) + 1) if starts8[i] >= b1)
        spans.append((s, e))
    a = audit(text, spans, byte_lengths=[b1 - b0 for b0, b1 in zip(bounds, bounds[1:])])
    everyone = list(range(len(spans)))
    expected = [_notes_one_by_one(a, j) for j in everyone]
    assert a.partial_notes(everyone) == expected
    assert [a.token_flags(j).partial_chars for j in everyone] == [
        e if a.partial[j] and not a.special[j] else () for j, e in enumerate(expected)]
