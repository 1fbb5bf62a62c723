"""Property tests over arbitrary Unicode: offsets stay sane, parity with the reference holds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.text.normalize import NormalizedText
from core.tokenizers import demo_tokenizer, load
from core.tokenizers.normalizers import BertNormalizer
from tests.core.strategies import any_text, refused_surrogate, tricky_text

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
    if refused_surrogate(_bert(data_dir), text, special):
        return
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
    if refused_surrogate(bert, text):
        return
    words = bert.pre_tokenize(text)
    enc = bert.encode(text)
    assert len(words) == (max(w for w in enc.word_ids) + 1 if enc.word_ids else 0)
    for wid, (a, b) in zip(enc.word_ids, enc.offsets):
        wa, wb = words[wid][1]
        assert wa <= a <= b <= wb


SHARED = {"gpt2": "gpt2/tokenizer.json", "pegasus": "pegasus-unigram/tokenizer.json",
          "cl100k": "cl100k_base/cl100k_base.tiktoken"}


def _shared(data_dir, key):
    if key not in _CACHE:
        _CACHE[key] = load(data_dir / "tokenizers" / SHARED[key])
    return _CACHE[key]


@pytest.mark.parametrize("key", SHARED)
@settings(max_examples=60, deadline=None)
@given(text=any_text, special=st.booleans())
def test_shared_tokenizers_offsets_are_sane_on_any_text(data_dir, key, text, special):
    """Spans in range and ordered, word ids ordered, whole normalized map sane — lone
    surrogates and control characters included (refused where the format refuses them)."""
    if refused_surrogate(_shared(data_dir, key), text, special):
        return
    enc = _shared(data_dir, key).encode(text, add_special_tokens=special)
    n = len(text)
    assert len(enc.tokens) == len(enc.ids) == len(enc.offsets) == len(enc.word_ids)
    starts = [a for (a, b), m in zip(enc.offsets, enc.special_tokens_mask) if not m]
    assert all(0 <= a <= b <= n for a, b in enc.offsets)
    assert starts == sorted(starts)
    words = [w for w in enc.word_ids if w is not None]
    assert words == sorted(words)
    assert enc.normalized.original == text


@pytest.mark.parametrize("key", ["gpt2", "pegasus"])
@settings(max_examples=60, deadline=None)
@given(text=st.one_of(tricky_text, st.text(max_size=30)).filter(
    lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s)), special=st.booleans())
def test_shared_word_ids_and_masks_match_the_reference(data_dir, key, text, special):
    tokenizers = pytest.importorskip("tokenizers")
    ref_key = f"ref-{key}"
    if ref_key not in _CACHE:
        ref = tokenizers.Tokenizer.from_file(str(data_dir / "tokenizers" / SHARED[key]))
        ref.no_truncation()
        _CACHE[ref_key] = ref
    ours = _shared(data_dir, key).encode(text, add_special_tokens=special)
    ref = _CACHE[ref_key].encode(text, add_special_tokens=special)
    assert (ours.tokens, ours.ids, ours.offsets) == (ref.tokens, ref.ids, ref.offsets)
    assert ours.word_ids == ref.word_ids
    assert ours.special_tokens_mask == ref.special_tokens_mask
    assert ours.type_ids == ref.type_ids
