"""Fair ranking: cells over 1 % unknown characters are marked and never ranked cheapest."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import SubwordScopeError
from core.metrics import (
    COSTS,
    METRICS,
    CompareTable,
    EncodingMetrics,
    compare_table,
    extremes,
    load_corpus,
    row_order,
    unreliable,
)
from core.metrics.ranking import descending
from tests.core.metrics.test_table import CharTokenizer, SpaceTokenizer


@pytest.fixture
def table(tmp_path):
    texts = {"eng": "the cat sat on", "fra": "le chatassis", "deu": "die katze sass da",
             "ita": "il gatto si e seduto"}
    for code, text in texts.items():
        (tmp_path / f"{code}.txt").write_text(text + "\n", encoding="utf-8")
    toks = [SpaceTokenizer(unknown={"chatassis"}), CharTokenizer()]
    return compare_table(toks, load_corpus(tmp_path), reference="eng")


def test_the_cell_with_unknown_text_is_marked_and_not_ranked_cheapest(table):
    assert table.languages == ("deu", "eng", "fra", "ita")
    share = table.values("unknown_share")
    np.testing.assert_allclose(share[:, 0], [0, 0, 9 / 12, 0])  # "chatassis" is 9 of 12 characters
    assert unreliable(table).tolist() == [[False, False], [False, False], [True, False], [False, False]]
    prem = table.values("premium")
    np.testing.assert_allclose(prem[:, 0], [1.0, 1.0, 0.5, 1.25])  # raw: French looks cheapest
    np.testing.assert_allclose(prem[:, 1], [17 / 14, 1.0, 12 / 14, 20 / 14])
    space, chars = extremes(table, "premium")
    assert (space.tokenizer, space.cheapest, space.dearest, space.excluded) == ("space", 0, 3, (2,))
    assert (chars.cheapest, chars.dearest, chars.excluded) == (2, 3, ())  # the reference is left out


def test_adjusted_premium_prices_the_unknown_characters(table):
    # French under "space": "le" + 9 unknown one-byte characters -> 1 + 9 = 10 tokens vs 4 in English
    assert table.values("adjusted_tokens")[2, 0] == 10
    assert table.values("adjusted_premium")[2, 0] == pytest.approx(10 / 4)
    np.testing.assert_array_equal(table.values("adjusted_premium")[:, 1], table.values("premium")[:, 1])


def test_bytes_per_token_higher_is_cheaper_and_marked_rows_sort_last(table):
    bpt = table.values("bytes_per_token")[:, 0]
    assert np.argmax(bpt) == 2  # 12 bytes in 2 tokens: the best "compression" is the lost text
    order, ranked = row_order(table, "bytes_per_token", "space")
    assert order[-1] == 2 and ranked == 3
    assert order[:3] == sorted(range(4), key=lambda i: -bpt[i])[1:]
    e = extremes(table, "bytes_per_token")[0]
    assert COSTS["bytes_per_token"] == -1 and e.cheapest == 0 and e.dearest == 1  # deu 17/4, eng 14/4
    assert row_order(table, "unknown_share", "space") == ([2, 0, 1, 3], 4)  # not a cost: all ranked


def test_mean_order_leaves_marked_cells_out(table):
    order, ranked = row_order(table, "premium", None)
    # means: deu (1 + 17/14)/2, eng 1, fra 12/14 (its marked cell left out), ita (1.25 + 20/14)/2
    assert order == [3, 0, 1, 2] and ranked == 4
    with pytest.raises(SubwordScopeError, match="no tokenizer"):
        row_order(table, "premium", "nonsense")
    with pytest.raises(SubwordScopeError, match="not a cost"):
        extremes(table, "unknown_share")


def test_a_row_with_every_cell_marked_follows_the_others(tmp_path):
    (tmp_path / "eng.txt").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "xyz.txt").write_text("q\n", encoding="utf-8")
    toks = [SpaceTokenizer("one", unknown={"q"}), SpaceTokenizer("two", unknown={"q"})]
    t = compare_table(toks, load_corpus(tmp_path))
    assert t.values("bytes_per_token")[1].tolist() == [1.0, 1.0]
    # xyz costs 1 token per character, English 3 / 5: largest first would put xyz on top
    assert row_order(t, "tokens_per_character", None) == ([0, 1], 1)
    assert [e.cheapest for e in extremes(t, "tokens")] == [0, 0]


def test_the_limit_is_strictly_more_than_one_percent():
    def cell(unknown_characters):
        return EncodingMetrics(10, 10, 100, 100, 1, 0, 0, unknown_characters=unknown_characters, unknown_bytes=1)

    t = CompareTable(("aaa", "bbb", "ccc"), ("tok",), ((cell(1),), (cell(2),), (EncodingMetrics(0, 0, 0, 0, 0, 0, 0),)), None)
    assert unreliable(t)[:, 0].tolist() == [False, True, False]  # 1 % is fine, 2 % is not, no text is not
    assert unreliable(t, limit=0.0)[:, 0].tolist() == [True, True, False]


def test_descending_puts_marked_then_nan_last_and_keeps_ties_in_order():
    v = np.array([1.0, np.nan, 3.0, 2.0, 3.0, 0.5])
    last = np.array([False, False, True, False, False, True])
    assert descending(v, last) == [4, 3, 0, 2, 5, 1]
    assert descending(np.array([]), np.array([], dtype=bool)) == []


def test_every_cost_is_a_metric():
    assert set(COSTS) <= set(METRICS)


def test_udhr_high_unknown_cells_are_never_cheapest(data_dir):
    from tests.reference_adapters import reference_tokenizer

    corpus = [f for f in load_corpus(data_dir / "udhr") if f.code in ("eng", "tha", "amh", "fra", "deu_1996")]
    names = ["bert-base-uncased", "pegasus-unigram", "gpt2"]
    t = compare_table([reference_tokenizer(data_dir, n) for n in names], corpus)
    tha, amh = t.languages.index("tha"), t.languages.index("amh")
    share, prem, adj = t.values("unknown_share"), t.values("premium"), t.values("adjusted_premium")
    assert share[tha, 0] > 0.9 and share[amh, 1] > 0.99 and share[:, 2].max() == 0.0
    assert prem[tha, 0] < 0.2 and prem[amh, 1] < 0.1  # what the raw premium claims
    assert adj[tha, 0] > 10 and adj[amh, 1] > 8  # what a byte fallback would have spent
    bert, pegasus, gpt2 = extremes(t, "premium")
    assert tha in bert.excluded and bert.cheapest not in (tha, None)
    assert amh in pegasus.excluded and pegasus.cheapest not in (amh, None)
    assert gpt2.excluded == ()
    order, ranked = row_order(t, "premium", "bert-base-uncased")
    assert order.index(tha) >= ranked and not unreliable(t)[order[:ranked], 0].any()
    np.testing.assert_array_equal(adj[:, 2], prem[:, 2])  # nothing unknown: nothing to adjust


def test_tokens_per_word_ranks_only_the_languages_counted_per_word(tmp_path):
    texts = {"eng": "the cat sat on", "deu": "die katze sass da",
             "tha": "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a"}  # Thai: no spaces
    for code, text in texts.items():
        (tmp_path / f"{code}.txt").write_text(text + "\n", encoding="utf-8")
    t = compare_table([CharTokenizer()], load_corpus(tmp_path))
    assert t.languages == ("deu", "eng", "tha") and t.words_are_characters() == [False, False, True]
    fert = t.values("fertility")[:, 0]
    assert fert[2] < fert[1] < fert[0]  # per character Thai looks cheapest: another unit
    (e,) = extremes(t, "fertility")
    assert (e.cheapest, e.dearest, e.unit, e.other_unit) == (1, 0, "word", (2,))
    (only,) = extremes(t, "tokens")
    assert (only.unit, only.cheapest, only.other_unit) == ("", 2, ())  # not per word: all ranked
