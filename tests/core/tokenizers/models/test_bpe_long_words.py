"""Long words: the heap merge loop equals a plain O(n²) reference on random vocabularies, and
GPT-2 / cl100k_base equal ``tokenizers`` / ``tiktoken`` on words of thousands of symbols;
the merge list of a rank file is derived only when asked for, and can be cancelled; the
per-word limits of the other models hold for huge values."""

from __future__ import annotations

import base64
import random

import pytest
from hypothesis import given, settings, strategies as st

from core.errors import Cancelled, TokenizerLoadError
from core.tokenizers import load
from core.tokenizers.models import base as models_base
from core.tokenizers.models import bpe as bpe_module
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.bpe_merge import (
    LONG_WORD, PairRanks, heap_merge, merge_by_pairs, merge_by_rank, merges_from_ranks,
    reference_merge)
from core.tokenizers.models.unigram import Unigram
from core.tokenizers.models.wordpiece import WordPiece
from core.tokenizers.pre_tokenizers.split_patterns import CL100K_PATTERN
from tests.core.tokenizers.models.merge_lists import rank_vocabs, rule_of

tokenizers = pytest.importorskip("tokenizers")
tiktoken = pytest.importorskip("tiktoken")
from tiktoken.load import load_tiktoken_bpe  # noqa: E402  (test oracle only)


def naive_pairs(parts, pair_rank, pair_new):
    """The reference loop by merge list, with the symbols' widths (1 each)."""
    widths = [1] * len(parts)
    return reference_merge(parts, pair_rank, pair_new, widths), widths


def naive_ranks(parts, vocab, limit=1 << 62):
    """The reference loop by token rank (tiktoken's rule), below ``limit``."""
    return reference_merge(parts, vocab, limit=limit)


@st.composite
def merge_case(draw):
    """Random merges (in random rank order, so a merge may outrank the ones that make its
    symbols) over a three-letter alphabet, and a word on both sides of LONG_WORD."""
    tokens = ["a", "b", "c"]
    pair_rank, pair_new = {}, {}
    for _ in range(draw(st.integers(0, 16))):
        a, b = draw(st.sampled_from(tokens)), draw(st.sampled_from(tokens))
        if (a, b) not in pair_rank:
            pair_rank[(a, b)] = len(pair_rank)
            pair_new[(a, b)] = a + b
            tokens.append(a + b) if a + b not in tokens else None
    order = draw(st.permutations(list(pair_rank)))
    pair_rank = {p: r for r, p in enumerate(order)}
    word = draw(st.one_of(st.text("abc", max_size=2 * LONG_WORD),
                          st.text("ab", min_size=LONG_WORD, max_size=4 * LONG_WORD)))
    return pair_rank, pair_new, list(word)


@settings(max_examples=300, deadline=None)
@given(merge_case())
def test_merge_list_loops_equal_the_plain_reference(case):
    pair_rank, pair_new, parts = case
    expected, expected_widths = naive_pairs(parts, pair_rank, pair_new)
    rule = rule_of(pair_rank)
    assert heap_merge(parts, rule) == expected
    assert merge_by_pairs(list(parts), rule) == expected
    heap_widths = [1] * len(parts)
    assert heap_merge(parts, rule, heap_widths) == expected
    assert heap_widths == expected_widths


@st.composite
def rank_case(draw):
    """A rank vocabulary (random extra tokens in random rank order), a word, a limit."""
    vocab = draw(rank_vocabs(max_extra=20))
    word = draw(st.one_of(st.text("abc", max_size=2 * LONG_WORD),
                          st.text("ab", min_size=LONG_WORD, max_size=4 * LONG_WORD)))
    limit = draw(st.sampled_from([1 << 62, len(vocab) // 2]))
    return vocab, list(word), limit


@settings(max_examples=300, deadline=None)
@given(rank_case())
def test_rank_loops_equal_the_plain_reference(case):
    vocab, parts, limit = case
    expected = naive_ranks(parts, vocab, limit)
    assert heap_merge(parts, PairRanks(vocab), limit=limit) == expected
    if limit == 1 << 62:
        assert merge_by_rank(list(parts), vocab) == expected


@settings(max_examples=100, deadline=None)
@given(rank_case())
def test_merges_from_ranks_equal_the_plain_derivation(case):
    vocab = case[0]
    expected = []
    for token, rank in sorted(vocab.items(), key=lambda item: item[1]):
        parts = naive_ranks(list(token), vocab, rank) if len(token) > 1 else []
        if len(parts) == 2:
            expected.append(tuple(parts))
    assert merges_from_ranks(vocab) == expected


def test_ties_go_to_the_leftmost_pair_in_long_words():
    # (a, a) everywhere: the leftmost pair merges first, so an odd run keeps its last "a".
    assert heap_merge(list("a" * 101), rule_of({("a", "a"): 0})) == ["aa"] * 50 + ["a"]
    # a lower-ranked pair made by a merge is taken before the next equal-ranked one
    ranks = {("a", "b"): 1, ("ab", "a"): 0}
    assert heap_merge(list("ab" * 60), rule_of(ranks)) == ["aba", "b"] * 30
    # a pair whose right symbol merged first is stale: "ab" no longer forms once "bc" has
    vocab = {"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4}
    assert heap_merge(list("abc" * LONG_WORD), PairRanks(vocab)) == ["a", "bc"] * LONG_WORD


# -- long words against the reference libraries ---------------------------------------------

def long_words():
    rng = random.Random(5)
    b64 = base64.b64encode(rng.randbytes(3750)).decode("ascii")
    return {"a x 5000": "a" * 5000, "base64 x 5000": b64, "emoji x 1500": "\U0001F600" * 1500,
            "mixed": "".join(rng.choice(["ab", "é", "\u0915\u094D", "zz", "0"]) for _ in range(3000))}


@pytest.fixture(scope="module")
def gpt2(data_dir):
    path = data_dir / "tokenizers" / "gpt2" / "tokenizer.json"
    ref = tokenizers.Tokenizer.from_file(str(path))
    ref.no_truncation()
    return load(path), ref


@pytest.fixture(scope="module")
def cl100k(data_dir):
    path = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    ref = tiktoken.Encoding("cl100k_base", pat_str=CL100K_PATTERN,
                            mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})
    return load(path), ref


@pytest.mark.parametrize("name", list(long_words()))
def test_gpt2_long_words_equal_tokenizers(gpt2, name):
    ours, ref = gpt2
    text = long_words()[name]
    enc, expected = ours.encode(text), ref.encode(text)
    assert enc.ids == expected.ids
    assert enc.tokens == expected.tokens
    assert [tuple(o) for o in enc.offsets] == expected.offsets


@pytest.mark.parametrize("name", list(long_words()))
def test_cl100k_long_words_equal_tiktoken(cl100k, name):
    ours, ref = cl100k
    text = long_words()[name]
    enc = ours.encode(text)
    expected = ref.encode_ordinary(text)
    assert enc.ids == expected
    assert b"".join(enc.token_bytes) == text.encode("utf-8")
    if text.isascii():  # code points are bytes: spans are the reference's token lengths
        ends = [0]
        for t in expected:
            ends.append(ends[-1] + len(ref.decode_single_token_bytes(t)))
        assert [tuple(o) for o in enc.offsets] == list(zip(ends, ends[1:]))


# -- the merge list of a rank file ----------------------------------------------------------

def test_loading_and_encoding_a_rank_file_never_derives_the_merge_list(data_dir, monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("the merge list was derived")
    monkeypatch.setattr(bpe_module, "merges_from_ranks", fail)
    tok = load(data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken")
    assert tok.encode("hello world " * 20).ids[:2] == [15339, 1917]
    assert tok.model.describe()["merges"] == sum(1 for t in tok.model.vocab if len(t) > 1)
    with pytest.raises(AssertionError, match="derived"):
        tok.model.merge_list()


def test_deriving_the_merge_list_can_be_cancelled_and_then_completes():
    ranks = {bytes([b]): b for b in range(256)}
    for i, token in enumerate([b"ab", b"abc", b"abcd", b"bc", b"xyz"]):
        ranks[token] = 256 + i
    model = BPE.from_tiktoken_ranks(ranks)
    calls = []

    def stop():
        calls.append(1)
        return True
    with pytest.raises(Cancelled):
        model.merge_list(should_stop=stop)
    assert calls == [1]
    assert model.merge_list() == [("a", "b"), ("ab", "c"), ("abc", "d"), ("b", "c")]
    assert model.merges == model.merge_list()


# -- other per-word loops with huge limits --------------------------------------------------

WP_VOCAB = {"[UNK]": 0, "a": 1, "##a": 2, "aa": 3, "##aa": 4, "b": 5, "##b": 6}


def test_wordpiece_with_a_huge_word_limit_splits_long_words():
    wp = WordPiece(WP_VOCAB, max_input_chars_per_word=10 ** 30)
    tokens, ids, starts, ends = wp.tokenize_word("a" * 5001)
    assert tokens == ("aa",) + ("##aa",) * 2499 + ("##a",)
    assert starts == tuple(range(0, 5001, 2)) and ends == tuple(range(2, 5001, 2)) + (5001,)
    assert WordPiece(WP_VOCAB, max_input_chars_per_word=5000).tokenize_word("a" * 5001)[0] == (
        "[UNK]",)


@pytest.mark.parametrize("limit", [float("inf"), 1.5, -1, True, "100", None])
def test_wordpiece_refuses_a_word_limit_that_is_not_a_whole_number(limit):
    with pytest.raises(TokenizerLoadError, match="max_input_chars_per_word"):
        WordPiece(WP_VOCAB, max_input_chars_per_word=limit)


def test_long_words_are_not_kept_in_the_word_cache():
    uni = Unigram([("<unk>", 0.0), ("a", -1.0), ("aa", -1.5)], 0)
    long_word = "a" * models_base.MAX_CACHED_WORD_LENGTH
    first = uni.tokenize_word(long_word)
    assert first[0] == ("aa",) * (len(long_word) // 2)
    assert uni.tokenize_word(long_word) == first
    uni.tokenize_word("aaa")
    # private: which words the model cached is what this test is about
    assert list(uni._cache) == ["aaa"]
