"""Malformed, unsupported and missing tokenizer files give a TokenizerLoadError that says what
is wrong and names the file (never a raw KeyError / JSONDecodeError / UnicodeDecodeError)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import TokenizerLoadError
from core.tokenizers import load
from core.tokenizers.formats import FILE_RULES, FOLDER_FILES, LOADERS

VOCAB = {"[UNK]": 0, "a": 1, "##b": 2}


def _doc(**changes):
    doc = {"version": "1.0", "added_tokens": [], "normalizer": None, "pre_tokenizer": None,
           "post_processor": None, "decoder": None, "truncation": None, "padding": None,
           "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                     "max_input_chars_per_word": 100, "vocab": dict(VOCAB)}}
    doc.update(changes)
    return doc


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content),
                        encoding="utf-8")
    return path


def _error(path) -> str:
    with pytest.raises(TokenizerLoadError) as info:
        load(path)
    message = str(info.value)
    assert str(path) in message
    return message


def test_minimal_document_loads(tmp_path):
    tok = load(_write(tmp_path, "tokenizer.json", _doc()))
    assert tok.encode("ab a").tokens == ["[UNK]"]  # no pre-tokenizer: one word
    assert tok.encode("ab a").offsets == [(0, 4)]
    split = load(_write(tmp_path, "t2.json", _doc(pre_tokenizer={"type": "WhitespaceSplit"})))
    assert split.encode("ab a").tokens == ["a", "##b", "a"]
    assert split.encode("ab a").offsets == [(0, 1), (1, 2), (3, 4)]
    bom = load(_write(tmp_path, "t3.json", b"\xef\xbb\xbf" + json.dumps(_doc()).encode()))  # parsed as bytes
    assert bom.encode("ab a").tokens == ["[UNK]"]


@pytest.mark.parametrize("content,words", [
    ("", "empty"),
    ("   \n", "empty"),
    (json.dumps(_doc())[:200], "invalid JSON"),
    ("[1, 2, 3]", "JSON object"),
    (json.dumps({"version": "1.0"}), "no 'model'"),
    (b"\x00\x01\x02binary\xff\xfe", "binary"),
    (b"{\"model\": \"\xe9\xe8\"}", "not UTF-8"),
])
def test_unreadable_tokenizer_json(tmp_path, content, words):
    assert words in _error(_write(tmp_path, "tokenizer.json", content))


@pytest.mark.parametrize("changes,words", [
    ({"model": "WordPiece"}, "model"),
    ({"model": {"type": "WordPiece", "unk_token": "[UNK]"}}, "vocab"),
    ({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": ["a", "b"]}}, "vocab"),
    ({"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"a": "1"}}}, "vocab"),
    ({"model": {"type": "WordPiece", "unk_token": "<unk>", "vocab": VOCAB}}, "<unk>"),
    ({"model": {"type": "WordPiece", "vocab": {}}}, "empty"),
    ({"model": {"type": "WordPiece", "vocab": VOCAB, "continuing_subword_prefix": None}},
     "model.continuing_subword_prefix: must be a string, not null"),
    ({"model": {"type": "WordPiece", "vocab": VOCAB, "max_input_chars_per_word": "x"}},
     "model"),
    ({"normalizer": 5}, "normalizer"),
    ({"normalizer": {"type": "Replace", "content": "x"}}, "normalizer"),
    ({"normalizer": {"type": "Replace", "pattern": {"Regex": "(("}, "content": "x"}}, "(("),
    ({"normalizer": {"type": "Replace", "pattern": {"String": "a"}, "content": 3}}, "Replace"),
    ({"normalizer": {"type": "Prepend", "prepend": None}}, "Prepend"),
    ({"pre_tokenizer": {"type": "Punctuation", "behavior": "Sideways"}}, "Sideways"),
    ({"added_tokens": {"id": 1}}, "added_tokens"),
    ({"added_tokens": [{"content": "x"}]}, "added_tokens"),
    ({"padding": "yes"}, "padding"),
    ({"post_processor": {"type": "TemplateProcessing", "single": [
        {"SpecialToken": {"id": "[CLS]", "type_id": 0}}], "special_tokens": {}}}, "[CLS]"),
])
def test_wrong_types_and_missing_parts(tmp_path, changes, words):
    assert words in _error(_write(tmp_path, "tokenizer.json", _doc(**changes)))


@pytest.mark.parametrize("section,component", [
    ("normalizer", {"type": "Precompiled2", "precompiled_charsmap": ""}),
    ("pre_tokenizer", {"type": "Metaspace2"}),
    ("post_processor", {"type": "ExoticProcessing"}),
    ("model", {"type": "Ngram", "vocab": {}}),
])
def test_unsupported_component_is_named(tmp_path, section, component):
    message = _error(_write(tmp_path, "tokenizer.json", _doc(**{section: component})))
    assert component["type"] in message and "unsupported" in message


def test_unsupported_component_inside_a_sequence(tmp_path):
    seq = {"type": "Sequence", "normalizers": [{"type": "NFC"}, {"type": "Gibberish"}]}
    assert "Gibberish" in _error(_write(tmp_path, "tokenizer.json", _doc(normalizer=seq)))


@pytest.mark.parametrize("content,words", [
    ("", "empty"),
    (b"\x00\x00\x00\x00", "binary"),
    (b"[UNK]\ncaf\xe9\n", "not UTF-8"),
    ("a\nb\n", "[UNK]"),
])
def test_bad_vocab_txt(tmp_path, content, words):
    assert words in _error(_write(tmp_path, "vocab.txt", content))


def test_vocab_txt_setup(tmp_path):
    tok = load(_write(tmp_path, "vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\nzoe\n##s\n,\n"))
    enc = tok.encode("Zo\u00e9s, ZOE", add_special_tokens=True)
    assert enc.tokens == ["[CLS]", "zoe", "##s", ",", "zoe", "[SEP]"]
    assert enc.offsets == [(0, 0), (0, 3), (3, 4), (4, 5), (6, 9), (0, 0)]
    assert tok.special_tokens == ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]


@pytest.mark.parametrize("name", ["vocab.json", "merges.txt", "cl100k_base.tiktoken", "m.model"])
def test_other_formats_are_detected_and_garbage_rejected(tmp_path, name):
    if name in ("vocab.json", "merges.txt"):  # the GPT-2 pair: the other file is fine
        _write(tmp_path, "vocab.json", json.dumps(GPT2_VOCAB))
        _write(tmp_path, "merges.txt", "a b\n")
    _error(_write(tmp_path, name, b"\x00garbage\xff"))


GPT2_VOCAB = {"a": 0, "b": 1, "ab": 2, "\u0120": 3}


@pytest.mark.parametrize("vocab,merges,bad,words", [
    (json.dumps(GPT2_VOCAB)[:20], "a b\n", "vocab.json", "invalid JSON"),
    ("[1, 2]", "a b\n", "vocab.json", "must be an object"),
    (json.dumps({"a": "zero"}), "a b\n", "vocab.json", '["a"]: an id must be'),
    (b"\xff\xfe\x00\x01", "a b\n", "vocab.json", "not valid UTF-8"),
    (json.dumps(GPT2_VOCAB), "#version: 0.2\na\n", "merges.txt", "line 2"),
    (json.dumps(GPT2_VOCAB), "a b\na c\n", "merges.txt", "'c' is not in the vocabulary"),
    (json.dumps(GPT2_VOCAB), "", "merges.txt", "empty"),
])
def test_bad_gpt2_files(tmp_path, vocab, merges, bad, words):
    _write(tmp_path, "vocab.json", vocab)
    _write(tmp_path, "merges.txt", merges)
    with pytest.raises(TokenizerLoadError) as info:
        load(tmp_path / "vocab.json")
    assert str(tmp_path / bad) in str(info.value) and words in str(info.value)


def test_gpt2_file_without_its_sibling(tmp_path):
    assert "merges.txt is missing" in _error(_write(tmp_path, "vocab.json", json.dumps(GPT2_VOCAB)))


def _ranks(n=256, extra=()):
    import base64

    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(n)]
    return "\n".join([*lines, *extra]) + "\n"


@pytest.mark.parametrize("content,words", [
    (_ranks(200), "single byte"),
    (_ranks(extra=["YWI= 5"]), "line 257: rank 5 appears twice"),
    (_ranks(extra=["YWI="]), "line 257: expected a base64 token"),
    (_ranks(extra=["@@@ 300"]), "line 257"),
    (_ranks()[:-40] + "\x00\x01", "line"),
    ("", "empty"),
])
def test_bad_tiktoken_files(tmp_path, content, words):
    assert words in _error(_write(tmp_path, "cl100k_base.tiktoken", content))


def test_tiktoken_bad_pattern_and_unknown_name(tmp_path):
    path = _write(tmp_path, "cl100k_base.tiktoken", _ranks())
    with pytest.raises(TokenizerLoadError, match="does not compile"):
        load(path, pattern="((")
    assert "split pattern" in _error(_write(tmp_path, "mine.tiktoken", _ranks()))


def test_bad_sentencepiece_models(tmp_path):
    assert "SentencePiece" in _error(_write(tmp_path, "m.model", b"\x0a\xff\xff\x01garbage"))
    assert "no pieces" in _error(_write(tmp_path, "e.model", b"\x20\x01"))
    spm = pytest.importorskip("sentencepiece")
    import io

    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(["hello world", "a b c"] * 20),
                                   model_writer=buf, vocab_size=15, minloglevel=2,
                                   num_threads=1)
    data = buf.getvalue()
    for cut in (len(data) // 3, len(data) - 7):
        assert "SentencePiece" in _error(_write(tmp_path, f"cut{cut}.model", data[:cut]))


BPE_MODEL = {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}
UNIGRAM_MODEL = {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["a", -1.0]]}


@pytest.mark.parametrize("model,words", [
    ({k: v for k, v in BPE_MODEL.items() if k != "merges"}, "merges"),
    (dict(BPE_MODEL, merges="a b"), "merges"),
    (dict(BPE_MODEL, merges=["a c"]), "'c'"),
    (dict(BPE_MODEL, merges=["a  b"]), "merge 1"),
    (dict(BPE_MODEL, vocab={"a": -1}), 'model.vocab["a"]: an id must be a whole number from 0'),
    (dict(BPE_MODEL, unk_token="<unk>"), "<unk>"),
    (dict(BPE_MODEL, byte_fallback="yes"), "byte_fallback"),
    (dict(UNIGRAM_MODEL, vocab={"a": 1}), "vocab"),
    (dict(UNIGRAM_MODEL, vocab=[["a", "high"]]), 'model.vocab[0][1]: must be a finite number, not "high"'),
    (dict(UNIGRAM_MODEL, unk_id=7), "unk_id 7"),
    (dict(UNIGRAM_MODEL, byte_fallback=1), "byte_fallback"),
    ({"type": "WordLevel", "vocab": ["a"], "unk_token": "<unk>"}, "vocab"),
])
def test_bad_bpe_and_unigram_models(tmp_path, model, words):
    assert words in _error(_write(tmp_path, "tokenizer.json", _doc(model=model)))


@pytest.mark.parametrize("section,cfg,words", [
    ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [{"type": "ByteLevel"},
                                                            {"type": "Exotic"}]}, "Exotic"),
    ("pre_tokenizer", {"type": "Metaspace", "replacement": "ab"}, "replacement"),
    ("pre_tokenizer", {"type": "Metaspace", "prepend_scheme": "sometimes"}, "sometimes"),
    ("pre_tokenizer", {"type": "ByteLevel", "add_prefix_space": "no"}, "add_prefix_space"),
    ("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "(("}, "behavior": "Isolated"}, "(("),
    ("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Up"}, "Up"),
    ("pre_tokenizer", {"type": "CharDelimiterSplit", "delimiter": "ab"}, "one character"),
    ("normalizer", {"type": "Precompiled", "precompiled_charsmap": "not base64!"}, "base64"),
    ("normalizer", {"type": "Precompiled", "precompiled_charsmap": "AAAA"}, "charsmap"),
    ("post_processor", {"type": "RobertaProcessing", "sep": ["</s>"], "cls": ["<s>", 0]},
     "post_processor"),
    ("post_processor", {"type": "ByteLevel", "trim_offsets": 3}, "trim_offsets"),
])
def test_bad_new_components(tmp_path, section, cfg, words):
    assert words in _error(_write(tmp_path, "tokenizer.json", _doc(**{section: cfg})))


def test_missing_path_and_empty_folder(tmp_path):
    assert "no such file" in _error(tmp_path / "nope.json")
    assert "no tokenizer file" in _error(tmp_path)
    assert "unrecognised" in _error(_write(tmp_path, "notes.md", "hello"))


def test_folder_prefers_tokenizer_json(tmp_path):
    _write(tmp_path, "vocab.txt", "[UNK]\nx\n")
    _write(tmp_path, "tokenizer.json", _doc())
    assert load(tmp_path).describe()["format"] == "tokenizer.json"


def test_detection_tables_are_consistent():
    formats = {fmt for _, fmt in FILE_RULES} | {fmt for _, fmt in FOLDER_FILES}
    assert formats <= set(LOADERS)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12,
)
_TYPES = ["WordPiece", "BertNormalizer", "Sequence", "Replace", "Strip", "Prepend", "NFC",
          "Punctuation", "Digits", "TemplateProcessing", "BertProcessing", "BPE", "Unigram",
          "WordLevel", "ByteLevel", "Metaspace", "Split", "CharDelimiterSplit",
          "UnicodeScripts", "RobertaProcessing", "Precompiled", "Nmt"]
_component = st.fixed_dictionaries({"type": st.sampled_from(_TYPES)}, optional={
    k: _json for k in ("normalizers", "pretokenizers", "pattern", "content", "prepend",
                       "behavior", "single", "special_tokens", "sep", "cls", "vocab",
                       "unk_token", "lowercase", "strip_left", "merges", "unk_id",
                       "replacement", "prepend_scheme", "add_prefix_space", "use_regex",
                       "trim_offsets", "delimiter", "invert", "precompiled_charsmap",
                       "processors", "byte_fallback")})


@settings(max_examples=int(os.environ.get("SUBWORDSCOPE_FUZZ", "60")), deadline=None)
@given(section=st.sampled_from(["normalizer", "pre_tokenizer", "post_processor", "model",
                                "added_tokens", "padding"]),
       value=st.one_of(_json, _component))
def test_random_json_sections_load_or_fail_cleanly(tmp_path_factory, section, value):
    path = tmp_path_factory.getbasetemp() / "fuzz-tokenizer.json"
    path.write_text(json.dumps(_doc(**{section: value})), encoding="utf-8")
    try:
        tok = load(path)
    except TokenizerLoadError:
        return
    tok.encode("Ab c, 1\u00e9", add_special_tokens=True)
