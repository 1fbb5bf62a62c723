"""``Encoding.unknown_mask`` and ``Encoding.byte_fallback_mask`` for every format, checked against
the reference libraries' ids: a token is unknown iff its id is the reference's unknown id, a
byte-fallback piece iff the reference model falls back to bytes and the token is ``<0xNN>``.
(SentencePiece ``.model`` files: tests/core/tokenizers/formats/test_sentencepiece.py.)"""

from __future__ import annotations

import json
import re

import pytest

from core.tokenizers import load
from core.tokenizers.encoding import Encoding
from core.text.normalize import NormalizedText
from tests.core.tokenizers import small_docs as sd

tokenizers = pytest.importorskip("tokenizers")

BYTE_PIECE = re.compile(r"<0x[0-9A-F]{2}>")
SHARED_JSON = {"bert": "bert-base-uncased/tokenizer.json", "gpt2": "gpt2/tokenizer.json",
               "pegasus": "pegasus-unigram/tokenizer.json"}
_LOADED: dict = {}


def _shared(data_dir, name):
    if name not in _LOADED:
        path = data_dir / "tokenizers" / SHARED_JSON[name]
        ref = tokenizers.Tokenizer.from_file(str(path))
        ref.no_truncation()
        doc = json.loads(path.read_text(encoding="utf-8"))
        _LOADED[name] = load(path), ref, sd.reference_unk_id(ref, doc), doc
    return _LOADED[name]


def _expected(ref, doc, unk_id, text):
    ids = ref.encode(text, add_special_tokens=False).ids
    fallback = bool(doc["model"].get("byte_fallback"))
    return ([i == unk_id for i in ids],
            [fallback and BYTE_PIECE.fullmatch(ref.id_to_token(i) or "") is not None for i in ids])


@pytest.mark.parametrize("name", sorted(SHARED_JSON))
@pytest.mark.parametrize("lang", ["hin", "arb", "tha", "amh", "eng", "cmn_hans"])
def test_shared_tokenizers_mark_what_the_reference_ids_say(data_dir, name, lang):
    tok, ref, unk_id, doc = _shared(data_dir, name)
    text = (data_dir / "udhr" / f"{lang}.txt").read_text(encoding="utf-8")
    enc = tok.encode(text)
    unknown, fallback = _expected(ref, doc, unk_id, text)
    assert enc.unknown_mask == unknown
    assert enc.byte_fallback_mask == fallback


@pytest.mark.parametrize("name, lang, unknown, tokens", [
    ("pegasus", "hin", 2150, 4417), ("pegasus", "arb", 1314, 2732), ("pegasus", "tha", 319, 669),
    ("pegasus", "amh", 83, 166), ("bert", "tha", 311, 380), ("bert", "amh", 2125, 2125),
    ("bert", "hin", 294, 6963), ("gpt2", "tha", 0, 18_130),
])
def test_unknown_counts_on_udhr(data_dir, name, lang, unknown, tokens):
    enc = _shared(data_dir, name)[0].encode((data_dir / "udhr" / f"{lang}.txt").read_text("utf-8"))
    assert (sum(enc.unknown_mask), len(enc)) == (unknown, tokens)


def test_pegasus_gives_whole_words_id_105_with_their_own_text(data_dir):
    enc = _shared(data_dir, "pegasus")[0].encode("\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22 नमस्ते")
    assert list(zip(enc.tokens, enc.ids, enc.unknown_mask)) == [
        ("\u2581", 110, False), ("\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22", 105, True),
        ("\u2581", 110, False), ("नमस्ते", 105, True)]


def test_bert_vocab_txt_marks_thai_as_unknown(data_dir):
    tok = load(data_dir / "tokenizers" / "bert-base-uncased" / "vocab.txt")
    enc = tok.encode("\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22 hello")
    assert enc.tokens == ["[UNK]", "hello"] and enc.unknown_mask == [True, False]
    assert tok.token_rules.unk_id == 100 and enc.byte_fallback_mask == [False, False]


@pytest.mark.parametrize("rel", ["gpt2/vocab.json", "cl100k_base/cl100k_base.tiktoken"])
def test_byte_level_files_have_neither(data_dir, rel):
    tok = load(data_dir / "tokenizers" / rel)
    enc = tok.encode("\u0e20\u0e32\u0e29\u0e32 \U0001F600 x")
    assert tok.token_rules.unk_id is None and not tok.token_rules.byte_pieces
    assert not any(enc.unknown_mask) and not any(enc.byte_fallback_mask)


SMALL = {
    "bpe-unk": (sd.bpe_doc(unk=True, byte_fallback=False), "abc \u00e9 ab\U0001F600x"),
    "bpe-bytes": (sd.bpe_doc(unk=True, byte_fallback=True), "abc \u00e9 ab\U0001F600x"),
    "bpe-none": (sd.bpe_doc(unk=False, byte_fallback=False), "abc \u00e9 ab\U0001F600x"),
    "unigram": (sd.unigram_doc(byte_fallback=False), "ab \u00e7\u00e9 ba x"),
    "unigram-bytes": (sd.unigram_doc(byte_fallback=True), "ab \u00e7\u00e9 ba x"),
    "wordlevel": (sd.wordlevel_doc(), "hello there world"),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_small_models_mark_what_the_reference_ids_say(tmp_path, name):
    doc, text = SMALL[name]
    path = sd.write_doc(tmp_path, name, doc)
    ref = tokenizers.Tokenizer.from_file(str(path))
    enc = load(path).encode(text)
    unknown, fallback = _expected(ref, doc, sd.reference_unk_id(ref, doc), text)
    assert enc.ids == ref.encode(text, add_special_tokens=False).ids
    assert (enc.unknown_mask, enc.byte_fallback_mask) == (unknown, fallback)
    assert any(unknown) == (name not in ("bpe-none", "bpe-bytes", "unigram-bytes"))
    assert any(fallback) == name.endswith("bytes")


def test_a_hand_built_encoding_has_no_unknowns():
    enc = Encoding(["a"], [0], [(0, 1)], [0], [0], NormalizedText.identity("a"))
    assert enc.unknown_mask == [False] and enc.byte_fallback_mask == [False]
    assert enc.derived_offsets == [(0, 1)]
