"""core.metrics on small texts whose figures are computed by hand."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import OffsetError, SubwordScopeError
from core.metrics import (
    EncodingMetrics,
    count_words,
    coverage,
    cutting_tokens,
    encoding_metrics,
    fertility,
    grapheme_interior,
    premium,
)
from tests.core.strategies import tricky_text


def enc(tokens, offsets, **extra):
    return SimpleNamespace(tokens=list(tokens), offsets=list(offsets), **extra)


ZOE = "Zoe\u0301 flew"  # 9 code points, 10 UTF-8 bytes; "e\u0301" is one grapheme (2..4)


def test_bert_style_accent_cut_counts_by_hand():
    m = encoding_metrics(enc(["zoe", "flew"], [(0, 3), (5, 9)]), ZOE, unk_token="[UNK]")
    assert (m.tokens, m.words, m.characters, m.utf8_bytes) == (2, 2, 9, 10)
    assert m.fertility == 1.0
    assert m.tokens_per_character == pytest.approx(2 / 9)
    assert m.bytes_per_token == 5.0
    # "zoe" ends at 3, strictly inside the cluster "e\u0301": its 3 code points count
    assert m.cut_characters == 3 and m.grapheme_cut_share == pytest.approx(3 / 9)
    assert m.unknown == 0 and m.byte_fallback == 0 and m.shared_characters == 0


def test_byte_level_pieces_share_a_character_but_do_not_cut_a_grapheme():
    text = "Zo\u00e9"  # precomposed: one code point, two UTF-8 bytes
    m = encoding_metrics(enc(["Z", "o", "\u00c3", "\u00a9"], [(0, 1), (1, 2), (2, 3), (2, 3)]), text)
    assert m.cut_characters == 0
    assert m.shared_characters == 1 and m.split_character_share == pytest.approx(1 / 3)
    assert m.bytes_per_token == 1.0


def test_lone_metaspace_marker_does_not_count_as_sharing():
    text = "a \U0001F600"
    m = encoding_metrics(enc(["\u2581a", "\u2581", "\U0001F600"], [(0, 1), (2, 3), (2, 3)]), text)
    assert m.shared_characters == 0


def test_unknown_and_byte_fallback_rates():
    text = "x \u3042"
    tokens = ["\u2581x", "\u2581", "<0xE3>", "<0x81>", "<0x82>", "[UNK]"]
    offsets = [(0, 1), (2, 3), (2, 3), (2, 3), (2, 3), (2, 3)]
    m = encoding_metrics(enc(tokens, offsets), text, unk_token="[UNK]")
    assert m.byte_fallback == 3 and m.byte_fallback_rate == 0.5
    assert m.unknown == 1 and m.unknown_rate == pytest.approx(1 / 6)


def test_unknown_by_id_when_the_token_string_is_the_original_text():
    m = encoding_metrics(enc(["\u2581", "\u1230\u12cd"], [(0, 1), (0, 2)], ids=[110, 105]),
                         "\u1230\u12cd", unk_token="<unk>", unk_id=105)
    assert m.unknown == 1


def test_special_tokens_are_excluded():
    e = enc(["[CLS]", "hi", "[SEP]"], [(0, 0), (0, 2), (0, 0)], special_tokens_mask=[1, 0, 1])
    assert encoding_metrics(e, "hi").tokens == 1
    assert fertility(e, "hi") == 1.0


def test_words_for_scripts_without_spaces_are_characters():
    assert count_words("the cat sat") == (3, False)
    assert count_words("\u4eba\u6743 \u5ba3\u8a00\u3002") == (5, True)  # 5 non-space clusters
    assert count_words("\u0e2a\u0e34\u0e17\u0e18\u0e34") == (3, True)  # Thai: สิ ท ธิ
    assert count_words("\u12e8\u1230\u12cd\u1361\u120d\u1305") == (2, False)  # Ethiopic wordspace


def test_fertility_of_tokens_and_errors():
    assert fertility(["un", "##believ", "##able", "cat"], "unbelievable cat") == 2.0
    with pytest.raises(SubwordScopeError):
        fertility(["a"], "   ")


def test_premium_and_undefined_ratios():
    assert premium(3000, 1500) == 2.0
    assert math.isnan(premium(3, 0))
    empty = encoding_metrics(enc([], []), "")
    assert math.isnan(empty.fertility) and math.isnan(empty.bytes_per_token)


def test_metrics_add_up_over_texts():
    a = encoding_metrics(enc(["zoe", "flew"], [(0, 3), (5, 9)]), ZOE)
    b = encoding_metrics(enc(["\u4eba"], [(0, 1)]), "\u4eba")
    s = a + b
    assert (s.tokens, s.words, s.characters, s.cut_characters) == (3, 3, 10, 3)
    assert s.words_are_characters


def test_bad_offsets_raise():
    with pytest.raises(OffsetError):
        encoding_metrics(enc(["a"], [(0, 5)]), "ab")
    with pytest.raises(OffsetError):
        encoding_metrics(enc(["a", "b"], [(0, 1)]), "ab")


def slow_cut_share(text, offsets):
    import regex

    inner = {p for m in regex.finditer(r"\X", text) for p in range(m.start() + 1, m.end())}
    covered = {i for s, e in offsets if s in inner or e in inner for i in range(s, e)}
    return len(covered)


@settings(max_examples=100, deadline=None)
@given(tricky_text, st.data())
def test_cut_characters_match_a_slow_reference(text, data):
    n = len(text)
    cuts = sorted(set(data.draw(st.lists(st.integers(0, n), max_size=8)) + [0, n]))
    offsets = list(zip(cuts[:-1], cuts[1:]))
    m = encoding_metrics(enc(["t"] * len(offsets), offsets), text)
    assert m.cut_characters == slow_cut_share(text, offsets)
    assert m.shared_characters == 0  # a partition shares nothing
    inside = grapheme_interior(text)
    assert not inside[0] and not inside[n]
    arr = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    assert cutting_tokens(arr, inside).shape == (len(offsets),)
    assert int(coverage(arr, n).sum()) == n


def test_metrics_result_is_frozen():
    m = EncodingMetrics(1, 1, 1, 1, 0, 0, 0)
    with pytest.raises(AttributeError):
        m.tokens = 2  # type: ignore[misc]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["<0xE3>", "<0x0a>", "<0xZZ>", "<0xE3", "a<0x41>", "\u2581", "\u0120", " "]),
                          st.text(max_size=6)), max_size=12))
def test_fast_token_counts_match_per_token_checks(tokens):
    from core.metrics.per_encoding import count_byte_fallback, is_byte_fallback, is_space_marker

    assert count_byte_fallback(tokens) == sum(1 for t in tokens if is_byte_fallback(t))
    for t in tokens:
        assert is_space_marker(t) == all(c in "\u2581\u0120" or c.isspace() for c in t)
