"""The offset map of a normalization (``core.text.offset_map``): rows per origin and the
named cause of each change; and the UTF-16 table of ``core.text.offsets`` against the scalar one.

Moved from the alignment pane's tests (the functions moved from the app to core).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from core.text.normalize import normalize
from core.text.offset_map import change_cause, offset_rows
from core.text.offsets import offset_tables, utf16_table
from tests.core.strategies import any_text


def test_offset_rows_group_by_origin():
    rows = offset_rows(normalize("Ze\u0301 \ufb01x"), 0, 6)
    assert [(r.start, r.end, r.normalized) for r in rows] == [
        (0, 1, "z"), (1, 3, "e"), (3, 4, " "), (4, 5, "fi"), (5, 6, "x")]
    assert [r.kind for r in rows] == ["case", "accent removed", "unchanged",
                                      "compatibility (NFKC/NFKD)", "unchanged"]
    assert rows[1].shape == "many → one" and rows[3].shape == "one → many"
    assert offset_rows(normalize("a  b"), 0, 4)[2].normalized == ""  # the collapsed space


def test_offset_rows_name_the_cause_for_newline_and_precomposed_accent():
    rows = offset_rows(normalize("\u00e9\na\tb", form="NFKD"), 0, 5)
    assert [(r.original, r.kind) for r in rows] == [
        ("\u00e9", "accent removed"), ("\n", "whitespace mapped to a space"), ("a", "unchanged"),
        ("\t", "whitespace mapped to a space"), ("b", "unchanged")]


@pytest.mark.parametrize("original, normalized, cause", [
    ("\u00e9", "e", "accent removed"),
    ("e\u0301", "e", "accent removed"),
    ("\u00c9", "e", "accent removed + case"),
    ("E", "e", "case"),
    ("\ufb01", "fi", "compatibility (NFKC/NFKD)"),
    ("\uff21", "a", "case + compatibility (NFKC/NFKD)"),
    ("\n", " ", "whitespace mapped to a space"),
    ("\t", " ", "whitespace mapped to a space"),
    ("  ", " ", "whitespace collapsed"),
    ("\u200b", "", "control character dropped"),
    ("e\u0301", "\u00e9", "composed / decomposed (NFC/NFD)"),
    ("x", "x", "unchanged"),
])
def test_offset_map_labels_the_cause(original, normalized, cause):
    assert change_cause(original, normalized) == cause


@settings(max_examples=150, deadline=None)
@given(text=any_text)
def test_utf16_table_equals_core(text):
    assert list(utf16_table(text)) == offset_tables(text)[0]
