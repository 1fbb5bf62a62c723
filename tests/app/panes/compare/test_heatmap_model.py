"""The Compare heatmap's data (no widgets): cell texts, levels, legend, summary, card."""

from __future__ import annotations

import math

import numpy as np
import pytest

from app.panes.compare.heatmap_model import (
    card_text,
    cell_texts,
    format_value,
    heatmap_model,
    legend,
    percent,
    robust_levels,
    summary,
)
from core.metrics import compare_table, load_corpus
from tests.core.metrics.test_table import CharTokenizer, SpaceTokenizer


@pytest.fixture
def table(tmp_path):
    texts = {"eng": "the cat sat on", "fra": "le chatassis", "deu": "die katze sass da"}
    for code, text in texts.items():
        (tmp_path / f"{code}.txt").write_text(text + "\n", encoding="utf-8")
    return compare_table([SpaceTokenizer(unknown={"chatassis"}), CharTokenizer()], load_corpus(tmp_path))


def test_numbers_and_shares_are_worded_by_hand():
    assert [format_value(v, "premium") for v in (0.0857, 1.0, 19.52, 2345.6, math.nan)] == [
        "0.0857", "1", "19.5", "2,346", "–"]
    assert [format_value(v, "tokens") for v in (812, 12_345, 999_999, 2_500_000)] == ["812", "12.3k", "1M", "2.5M"]
    assert [percent(s) for s in (0.0, 0.0104, 0.015, 0.0994, 0.956, 1.0)] == [
        "0 %", "1.04 %", "1.5 %", "9.94 %", "96 %", "100 %"]
    assert format_value(0.956, "unknown_share") == "96 %"
    assert cell_texts(0.19, "premium", 0.956, 0.0, True) == ("0.19 ⚠ 96 % unk", "0.19 ⚠")
    assert cell_texts(2.5, "premium", 0.0, 0.03, False) == ("2.5 · bf 3 %", "2.5")
    assert cell_texts(2.5, "premium", 0.005, math.nan, False) == ("2.5", "2.5")


def test_robust_levels_clip_to_percentiles_of_the_unmarked_cells():
    v = np.array([[1.0, 2.0, 3.0, 4.0, 100.0], [0.01, 2.5, 3.5, np.nan, 2.0]])
    marked = np.zeros_like(v, dtype=bool)
    marked[1, 0] = True  # 0.01 is not part of the scale
    lo, hi = robust_levels(v, marked)
    pool = [1, 2, 3, 4, 100, 2.5, 3.5, 2]
    assert (lo, hi) == tuple(np.percentile(pool, [5, 95]))
    llo, lhi = robust_levels(v, marked, log=True)
    np.testing.assert_allclose(np.log10([llo, lhi]), np.percentile(np.log10(pool), [5, 95]))
    assert robust_levels(np.full((2, 2), 3.0), np.zeros((2, 2), bool)) == (2.5, 3.5)
    assert robust_levels(np.full((1, 1), np.nan), np.zeros((1, 1), bool), log=True) == (1.0, 10.0)
    assert robust_levels(v, np.ones_like(marked)) == tuple(np.percentile(v[np.isfinite(v)], [5, 95]))


def test_model_marks_sorts_and_words_the_unknown_cell(table):
    m = heatmap_model(table, "bytes_per_token", "space")
    assert [table.languages[i] for i in m.order] == ["deu", "eng", "fra"] and m.ranked == 2
    assert m.marked[:, 0].tolist() == [False, False, True] and not m.marked[:, 1].any()
    assert m.texts[2][0] == "6 ⚠ 75 % unk" and m.short_texts[2][0] == "6 ⚠" and m.texts[0][0] == "4.25"
    assert m.log and m.adjusted is None
    by_language = heatmap_model(table, "premium", "language")
    assert by_language.ranked is None and by_language.order == [0, 1, 2]
    assert by_language.adjusted[2, 0] == pytest.approx(10 / 4)
    card = card_text(by_language, 2, 0)
    assert card.splitlines() == ["French × space", "Premium = 0.5", "unknown-adjusted = 2.5",
                                 "unknown: 75 % of the characters (over 1 %: not ranked)",
                                 "byte fallback: 0 % of the characters"]
    assert "not ranked" not in card_text(heatmap_model(table, "unknown_share", "language"), 2, 0)


def test_legend_and_summary(table):
    text = legend(heatmap_model(table, "adjusted_premium", "space"))
    assert "Colour: logarithmic" in text and "hatched, red outline" in text
    assert "one token per UTF-8 byte of the characters it covers" in text
    assert "Rows under the dashed line are not ranked" in text
    assert "Colour: linear" in legend(heatmap_model(table, "unknown_share", "language"))
    assert summary(table, "premium") == (
        "Premium, among cells with < 1 % unknown characters — space: cheapest German 1, dearest German 1 "
        "(1 not ranked); chars: cheapest French 0.857, dearest German 1.21")
    assert summary(table, "unknown_share") == ""


def test_a_per_word_summary_says_its_unit_and_leaves_out_the_languages_counted_per_character(tmp_path):
    texts = {"eng": "the cat sat on", "deu": "die katze sass da",
             "tha": "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a"}  # Thai: no spaces
    for code, text in texts.items():
        (tmp_path / f"{code}.txt").write_text(text + "\n", encoding="utf-8")
    t = compare_table([CharTokenizer()], load_corpus(tmp_path))
    text = summary(t, "fertility")
    assert "(ranked per word; not ranked, as counted per character: Thai)" in text
    assert "cheapest English" in text and "dearest German" in text and "cheapest Thai" not in text
    assert "ranked per" not in summary(t, "tokens")
