"""The encode pipeline's record and stages: added tokens split the text before and after
normalization, each split carries its normalized piece with its offset map and then its
words and tokens; the builder numbers words as the reference does; components say what
they can do and no caller of the pipeline tests a component's type name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.tokenizers import pipeline as stages
from core.tokenizers.builder import EncodingBuilder
from tests.core.tokenizers.loaded import shared_tokenizer

ROOT = Path(__file__).resolve().parents[3]
PIPELINE_MODULES = ["tokenizer.py", "pipeline.py", "builder.py", "batch.py", "batch_bulk.py"]


def run_stages(tok, text):
    pieces = stages.normalize(tok.normalizer, stages.split_added(tok.added, text))
    splits = stages.pre_tokenize(tok.added, tok.pre_tokenizer, pieces)
    return pieces, stages.tokenize(tok.model, splits)


def test_splits_carry_the_piece_its_map_and_its_tokens(data_dir):
    tok = shared_tokenizer(data_dir, "bert-base-uncased/tokenizer.json")
    text = "Héllo [SEP] Wörld"
    pieces, splits = run_stages(tok, text)
    assert [(s.shift, s.token and s.token.content) for s in pieces] == [
        (0, None), (6, "[SEP]"), (11, None)]
    first = pieces[0]
    assert first.normalized.text == "hello " and first.normalized.to_original(1, 2) == (1, 2)
    assert [s.words for s in splits] == [["hello"], None, ["world"]]
    assert [s.opens_piece for s in splits] == [True, True, True]
    assert splits[0].runs[0].tokens == ["hello"] and splits[2].runs[0].tokens == ["world"]
    builder = EncodingBuilder(len(text))
    for split in splits:
        builder.add(split)
    enc = builder.build(tok, text, stages.joined_normalized(text, pieces), False)
    assert enc == tok.encode(text)
    assert enc.offsets == [(0, 5), (6, 11), (12, 17)] and enc.word_ids == [0, 1, 2]


def test_added_tokens_found_after_normalization_split_one_piece(data_dir):
    tok = shared_tokenizer(data_dir, "gpt2/tokenizer.json")  # <|endoftext|> is normalized
    text = "a<|endoftext|> b"
    pieces, splits = run_stages(tok, text)
    assert len(pieces) == 1 or tok.added.has_raw
    kinds = [(s.token.content if s.token else s.words, s.opens_piece) for s in splits]
    assert ("<|endoftext|>", False) in kinds or ("<|endoftext|>", True) in kinds
    assert tok.encode(text).tokens == ["a", "<|endoftext|>", "Ġb"]


@pytest.mark.parametrize("rel, split", [
    ("bert-base-uncased/tokenizer.json", "plain"), ("gpt2/tokenizer.json", "byte_level"),
    ("pegasus-unigram/tokenizer.json", "then_meta"), ("llama-3/tokenizer.json", "then_bytes"),
    ("gpt-4o/tokenizer.json", "then_bytes"), ("gemma-3/tokenizer.json", "plain")])
def test_components_say_what_they_can_do(data_dir, rel, split):
    tok = shared_tokenizer(data_dir, rel)
    assert tok.pre_tokenizer.batch_split == split
    assert tok.is_byte_level == (rel.split("/")[0] in ("gpt2", "llama-3", "gpt-4o"))
    assert tok.model.tokenize_flat([]) is None


def test_no_caller_of_the_pipeline_tests_a_component_type():
    found = [f"{name}:{k}" for name in PIPELINE_MODULES
             for k, line in enumerate((ROOT / "core/tokenizers" / name).read_text(
                 encoding="utf-8").splitlines(), 1)
             if re.search(r"\.type_name\s*(==|!=|in\b)|hasattr\(|isinstance\(\w+, \w*(Normalizer|"
                          r"PreTokenizer|Model|BPE)\)", line)]
    assert not found
