"""Multilingual BPE, classic and parity-aware: hand-computed choices, one-language agreement,
exact undo, the Gini coefficient, and segmentation replay equal to the trainer's state."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.bpe import BpeTrainer
from core.training.parity import MultilingualBpeTrainer, gini
from core.training.symbols import TrainingError

# L1: one long word, few occurrences (18 tokens with </w>); L2: a frequent short word (15).
TWO = {"L1": {"abcdefgh": 2}, "L2": {"xy": 5}}


def test_gini_hand_computed():
    assert gini([1, 1, 1]) == 0.0
    assert gini([0, 1]) == pytest.approx(0.5)
    assert gini([1, 2, 3]) == pytest.approx(2 / 9)  # Σ|xi-xj| = 8 over 2·n²·mean = 36
    assert gini([3, 1, 2]) == pytest.approx(2 / 9)
    assert gini([5]) == 0.0
    with pytest.raises(TrainingError):
        gini([1, -1])


def test_parity_picks_the_worst_languages_best_merge():
    t = MultilingualBpeTrainer(TWO, strategy="parity")
    assert t.tokens == (18, 15)
    chosen = [(s.pair, s.language, s.count) for s in t.run(4)]
    assert chosen == [(("a", "b"), "L1", 2), (("ab", "c"), "L1", 2), (("x", "y"), "L2", 5),
                      (("abc", "d"), "L1", 2)]
    assert [t.tokens_after(k) for k in range(5)] == [(18, 15), (16, 15), (14, 15), (14, 10),
                                                     (12, 10)]
    assert t.history[2].languages == ("L2",)


def test_classic_picks_the_most_frequent_pair_overall():
    t = MultilingualBpeTrainer(TWO, strategy="classic")
    chosen = [(s.pair, s.language, s.count) for s in t.run(3)]
    assert chosen == [(("x", "y"), None, 5), (("xy", "</w>"), None, 5), (("a", "b"), None, 2)]
    assert t.tokens == (16, 5)


def test_characters_normalization_compares_tokens_per_character():
    t = MultilingualBpeTrainer(TWO, strategy="parity", normalization="characters")
    assert t.costs() == [18 / 16, 15 / 10]  # L2 is worse per character
    assert t.worst_language() == "L2"
    assert t.step().language == "L2"


def test_merge_only_where_the_pair_occurs_and_curve():
    t = MultilingualBpeTrainer({"A": {"ab": 3}, "B": {"ab": 1, "cd": 4}}, strategy="parity")
    step = t.step()  # B has 12 + 3 = 15 tokens > 9: its best pair is (c, d)
    assert (step.pair, step.language, step.languages) == (("c", "d"), "B", ("B",))
    ginis, compression = t.curve()
    assert ginis[0] == pytest.approx(gini([9, 15])) and ginis[1] == pytest.approx(gini([9, 11]))
    assert compression == [pytest.approx(16 / 24), pytest.approx(16 / 20)]  # 6 + 10 chars


def test_undo_restores_exactly():
    corpora = {"en": {"lower": 2, "newest": 6, "low": 5}, "de": {"neueste": 3, "low": 1},
               "fr": {"le": 4, "nouveau": 2}}
    for strategy in ("classic", "parity"):
        t = MultilingualBpeTrainer(corpora, strategy=strategy)
        before = {lang: (t.trainer(lang).words, dict(t.trainer(lang).pair_counts))
                  for lang in corpora}
        steps = t.run(12)
        ginis, compression = t.curve()
        t.run_to(5)
        assert t.merges == [s.pair for s in steps[:5]]
        assert t.curve() == (ginis[:6], compression[:6])
        t.run_to(0)
        assert t.undo() is None and t.merges == [] and t.tokens == t.tokens_after(0)
        assert {lang: (t.trainer(lang).words, dict(t.trainer(lang).pair_counts))
                for lang in corpora} == before
        assert [s.pair for s in t.run(12)] == [s.pair for s in steps]


def test_errors_name_what_is_wrong():
    with pytest.raises(TrainingError, match="at least one language"):
        MultilingualBpeTrainer({})
    with pytest.raises(TrainingError, match="strategy"):
        MultilingualBpeTrainer(TWO, strategy="fair")
    with pytest.raises(TrainingError, match="L2"):
        MultilingualBpeTrainer({"L1": {"a": 1}, "L2": {}})
    with pytest.raises(TrainingError):
        MultilingualBpeTrainer(TWO).trainer("L3")


words = st.text(alphabet="abcd", min_size=1, max_size=7)
corpus = st.dictionaries(words, st.integers(1, 6), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(corpus, st.sampled_from(["first", "smallest", "largest"]), st.integers(0, 15))
def test_classic_and_parity_agree_on_one_language(counts, tie_break, n):
    classic = MultilingualBpeTrainer({"x": counts}, strategy="classic", tie_break=tie_break)
    parity = MultilingualBpeTrainer({"x": counts}, strategy="parity", tie_break=tie_break)
    plain = BpeTrainer(counts, tie_break=tie_break)
    expected = [s.pair for s in plain.run(n)]
    assert [s.pair for s in classic.run(n)] == expected
    assert [s.pair for s in parity.run(n)] == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(corpus, min_size=1, max_size=3), st.sampled_from(["classic", "parity"]),
       st.sampled_from(["</w>", "##", "byte"]), st.integers(0, 20))
def test_segmenting_training_words_gives_the_trainers_state(corpora, strategy, marker, n):
    langs = {f"L{i}": c for i, c in enumerate(corpora)}
    t = MultilingualBpeTrainer(langs, strategy=strategy, marker=marker)
    t.run(n)
    for lang in langs:
        for w in t.trainer(lang).words:
            assert tuple(t.segment(w.word)) == w.symbols
        assert t.tokens[list(langs).index(lang)] == sum(
            len(w.symbols) * w.count for w in t.trainer(lang).words)
