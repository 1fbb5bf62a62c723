"""Lone surrogates at ``encode``: each format as its reference library. ``tokenizers``
(tokenizer.json, vocab.txt, GPT-2 files) and ``sentencepiece`` (.model) refuse them, and so
do we, with LoneSurrogateError; tiktoken repairs the text through UTF-16 (pairs joined,
every other surrogate U+FFFD), and so do we, with spans on the text given."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.parity import _tiktoken_ref
from core.align.view import alignment_view
from core.errors import LoneSurrogateError, SubwordScopeError
from core.tokenizers import demo_tokenizer, load
from core.tokenizers.surrogates import PASS, REFUSE, REPLACE, Repair
from tests.core.tokenizers.loaded import shared_tokenizer

REFUSING = {"tokenizer.json": "gpt2/tokenizer.json", "vocab.txt": "bert-base-uncased/vocab.txt",
            "gpt2 files": "gpt2/vocab.json"}
TEXT = "ok a\udc80b \ud800"


def _reference_refuses(rel, data_dir):
    """The reference library's own answer to TEXT (it raises)."""
    tokenizers = pytest.importorskip("tokenizers")
    path = data_dir / "tokenizers" / rel
    if rel.endswith("vocab.json"):
        ref = tokenizers.ByteLevelBPETokenizer(str(path), str(path.with_name("merges.txt")))
    elif rel.endswith("vocab.txt"):
        ref = tokenizers.BertWordPieceTokenizer(str(path))
    else:
        ref = tokenizers.Tokenizer.from_file(str(path))
    with pytest.raises(TypeError):
        ref.encode(TEXT)


def _assert_refuses(tok):
    assert tok.lone_surrogates == REFUSE
    with pytest.raises(LoneSurrogateError) as caught:
        tok.encode(TEXT)
    err = caught.value
    assert isinstance(err, ValueError) and (err.index, err.code_point) == (4, 0xDC80)
    assert "U+DC80 at code point 4" in str(err)
    with pytest.raises(LoneSurrogateError, match=r"^texts\[1\] holds a lone surrogate U\+DC80"):
        tok.encode_batch(["fine", TEXT, "\ud800"])
    assert tok.encode("ok ab").ids == tok.encode_batch(["ok ab"])[0].ids  # still usable


@pytest.mark.parametrize("fmt", REFUSING)
def test_tokenizers_formats_refuse_like_the_library(fmt, data_dir):
    _reference_refuses(REFUSING[fmt], data_dir)
    _assert_refuses(shared_tokenizer(data_dir, REFUSING[fmt]))


def test_sentencepiece_model_refuses_like_the_library(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(["hello world, ok then"] * 30),
                                   model_writer=out, vocab_size=20, minloglevel=2, num_threads=1,
                                   hard_vocab_limit=False)
    with pytest.raises(RuntimeError):
        spm.SentencePieceProcessor(model_proto=out.getvalue()).encode(TEXT)
    path = tmp_path / "tiny.model"
    path.write_bytes(out.getvalue())
    _assert_refuses(load(path))


def test_the_teaching_tokenizer_passes_them_through():
    tok = demo_tokenizer()
    assert tok.lone_surrogates == PASS
    assert tok.encode(TEXT).normalized.original == TEXT


surrogate_text = st.lists(st.sampled_from(
    ["a", " ", "ab", "\ud83d", "\ude00", "\ud800", "\udfff", "\udbff\udfff", "\u00e9", "\u4e2d",
     "\U0001F600", "x y", "\n"]), max_size=10).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=surrogate_text)
def test_tiktoken_repairs_like_tiktoken(data_dir, text):
    pytest.importorskip("tiktoken")
    rel = "cl100k_base/cl100k_base.tiktoken"
    tok = shared_tokenizer(data_dir, rel)
    assert tok.lone_surrogates == REPLACE
    ref = _TIKTOKEN.get(rel) or _TIKTOKEN.setdefault(rel, _tiktoken_ref(data_dir / "tokenizers" / rel))
    enc = tok.encode(text)
    repaired = Repair(text).text
    assert enc.ids == ref(repaired, False)[1]  # tiktoken.encode_ordinary(text), see below
    assert enc.normalized.original == text
    assert all(0 <= a <= b <= len(text) for a, b in enc.offsets)
    assert [a for a, _ in enc.offsets] == sorted(a for a, _ in enc.offsets)
    if enc.offsets:
        assert enc.offsets[-1][1] == len(text)
    batch = tok.encode_batch(["x", text])[1]
    assert (batch.ids, batch.offsets) == (enc.ids, enc.offsets)


_TIKTOKEN: dict[str, object] = {}


def test_tiktoken_itself_repairs_through_utf16(data_dir):
    """What the repair reproduces: tiktoken.encode_ordinary of the text as given."""
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    from core.tokenizers.formats.tiktoken_file import PRESETS, detect_preset

    path = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    enc = tiktoken.Encoding(name="c", pat_str=PRESETS[detect_preset(path)].pattern,
                            mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})
    tok = shared_tokenizer(data_dir, "cl100k_base/cl100k_base.tiktoken")
    for text in ["a\ud83d\ude00b", "\ude00\ud83d", "x\ud800", "\udbff\udfff\udbff"]:
        assert tok.encode(text).ids == enc.encode_ordinary(text)
    pair = tok.encode("a\ud83d\ude00b")  # the joined pair covers both halves
    assert Repair("a\ud83d\ude00b").text == "a\U0001F600b"
    assert list(pair.offsets) == [(0, 1), (1, 3), (1, 3), (3, 4)]


def test_alignment_view_reports_a_refused_surrogate_in_its_status(data_dir):
    view = alignment_view("a\ud800b", shared_tokenizer(data_dir, REFUSING["tokenizer.json"]))
    assert view.error is not None and "lone surrogate U+D800 at code point 1" in view.error
    assert view.tokens == []


def test_the_error_is_a_subword_scope_error():
    assert issubclass(LoneSurrogateError, SubwordScopeError)
