"""Issue 24: the span hashes behind the numpy finders — a prefix's hash from powers of the
base equals the step-by-step hash, long spans hashed alone equal short ones hashed in
steps, and hostile long pieces and tokens are handled without a step per code point."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from core.tokenizers.models import bpe_ids, span_hash
from core.tokenizers.models.unigram import Unigram

tokenizers = pytest.importorskip("tokenizers")

code_lists = st.lists(st.sampled_from([0, 97, 98, 0x915, 0x1F600, 0x10FFFF]), max_size=200)


def stepped(code: np.ndarray) -> list[int]:
    out, h = [], np.zeros(1, np.uint64)
    for k in range(len(code)):
        h = span_hash.step(h, code[k:k + 1])
        out.append(int(h[0]))
    return out


@settings(max_examples=150, deadline=None)
@given(code_lists)
def test_prefix_hashes_equal_the_step_by_step_hash(values):
    code = np.array(values, np.uint32)
    assert span_hash.prefix_hashes(code).tolist() == stepped(code)


@settings(max_examples=150, deadline=None)
@given(code_lists, st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200)), max_size=12))
def test_long_and_short_spans_hash_alike(values, spans):
    code = np.array(values, np.uint32)
    spans = [(a, min(n, len(code) - a)) for a, n in spans if a <= len(code)]
    starts = np.array([a for a, _ in spans], np.int64)
    lengths = np.array([n for _, n in spans], np.int64)
    got = span_hash.span_hashes(code, starts, lengths, span_hash.longest_first(lengths))
    assert got.tolist() == [stepped(code[a:a + n])[-1] if n else 0 for a, n in spans]


def test_a_hostile_long_piece_is_indexed_and_walked_as_the_reference():
    long_piece = "ab" * 1_500  # 3,000 code points (more than span_hash.SHORT)
    pieces = [("<unk>", 0.0), ("a", -2.0), ("b", -2.0), ("ab", -3.0), (long_piece, -1.0)]
    model = Unigram(pieces, 0)
    assert model._index is not None and model._index.longest == len(long_piece)
    text = long_piece + "a"
    ref = tokenizers.Tokenizer(tokenizers.models.Unigram(pieces, 0, False)).encode(text)
    got = model.tokenize(text)
    assert [t for t, *_ in got] == ref.tokens and [i for _, i, *_ in got] == ref.ids


def test_a_merge_list_naming_a_very_long_token_is_looked_up_one_by_one():
    long_token = "a" * (bpe_ids.LONGEST + 1)
    vocab = {"a": 0, long_token: 1, long_token + "a": 2}
    assert bpe_ids.merge_ids(vocab, f"{long_token} a", " ", 0) is None
    short = {"a": 0, "aa": 1}
    assert bpe_ids.merge_ids(short, "a a", " ", 0).tolist() == [[0, 0, 1]]
