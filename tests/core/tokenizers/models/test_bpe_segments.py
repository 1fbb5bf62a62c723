"""Many words merged together in numpy rounds (``merge_segments``, ``BPE.tokenize_words``)
equal the one-at-a-time heap merge of each word on its own, by merge list and by token rank;
pairs never cross a word boundary; words the rounds hand back are valid intermediate states."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from core.tokenizers.models import bpe as bpe_module
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.bpe_batch import PairTable, merge_segments
from core.tokenizers.models.bpe_merge import PairRanks, heap_merge
from tests.core.tokenizers.models.merge_lists import ALPHABET, EVERY_ROUND, merge_lists


def repetitive(draw_piece):
    return st.tuples(draw_piece, st.integers(1, 8)).map(lambda t: t[0] * t[1])


word_lists = st.lists(
    st.one_of(st.text(ALPHABET, min_size=1, max_size=12),
              repetitive(st.text(ALPHABET, min_size=1, max_size=4))),
    min_size=1, max_size=30)


def by_rank_model(symbols: list[str], rnd) -> BPE:
    ranked = symbols[:len(ALPHABET)] + rnd.sample(symbols[len(ALPHABET):],
                                                  len(symbols) - len(ALPHABET))
    model = BPE({s: i for i, s in enumerate(ranked)}, [])  # a token may outrank its parts
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    model._by_rank = True
    model._rule = PairRanks(model.vocab)
    return model


def reference(model: BPE, word: str) -> list[str]:
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    return heap_merge(list(word), model._rule)


def segments(model: BPE, words: list[str], min_share: int) -> list[list[str]]:
    """Each word's symbols after merge_segments, unfinished words finished by the heap."""
    ids = np.array([model.vocab[c] for w in words for c in w], np.int64)
    seg = np.repeat(np.arange(len(words)), [len(w) for w in words])
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    sym, out_seg, unfinished = merge_segments(ids, seg, PairTable(model._pair_lookup),
                                              min_share)
    assert (np.diff(out_seg) >= 0).all() and set(out_seg.tolist()) == set(range(len(words)))
    out = [[model.id_to_token(i) for i in sym[out_seg == k].tolist()] for k in range(len(words))]
    for k in unfinished.tolist():
        out[k] = heap_merge(out[k], model._rule)
    assert all("".join(parts) == w for parts, w in zip(out, words))  # nothing crosses words
    return out


@settings(max_examples=300, deadline=None)
@given(merge_lists(), word_lists, st.sampled_from([EVERY_ROUND, 64, 2]))
def test_segments_equal_per_word_heap_merge_by_merge_list(table, words, min_share):
    symbols, merges = table
    model = BPE({s: i for i, s in enumerate(symbols)}, merges)
    assert segments(model, words, min_share) == [reference(model, w) for w in words]


@settings(max_examples=300, deadline=None)
@given(merge_lists(), word_lists, st.sampled_from([EVERY_ROUND, 64, 2]),
       st.randoms(use_true_random=False))
def test_segments_equal_per_word_heap_merge_by_token_rank(table, words, min_share, rnd):
    model = by_rank_model(table[0], rnd)
    assert segments(model, words, min_share) == [reference(model, w) for w in words]


@settings(max_examples=150, deadline=None)
@given(merge_lists(), word_lists, st.booleans(), st.randoms(use_true_random=False))
def test_tokenize_words_batched_equals_word_by_word(table, words, by_rank, rnd):
    symbols, merges = table
    words = words * 3  # repeats: each distinct word is merged once
    model = by_rank_model(symbols, rnd) if by_rank else BPE(
        {s: i for i, s in enumerate(symbols)}, merges)
    plain = BPE(model.vocab, merges)
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    plain._by_rank = model._by_rank
    saved = bpe_module.BATCH_WORDS
    bpe_module.BATCH_WORDS = 1  # every list of 64 words or more is merged in rounds
    try:
        got = model.tokenize_words(words * 22)
    finally:
        bpe_module.BATCH_WORDS = saved
    want = [plain._piece(w) for w in words * 22]
    assert got == want


def test_tokenize_words_uses_the_rounds_for_many_new_words(monkeypatch):
    model = BPE({"a": 0, "b": 1, "ab": 2, "abab": 3}, [("a", "b"), ("ab", "ab")])
    words = ["".join("ab" if bit == "1" else "a" for bit in bin(k)[2:]) for k in range(2000)]
    calls = []
    real = bpe_module.merge_segments
    monkeypatch.setattr(bpe_module, "merge_segments",
                        lambda *a, **k: calls.append(len(a[0])) or real(*a, **k))
    got = model.tokenize_words(words)
    # private: a fresh model's per-word piece, the path the batch must equal
    assert calls and got == [BPE({"a": 0, "b": 1, "ab": 2, "abab": 3},
                                 [("a", "b"), ("ab", "ab")])._piece(w) for w in words]
    calls.clear()
    assert model.tokenize_words(words) == got and not calls  # now cached


def test_ignore_merges_words_that_are_tokens_stay_whole():
    vocab = {"a": 0, "b": 1, "ab": 2, "aab": 3, "abab": 4}
    model = BPE(vocab, [("a", "b"), ("ab", "ab")], ignore_merges=True)
    words = ["aab", "abab", "aabab", "ba"] * 1200
    pieces = model.tokenize_words(words)
    assert pieces[0] == (("aab",), (3,), (0,), (3,))
    assert pieces[2] == (("a", "abab"), (0, 4), (0, 1), (1, 5))
