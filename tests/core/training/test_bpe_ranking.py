"""BPE candidate ranking while the pane interleaves ``candidates(k)`` with steps and undos.

:class:`~core.training.pair_index.PairIndex` keeps the entries a ranking read last in a short
sorted list outside the heap (``_top``) and, under ``"first"``, packs each heap entry into
one integer. Every read must still equal a recount, whatever was read, stepped or undone
before, and however large the counts.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.bpe import BpeTrainer
from tests.core.training.test_bpe import naive_ranking, state
from tests.core.training.test_bpe_pair_count_falls_then_rises import naive_steps, summary

TIE_BREAKS = ["first", "smallest", "largest"]

corpora = st.dictionaries(st.text(alphabet="aabc", min_size=1, max_size=7),
                          st.integers(1, 6), min_size=1, max_size=9)
moves = st.lists(st.tuples(st.sampled_from(["step", "undo", "read"]), st.integers(0, 40)),
                 max_size=40)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@settings(max_examples=120, deadline=None)
@given(corpus=corpora, moves=moves)
def test_reads_between_steps_and_undos_equal_a_recount(tie_break, corpus, moves):
    expected = naive_steps(corpus, 60, tie_break)
    trainer = BpeTrainer(corpus, tie_break=tie_break)
    for move, k in moves:
        if move == "step":
            trainer.step()
        elif move == "undo":
            trainer.undo()
        else:  # what the Merges pane does after every move: read the top k
            assert [(c.pair, c.count) for c in trainer.candidates(k)] == naive_ranking(trainer)[:k]
        assert [summary(s) for s in trainer.history] == expected[:len(trainer.merges)]
    fresh = BpeTrainer(corpus, tie_break=tie_break)
    fresh.run(len(trainer.merges))
    assert state(trainer) == state(fresh)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_huge_counts_rank_exactly(tie_break):
    """Counts far beyond 32 bits (the index build sums them as int64): the packed "first"
    entries must still order them."""
    big = 1 << 60
    corpus = {"ab": big + 1, "ba": big, "cab": big + 1, "bc": 3}
    trainer = BpeTrainer(corpus, tie_break=tie_break)
    expected = naive_steps(corpus, 10, tie_break)
    assert [summary(s) for s in trainer.run(10)] == expected
    assert expected[0][1] == 2 * big + 2  # ("a", "b") in "ab" and "cab"


def test_a_word_before_the_first_occurrence_regains_the_pair():
    """An undo gives a pair back to a word before the one its key points at (which the key
    lost earlier and a read re-ranked): the key must move back (found by a random walk)."""
    corpus = {"cba": 1, "ba": 2, "a": 4, "aabaab": 1, "aaaaca": 3, "baac": 2, "cbac": 1, "caa": 4}
    moves = ["read", "step", "read", "read", "step", "undo", "read", "step", "step", "undo",
             "step", "step", "undo", "undo", "undo", "read", "read", "undo", "read"]
    expected = naive_steps(corpus, 40, "first")
    trainer = BpeTrainer(corpus, tie_break="first")
    for move in moves:
        if move == "read":
            assert [(c.pair, c.count) for c in trainer.candidates(50)] == naive_ranking(trainer)
        else:
            trainer.step() if move == "step" else trainer.undo()
        assert [summary(s) for s in trainer.history] == expected[:len(trainer.merges)]
