"""SPEC §3: labels to entities; code point / UTF-16 / UTF-8 offsets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.align import align
from core.entities import (
    Entity,
    LabelError,
    entities,
    from_utf8_offset,
    from_utf16_offset,
    offset_tables,
    utf8_offset,
    utf16_offset,
)
from core.errors import OffsetError
from tests.core.strategies import any_text
from tests.core.test_align import FULL, FULL_TOKENS

LABELS = "B-PER O O B-LOC O O B-ORG O O O".split()


def test_golden_spec_3():
    spans = align(FULL, FULL_TOKENS)
    ents = entities(FULL, FULL_TOKENS, spans, LABELS)
    assert ents == [
        Entity("Zo\u0065\u0301", "PER", 0, 4),
        Entity("\u0130stanbul", "LOC", 14, 22),
        Entity("Nvidia", "ORG", 30, 36),
    ]
    assert [utf16_offset(FULL, e.start) for e in ents] == [0, 14, 31]


def test_piece_labels_are_ignored_and_first_piece_decides():
    spans = align(FULL, FULL_TOKENS)
    labels = list(LABELS)
    labels[7] = "B-LOC"  # a ## piece: ignored
    assert [e.label for e in entities(FULL, FULL_TOKENS, spans, labels)] == ["PER", "LOC", "ORG"]


def test_repair_and_strict():
    text = "new york city"
    tokens = text.split()
    spans = align(text, tokens)
    labels = ["I-LOC", "I-LOC", "B-LOC"]
    assert [(e.text, e.label) for e in entities(text, tokens, spans, labels)] == [
        ("new york", "LOC"), ("city", "LOC")
    ]
    assert [(e.text) for e in entities(text, tokens, spans, labels, repair=False)] == ["city"]
    # I- of another type does not continue
    got = entities(text, tokens, spans, ["B-LOC", "I-ORG", "O"])
    assert [(e.text, e.label) for e in got] == [("new", "LOC"), ("york", "ORG")]


def test_bioes():
    text = "a b c d"
    tokens = text.split()
    got = entities(text, tokens, align(text, tokens), ["S-X", "B-Y", "E-Y", "S-X"])
    assert [(e.text, e.label) for e in got] == [("a", "X"), ("b c", "Y"), ("d", "X")]


@pytest.mark.parametrize("labels", [["B-PER"], ["B-PER", "O", "X"], ["B-", "O", "O"], ["Q-PER", "O", "O"]])
def test_bad_labels(labels):
    text = "a b c"
    tokens = text.split()
    with pytest.raises(LabelError):
        entities(text, tokens, align(text, tokens), labels)


def test_offsets_surrogates_and_errors():
    text = "a\U0001F600b\ud800"
    u16, u8 = offset_tables(text)
    assert u16 == [0, 1, 3, 4, 5]
    assert u8 == [0, 1, 5, 6, 9]
    assert from_utf16_offset(text, 3) == 2
    assert from_utf8_offset(text, 5) == 2
    with pytest.raises(OffsetError, match="inside"):
        from_utf16_offset(text, 2)
    with pytest.raises(OffsetError, match="inside"):
        from_utf8_offset(text, 3)
    with pytest.raises(OffsetError, match="outside"):
        utf16_offset(text, 9)
    with pytest.raises(OffsetError, match="outside"):
        from_utf8_offset(text, 99)


@settings(max_examples=200, deadline=None)
@given(any_text, st.data())
def test_offset_conversions_agree_with_encoders(text, data):
    i = data.draw(st.integers(0, len(text)))
    prefix = text[:i]
    u16 = len(prefix.encode("utf-16-le", "surrogatepass")) // 2
    u8 = len(prefix.encode("utf-8", "surrogatepass"))
    assert utf16_offset(text, i) == u16
    assert utf8_offset(text, i) == u8
    assert from_utf16_offset(text, u16) == i
    assert from_utf8_offset(text, u8) == i
    tables = offset_tables(text)
    assert tables[0][i] == u16 and tables[1][i] == u8
