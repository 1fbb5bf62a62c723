"""Held-out words with token counts and out-of-alphabet flags; the word-level baseline
(golden figures: the trade-off and pathology tables of the lecture reading on BPE)."""

from __future__ import annotations

import pytest

from core.training.bpe import BpeTrainer
from core.training.heldout import UNK, WordLevel, heldout_report, vocabulary
from core.training.symbols import TrainingError

# the 16-word trade-off corpus as word counts, in corpus order (11 word types)
TRADE_OFF = {"the": 5, "tokenizer": 1, "tokenizes": 1, "text": 1, "transformer": 1,
             "transforms": 1, "tokens": 2, "a": 1, "learner": 1, "learns": 1, "learned": 1}


@pytest.fixture(scope="module")
def bpe30():
    trainer = BpeTrainer(TRADE_OFF)
    trainer.run_to(30)
    return trainer


def test_word_level_baseline_has_12_entries_16_tokens_and_unk():
    words = WordLevel(TRADE_OFF)
    assert (words.table_size, words.corpus_tokens) == (12, 16)
    assert words.segment("learners") == [UNK] == ["[UNK]"]
    assert words.segment("learner") == ["learner"]


def test_word_level_refuses_an_empty_corpus():
    with pytest.raises(TrainingError):
        WordLevel({})


@pytest.mark.parametrize("text, tokens, chars, ratio, worst", [
    ("the learner learns", 5, 16, 0.31, ("learner", ["learn", "er</w>"], [])),
    ("The Learner Learns", 16, 16, 1.00, ("Learner", ["L", "e", "a", "r", "n", "er</w>"], ["L"])),
    ("learner 2026 44444", 13, 16, 0.81, ("44444", ["4"] * 5 + ["</w>"], ["4"] * 5)),
    ("der lernende lernt", 15, 16, 0.94, ("lernende", ["l", "er", "n", "e", "n", "d", "e", "</w>"], [])),
])
def test_pathology_rows(bpe30, text, tokens, chars, ratio, worst):
    report = heldout_report(bpe30, text)
    assert (report.n_tokens, report.n_chars, round(report.tokens_per_char, 2)) == (tokens, chars, ratio)
    word = max(report.words, key=lambda w: w.n_tokens)  # the first longest, as printed
    assert (word.word, list(word.symbols), list(word.unknown)) == worst


def test_trade_off_held_out_word(bpe30):
    assert vocabulary(bpe30) >= {"learn", "er", "s</w>"}
    assert len(vocabulary(bpe30)) == 47 == bpe30.vocab_size
    assert list(heldout_report(bpe30, "learners").words[0].symbols) == ["learn", "er", "s</w>"]


def test_empty_text_reports_nothing(bpe30):
    report = heldout_report(bpe30, "   ")
    assert (report.n_tokens, report.n_chars, report.tokens_per_char, report.n_unknown) == (0, 0, 0.0, 0)
