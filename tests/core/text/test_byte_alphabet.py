"""GPT-2's byte-level alphabet (:mod:`core.text.byte_alphabet`) and its byte ↔ code-point
maps, as the byte-level tokenizers use them."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from core.text.byte_alphabet import (
    BYTE_TO_CHAR, ByteLevelError, byte_span_to_char_span, byte_to_char_index,
    bytes_to_byte_level, bytes_to_unicode, from_byte_level, readable_bytes, readable_parts,
    readable_shown, to_byte_level,
)
from tests.core.strategies import TRICKY, tricky_text

# Any text, lone surrogates included.
any_text = st.one_of(
    tricky_text, st.text(max_size=30),
    st.lists(st.sampled_from(TRICKY + ["\ud800", "\udfff"]), max_size=8).map("".join))


def test_alphabet_golden_entries():
    table = bytes_to_unicode()
    assert len(set(table.values())) == 256
    assert table[0x20] == "Ġ" and table[0x0A] == "Ċ" and table[0x09] == "ĉ"
    assert table[ord("A")] == "A" and table[0xAD] == "Ń" and table[0xFF] == "ÿ"
    assert table[0x00] == "\u0100" and max(map(ord, table.values())) == 0x143
    assert all(unicodedata.category(c)[0] not in "CZ" for c in BYTE_TO_CHAR)  # all visible


def test_golden_byte_level_forms():
    assert to_byte_level(" Zoé") == "ĠZoÃ©"
    assert to_byte_level(" \U0001F600") == "ĠðŁĺĢ"
    assert to_byte_level("\ud800") == "íłĢ"  # surrogatepass: ED A0 80


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_byte_level_round_trip_is_utf8_surrogatepass(text):
    data = text.encode("utf-8", "surrogatepass")
    s = to_byte_level(text)
    assert len(s) == len(data) and from_byte_level(s) == data
    assert s == "".join(BYTE_TO_CHAR[b] for b in data)
    assert bytes_to_byte_level(data) == s


@pytest.mark.parametrize("bad", ["a b", "\t", "\u00ad", "中"])
def test_from_byte_level_rejects_characters_outside_the_alphabet(bad):
    with pytest.raises(ByteLevelError, match="not in the GPT-2 byte-level alphabet"):
        from_byte_level("Ġ" + bad)


def test_byte_to_char_index_golden():
    assert byte_to_char_index("aé😀") == [0, 1, 1, 2, 2, 2, 2]
    assert byte_to_char_index("ab") == [0, 1]
    idx = byte_to_char_index(" 😀")
    assert byte_span_to_char_span(idx, 0, 4) == (0, 2)  # "ĠðŁĺ" owns the emoji
    assert byte_span_to_char_span(idx, 4, 5) == (1, 2)  # "Ģ" shares it
    assert byte_span_to_char_span(idx, 5, 5) == (2, 2)


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_byte_index_maps_each_byte_to_its_character(text):
    idx = byte_to_char_index(text)
    assert idx == [i for i, c in enumerate(text) for _ in c.encode("utf-8", "surrogatepass")]
    for i, c in enumerate(text):
        first = idx.index(i)
        n = len(c.encode("utf-8", "surrogatepass"))
        assert byte_span_to_char_span(idx, first, first + n) == (i, i + 1)


def test_readable_bytes_decode_whole_characters_and_badge_the_rest():
    assert readable_bytes("न".encode()) == "न"
    assert readable_bytes("न".encode()[:2]) == "⟨E0 A4⟩"
    assert readable_bytes(b" caf\xc3") == " caf⟨C3⟩"
    assert readable_parts("é".encode()[1:] + b"x") == [("A9", True), ("x", False)]


def test_readable_shown_makes_spaces_and_a_leading_mark_visible():
    """The display form (the app's Readable column, the command line's readable table): a
    space is ␣, a token that starts with a combining mark gets ◌ before it; the data form
    (readable_bytes) keeps both as they are."""
    assert readable_shown(" नम".encode()) == "\u2423नम" and readable_bytes(" नम".encode()) == " नम"
    assert readable_shown("ों".encode()) == "◌ों" and readable_bytes("ों".encode()) == "ों"
    assert readable_shown("ों".encode(), dotted_circle=False) == "ों"
    assert readable_shown("\u200d\n".encode()) == "⟨ZWJ⟩↵"
    assert readable_shown("न".encode()[:2] + "ा".encode()) == "⟨E0 A4⟩ा"  # a mark after bytes has a base
    assert readable_shown(b"abcdef", 3) == "abc…"


@given(st.binary(max_size=24))
def test_readable_shown_leaves_nothing_that_draws_nothing(data):
    """Outside its ⟨…⟩ badges the shown form has no space, control, format character or
    separator, and it never starts with a bare combining mark."""
    import re
    shown = readable_shown(data, 1 << 30)
    bare = re.sub("\u27e8[^\u27e9]*\u27e9", "", shown)
    assert not [c for c in bare if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zs", "Zl", "Zp")]
    assert not shown or not unicodedata.category(shown[0]).startswith("M")
