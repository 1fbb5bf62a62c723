"""SPEC §3: labels to entities; code point / UTF-16 / UTF-8 offsets."""

from __future__ import annotations

import numpy as np
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
    offset_arrays,
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


def test_offset_arrays_surrogates_and_ascii():
    u16, u8 = offset_arrays("a\U0001F600b\ud800\u00e9\u4e2d")
    assert (u16.dtype, u8.dtype) == (np.int64, np.int64)
    assert u16.tolist() == [0, 1, 3, 4, 5, 6, 7]
    assert u8.tolist() == [0, 1, 5, 6, 9, 11, 14]
    assert [a.tolist() for a in offset_arrays("ab")] == [[0, 1, 2], [0, 1, 2]]
    assert [a.tolist() for a in offset_arrays("")] == [[0], [0]]


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_offset_arrays_equal_offset_tables(text):
    u16, u8 = offset_arrays(text)
    assert (u16.tolist(), u8.tolist()) == offset_tables(text)
    assert u8[-1] == len(text.encode("utf-8", "surrogatepass"))


# --- bad input to entities() (tester findings) ------------------------------------------------


@pytest.mark.parametrize(
    "spans, match",
    [
        ([None, (2, 3), (4, 5)], r"span 0 .*pair"),
        ([(0, 1), (-5, 3), (4, 5)], r"span 1 \(-5, 3\).*0 <= start <= end <= 5"),
        ([(0, 1), (2, 3), (4, 9)], r"span 2 \(4, 9\).*<= 5"),
        ([(0, 1), (3, 2), (4, 5)], r"span 1 \(3, 2\)"),
        ([(0, 1), (2.5, 3), (4, 5)], r"span 1 .*whole numbers"),
        ([(0, 1), (2, 3), (4,)], r"span 2 .*pair"),
    ],
)
def test_entities_rejects_bad_spans_naming_the_index(spans, match):
    with pytest.raises(OffsetError, match=match):
        entities("a b c", ["a", "b", "c"], spans, ["B-X", "O", "O"])


@pytest.mark.parametrize(
    "tokens, labels, match",
    [
        (["a", "b", "c"], [None, "O", "O"], r"label 0 must be a string"),
        (["a", "b", "c"], ["O", "O", 3], r"label 2 must be a string"),
        (["a", None, "c"], ["O", "O", "O"], r"token 1 must be a string"),
        (["a", "b", "c"], "OOO", r"not a single string"),
    ],
)
def test_entities_rejects_non_string_labels_and_tokens(tokens, labels, match):
    with pytest.raises(LabelError, match=match):
        entities("a b c", tokens, [(0, 1), (2, 3), (4, 5)], labels)


def test_entities_checks_ignored_tokens_too_and_accepts_numpy_spans():
    with pytest.raises(LabelError, match="label 1"):  # a ## piece's label is ignored but must be a str
        entities("ab", ["a", "##b"], [(0, 1), (1, 2)], ["B-X", None])
    spans = np.array([[0, 1], [2, 3], [4, 5]])
    got = entities("a b c", ["a", "b", "c"], spans, ["B-X", "I-X", "O"])
    assert [(e.text, e.start, e.end) for e in got] == [("a b", 0, 3)]
