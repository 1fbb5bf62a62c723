"""Every BPE merge loop equals the plain reference loop (``bpe_merge.reference_merge``):
the list scans, the heap loop (widths and rank limit included), the numpy rounds of one word
and of many words, and a BPE model's pieces — on random merge lists and rank vocabularies
(hypothesis) and on the words of the 29 UDHR texts with GPT-2's merge list and
cl100k_base's ranks. Long words' loops can be cancelled."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from core.errors import Cancelled
from core.tokenizers.models.bpe import BPE
from core.tokenizers.models.bpe_batch import STOP_CHECK_PAIRS, merge_segments, merge_word
from core.tokenizers.models.bpe_merge import (
    LONG_WORD, PairRanks, heap_merge, merge_all_ranks, merge_by_pairs, merge_by_rank,
    reference_merge)
from tests.core.tokenizers.loaded import shared_tokenizer
from tests.core.tokenizers.models.merge_lists import (
    EVERY_ROUND, merge_lists, rank_vocabs, reference_tables, rule_of)

_WORDS = st.one_of(st.text("abc", max_size=2 * LONG_WORD),
                   st.text("ab", min_size=LONG_WORD, max_size=4 * LONG_WORD),
                   st.lists(st.text("abc", min_size=1, max_size=5), min_size=1,
                            max_size=8).map(lambda p: "".join(p) * 12))  # repetitive


def _rounds(model: BPE, word: str, min_share: int) -> list[str]:
    """The numpy rounds of one word (:func:`merge_word`), finished by the heap loop."""
    ids = np.array([model.vocab[c] for c in word], np.int64)
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    out, _, done = merge_word(ids, model._pair_table(), min_share)
    parts = [model.id_to_token(i) for i in out.tolist()]
    if done:
        return parts
    return heap_merge(parts, model._rule)


def _segments(model: BPE, words: list[str], min_share: int) -> list[list[str]]:
    """The numpy rounds of many words at once (:func:`merge_segments`), the words they
    leave unfinished finished by the heap loop."""
    lens = [len(w) for w in words]
    sym = np.array([model.vocab[c] for c in "".join(words)], np.int64)
    seg = np.repeat(np.arange(len(words)), lens)
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    sym, seg, unfinished = merge_segments(sym, seg, model._pair_table(), min_share)
    out: list[list[str]] = [[] for _ in words]
    for s, k in zip(sym.tolist(), seg.tolist()):
        out[k].append(model.id_to_token(s))
    for k in unfinished.tolist():
        out[k] = heap_merge(out[k], model._rule)
    return out


def _model_parts(model: BPE, word: str) -> list[str]:
    return list(model.tokenize_word(word)[0])


@settings(max_examples=300, deadline=None)
@given(merge_lists(), _WORDS, st.sampled_from([EVERY_ROUND, 64, 2]))
def test_merge_list_loops_equal_the_reference(table, word, min_share):
    symbols, merges = table
    model = BPE({s: i for i, s in enumerate(symbols)}, merges)
    ranks, new = reference_tables(model)
    widths = [1 + (i % 3) for i in range(len(word))]
    expected_widths = list(widths)
    expected = reference_merge(list(word), ranks, new, expected_widths)
    # private: the model's pair keys, the input of the merge loops tested
    rule = model._rule
    assert merge_by_pairs(list(word), rule) == expected
    assert heap_merge(list(word), rule) == expected
    heap_widths = list(widths)
    assert heap_merge(list(word), rule, heap_widths) == expected
    assert heap_widths == expected_widths
    if word:
        assert _rounds(model, word, min_share) == expected
        assert _model_parts(model, word) == expected


@settings(max_examples=300, deadline=None)
@given(rank_vocabs(), _WORDS, st.sampled_from([EVERY_ROUND, 64, 2]), st.booleans())
def test_rank_loops_equal_the_reference(vocab, word, min_share, limited):
    limit = len(vocab) // 2 if limited else 1 << 62
    expected = reference_merge(list(word), vocab, limit=limit)
    assert heap_merge(list(word), PairRanks(vocab), limit=limit) == expected
    if limited:
        return
    assert merge_by_rank(list(word), vocab) == expected
    if len(word) < LONG_WORD:
        assert merge_all_ranks(list(word), vocab.get) == expected
    if word:
        model = BPE(vocab, [])
        # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
        model._by_rank = True
        model._rule = PairRanks(model.vocab)
        assert _rounds(model, word, min_share) == expected


@settings(max_examples=150, deadline=None)
@given(merge_lists(), st.lists(st.text("abc", min_size=1, max_size=3 * LONG_WORD),
                               min_size=1, max_size=12),
       st.sampled_from([EVERY_ROUND, 64, 2]))
def test_many_words_merged_together_equal_the_reference(table, words, min_share):
    symbols, merges = table
    model = BPE({s: i for i, s in enumerate(symbols)}, merges)
    expected = [reference_merge(list(w), *reference_tables(model)) for w in words]
    assert _segments(model, words, min_share) == expected
    flat = model.tokenize_flat(words * 600)  # enough new symbols for the flat path
    if flat is not None:
        tokens, _, counts = flat[0], flat[1], flat[2].tolist()
        at = 0
        for k, word_tokens in enumerate(expected * 600):
            assert tokens[at:at + counts[k]] == word_tokens
            at += counts[k]


@settings(max_examples=40, deadline=None)
@given(merge_lists(), st.lists(st.text("abcz\u00e9", min_size=1, max_size=12), min_size=1,
                               max_size=12))
def test_many_words_with_characters_that_are_no_token_equal_word_by_word(table, words):
    """Words holding a character that is no token (byte fallback: ``z``, ``é``) are
    tokenized alone by the flat path and laid after the merged ones: every word's tokens,
    ids and spans as :meth:`BPE.tokenize_word` gives them."""
    symbols, merges = table
    vocab = {s: i for i, s in enumerate(symbols)}
    vocab.update({f"<0x{b:02X}>": len(vocab) + b for b in range(256)})
    model, alone = BPE(vocab, merges, byte_fallback=True), BPE(vocab, merges, byte_fallback=True)
    plain = [w.replace("z", "a").replace("\u00e9", "b") + "c" * (k % 40) + "b" * (k // 40)
             for k in range(600) for w in words]
    odd = ["z" + w + "c" * k for k in range(20) for w in words[:2]]
    many = plain + odd + plain[:50] + odd[:5]
    expected = [alone.tokenize_word(w) for w in many]
    flat = model.tokenize_flat(many)
    assert flat is not None  # mostly new words, odd ones a minority: the flat path
    tokens, ids, counts, starts, ends = flat
    at = 0
    for k, (w_tokens, w_ids, w_starts, w_ends) in enumerate(expected):
        n = int(counts[k])
        assert (tuple(tokens[at:at + n]), tuple(ids[at:at + n]), tuple(starts[at:at + n].tolist()),
                tuple(ends[at:at + n].tolist())) == (w_tokens, w_ids, w_starts, w_ends)
        at += n
    assert at == len(tokens)


# -- the 29 UDHR texts ----------------------------------------------------------------------

def _udhr_words(tok, udhr_texts) -> dict[str, list[str]]:
    """Per text, its distinct pre-tokenized (model-alphabet) words."""
    return {name: list(dict.fromkeys(w for w, _ in tok.pre_tokenize(text)))
            for name, text in udhr_texts.items()}


@pytest.mark.parametrize("rel", ["gpt2/tokenizer.json", "cl100k_base/cl100k_base.tiktoken"])
def test_udhr_words_merge_as_the_reference(data_dir, udhr_texts, rel):
    tok = shared_tokenizer(data_dir, rel)
    model = tok.model
    if len(udhr_texts) < 29:
        pytest.skip("the 29 UDHR texts are absent")
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    if model._by_rank:
        def reference(word):
            return reference_merge(list(word), model.vocab)
    else:
        tables = reference_tables(model)

        def reference(word):
            return reference_merge(list(word), *tables)
    for name, words in _udhr_words(tok, udhr_texts).items():
        # and a long word of the text's own symbols: the heap loop, the numpy rounds
        long_word = "".join(words)[:6 * LONG_WORD]
        expected = [reference(w) for w in [*words, long_word]]
        if model._by_rank:
            got = [merge_by_rank(list(w), model.vocab) for w in [*words, long_word]]
        else:
            got = [merge_by_pairs(list(w), model._rule) for w in [*words, long_word]]
        assert got == expected, name
        assert _rounds(model, long_word, 64) == expected[-1], name
        assert _segments(model, [*words, long_word], 64) == expected, name


# -- cancelling a long word -----------------------------------------------------------------

def _stop_after(calls: int):
    asked = [0]

    def should_stop() -> bool:
        asked[0] += 1
        return asked[0] > calls
    return should_stop


def test_heap_loop_asks_should_stop():
    parts = list("ab" * 20_000)
    rule = rule_of({("a", "b"): 0, ("ab", "ab"): 1})
    with pytest.raises(Cancelled):
        heap_merge(parts, rule, should_stop=_stop_after(0))
    assert heap_merge(parts, rule, should_stop=lambda: False) == heap_merge(parts, rule)


@pytest.mark.parametrize("rel", ["gpt2/tokenizer.json", "cl100k_base/cl100k_base.tiktoken"])
def test_a_long_word_is_cancelled_inside_its_merging(data_dir, rel):
    tok = shared_tokenizer(data_dir, rel)
    word = "".join(chr(0x41 + (i * 7919) % 26) for i in range(20_000))  # one 20k-letter word
    with pytest.raises(Cancelled):
        tok.model.tokenize_words([word], _stop_after(1))
    with pytest.raises(Cancelled):
        tok.encode(word, should_stop=_stop_after(2))
    assert tok.model.tokenize_words([word], lambda: False) == [tok.model.tokenize_word(word)]


def test_a_long_words_pairs_are_ranked_a_chunk_at_a_time():
    # no pair merges: all the work is ranking the pairs, and should_stop is asked between
    n = 3 * STOP_CHECK_PAIRS
    asked: list[int] = []
    assert len(heap_merge(["a"] * n, rule_of({}),
                          should_stop=lambda: asked.append(1) or False)) == n
    assert len(asked) >= 3
    model = BPE({"a": 0}, [])
    asked.clear()
    # private: the model's merge tables and rank mode, the input of the numpy merge loops tested
    merge_word(np.zeros(n, np.int64), model._pair_table(),
               should_stop=lambda: asked.append(1) or False)
    assert len(asked) >= 3
