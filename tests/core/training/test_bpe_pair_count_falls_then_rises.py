"""BPE trainer: a pair whose count falls and then rises again before it reaches the heap top.

:class:`~core.training.pair_index.PairIndex` keeps one live heap entry per pair. When a
pair's count falls (or, under ``"first"``, its first occurrence moves later) the entry is
kept and the pair marked *overrated*; it is re-ranked only when it reaches the top. If the
count rises again in between (an undo gives the neighbours of the merge it takes back
their occurrences), the entry must be replaced by one with the new count and key.
These tests drive that path on purpose and compare every step with a naive recount.
"""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

import pytest

from core.training.bpe import MAX_TIES, BpeTrainer
from core.training.symbols import initial_symbols, merge_pair, merged_symbol

TIE_BREAKS = ["first", "smallest", "largest"]


def naive_steps(word_counts, n, tie_break, marker="</w>"):
    """Obviously correct reference: recount every pair at every step.

    Returns one ``(pair, count, ties, changed words)`` per merge (at most ``n``)."""
    words = [[w, initial_symbols(w, marker), c] for w, c in word_counts.items()]
    out = []
    for _ in range(n):
        counts = {}  # dicts keep first-occurrence (corpus) order
        for _, syms, c in words:
            for p in zip(syms, syms[1:]):
                counts[p] = counts.get(p, 0) + c
        if not counts:
            break
        best = max(counts.values())
        tied = [p for p, v in counts.items() if v == best]
        if tie_break != "first":
            tied.sort(reverse=tie_break == "largest")
        pair, changed = tied[0], []
        new = merged_symbol(*pair, marker)
        for entry in words:
            merged = merge_pair(entry[1], pair, new)
            if merged != entry[1]:
                changed.append(entry[0])
                entry[1] = merged
        out.append((pair, best, tuple(tied[:MAX_TIES]), tuple(changed)))
    return out


def summary(step):
    return step.pair, step.count, step.ties, step.changed_words


def fall_then_rise(trainer, move):
    """Pairs that were overrated before ``move()`` and gained count by it (the path under
    test); ``move`` is ``trainer.step`` or ``trainer.undo``."""
    # private: the trainer's set of overrated pairs is what this test is about
    before = {p: trainer.pair_counts[p] for p in map(trainer._pair, trainer._overrated)}
    move()
    counts = trainer.pair_counts
    return [p for p, c in before.items() if counts.get(p, 0) > c]


# Few letters, so that the neighbouring pairs of a merge recur in many words.
corpora = st.dictionaries(st.text(alphabet="aab", min_size=1, max_size=8),
                          st.integers(1, 5), min_size=1, max_size=8)


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@settings(max_examples=150, deadline=None)
@given(corpus=corpora, moves=st.lists(st.booleans(), max_size=40),
       marker=st.sampled_from(["</w>", "##", "byte"]))
def test_steps_around_undos_equal_a_naive_recount(tie_break, corpus, moves, marker):
    expected = naive_steps(corpus, 40, tie_break, marker)
    trainer = BpeTrainer(corpus, tie_break=tie_break, marker=marker)
    for forward in moves:  # random walk of steps and undos
        if forward:
            k = len(trainer.merges)
            risen = fall_then_rise(trainer, trainer.step)
            assert [summary(s) for s in trainer.history[k:]] == expected[k:k + 1]
        else:
            risen = fall_then_rise(trainer, trainer.undo)
        if risen:
            event("an overrated pair's count rose")
        assert [summary(s) for s in trainer.history] == expected[:len(trainer.merges)]
    while trainer.undo() is not None:  # undo back to the start ...
        pass
    fresh = BpeTrainer(corpus, tie_break=tie_break, marker=marker)
    assert trainer.words == fresh.words and dict(trainer.pair_counts) == dict(fresh.pair_counts)
    assert trainer.candidates(len(fresh.pair_counts)) == fresh.candidates(len(fresh.pair_counts))
    # ... and redo everything, one merge at a time
    assert [summary(s) for s in trainer.run(len(expected) + 1)] == expected
    again = BpeTrainer(corpus, tie_break=tie_break, marker=marker)
    again.run(len(expected))
    assert trainer.words == again.words and trainer.curve() == again.curve()


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("bounce", [1, 2, 3])
def test_undo_bounce_on_a_known_corpus(tie_break, bounce):
    """Step, undo ``bounce`` merges (their neighbours' counts fell, now rise), redo: every
    step equals the recount, and the path under test is taken (asserted)."""
    corpus = {"aab": 3, "aba": 2, "baab": 2, "abab": 1, "bba": 1}
    expected = naive_steps(corpus, 12, tie_break)
    trainer = BpeTrainer(corpus, tie_break=tie_break)
    risen = []
    for k in range(len(expected)):
        trainer.step()
        if k % 3 == 2:
            for _ in range(bounce):
                risen += fall_then_rise(trainer, trainer.undo)
            for _ in range(bounce):
                trainer.step()
        assert [summary(s) for s in trainer.history] == expected[:k + 1]
    assert risen, "the corpus no longer drives an overrated pair's count back up"
