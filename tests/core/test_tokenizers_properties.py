"""Property tests over arbitrary Unicode: offsets stay sane, parity with the reference holds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.normalize import NormalizedText
from core.tokenizers import demo_tokenizer, load
from core.tokenizers.normalizers import BertNormalizer
from tests.core.strategies import any_text, tricky_text

_CACHE: dict[str, object] = {}


def _bert(data_dir):
    if "bert" not in _CACHE:
        _CACHE["bert"] = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    return _CACHE["bert"]


def _reference(data_dir):
    tokenizers = pytest.importorskip("tokenizers")
    if "ref" not in _CACHE:
        ref = tokenizers.Tokenizer.from_file(
            str(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json"))
        ref.no_truncation()
        ref.no_padding()
        _CACHE["ref"] = ref
    return _CACHE["ref"]


def _check_offsets(text, enc):
    n = len(text)
    starts = []
    for tok, (a, b), special in zip(enc.tokens, enc.offsets, enc.special_tokens_mask):
        assert 0 <= a <= b <= n
        if special:
            assert (a, b) == (0, 0)
        else:
            assert a < b, f"token {tok!r} covers no text"
            starts.append(a)
    assert starts == sorted(starts)
    nt = enc.normalized
    assert nt.original == text
    assert all(0 <= s <= e <= n for s, e in nt.spans)
    assert nt.starts == sorted(nt.starts)
    words = [w for w in enc.word_ids if w is not None]
    assert words == sorted(words)


@settings(max_examples=100, deadline=None)
@given(text=any_text, special=st.booleans())
def test_bert_offsets_are_sane_on_any_text(data_dir, text, special):
    _check_offsets(text, _bert(data_dir).encode(text, add_special_tokens=special))


@settings(max_examples=100, deadline=None)
@given(text=any_text)
def test_demo_offsets_are_sane_on_any_text(text):
    enc = demo_tokenizer().encode(text)
    _check_offsets(text, enc)


@settings(max_examples=100, deadline=None)
@given(text=st.one_of(tricky_text, st.text(max_size=30)), special=st.booleans())
def test_bert_matches_the_reference_on_surrogate_free_text(data_dir, text, special):
    ours = _bert(data_dir).encode(text, add_special_tokens=special)
    ref = _reference(data_dir).encode(text, add_special_tokens=special)
    assert ours.tokens == ref.tokens
    assert ours.ids == ref.ids
    assert ours.offsets == ref.offsets
    assert ours.special_tokens_mask == ref.special_tokens_mask
    assert ours.word_ids == ref.word_ids


@settings(max_examples=100, deadline=None)
@given(text=any_text)
def test_map_chars_cached_equals_the_slow_primitive(text):
    norm = BertNormalizer()
    nt = NormalizedText.identity(text)
    fast = nt.map_chars_cached(norm.char_map, {})
    slow = nt.map_chars(norm.char_map, on_empty="drop")
    assert (fast.text, fast.starts, fast.ends) == (slow.text, slow.starts, slow.ends)


@settings(max_examples=100, deadline=None)
@given(text=any_text)
def test_pre_tokenize_spans_cover_their_tokens(data_dir, text):
    bert = _bert(data_dir)
    words = bert.pre_tokenize(text)
    enc = bert.encode(text)
    assert len(words) == (max(w for w in enc.word_ids) + 1 if enc.word_ids else 0)
    for wid, (a, b) in zip(enc.word_ids, enc.offsets):
        wa, wb = words[wid][1]
        assert wa <= a <= b <= wb
