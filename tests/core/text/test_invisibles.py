"""Zero-width characters and whitespace markers: names, positions, and the cover filter."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from core.errors import OffsetError
from core.text.invisibles import whitespace_marks, zero_width_chars, zero_width_name

FAMILY = "\U0001F469\u200d\U0001F469\u200d\U0001F467"


def test_named_zero_width_characters_and_their_positions():
    text = "a\u200bb\u00adc\ufeff" + FAMILY + "\u2764\ufe0f"
    found = [(z.position, z.name) for z in zero_width_chars(text)]
    assert found == [(1, "ZWSP"), (3, "SHY"), (5, "BOM"), (7, "ZWJ"), (9, "ZWJ"), (12, "VS16")]


def test_only_uncovered_characters_with_a_cover():
    text = "a\u200db\u200c"
    assert [z.position for z in zero_width_chars(text, [1, 0, 1, 1])] == [1]
    with pytest.raises(OffsetError):
        zero_width_chars(text, [1, 1])


def test_other_names():
    assert zero_width_name("\U000E0101") == "VS18"
    assert zero_width_name("\u202e") == "U+202E"
    assert zero_width_name("a") is None and zero_width_name(" ") is None


def test_whitespace_marks_in_a_window():
    text = "a b\tc\nd"
    assert [(m.position, m.name) for m in whitespace_marks(text)] == [(1, "·"), (3, "→"), (5, "¶")]
    assert [m.position for m in whitespace_marks(text, 2, 4)] == [3]


def _slow_zero_width(text):
    return [i for i, c in enumerate(text) if zero_width_name(c) is not None]


@given(st.text(alphabet=st.sampled_from("ab \u200d\u200c\u00ad\ufe0f\U0001F469\u0915\u093f\t\n"), max_size=40))
def test_positions_match_a_per_character_scan(text):
    found = zero_width_chars(text)
    assert [z.position for z in found] == _slow_zero_width(text)
    assert all(text[z.position] == z.char for z in found)
    assert all(text[m.position] == m.char and m.char.isspace() for m in whitespace_marks(text))


def test_the_fast_scan_misses_no_zero_width_character_of_any_code_point():
    """The scan's candidate class (in the regex module's Unicode version) holds every code
    point that zero_width_name names (in unicodedata's): one text of all code points."""
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    found = zero_width_chars(every)
    named = [i for i, ch in enumerate(every) if not ch.isascii() and zero_width_name(ch)]
    assert [z.position for z in found] == named
    assert len(named) > 150  # Cf, variation selectors and tags are all there
