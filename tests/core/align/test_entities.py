"""SPEC §3: labels to entities (the offset converters are tested in tests/core/text)."""

from __future__ import annotations

import numpy as np
import pytest

from core.align import align
from core.entities import Entity, LabelError, entities, utf16_offset
from core.errors import OffsetError
from tests.core.align.test_cursor import FULL, FULL_TOKENS

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
