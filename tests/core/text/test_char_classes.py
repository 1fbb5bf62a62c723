"""Code-point classes by table equal the regex classes they stand for, and the word and
script counts built on them equal their findall forms."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics.text_stats import count_words, word_spans
from core.text.char_classes import CharClasses
from core.text.scripts import _LETTER_RE, _NO_SPACE_LETTER_RE, writes_without_spaces
from tests.core.strategies import any_text

_WORD_RE = regex.compile(r"[^\s\u1361]+")
# letters and separators of many scripts, above U+FFFF too (Han extension B, Adlam, Tangut)
_PIECES = ["\u4eba", "\u0e2a\u0e34", "\u0915", "a", " ", "\u3000", "\u1361", "\x1c", "\u2028",
           "\U00020000", "\U0001E900", "\U00017000", "\U0001F600", "\u0301", "\ud800"]
rich_text = st.lists(st.one_of(st.sampled_from(_PIECES), any_text), max_size=20).map("".join)


def _reference_writes_without_spaces(text: str) -> bool:
    letters = len(_LETTER_RE.findall(text))
    return bool(letters) and len(_NO_SPACE_LETTER_RE.findall(text)) * 2 > letters


@settings(max_examples=300, deadline=None)
@given(rich_text)
def test_flags_equal_each_class_matched_per_code_point(text):
    classes = [r"\p{L}", r"[\s\u1361]", r"\p{Script=Han}"]
    flags = CharClasses(*classes).flags(text)
    compiled = [regex.compile(c) for c in classes]
    assert flags.tolist() == [sum(1 << k for k, c in enumerate(compiled) if c.fullmatch(ch))
                              for ch in text]


@settings(max_examples=300, deadline=None)
@given(rich_text)
def test_word_and_script_counts_equal_their_findall_forms(text):
    no_space = _reference_writes_without_spaces(text)
    assert writes_without_spaces(text) == no_space
    assert word_spans(text).tolist() == [list(m.span()) for m in _WORD_RE.finditer(text)]
    if not no_space:
        assert count_words(text) == (len(_WORD_RE.findall(text)), False)


def test_a_letter_table_covers_the_whole_bmp():
    """Every BMP code point is classed as the regex classes it (a table off by one row
    would fail here)."""
    every = "".join(map(chr, range(0x10000)))
    flags = CharClasses(r"\p{L}").flags(every)
    assert flags.sum() == len(_LETTER_RE.findall(every))
    assert flags[0x4E00] == 1 and flags[0x20] == 0


def test_at_most_eight_classes():
    with pytest.raises(ValueError):
        CharClasses(*[r"\p{L}"] * 9)
    with pytest.raises(ValueError):
        CharClasses()


def test_capped_lookup_reads_the_last_entry_past_the_table():
    import numpy as np

    from core.text.char_classes import capped_lookup

    table = np.array([0, 1, 2, 9], np.int64)
    assert capped_lookup(table, "\x00\x02\x03\x04\U0001F600\ud800").tolist() == [0, 2, 9, 9, 9, 9]
    assert capped_lookup(table, "").tolist() == []
