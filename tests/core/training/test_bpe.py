"""BPE trainer: SPEC §4 golden figures, agreement with a naive recount, exact undo."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError
from core.training.bpe import MAX_TIES, BpeTrainer, train_bpe
from core.training.corpus import SENNRICH_CORPUS
from core.training.symbols import initial_symbols, merge_pair, merged_symbol
from core.training.wordpiece import WordPieceTrainer

GOLDEN_FIRST = [(("e", "s"), 9), (("es", "t"), 9), (("est", "</w>"), 9), (("l", "o"), 7),
                (("lo", "w"), 7), (("n", "e"), 6), (("ne", "w"), 6), (("new", "est</w>"), 6)]


def naive_train(word_counts, n, tie_break="first", marker="</w>", rule="bpe"):
    """Obviously correct reference: recount every pair of the whole corpus at every step.

    Returns the list of (pair, count, ties) and the final segmentations."""
    words = [[initial_symbols(w, marker), c] for w, c in word_counts.items()]
    out = []
    for _ in range(n):
        counts, symbols = {}, {}  # dicts keep first-occurrence (corpus) order
        for syms, c in words:
            for p in zip(syms, syms[1:]):
                counts[p] = counts.get(p, 0) + c
            for s in syms:
                symbols[s] = symbols.get(s, 0) + c
        if not counts:
            break
        if rule == "bpe":
            value = counts
        else:
            value = {p: Fraction(c, symbols[p[0]] * symbols[p[1]]) for p, c in counts.items()}
        best = max(value.values())
        tied = [p for p, v in value.items() if v == best]
        if tie_break != "first":
            tied.sort(reverse=tie_break == "largest")
        pair = tied[0]
        out.append((pair, counts[pair], tuple(tied[:MAX_TIES])))
        new = merged_symbol(*pair, marker)
        for entry in words:
            entry[0] = merge_pair(entry[0], pair, new)
    return out, [tuple(s) for s, _ in words]


def state(trainer):
    return (trainer.merges, trainer.words, dict(trainer.pair_counts), dict(trainer.symbol_counts),
            trainer.n_tokens, trainer.curve(), trainer.candidates(5))


# -- SPEC §4 golden figures ---------------------------------------------------------------
def test_golden_first_occurrence():
    trainer = BpeTrainer(SENNRICH_CORPUS, tie_break="first")
    assert trainer.avg_symbols_per_type == 6.0
    steps = trainer.run(8)
    assert [(s.pair, s.count) for s in steps] == GOLDEN_FIRST
    assert [" ".join(w.symbols) for w in trainer.words] == [
        "low </w>", "low e r </w>", "newest</w>", "w i d est</w>"]
    assert trainer.segment("lowest") == ["low", "est</w>"]
    assert trainer.segment("newer") == ["new", "e", "r", "</w>"]
    assert trainer.segment("lowlow") == ["low", "low", "</w>"]
    assert f"{trainer.avg_symbols_per_type:.2f}" == "2.75"
    assert steps[0].ties == (("e", "s"), ("s", "t"), ("t", "</w>")) and steps[0].is_tie
    assert steps[0].changed_words == ("newest", "widest")
    assert not steps[2].is_tie


def test_golden_smallest_and_largest():
    smallest = BpeTrainer(SENNRICH_CORPUS, tie_break="smallest").run(6)
    assert ["+".join(s.pair) for s in smallest] == [
        "e+s", "es+t", "est+</w>", "l+o", "lo+w", "e+w"]
    largest = BpeTrainer(SENNRICH_CORPUS, tie_break="largest").run(3)
    assert ["+".join(s.pair) for s in largest] == ["t+</w>", "s+t</w>", "e+st</w>"]


def test_golden_wordpiece_order():
    steps = WordPieceTrainer(SENNRICH_CORPUS, tie_break="smallest").run(6)
    assert ["+".join(s.pair) for s in steps] == ["i+d", "l+o", "s+t", "lo+w", "w+id", "r+</w>"]
    assert steps[0].score == Fraction(1, 3)
    assert steps[3].score == Fraction(1, 16) and steps[3].is_tie


def test_segment_steps_and_curve():
    trainer = BpeTrainer(SENNRICH_CORPUS)
    trainer.run(8)
    steps = trainer.segment_steps("lowest")
    assert steps[0].rank is None and steps[0].symbols == tuple("lowest") + ("</w>",)
    assert [s.rank for s in steps[1:]] == [0, 1, 2, 3, 4]
    assert steps[-1].symbols == ("low", "est</w>")
    sizes, tokens, avg = trainer.curve()
    assert sizes[0] == len(trainer.alphabet) == 11 and sizes[-1] == 19
    assert tokens[0] == 5 * 4 + 2 * 6 + 6 * 7 + 3 * 7 and tokens[-1] == trainer.n_tokens
    assert [tokens[i] - tokens[i + 1] for i in range(8)] == [c for _, c in GOLDEN_FIRST]
    assert avg[0] == 6.0 and avg[-1] == 2.75


def test_markers():
    cont = BpeTrainer({"low": 2, "lowly": 1}, marker="##")
    assert cont.words[0].symbols == ("l", "##o", "##w")
    step = cont.step()
    assert step.pair == ("l", "##o") and step.new_symbol == "lo"
    assert cont.step().new_symbol == "low"
    byte = BpeTrainer({" é": 3}, marker="byte")
    assert byte.words[0].symbols == ("Ġ", "Ã", "©")


def test_bad_input_raises_typed_errors():
    for bad in ({}, {"": 1}, {"a": 0}, {"a": 1.5}):
        with pytest.raises(SubwordScopeError):
            BpeTrainer(bad)
    with pytest.raises(SubwordScopeError, match="tie-break"):
        BpeTrainer({"a": 1}, tie_break="random")
    with pytest.raises(SubwordScopeError, match="marker"):
        BpeTrainer({"a": 1}, marker="@@")


def test_exhausted_trainer_returns_none_and_undo_on_empty():
    trainer = BpeTrainer({"ab": 1})
    assert trainer.undo() is None
    assert len(trainer.run(10)) == 2 and trainer.step() is None
    assert trainer.words[0].symbols == ("ab</w>",)


def test_train_bpe_progress_and_stop():
    seen = []
    trainer = train_bpe(SENNRICH_CORPUS, 8, progress=seen.append)
    assert len(trainer.merges) == 8 and seen[-1] == 1.0
    stopped = train_bpe(SENNRICH_CORPUS, 8, should_stop=lambda: True)
    assert stopped.merges == []


# -- properties ---------------------------------------------------------------------------
corpora = st.dictionaries(st.text(alphabet="abcabé#", min_size=1, max_size=7),
                          st.integers(1, 4), min_size=1, max_size=7)


@settings(max_examples=120, deadline=None)
@given(corpora, st.sampled_from(["first", "smallest", "largest"]),
       st.sampled_from(["</w>", "##", "byte"]))
def test_incremental_trainer_equals_naive_recount(corpus, tie_break, marker):
    expected, final = naive_train(corpus, 30, tie_break, marker)
    trainer = BpeTrainer(corpus, tie_break=tie_break, marker=marker)
    steps = trainer.run(30)
    assert [(s.pair, s.count, s.ties) for s in steps] == expected
    assert [w.symbols for w in trainer.words] == final
    assert trainer.n_tokens == sum(w.count * len(w.symbols) for w in trainer.words)
    assert trainer.curve()[2][-1] == trainer.avg_symbols_per_type == sum(map(len, final)) / len(final)
    symbols = {}
    for w in trainer.words:
        for s in w.symbols:
            symbols[s] = symbols.get(s, 0) + w.count
    assert dict(trainer.symbol_counts) == symbols
    for word in ["abba", "cab", "aaaa"]:
        assert tuple(trainer.segment(word)) == _replay_in_order(word, trainer)


@settings(max_examples=60, deadline=None)
@given(corpora, st.sampled_from(["first", "smallest", "largest"]))
def test_wordpiece_trainer_equals_naive_recount(corpus, tie_break):
    expected, final = naive_train(corpus, 20, tie_break, rule="wordpiece")
    steps = WordPieceTrainer(corpus, tie_break=tie_break).run(20)
    assert [(s.pair, s.count, s.ties) for s in steps] == expected


@settings(max_examples=80, deadline=None)
@given(corpora, st.sampled_from(["first", "smallest", "largest"]),
       st.lists(st.booleans(), max_size=40))
def test_undo_gives_the_state_of_a_fresh_run(corpus, tie_break, moves):
    trainer = BpeTrainer(corpus, tie_break=tie_break)
    for forward in moves:
        trainer.step() if forward else trainer.undo()
        fresh = BpeTrainer(corpus, tie_break=tie_break)
        fresh.run(len(trainer.merges))
        assert state(trainer) == state(fresh)
    assert [s.pair for s in trainer.history] == trainer.merges


def _replay_in_order(word, trainer):
    """Apply every merge in rank order (the textbook definition of ``segment``)."""
    symbols = initial_symbols(word, trainer.marker)
    for pair in trainer.merges:
        symbols = merge_pair(symbols, pair, merged_symbol(*pair, trainer.marker))
    return symbols


def naive_ranking(trainer):
    """Every current pair ordered by (-count, tie-break rule), recounted from scratch."""
    counts = {}
    for w in trainer.words:
        for p in zip(w.symbols, w.symbols[1:]):
            counts[p] = counts.get(p, 0) + w.count
    order = list(counts)  # first-occurrence (corpus) order
    if trainer.tie_break != "first":
        order.sort(reverse=trainer.tie_break == "largest")
    return sorted(((p, counts[p]) for p in order), key=lambda pc: -pc[1])  # stable


@settings(max_examples=80, deadline=None)
@given(corpora, st.sampled_from(["first", "smallest", "largest"]), st.integers(0, 12))
def test_full_candidate_ranking_equals_a_recount(corpus, tie_break, n):
    trainer = BpeTrainer(corpus, tie_break=tie_break)
    for _ in range(n):
        expected = naive_ranking(trainer)
        assert [(c.pair, c.count) for c in trainer.candidates(len(expected) + 1)] == expected
        if trainer.step() is None:
            break


# --- bad input (tester findings) ----------------------------------------------------------------

from collections import Counter  # noqa: E402

import numpy as np  # noqa: E402

from core.training.symbols import TrainingError  # noqa: E402


@pytest.mark.parametrize(
    "word_counts, match",
    [
        (["ab"], r"mapping of word to count.*got a list.*Counter"),
        ("ab", r"mapping.*got a str"),
        (None, r"mapping"),
        ({"ab": -2}, r"count of 'ab' must be a positive integer, got -2"),
        ({"ab": 0}, r"count of 'ab'"),
        ({"ab": 1.5}, r"count of 'ab'"),
        ({"ab": True}, r"count of 'ab'"),
        ({7: 3}, r"non-empty string, got 7"),
        ({"": 3}, r"non-empty string"),
        ({}, r"empty"),
    ],
)
def test_trainer_rejects_bad_word_counts(word_counts, match):
    with pytest.raises(TrainingError, match=match):
        BpeTrainer(word_counts)
    with pytest.raises(TrainingError, match=match):
        WordPieceTrainer(word_counts)


def test_counter_and_numpy_counts_are_accepted():
    assert BpeTrainer(Counter(["ab", "ab", "b"])).word(0).count == 2
    assert BpeTrainer({"ab": np.int64(3)}).word(0).count == 3


@pytest.mark.parametrize("n", [-3, 2.5, "5", None, True])
def test_negative_or_non_integer_merge_counts_are_rejected(n):
    with pytest.raises(TrainingError, match="number of merges"):
        train_bpe(SENNRICH_CORPUS, n)
    trainer = BpeTrainer(SENNRICH_CORPUS)
    with pytest.raises(TrainingError, match="number of merges"):
        trainer.run(n)
    with pytest.raises(TrainingError, match="number of merges"):
        trainer.run_to(n)
    assert trainer.merges == []  # nothing happened


def test_other_trainer_arguments_are_checked():
    trainer = BpeTrainer(SENNRICH_CORPUS)
    with pytest.raises(TrainingError, match="k must be"):
        trainer.candidates(-1)
    with pytest.raises(TrainingError, match=r"word index 99 .*4 word types"):
        trainer.word(99)
    with pytest.raises(TrainingError, match="word index"):
        trainer.word(-1)
    with pytest.raises(TrainingError, match="word to segment"):
        trainer.segment(None)
    assert train_bpe(SENNRICH_CORPUS, 0).merges == []
