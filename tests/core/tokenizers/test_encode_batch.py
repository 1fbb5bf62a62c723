"""``Tokenizer.encode_batch`` equals ``encode`` on each text, field for field: all UDHR lines
through the four shared tokenizers, the teaching tokenizer and a trained SentencePiece
``.model``, with and without special tokens; pipelines the fast path handles differently
(Metaspace schemes, a Split + ByteLevel sequence, prefix spaces, added tokens in the
normalized text) and arbitrary Unicode (hypothesis); the argument checks and cancelling."""

from __future__ import annotations

import copy
import dataclasses
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import Cancelled
from core.tokenizers import demo_tokenizer, load
from core.tokenizers import batch as batch_module
from core.tokenizers.models import bpe as bpe_module
from core.tokenizers.batch import SMALL_TEXT
from core.tokenizers.formats.hf_json import build_tokenizer_json
from core.tokenizers.formats.sentencepiece.model import SentencePieceModel
from core.tokenizers.formats.sentencepiece.tokenizer import SentencePieceTokenizer
from tests.core.strategies import any_text, tricky_text, without_refused_surrogates

SHARED = {"bert": "bert-base-uncased/tokenizer.json", "gpt2": "gpt2/tokenizer.json",
          "pegasus": "pegasus-unigram/tokenizer.json",
          "cl100k": "cl100k_base/cl100k_base.tiktoken",
          "gemma-3": "gemma-3/tokenizer.json"}  # the plain plan with a rewriting normalizer
#: lines per UDHR text for the slower tokenizers (all lines for the others)
SAMPLE = {"pegasus": 25, "cl100k": 40, "gemma-3": 25}
EDGE = ["", " ", "  a  b ", "\ud800x\udfff", "a\x00b\x01", "[CLS] hi [SEP]", "<|endoftext|>x",
        "</s> a <unk>", "▁a ▁b", "e\u0301 ñ 中文字 👩\u200d👩\u200d👧 👍🏽", "\x01abc", "¯\x1f",
        "a\u3000b\u00a0c", " leading", "trailing  ", "\n\n", "it's 1234567 I'll"]
_CACHE: dict[str, object] = {}


def _shared(data_dir, key):
    if key not in _CACHE:
        _CACHE[key] = load(data_dir / "tokenizers" / SHARED[key])
    return _CACHE[key]


def _lines(udhr_texts, per_text=None):
    return [ln for text in udhr_texts.values() for ln in text.splitlines()[:per_text]]


def assert_same(tok, texts, special):
    """Every field of every Encoding of ``encode_batch`` equals ``encode``'s. A tokenizer
    whose format refuses lone surrogates refuses, in both, the texts holding one (the batch
    naming the first), and the other texts are compared."""
    texts = without_refused_surrogates(tok, texts, special)
    batch = tok.encode_batch(texts, add_special_tokens=special)
    assert len(batch) == len(texts)
    for k, (text, got) in enumerate(zip(texts, batch)):
        want = tok.encode(text, add_special_tokens=special)
        for f in dataclasses.fields(want):
            assert getattr(got, f.name) == getattr(want, f.name), (
                f"texts[{k}] = {text[:40]!r}: field {f.name} differs")
        assert got.rules is want.rules  # so the lazy masks and derived spans agree too


@pytest.mark.parametrize("special", [False, True])
@pytest.mark.parametrize("key", SHARED)
def test_shared_tokenizers_udhr_lines(data_dir, udhr_texts, key, special):
    tok = _shared(data_dir, key)
    assert_same(tok, _lines(udhr_texts, SAMPLE.get(key)) + EDGE, special)


@pytest.mark.parametrize("special", [False, True])
def test_teaching_tokenizer_udhr_lines(udhr_texts, special):
    assert_same(demo_tokenizer(), _lines(udhr_texts) + EDGE, special)


def test_long_texts_go_through_encode(data_dir, udhr_texts):
    """A text of SMALL_TEXT code points or more, between short ones, gives encode's result."""
    long = udhr_texts["eng"][:SMALL_TEXT + 10]
    for key in ("bert", "gpt2"):
        assert_same(_shared(data_dir, key), ["short one", long, "", long[:SMALL_TEXT - 1]], True)


def test_sentencepiece_model(udhr_texts):
    spm = pytest.importorskip("sentencepiece")
    train = [ln for c in ("eng", "fra", "rus", "hin") for ln in udhr_texts[c].splitlines()[:40]]
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(train), model_writer=out,
                                   model_type="unigram", vocab_size=400, minloglevel=2,
                                   character_coverage=0.99, num_threads=1)
    tok = SentencePieceTokenizer(SentencePieceModel.from_bytes(out.getvalue()), name="m",
                                 path="m", add_bos=True, add_eos=True)
    lines = _lines(udhr_texts, 8) + EDGE
    assert_same(tok, lines, False)
    assert_same(tok, lines, True)


# -- pipelines the fast path splits its own way ------------------------------------------------

def _variant(doc, edit):
    doc = copy.deepcopy(doc)
    edit(doc)
    return build_tokenizer_json(doc, "variant", "variant")


def _metaspace(scheme):
    def edit(doc):
        doc["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁",
                                "prepend_scheme": scheme, "split": True}
    return edit


def _sequence_metaspace(scheme):
    def edit(doc):
        doc["pre_tokenizer"]["pretokenizers"][1]["prepend_scheme"] = scheme
    return edit


def _prefix_space(doc):
    doc["pre_tokenizer"]["add_prefix_space"] = True


def _split_then_bytes(doc):
    doc["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": r" ?\p{L}+| ?\p{N}+|\s+|[^\s\p{L}\p{N}]+"},
         "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
         "use_regex": False}]}


def _normalizer(spec):
    def edit(doc):
        doc["normalizer"] = spec
    return edit


def _normalized_added(doc):
    doc["added_tokens"].append({"id": 5, "content": "ion", "single_word": False, "lstrip": False,
                                "rstrip": False, "normalized": True, "special": False})


VARIANTS = {
    "metaspace-first": ("pegasus", _metaspace("first")),
    "metaspace-never": ("pegasus", _metaspace("never")),
    "sequence-first": ("pegasus", _sequence_metaspace("first")),
    "sequence-never": ("pegasus", _sequence_metaspace("never")),
    "bytelevel-prefix": ("gpt2", _prefix_space),
    "split-then-bytes": ("gpt2", _split_then_bytes),
    "normalized-added": ("bert", _normalized_added),
    # byte-level texts encoded together: a one-to-one normalizer is covered, NFD is not
    "bytelevel-lowercase": ("gpt2", _normalizer({"type": "Lowercase"})),
    "bytelevel-nfd": ("gpt2", _normalizer({"type": "NFD"})),
}


@pytest.fixture(scope="module")
def variants(docs):
    return {name: _variant(docs[base], edit) for name, (base, edit) in VARIANTS.items()}


@pytest.mark.parametrize("name", VARIANTS)
def test_pipeline_variants(variants, udhr_texts, name):
    assert_same(variants[name], _lines(udhr_texts, 6) + EDGE, True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.one_of(any_text, tricky_text), max_size=6), special=st.booleans(),
       name=st.sampled_from(sorted(VARIANTS) + ["bert", "gpt2", "pegasus"]))
def test_property_any_text(variants, docs, texts, special, name):
    """Arbitrary Unicode (lone surrogates, controls, marks, CJK): offsets and every other
    field equal ``encode``'s."""
    key = f"doc:{name}"
    if name in variants:
        tok = variants[name]
    else:
        if key not in _CACHE:
            _CACHE[key] = build_tokenizer_json(docs[name], name, name)
        tok = _CACHE[key]
    assert_same(tok, texts, special)


def test_byte_level_chunks_on_a_cold_tokenizer(data_dir, udhr_texts, monkeypatch):
    """Texts encoded together in chunks (here of 7, so chunks end mid-list), on a fresh
    tokenizer whose word caches are empty, between texts each chunk hands back (an added
    token, a long text): every field equals ``encode``'s, and a second (warm) call too."""
    monkeypatch.setattr(batch_module, "CHUNK", 7)
    long = udhr_texts["eng"][:SMALL_TEXT + 5]
    texts = _lines(udhr_texts, 3)[:60] + EDGE + [long, "x<|endoftext|>y", "", " a"] * 2
    for key in ("gpt2", "cl100k"):
        tok = load(data_dir / "tokenizers" / SHARED[key])
        assert_same(tok, texts, False)
        assert_same(tok, texts, True)


# -- arguments and cancelling --------------------------------------------------------------

def test_empty_list_and_empty_strings():
    tok = demo_tokenizer()
    assert tok.encode_batch([]) == []
    assert tok.encode_batch(iter(["", ""])) == [tok.encode(""), tok.encode("")]


@pytest.mark.parametrize("bad", [None, 3, b"abc"])
def test_non_str_item_names_its_index(bad):
    with pytest.raises(TypeError, match=r"texts\[2\] must be str"):
        demo_tokenizer().encode_batch(["a", "b", bad, "c"])


def test_a_single_str_is_refused():
    with pytest.raises(TypeError, match="one str"):
        demo_tokenizer().encode_batch("hello")
    with pytest.raises(TypeError, match="list of str"):
        demo_tokenizer().encode_batch(5)


def test_should_stop_cancels_between_texts():
    asked = []

    def should_stop():
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(Cancelled):
        demo_tokenizer().encode_batch(["a b"] * 10, should_stop=should_stop)
    assert len(asked) == 4
    assert len(demo_tokenizer().encode_batch(["a"] * 5, should_stop=lambda: False)) == 5


def test_should_stop_cancels_between_byte_level_texts(data_dir):
    asked = []

    def should_stop():
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(Cancelled):
        _shared(data_dir, "gpt2").encode_batch(["a b"] * 10, should_stop=should_stop)
    assert len(asked) == 4


def test_model_tokens_with_empty_spans(data_dir, udhr_texts):
    """A model that gives empty tokens (here one at the end of every word with an ``e``)
    leaves the fast path's Metaspace spans (the ``▁`` prepended to every word) equal to
    ``encode``'s."""
    tok = load(data_dir / "tokenizers" / SHARED["pegasus"])
    # private: the piece cache's compute function is swapped to return an empty piece
    cache = tok.model._cache
    inner = cache._fn

    def with_empty(word):
        toks, ids, starts, ends = inner(word)
        if "e" not in word:
            return toks, ids, starts, ends
        return toks + ("",), ids + (ids[-1],), starts + (ends[-1],), ends + (ends[-1],)

    cache._fn = with_empty
    assert_same(tok, _lines(udhr_texts, SAMPLE["pegasus"]) + EDGE, False)


@pytest.mark.parametrize("name", ["gpt-4o", "gemma-3"])  # ByteLevel words / the plain plan
def test_a_cold_batch_merges_its_new_words_together(data_dir, udhr_texts, monkeypatch, name):
    """A fresh BPE tokenizer's batch hands its first-seen words to the model all at once
    (numpy rounds, then looked up) — Gemma 3's cut into their merge-free parts — and the
    Encodings equal a text-at-a-time encode on another fresh tokenizer."""
    path = data_dir / "tokenizers" / name / "tokenizer.json"
    if not path.exists():
        pytest.skip(f"{path} is not in the shared data")
    texts = [ln for lang in ("eng", "hin", "arb", "tha", "amh", "rus")
             for ln in udhr_texts[lang].splitlines() if lang in udhr_texts][:400]
    tok = load(path)
    together, one_by_one = [], []
    real = type(tok.model)._merge_many
    monkeypatch.setattr(type(tok.model), "_merge_many",
                        lambda self, words, *a: together.append(len(words)) or real(self, words, *a))
    real_loop = bpe_module.merge_by_pairs  # the merge loop of one word
    monkeypatch.setattr(bpe_module, "merge_by_pairs",
                        lambda parts, *a: one_by_one.append(parts) or real_loop(parts, *a))
    got = tok.encode_batch(texts)
    assert together and together[0] > 1000
    assert len(one_by_one) < together[0] / 10  # the rest: words the rounds left out
    monkeypatch.undo()
    fresh = load(path)
    for text, enc in zip(texts, got):
        want = fresh.encode(text)
        assert (enc.ids, enc.offsets) == (want.ids, want.offsets), text[:40]


def test_a_cold_batch_of_many_lines_goes_flat_and_a_warm_one_looks_up(data_dir, udhr_texts,
                                                                      monkeypatch):
    """Gemma 3 (the plain plan): a cold batch of many texts is tokenized by the model's
    ``tokenize_flat`` (no per-word pieces), a second batch looks its words up (the flat
    path declines: the words are cached whole); both equal a text-at-a-time encode."""
    path = data_dir / "tokenizers" / "gemma-3" / "tokenizer.json"
    if not path.exists():
        pytest.skip(f"{path} is not in the shared data")
    texts = [ln for text in udhr_texts.values() for ln in text.splitlines()][:1500]
    tok = load(path)
    answers = []
    real = type(tok.model).tokenize_flat
    monkeypatch.setattr(type(tok.model), "tokenize_flat", lambda self, words, *a: (
        answers.append(got := real(self, words, *a)) or got))
    cold = tok.encode_batch(texts)
    assert answers and answers[0] is not None
    answers.clear()
    warm = tok.encode_batch(texts)
    assert answers and all(a is None for a in answers)
    monkeypatch.undo()
    fresh = load(path)
    for text, a, b in zip(texts, cold, warm):
        want = fresh.encode(text)
        assert (a.ids, a.offsets, a.word_ids) == (b.ids, b.offsets, b.word_ids) == (
            want.ids, want.offsets, want.word_ids), text[:40]


def test_should_stop_reaches_the_rounds_of_a_cold_batch(data_dir, udhr_texts):
    path = data_dir / "tokenizers" / "gpt2" / "tokenizer.json"
    asked = []
    texts = [ln for text in udhr_texts.values() for ln in text.splitlines()]

    def should_stop():
        asked.append(1)
        return len(asked) > len(texts) + 2  # past the texts: inside the rounds

    with pytest.raises(Cancelled):
        load(path).encode_batch(texts, should_stop=should_stop)
