"""The unlimited rank loop (``bpe_merge.merge_all_ranks``, what encoding uses) equals the
reference loop with a limit and the heap loop; a BPE model's pieces built straight from the merged
symbols (``BPE._piece_from_parts``) equal the per-token form of ``BPE._compute``, for rank
and merge-list models, words in and out of the vocabulary included."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from core.errors import SubwordScopeError
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.bpe_merge import (
    LONG_WORD, PairRanks, heap_merge, merge_all_ranks, merge_by_rank, reference_merge)
from tests.core.tokenizers.models.merge_lists import rank_vocabs

_WORD = st.text("abc", max_size=LONG_WORD - 1)


@settings(max_examples=400, deadline=None)
@given(vocab=rank_vocabs(), word=_WORD)
def test_unlimited_rank_loop_equals_the_limited_one_and_the_heap(vocab, word):
    limited = reference_merge(list(word), vocab, limit=(1 << 62) - 1)  # the rule with a limit
    assert merge_all_ranks(list(word), vocab.get) == limited
    assert heap_merge(list(word), PairRanks(vocab)) == limited
    assert merge_by_rank(list(word), vocab) == limited  # dispatches to the unlimited loop


def _transposed(model, word):
    # private: the per-token form the plain-parts shortcut must equal (no public seam gives it)
    toks = model._compute(word)
    return tuple(zip(*toks)) if toks else ((), (), (), ())


@settings(max_examples=300, deadline=None)
@given(vocab=rank_vocabs(), word=_WORD)
def test_rank_model_pieces_equal_compute(vocab, word):
    model = BPE.from_tiktoken_ranks({t.encode(): r for t, r in vocab.items()} | {
        bytes([b]): len(vocab) + b for b in range(256) if chr(b) not in vocab})
    # the byte-level spelling of "abc" is "abc" itself
    assert model.tokenize_word(word) == _transposed(model, word)


@st.composite
def merge_model(draw):
    """A merge-list model over "abc" (merges in random rank order), maybe with
    ``ignore_merges``, a prefix, or a character ("d") missing from the vocabulary."""
    tokens = ["a", "b", "c"]
    merges = []
    for _ in range(draw(st.integers(0, 12))):
        a, b = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        if (a, b) not in merges:
            merges.append((a, b))
            if a + b not in tokens:
                tokens.append(a + b)
    merges = draw(st.permutations(merges))
    vocab = {t: i for i, t in enumerate(tokens + ["<unk>"])}
    kind = draw(st.sampled_from(["plain", "ignore", "unk"]))
    return BPE(vocab, list(merges), unk_token="<unk>" if kind == "unk" else None,
               ignore_merges=kind == "ignore")


@settings(max_examples=300, deadline=None)
@given(model=merge_model(), word=st.text("abcd", max_size=LONG_WORD + 8))
def test_merge_list_model_pieces_equal_compute(model, word):
    assert model.tokenize_word(word) == _transposed(model, word)


def test_a_rank_model_names_a_character_outside_the_byte_alphabet():
    model = BPE.from_tiktoken_ranks({bytes([b]): b for b in range(256)})
    with pytest.raises(SubwordScopeError, match="not a byte-level symbol"):
        model.tokenize_word("a\u4e2d")


def _rank_model(vocab):
    return BPE.from_tiktoken_ranks({t.encode(): r for t, r in vocab.items()} | {
        bytes([b]): len(vocab) + b for b in range(256) if chr(b) not in vocab})


@settings(max_examples=300, deadline=None)
@given(vocab=rank_vocabs(), data=st.data())
def test_rank_pieces_of_token_words_equal_compute(vocab, data):
    """Words joined from tokens (so many are a token whole), short and past LONG_WORD,
    through a fresh model's piece cache (``BPE._rank_piece``) one by one and in a batch."""
    tokens = st.sampled_from(sorted(vocab))
    words = data.draw(st.lists(st.lists(tokens, max_size=LONG_WORD // 2).map("".join),
                               min_size=1, max_size=70))
    model = _rank_model(vocab)
    expected = [_transposed(model, w) for w in words]
    assert [model.tokenize_word(w) for w in words] == expected
    assert _rank_model(vocab).tokenize_words(words) == expected
    assert model.tokenize_words(words) == expected  # from the cache


def test_a_rank_model_gives_a_whole_token_word_one_piece():
    model = _rank_model({"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4, "bc": 5})
    assert model.tokenize_word("abc") == (("abc",), (4,), (0,), (3,))
    assert model.tokenize_word("cab") == (("c", "ab"), (2, 3), (0, 1), (1, 3))
    assert model.tokenize_word("") == ((), (), (), ())
