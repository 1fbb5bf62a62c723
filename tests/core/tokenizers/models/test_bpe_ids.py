"""Issue 24: the ids of a merge list's tokens found in numpy (hashes, each id checked code
point by code point) equal the vocabulary's own; a hash that collides, or a token that
is not in the vocabulary, gives them up for the one-by-one look-ups (which name it)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from core.tokenizers.models import bpe_build, bpe_ids, span_hash
from core.tokenizers.models.bpe_build import MergeError, merge_tables

ALPHABET = "ab\u00e9\u0915\u093f\U0001f600#"


@st.composite
def merge_lists(draw):
    """A vocabulary and merges over ``ALPHABET``, with or without a ``##`` prefix."""
    cut = draw(st.sampled_from([0, 2]))
    prefix = "##"[:cut]
    symbols = list(ALPHABET) + ([prefix + c for c in ALPHABET] if cut else [])
    merges = []
    for _ in range(draw(st.integers(0, 30))):
        a, b = draw(st.sampled_from(symbols)), draw(st.sampled_from(symbols))
        if cut and not b.startswith(prefix):
            b = prefix + b
        merges.append((a, b))
        for token in (a + b[cut:], prefix + a + b[cut:]):
            if token not in symbols:
                symbols.append(token)
    vocab = {t: i for i, t in enumerate(draw(st.permutations(symbols)))}
    return vocab, merges, cut


def looked_up(vocab, merges, cut):
    return np.array([[vocab[a], vocab[b], vocab[a + b[cut:]]] for a, b in merges],
                    np.int64).reshape(-1, 3)


@settings(max_examples=200, deadline=None)
@given(merge_lists(), st.booleans())
def test_ids_found_by_hash_equal_the_vocabulary_s(case, spaced):
    vocab, merges, cut = case
    sep = " " if spaced else "\0"
    got = bpe_ids.merge_ids(vocab, sep.join(t for m in merges for t in m), sep, cut)
    want = looked_up(vocab, merges, cut)
    if merges:  # (no text: nothing to read, the look-ups answer)
        assert got is not None and got.tolist() == want.tolist()


@settings(max_examples=100, deadline=None)
@given(merge_lists())
def test_a_hash_where_anagrams_collide_gives_the_same_tables(case):
    vocab, merges, cut = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(span_hash, "BASE", np.uint64(1))  # the hash of a token: its code point sum
        got = merge_tables(vocab, merges, "##"[:cut], None)
        patch.setattr(bpe_build, "_fast_tables", lambda *a: None)
        slow = merge_tables(vocab, merges, "##"[:cut], None)
    assert got[:2] == slow[:2]
    assert got[2].tolist() == looked_up(vocab, merges, cut).tolist()


def test_an_anagram_of_a_token_is_no_token(monkeypatch):
    """``ba`` hashes as the token ``ab`` under a colliding hash: the code points tell them
    apart, and the merge that names ``ba`` is named in the error."""
    monkeypatch.setattr(span_hash, "BASE", np.uint64(1))
    vocab = {"a": 0, "b": 1, "ab": 2}
    assert bpe_ids.merge_ids(vocab, "a b", " ", 0).tolist() == [[0, 1, 2]]
    assert bpe_ids.merge_ids(vocab, "b a", " ", 0) is None  # "ba" is no token
    with pytest.raises(MergeError) as err:
        merge_tables(vocab, [("a", "b"), ("b", "a")], "", None)
    assert err.value.index == 1 and "'ba'" in str(err.value)


def test_text_that_does_not_split_into_pairs_is_given_up():
    vocab = {"a": 0, "b": 1, "ab": 2}
    assert bpe_ids.merge_ids(vocab, "a b a", " ", 0) is None
    assert bpe_ids.merge_ids(vocab, "", " ", 0) is None


@pytest.mark.parametrize("rel", ["gpt2", "llama-3", "qwen3"])
def test_shared_merge_lists_equal_the_one_by_one_look_ups(data_dir, rel, monkeypatch):
    import json
    path = data_dir / "tokenizers" / rel / "tokenizer.json"
    if not path.exists():
        pytest.skip(f"{path} is not in the shared data")
    vocab, merges, _ = bpe_build.bpe_options_from_json(
        json.loads(path.read_text(encoding="utf-8"))["model"])
    fast = merge_tables(vocab, merges, "", None)
    monkeypatch.setattr(bpe_ids, "merge_ids", lambda *a: None)
    monkeypatch.setattr(bpe_build, "merge_ids", lambda *a: None)
    looked = merge_tables(vocab, merges, "", None)
    assert fast[1] == looked[1] and fast[2].tolist() == looked[2].tolist()
    assert fast[0] == looked[0]
