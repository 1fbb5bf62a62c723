"""Premium, Gini, continued-word rate and the per-tokenizer summary against hand-computed figures."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError
from core.metrics import CompareTable, encoding_metrics
from core.metrics.fairness import fairness, gini
from core.metrics.measures import SUMMARY_TOOLTIPS, TOOLTIPS
from core.metrics.per_encoding import EncodingMetrics, is_space_marker, marker_only
from core.metrics.table import METRICS


def cell(tokens: int, unknown_chars: int = 0) -> EncodingMetrics:
    return EncodingMetrics(tokens=tokens, words=10, characters=100, utf8_bytes=100, unknown=0,
                           byte_fallback=0, cut_characters=0, unknown_characters=unknown_chars)


def test_gini_hand_computed():
    assert gini([3, 3, 3, 3]) == 0.0
    # [0, 0, 0, 1]: sum of |xi - xj| over ordered pairs = 6, / (2 · 16 · 0.25) = 0.75
    assert gini([0, 0, 0, 1]) == pytest.approx(0.75)
    # [1, 2, 3, 4]: pairs differ by 1,2,3,1,2,1 → 2·10 = 20 over ordered pairs; / (2·16·2.5) = 0.25
    assert gini([4, 1, 3, 2]) == pytest.approx(0.25)
    with pytest.raises(SubwordScopeError):
        gini([])
    with pytest.raises(SubwordScopeError):
        gini([1, -1])


def test_premium_and_summary_hand_computed():
    # tokens per language (rows) for one tokenizer; eng is the reference (100 tokens)
    tokens = {"eng": 100, "fra": 120, "hin": 250, "amh": 450, "tha": 30, "xxx": 500}
    rows = [(cell(n, unknown_chars=50 if code == "tha" else 0),) for code, n in tokens.items()]
    table = CompareTable(tuple(tokens), ("tok",), tuple(rows), "eng")
    prem = table.values("premium")[:, 0]
    assert prem.tolist() == pytest.approx([1.0, 1.2, 2.5, 4.5, 0.3, 5.0])
    [f] = fairness(table)
    # tha is 50 % unknown: left out; counted premiums 1, 1.2, 2.5, 4.5, 5
    assert f.excluded == (4,)
    assert f.median_premium == pytest.approx(2.5)
    assert f.over_2x == pytest.approx(3 / 5) and f.over_4x == pytest.approx(2 / 5)
    x = np.array([1, 1.2, 2.5, 4.5, 5.0])
    assert f.gini == pytest.approx(np.abs(x[:, None] - x[None, :]).sum() / (2 * 25 * x.mean()))
    assert [i for i, _ in f.worst] == [5, 3, 2, 1, 0]
    assert f.worst[0][1] == pytest.approx(5.0)
    # only some rows
    [g] = fairness(table, rows=[0, 1])
    assert g.counted == (0, 1) and g.median_premium == pytest.approx(1.1)


def test_continued_word_rate_hand_computed():
    text = "unbelievable cat sat"
    # unbelievable = 2 tokens, cat = 1, sat = 2 (+ a lone space-marker token before cat)
    enc = SimpleNamespace(tokens=["un", "believable", "▁", "cat", "s", "at"],
                          offsets=[(0, 2), (2, 12), (13, 14), (13, 16), (17, 18), (18, 20)])
    m = encoding_metrics(enc, text)
    assert m.words == 3 and m.continued_words == 2
    assert m.continued_word_rate == pytest.approx(2 / 3)
    assert m.tokens_per_word == pytest.approx(6 / 3)
    assert m.tokens_per_byte == pytest.approx(6 / 20)
    # byte-level pieces of one character: the same span twice cuts the word
    enc = SimpleNamespace(tokens=["a", "\u00e9", "\u00e9"], offsets=[(0, 1), (1, 2), (1, 2)])
    assert encoding_metrics(enc, "a\u00e9").continued_words == 1
    # a script without spaces has no continued-word rate, and no tokens per word
    enc = SimpleNamespace(tokens=["สวัส", "ดี"], offsets=[(0, 4), (4, 6)])
    m = encoding_metrics(enc, "สวัสดี")
    assert math.isnan(m.continued_word_rate) and math.isnan(m.tokens_per_word)


def test_every_measure_has_a_tooltip_with_unit():
    assert set(TOOLTIPS) == set(METRICS)
    assert all("Unit:" in t for t in TOOLTIPS.values())
    assert {"median_premium", "gini", "over_2x", "over_4x", "worst"} <= set(SUMMARY_TOOLTIPS)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=" \u2581\u0120ab\n\t\u00a0x\x00", max_size=4), max_size=30))
def test_marker_only_tokens_are_found_in_one_pass(tokens):
    assert marker_only(tokens).tolist() == [k for k, t in enumerate(tokens) if is_space_marker(t)]
