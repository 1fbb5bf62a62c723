"""WordPiece score and the side-by-side next-merge rankings."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.bpe import BpeTrainer
from core.training.corpus import SENNRICH_CORPUS
from core.training.wordpiece import compare_candidates, rank_by_score, score


def test_score_is_exact():
    assert score(3, 3, 3) == Fraction(1, 3)
    assert score(2, 2, 16) == score(9, 9, 16) == Fraction(1, 16)


def test_compare_candidates_on_the_golden_corpus():
    comp = compare_candidates(BpeTrainer(SENNRICH_CORPUS), 4)
    assert [(c.pair, c.count) for c in comp.bpe] == [
        (("e", "s"), 9), (("s", "t"), 9), (("t", "</w>"), 9), (("w", "e"), 8)]
    assert comp.bpe[0].score == Fraction(9, 17 * 9)
    assert [c.pair for c in comp.wordpiece] == [("i", "d"), ("l", "o"), ("s", "t"), ("o", "w")]
    assert [c.score for c in comp.wordpiece] == [Fraction(1, 3), Fraction(1, 7), Fraction(1, 9),
                                                 Fraction(1, 16)]


pairs = st.dictionaries(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd")),
                        st.integers(1, 30), min_size=1, max_size=16)


@settings(max_examples=150, deadline=None)
@given(pairs, st.integers(0, 20), st.integers(1, 3))
def test_rank_by_score_equals_a_full_exact_sort(pair_counts, k, scale):
    symbols = {s: 7 * scale + ord(s) % 5 for s in "abcd"}
    full = sorted(pair_counts, key=lambda p: (-score(pair_counts[p], symbols[p[0]], symbols[p[1]]), p))
    got = rank_by_score(pair_counts, symbols, k)
    assert [c.pair for c in got] == full[:k]
    assert all(c.count == pair_counts[c.pair] for c in got)
