"""Every file format through ``core.tokenizers.load``: detection, options, the readable form
of byte-level tokens, SPEC §8's golden byte-level spans, and SentencePiece ``.model`` files
(trained here) against ``SentencePieceProcessor``."""

from __future__ import annotations

import io
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import TokenizerLoadError
from core.tokenizers import load
from tests.core.strategies import tricky_text


@pytest.fixture(scope="module")
def tok_dir(data_dir):
    return data_dir / "tokenizers"


@pytest.fixture(scope="module")
def gpt2(tok_dir):
    return load(tok_dir / "gpt2" / "tokenizer.json")


@pytest.fixture(scope="module")
def cl100k(tok_dir):
    return load(tok_dir / "cl100k_base" / "cl100k_base.tiktoken")


def test_spec_8_golden_byte_level_spans(gpt2, tok_dir):
    text = "Zoe\u0301 \U0001F600"
    for tok in (gpt2, load(tok_dir / "gpt2" / "merges.txt")):
        enc = tok.encode(text)
        assert list(zip(enc.tokens, enc.offsets)) == [
            ("Z", (0, 1)), ("oe", (1, 3)), ("Ì", (3, 4)), ("ģ", (3, 4)), ("ĠðŁĺ", (4, 6)),
            ("Ģ", (5, 6))]
        assert enc.token_bytes == [b"Z", b"oe", b"\xcc", b"\x81", b" \xf0\x9f\x98", b"\x80"]
        assert enc.readable_tokens[:2] == ["Z", "oe"] and enc.readable_tokens[4] == " \\xf0\\x9f\\x98"
        assert tok.is_byte_level and enc.byte_level


def test_readable_form_is_none_for_other_vocabularies(tok_dir):
    enc = load(tok_dir / "bert-base-uncased").encode("Zoe flew")
    assert enc.token_bytes is None and enc.readable_tokens == enc.tokens == ["zoe", "flew"]
    assert not load(tok_dir / "bert-base-uncased").is_byte_level


def test_every_shared_folder_and_file_loads(tok_dir):
    expected = {"bert-base-uncased": ("tokenizer.json", "WordPiece"),
                "gpt2": ("tokenizer.json", "BPE"),
                "pegasus-unigram": ("tokenizer.json", "Unigram"),
                "cl100k_base": ("tiktoken", "BPE")}
    for folder, (fmt, model) in expected.items():
        tok = load(tok_dir / folder)
        assert (tok.describe()["format"], tok.model_type) == (fmt, model)
    assert load(tok_dir / "gpt2" / "vocab.json").describe()["format"] == "vocab.json+merges.txt"


def test_tiktoken_pattern_and_special_tokens_options(cl100k, tok_dir, tmp_path):
    path = tok_dir / "cl100k_base" / "cl100k_base.tiktoken"
    text = "hi<|endoftext|>"
    ordinary = cl100k.encode(text)
    assert 100257 not in ordinary.ids and "".join(ordinary.readable_tokens) == text
    with_specials = load(path, special_tokens=True)
    assert with_specials.encode(text).ids == [6151, 100257]
    assert with_specials.encode(text).offsets == [(0, 2), (2, 15)]
    assert cl100k.describe()["pattern"] == "cl100k_base"
    renamed = tmp_path / "ranks.tiktoken"
    shutil.copy(path, renamed)
    with pytest.raises(TokenizerLoadError, match="split pattern"):
        load(renamed)
    assert load(renamed, pattern="cl100k_base").encode(text).ids == cl100k.encode(text).ids
    assert load(renamed, pattern=r"\S+|\s+").encode("ab cd").tokens == ["ab", "Ġ", "cd"]


def test_unknown_options_are_refused(tok_dir):
    with pytest.raises(TokenizerLoadError, match="unknown option.*pattern"):
        load(tok_dir / "gpt2" / "tokenizer.json", pattern="gpt2")
    with pytest.raises(TokenizerLoadError, match="accepted: pattern, special_tokens"):
        load(tok_dir / "cl100k_base", lowercase=True)


def test_gpt2_files_need_their_sibling(tok_dir, tmp_path):
    shutil.copy(tok_dir / "gpt2" / "vocab.json", tmp_path / "vocab.json")
    with pytest.raises(TokenizerLoadError, match="merges.txt is missing"):
        load(tmp_path / "vocab.json")
    shutil.copy(tok_dir / "gpt2" / "merges.txt", tmp_path / "merges.txt")
    tok = load(tmp_path)
    assert tok.encode("Hello world").tokens == ["Hello", "Ġworld"]
    assert tok.special_tokens == ["<|endoftext|>"]


def test_gpt2_file_options(tok_dir):
    tok = load(tok_dir / "gpt2" / "vocab.json", add_prefix_space=True, trim_offsets=True)
    enc = tok.encode("Hello  world")
    assert enc.tokens == ["ĠHello", "Ġ", "Ġworld"]
    assert enc.offsets == [(0, 5), (6, 6), (7, 12)]


@settings(max_examples=60, deadline=None)
@given(text=tricky_text)
def test_byte_level_offsets_own_whole_characters(gpt2, cl100k, text):
    """Every token's bytes lie inside its span; a span covers whole characters; spans are
    ordered and the tokens' bytes concatenate to the text's bytes."""
    for tok in (gpt2, cl100k):
        enc = tok.encode(text)
        assert b"".join(enc.token_bytes) == text.encode("utf-8", "surrogatepass")
        pos = 0
        for data, (a, b) in zip(enc.token_bytes, enc.offsets):
            lo = len(text[:a].encode("utf-8", "surrogatepass"))
            hi = len(text[:b].encode("utf-8", "surrogatepass"))
            assert lo <= pos and pos + len(data) <= hi
            pos += len(data)


@settings(max_examples=100, deadline=None)
@given(text=st.one_of(tricky_text, st.text(max_size=30)).filter(
    lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s)))
def test_cl100k_through_load_equals_tiktoken(cl100k, tok_dir, text):
    pytest.importorskip("tiktoken")
    from benchmarks.parity import _tiktoken_ref

    ref = _REFS.get("cl100k") or _REFS.setdefault(
        "cl100k", _tiktoken_ref(tok_dir / "cl100k_base" / "cl100k_base.tiktoken"))
    enc = cl100k.encode(text)
    assert (enc.tokens, enc.ids, enc.offsets) == tuple(ref(text, False))


_REFS: dict = {}


# -- SentencePiece .model files through load() ------------------------------------------

@pytest.fixture(scope="module")
def spm_models(data_dir, tmp_path_factory):
    spm = pytest.importorskip("sentencepiece")
    lines = [ln for c in ("eng", "deu_1996", "rus") for ln in
             (data_dir / "udhr" / f"{c}.txt").read_text("utf-8").splitlines()[:50] if ln.strip()]
    out = {}
    for kind in ("unigram", "bpe"):
        buf = io.BytesIO()
        spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buf,
                                       model_type=kind, vocab_size=700, byte_fallback=True,
                                       character_coverage=0.995,
                                       minloglevel=2, num_threads=1)
        path = tmp_path_factory.mktemp("spm") / f"{kind}.model"
        path.write_bytes(buf.getvalue())
        out[kind] = (path, spm.SentencePieceProcessor(model_file=str(path)))
    return out


def _reference(sp, text):
    pieces = sp.encode(text, out_type="proto").pieces
    char_at = {len(text[:i].encode("utf-8")): i for i in range(len(text) + 1)}
    spans = [(char_at[p.begin], char_at[p.end]) for p in pieces]
    return [p.piece for p in pieces], [p.id for p in pieces], spans


@pytest.mark.parametrize("kind", ["unigram", "bpe"])
def test_sentencepiece_model_through_load(spm_models, data_dir, kind):
    path, sp = spm_models[kind]
    tok = load(path)
    assert tok.model_type == ("Unigram" if kind == "unigram" else "BPE")
    assert tok.describe()["format"] == "sentencepiece"
    for code in ("eng", "fra", "jpn", "hin"):
        text = (data_dir / "udhr" / f"{code}.txt").read_text("utf-8")
        enc = tok.encode(text)
        assert (enc.tokens, enc.ids, enc.offsets) == _reference(sp, text), code
        assert enc.normalized.original == text and len(enc.word_ids) == len(enc.ids)
    enc = tok.encode("Hello world", add_special_tokens=True)
    assert "<s>" not in enc.tokens and enc.special_tokens_mask == [0] * len(enc.ids)
    assert enc.word_ids[0] == 0 and enc.word_ids[-1] == 1


def test_sentencepiece_bos_eos_only_when_asked(spm_models):
    path, sp = spm_models["unigram"]
    tok = load(path, add_bos=True, add_eos=True)
    enc = tok.encode("Hello", add_special_tokens=True)
    assert enc.ids == sp.encode("Hello", add_bos=True, add_eos=True)
    assert enc.special_tokens_mask[0] == enc.special_tokens_mask[-1] == 1
    assert enc.offsets[0] == enc.offsets[-1] == (0, 0)
    assert tok.encode("Hello").ids == sp.encode("Hello")


@settings(max_examples=60, deadline=None)
@given(text=st.one_of(tricky_text, st.text(max_size=30)).filter(
    lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s)))
def test_sentencepiece_property_equals_processor(spm_models, text):
    path, sp = spm_models["unigram"]
    enc = _cached(path).encode(text)
    assert (enc.tokens, enc.ids, enc.offsets) == _reference(sp, text)


_LOADED: dict = {}


def _cached(path):
    if path not in _LOADED:
        _LOADED[path] = load(path)
    return _LOADED[path]
