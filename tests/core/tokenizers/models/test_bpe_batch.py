"""Round merging (every occurrence of the lowest-ranked pair per numpy pass) equals the
one-at-a-time heap merge, by merge list and by token rank, on random vocabularies and
repetitive words; it hands the word back whenever a round could differ."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from core.tokenizers.models import bpe as bpe_module
from core.tokenizers.models import bpe_batch, int_hash
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.bpe_batch import PairTable, merge_word
from core.tokenizers.models.bpe_merge import PairRanks, heap_merge
from tests.core.tokenizers.models.merge_lists import ALPHABET, EVERY_ROUND, merge_lists


def batch_merge(ids, lookup, min_share=bpe_batch.MIN_SHARE):
    out, starts, done = merge_word(np.asarray(ids, np.int64), PairTable(lookup), min_share)
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    assert starts.tolist() == [0, *np.cumsum([len(lookup.__self__._vocab_r[i])
                                              for i in out.tolist()])[:-1].tolist()]
    return out, done


def finish(model: BPE, ids: np.ndarray, by_rank: bool) -> list[str]:
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    out, done = batch_merge(ids, model._pair_lookup, min_share=EVERY_ROUND)
    parts = [model.id_to_token(i) for i in out.tolist()]
    if done:
        return parts
    return heap_merge(parts, model._rule)


words = st.lists(st.text(ALPHABET, min_size=1, max_size=6), min_size=1, max_size=40).map(
    "".join)  # runs of short repeated pieces: "ab" * k, "aaa…", mixtures


@settings(max_examples=300, deadline=None)
@given(merge_lists(), words, st.integers(1, 6))
def test_rounds_equal_heap_merge_by_merge_list(table, piece, repeat):
    symbols, merges = table
    model = BPE({s: i for i, s in enumerate(symbols)}, merges)
    word = piece * repeat
    ids = np.array([model.vocab[c] for c in word], np.int64)
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    assert finish(model, ids, False) == heap_merge(list(word), model._rule)


@settings(max_examples=300, deadline=None)
@given(merge_lists(), words, st.integers(1, 6), st.randoms(use_true_random=False))
def test_rounds_equal_heap_merge_by_token_rank(table, piece, repeat, rnd):
    symbols, _ = table
    ranked = symbols[:len(ALPHABET)] + rnd.sample(symbols[len(ALPHABET):],
                                                  len(symbols) - len(ALPHABET))
    vocab = {s: i for i, s in enumerate(ranked)}  # shuffled ranks: a token may outrank its parts
    model = BPE(vocab, [])
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    model._by_rank = True
    model._rule = PairRanks(model.vocab)
    word = piece * repeat
    ids = np.array([vocab[c] for c in word], np.int64)
    assert finish(model, ids, True) == heap_merge(list(word), PairRanks(vocab))


def test_a_round_that_would_form_a_lower_pair_merges_only_the_leftmost():
    # b c c c c: ("c", "c") twice in one round, then ("b", "cc"): every formed pair ranks higher
    model = BPE({"a": 0, "b": 1, "c": 2, "cc": 3, "bcc": 4},
                [("c", "c"), ("b", "cc")])
    ids = np.array([1, 2, 2, 2, 2], np.int64)  # b c c c c
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    out, done = batch_merge(ids, model._pair_lookup)
    assert done and [model.id_to_token(i) for i in out.tolist()] == ["bcc", "cc"]
    model = BPE({"b": 0, "c": 1, "cc": 2, "ccc": 3}, [("cc", "c"), ("c", "c")])
    # c c|c c: after the first merge ("cc", "c") ranks 0, below ("c", "c"): that round
    # merges only the leftmost pair, as the one-at-a-time rule does
    out, done = batch_merge(np.array([1, 1, 1, 1], np.int64), model._pair_lookup)
    assert done and [model.id_to_token(i) for i in out.tolist()] == ["ccc", "c"]
    assert heap_merge(["c"] * 4, model._rule) == ["ccc", "c"]


def test_long_words_use_the_rounds_and_agree_with_the_plain_loop(monkeypatch):
    model = BPE({"a": 0, "b": 1, "aa": 2, "ab": 3, "aaaa": 4, "abab": 5},
                [("a", "a"), ("a", "b"), ("aa", "aa"), ("ab", "ab")])
    word = "a" * 5001 + "ab" * 3000
    got = model.tokenize(word)
    used = []
    monkeypatch.setattr(bpe_module, "merge_word",
                        lambda *a, **k: used.append(1) or bpe_batch.merge_word(*a, **k))
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    model._cache.clear()
    assert model.tokenize(word) == got and used
    monkeypatch.setattr(bpe_module, "BATCH_WORD", 1 << 40)  # the plain heap loop
    model._cache.clear()
    assert model.tokenize(word) == got


@settings(max_examples=200, deadline=None)
@given(merge_lists(), st.data())
def test_whole_merge_list_table_answers_as_the_asking_one(table, data):
    """The table given every merge at once (a hash table) answers each pair, merging or
    not, as the one asking the model pair by pair."""
    symbols, merges = table
    model = BPE({s: i for i, s in enumerate(symbols)}, merges)
    whole = model._pair_table()
    assert whole._table is not None  # the merge list came whole
    ids = st.integers(0, len(symbols) - 1)
    asked = data.draw(st.lists(st.tuples(ids, ids), max_size=60))
    asked += [(model._vocab[a], model._vocab[b]) for a, b in merges]  # every merge asked
    left = np.asarray([a for a, _ in asked], np.int64)
    right = np.asarray([b for _, b in asked], np.int64)
    got_rank, got_new = whole.ranks(left, right)
    want_rank, want_new = PairTable(model._pair_lookup).ranks(left, right)
    assert got_rank.tolist() == want_rank.tolist()
    merging = want_rank != bpe_batch.NO_RANK
    assert got_new[merging].tolist() == want_new[merging].tolist()


def test_whole_table_keeps_the_last_rank_of_a_pair_listed_twice():
    model = BPE({t: i for i, t in enumerate(["a", "b", "ab", "c", "abc"])},
                [("a", "b"), ("ab", "c"), ("a", "b")])
    rank, new = model._pair_table().ranks(np.array([0, 2, 1]), np.array([1, 3, 0]))
    assert rank.tolist() == [2, 1, bpe_batch.NO_RANK] and new[:2].tolist() == [2, 4]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 50),
                          st.integers(0, 9)), max_size=120),
       st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=80))
def test_whole_table_answers_as_a_dict_with_pairs_given_many_times(entries, asked):
    """The hash table of :meth:`PairTable.from_arrays` (crowded: few distinct pairs, each
    given up to dozens of times, so probes run long and twins race for one slot) answers
    as a dict keeping each pair's highest ``(rank, merged)``; so does the sorted table it
    falls back to when keys crowd it (a probe limit of 1: any collision)."""
    want: dict[tuple[int, int], tuple[int, int]] = {}
    for a, b, r, g in entries:
        want[a, b] = max(want.get((a, b), (r, g)), (r, g))
    cols = [np.asarray(c, np.int64) for c in zip(*entries)] if entries else [
        np.zeros(0, np.int64)] * 4
    asked += list(want)
    left = np.asarray([a for a, _ in asked], np.int64)
    right = np.asarray([b for _, b in asked], np.int64)
    for limit in (int_hash.MAX_PROBE, 1):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(int_hash, "MAX_PROBE", limit)
            table = PairTable.from_arrays(*cols)
        rank, new = table.ranks(left, right)
        for (a, b), r, g in zip(asked, rank.tolist(), new.tolist()):
            assert (r, g) == want[a, b] if (a, b) in want else r == bpe_batch.NO_RANK


def test_keys_crafted_to_crowd_the_hash_table_fall_back_to_a_sorted_one():
    """Keys whose home slots are one run of consecutive slots (what a hostile file could
    pick) would make every look-up probe the whole run: the table is sorted instead."""
    bits = (4 * 1000).bit_length()
    # the key landing in slot s: s * 2**(64 - bits) times the inverse of the multiplier
    inverse = pow(0x9E3779B97F4A7C15, -1, 1 << 64)
    keys = np.array([((s << (64 - bits)) * inverse) % (1 << 64) for s in range(1000)],
                    np.uint64).view(np.int64)
    assert (int_hash._slot_of(keys, bits) == np.arange(1000)).all()
    left, right = keys >> 32, keys & 0xFFFFFFFF
    ok = (left >= 0) & (left < 2**31)
    table = PairTable.from_arrays(left[ok], right[ok], np.arange(ok.sum()), np.zeros(ok.sum()))
    assert table._table is None
    rank, _ = table.ranks(left[ok], right[ok])
    assert rank.tolist() == list(range(ok.sum()))
