"""SPEC §2 golden figures with the built-in demo tokenizer; SPEC §8 with real BERT."""

from __future__ import annotations

import pytest

from core.align import align
from core.tokenizers import demo_tokenizer, load

FULL = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
TOKENS = "zoe flew to istanbul [UNK] with nv ##id ##ia final".split()
SPANS = "0-4 5-9 11-13 14-22 23-24 25-29 30-32 32-34 34-36 37-41".split()


def test_demo_tokenizer_full_example():
    enc = demo_tokenizer().encode(FULL)
    assert enc.tokens == TOKENS
    assert [f"{a}-{b}" for a, b in enc.offsets] == SPANS
    assert [enc.token_text(i) for i in (0, 3, 4, 9)] == ["Zoe\u0301", "\u0130stanbul",
                                                         "\U0001F600", "\ufb01nal"]


def test_demo_spans_equal_the_cursor_walk():
    enc = demo_tokenizer().encode(FULL)
    assert align(FULL, enc.tokens) == enc.offsets


def test_demo_tokenizer_vocabulary():
    tok = demo_tokenizer()
    assert tok.vocab_size == 15
    assert tok.model_type == "WordPiece"
    assert tok.token_to_id("[UNK]") == 0 and tok.token_to_id("bar") == 14
    assert tok.id_to_token(7) == "##id" and tok.id_to_token(99) is None
    assert tok.unk_token == "[UNK]"
    assert demo_tokenizer().encode(FULL).ids == [1, 2, 3, 4, 0, 5, 6, 7, 8, 9]


def test_demo_normalized_text_is_the_teaching_normalizer():
    enc = demo_tokenizer().encode("Ze\u0301 \ufb01x")
    assert enc.normalized.text == "ze fix"
    assert enc.normalized.spans == [(0, 1), (1, 3), (3, 4), (4, 5), (4, 5), (5, 6)]


@pytest.fixture(scope="module")
def bert(data_dir):
    return load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")


def test_spec8_real_bert_drops_the_accent(bert):
    enc = bert.encode("Zoe\u0301 flew")
    assert list(zip(enc.tokens, enc.offsets)) == [("zoe", (0, 3)), ("flew", (5, 9))]


def test_special_tokens_template(bert):
    enc = bert.encode("Zoe\u0301 flew", add_special_tokens=True)
    assert enc.tokens == ["[CLS]", "zoe", "flew", "[SEP]"]
    assert enc.ids == [101, 11199, 5520, 102]
    assert enc.offsets[0] == enc.offsets[-1] == (0, 0)
    assert enc.special_tokens_mask == [1, 0, 0, 1]
    assert enc.word_ids == [None, 0, 1, None]
    assert len(enc) == 4


def test_special_token_in_text_is_split_out_before_normalization(bert):
    enc = bert.encode("a [SEP] B")
    assert enc.tokens == ["a", "[SEP]", "b"]
    assert enc.offsets == [(0, 1), (2, 7), (8, 9)]
    assert enc.special_tokens_mask == [0, 0, 0]
    assert enc.normalized.text == "a [SEP] b"


def test_describe_shows_padding_and_truncation_without_applying_them(bert):
    info = bert.describe()
    assert info["truncation"]["max_length"] == 128
    assert info["padding"]["strategy"] == {"Fixed": 128}
    assert info["normalizer"]["type"] == "BertNormalizer"
    assert info["pre_tokenizer"]["type"] == "BertPreTokenizer"
    assert info["post_processor"]["type"] == "TemplateProcessing"
    assert info["model"]["type"] == "WordPiece"
    long = "word " * 300
    assert len(bert.encode(long, add_special_tokens=True)) == 302  # no truncation to 128
    assert len(bert.encode("a")) == 1  # no padding


def test_tokenizer_metadata(bert):
    assert bert.model_type == "WordPiece"
    assert bert.vocab_size == 30522
    assert bert.unk_token == "[UNK]"
    assert bert.special_tokens == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert bert.token_to_id("[CLS]") == 101 and bert.id_to_token(102) == "[SEP]"
    assert "tokenizer.json" in bert.name


def test_pre_tokenize_gives_original_spans(bert):
    assert bert.pre_tokenize("Zoe\u0301,  fl\u00e9w [SEP]") == [
        ("zoe", (0, 3)), (",", (4, 5)), ("flew", (7, 11)), ("[SEP]", (12, 17))]


def test_normalize_exposes_the_offset_map(bert):
    nt = bert.normalize("\u00c9t\u00e9 \u4e2d")
    assert nt.text == "ete  \u4e2d "
    assert nt.spans[:3] == [(0, 1), (1, 2), (2, 3)]
    assert nt.spans[5] == (4, 5)


def test_folder_and_vocab_txt_load(data_dir):
    folder = data_dir / "tokenizers" / "bert-base-uncased"
    assert load(folder).describe()["format"] == "tokenizer.json"
    vt = load(folder / "vocab.txt")
    assert vt.describe()["format"] == "vocab.txt"
    assert vt.encode("Zoe\u0301 flew", add_special_tokens=True).tokens == [
        "[CLS]", "zoe", "flew", "[SEP]"]
