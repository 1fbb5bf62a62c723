"""The encode pipeline's record and stages: added tokens split the text before and after
normalization, each split carries its normalized piece with its offset map and then its
words and tokens; the builder numbers words as the reference does; components say what
they can do and no caller of the pipeline tests a component's type name."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    assert [(s.shift + s.start, s.token and s.token.content) for s in pieces] == [
        (0, None), (6, "[SEP]"), (11, None)]
    # the token keeps its stretch of the whole text's map; each text piece is normalized alone
    assert pieces[1].normalized.original is text and pieces[1].surface == "[SEP]"
    assert [s.normalized.text for s in (pieces[0], pieces[2])] == ["hello ", " world"]
    first = pieces[0]
    assert first.normalized.text == "hello " and first.normalized.to_original(1, 2) == (1, 2)
    assert [s.words for s in splits] == [["hello"], None, ["world"]]
    assert [s.opens_piece for s in splits] == [True, True, True]
    assert splits[0].token_runs()[0].tokens == ["hello"] and splits[2].token_runs()[0].tokens == ["world"]
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


@st.composite
def _words_and_pieces(draw):
    """Words, their starts, flat character maps (or None) and per-word token spans that
    tile the word, with now and then an empty span or one past its end."""
    n = draw(st.integers(1, 6))
    lens = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    words = ["x" * k for k in lens]
    starts = [sum(lens[:i]) for i in range(n)]
    pieces = []
    for k in lens:
        cuts = sorted(set(draw(st.lists(st.integers(1, k - 1), max_size=3)) if k > 1 else []))
        a = [0, *cuts]
        b = [*cuts, k]
        if draw(st.booleans()):  # an empty span (at the start, inside or at the end)
            at = draw(st.integers(0, k))
            a.append(at)
            b.append(at)
        pieces.append((tuple("t" * len(a)), tuple(range(len(a))), tuple(a), tuple(b)))
    maps = None
    if draw(st.booleans()):
        total = sum(lens)
        lo = np.cumsum(draw(st.lists(st.integers(0, 2), min_size=total, max_size=total)))
        maps = (lo.astype(np.int64), (lo + draw(st.integers(0, 1))).astype(np.int64))
    return words, starts, maps, pieces


@settings(max_examples=300, deadline=None)
@given(_words_and_pieces())
def test_property_small_spans_equal_the_numpy_spans(case):
    words, starts, maps, pieces = case
    counts = [len(p[1]) for p in pieces]
    rel_a = np.asarray([a for p in pieces for a in p[2]], np.int64)
    rel_b = np.asarray([b for p in pieces for b in p[3]], np.int64)
    lo, hi = stages.spans_in_text(words, starts, maps, counts, rel_a, rel_b)
    assert stages.small_spans(words, starts, maps, pieces) == (lo.tolist(), hi.tolist())


@pytest.mark.parametrize("name", ["llama-3/tokenizer.json", "bert-base-uncased/tokenizer.json"])
def test_short_runs_in_lists_build_the_same_encoding(name, data_dir, monkeypatch):
    tok = shared_tokenizer(data_dir, name)
    text = "Hi <|eot_id|> there, Wörld! [SEP] café ¯ \u0301x " * 3
    small = tok.encode(text)
    monkeypatch.setattr(stages, "SMALL_RUN", 0)  # every run through numpy
    big = tok.encode(text)
    assert (small.ids, list(small.offsets), list(small.word_ids)) == (
        big.ids, list(big.offsets), list(big.word_ids))


def test_should_stop_is_asked_while_a_text_is_cut_at_thousands_of_added_tokens(data_dir):
    """A text cut by tens of thousands of added tokens (Gemma 3's newlines) is cut, and its
    splits assembled, with ``should_stop`` asked every STOP_CHECK_SPLITS splits."""
    from core.errors import Cancelled

    tok = shared_tokenizer(data_dir, "gemma-3/tokenizer.json")
    text = "ab\n" * 20_000
    asked = []
    splits = stages.split_added(tok.added, text, lambda: asked.append(1) or False)
    assert len(splits) == 40_000 and len(asked) >= len(splits) // stages.STOP_CHECK_SPLITS
    with pytest.raises(Cancelled):
        stages.split_added(tok.added, text, lambda: len(asked) > 0)
    tokenized: list = []  # the splits, once the model stage has returned them
    real = stages.tokenize

    def spy(model, splits, should_stop=None):
        out = real(model, splits, should_stop)
        tokenized.extend(out)
        return out

    def late_stop():  # True once the model has run: only the assembly is left
        return bool(tokenized)

    import core.tokenizers.tokenizer as tokenizer_module
    with pytest.MonkeyPatch.context() as m:
        m.setattr(tokenizer_module.stages, "tokenize", spy)
        with pytest.raises(Cancelled):
            tok.encode(text, should_stop=late_stop)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=20), st.integers(0, 50), st.data())
def test_spans_of_an_unnormalized_text_are_its_own_shifted(text, shift, data):
    """small_original_spans' shortcut for NormalizedText.identity gives what the map gives."""
    from core.text.normalize import NormalizedText
    from core.tokenizers.builder import small_original_spans

    n = len(text)
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)).map(sorted), max_size=10))
    lo, hi = [a for a, _ in pairs], [b for _, b in pairs]
    ident = NormalizedText.identity(text)
    mapped = NormalizedText(text, text, list(range(n)), list(range(1, n + 1)))  # the same map, not marked
    assert "_identity" in ident.__dict__ and "_identity" not in mapped.__dict__
    assert small_original_spans(ident, lo, hi, shift) == small_original_spans(mapped, lo, hi, shift)
