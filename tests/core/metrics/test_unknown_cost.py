"""Unknown and byte-fallback shares and the unknown-adjusted cost: by hand, then properties."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError
from core.metrics import adjusted_tokens, encoding_metrics, utf8_lengths
from tests.core.strategies import tricky_text


def enc(tokens, offsets, **extra):
    return SimpleNamespace(tokens=list(tokens), offsets=list(offsets), **extra)


# "I saw 東京 and Zoé 👍" — 東京: 2 code points, 6 bytes; the emoji: 1 code point, 4 bytes
TEXT = "I saw \u6771\u4eac and Zo\u00e9 \U0001F44D"
TOKENS = ["i", "saw", "[UNK]", "and", "zo", "[UNK]", "[UNK]"]
OFFSETS = [(0, 1), (2, 5), (6, 8), (9, 12), (13, 15), (15, 16), (17, 18)]


def test_golden_adjusted_cost_by_hand():
    m = encoding_metrics(enc(TOKENS, OFFSETS), TEXT, unk_token="[UNK]")
    assert (m.tokens, m.characters, m.words) == (7, 18, 6)
    assert m.unknown == 3
    assert m.unknown_characters == 4  # 東, 京, é, 👍
    assert m.unknown_bytes == 3 + 3 + 2 + 4
    assert m.unknown_share == pytest.approx(4 / 18)
    assert m.adjusted_tokens == 7 - 3 + 12 == 16
    assert m.adjusted_fertility == pytest.approx(16 / 6)
    assert m.adjusted_tokens_per_character == pytest.approx(16 / 18)
    assert m.byte_fallback_characters == 0 and m.byte_fallback_share == 0.0


def test_unknown_by_id_counts_the_characters_under_the_piece():
    # a Unigram tokenizer reports the unknown piece's original text, id 105 marks it
    text = "\u1230\u12cd \u1230"  # Ethiopic: 3 code points of 3 bytes, a space
    m = encoding_metrics(enc(["\u2581", "\u1230\u12cd", "\u2581", "\u1230"], [(0, 1), (0, 2), (3, 4), (3, 4)],
                             ids=[110, 105, 110, 105]), text, unk_token="<unk>", unk_id=105)
    assert (m.unknown, m.unknown_characters, m.unknown_bytes) == (2, 3, 9)
    assert m.unknown_share == pytest.approx(3 / 4)
    assert m.adjusted_tokens == 4 - 2 + 9


def test_byte_fallback_share_counts_characters_not_pieces():
    text = "x \u3042"
    tokens = ["\u2581x", "\u2581", "<0xE3>", "<0x81>", "<0x82>"]
    m = encoding_metrics(enc(tokens, [(0, 1), (2, 3), (2, 3), (2, 3), (2, 3)]), text)
    assert m.byte_fallback == 3 and m.byte_fallback_characters == 1
    assert m.byte_fallback_share == pytest.approx(1 / 3)
    assert m.adjusted_tokens == m.tokens  # byte pieces are already what a fallback costs


def test_special_tokens_are_not_unknown_and_masks_stay_aligned():
    e = enc(["[CLS]", "a", "[UNK]", "[SEP]"], [(0, 0), (0, 1), (2, 3), (0, 0)], ids=[101, 7, 100, 102],
            special_tokens_mask=[1, 0, 0, 1])
    m = encoding_metrics(e, "a \u00e9", unk_token="[UNK]", unk_id=100)
    assert (m.tokens, m.unknown, m.unknown_characters, m.unknown_bytes) == (2, 1, 1, 2)


def test_counts_add_up_over_texts():
    a = encoding_metrics(enc(TOKENS, OFFSETS), TEXT, unk_token="[UNK]")
    b = encoding_metrics(enc(["[UNK]"], [(0, 1)]), "\u4eba", unk_token="[UNK]")
    s = a + b
    assert (s.unknown_characters, s.unknown_bytes, s.adjusted_tokens) == (5, 15, 16 + 3)


def test_adjusted_tokens_formula_and_errors():
    assert adjusted_tokens(10, 0, 0) == 10
    assert adjusted_tokens(10, 2, 9) == 17
    assert adjusted_tokens(3, 2, 0) == 3  # unknown tokens over no character still count one each
    for bad in ((2, 3, 5), (-1, 0, 0), (5, 1, -2)):
        with pytest.raises(SubwordScopeError, match="unknown <= tokens"):
            adjusted_tokens(*bad)


def test_utf8_lengths():
    text = "a\u00e9\u6771\U0001F44D\ud800"
    assert utf8_lengths(text).tolist() == [1, 2, 3, 4, 3]
    assert utf8_lengths("").shape == (0,)


def slow_unknown_bytes(text, offsets, unknown):
    chars = {i for (s, e), u in zip(offsets, unknown) if u for i in range(s, e)}
    return len(chars), sum(len(text[i].encode("utf-8", "surrogatepass")) for i in chars)


@settings(max_examples=150, deadline=None)
@given(tricky_text, st.data())
def test_adjusted_cost_equals_plain_without_unknowns_and_is_never_below(text, data):
    n = len(text)
    starts = data.draw(st.lists(st.integers(0, n), max_size=10))
    offsets = [(s, data.draw(st.integers(s, n))) for s in starts]  # any spans, overlaps and empties too
    unknown = data.draw(st.lists(st.booleans(), min_size=len(offsets), max_size=len(offsets)))
    tokens = ["[UNK]" if u else "t" for u in unknown]
    m = encoding_metrics(enc(tokens, offsets), text, unk_token="[UNK]")
    chars, nbytes = slow_unknown_bytes(text, offsets, unknown)
    assert (m.unknown, m.unknown_characters, m.unknown_bytes) == (sum(unknown), chars, nbytes)
    assert m.adjusted_tokens >= m.tokens
    if not any(unknown):  # only what no token holds (dropped) costs its bytes
        assert m.adjusted_tokens == m.tokens + m.dropped_bytes
        assert m.unknown_share == m.dropped_characters / n if n else np.isnan(m.unknown_share)
    plain = encoding_metrics(enc(["t"] * len(offsets), offsets), text, unk_token="[UNK]")
    assert plain.adjusted_tokens == plain.tokens + plain.dropped_bytes
    if n and not plain.dropped_characters:
        assert plain.adjusted_fertility == plain.fertility or np.isnan(plain.fertility)
