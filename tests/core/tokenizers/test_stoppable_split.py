"""A long text is pre-tokenized, and normalized, in pieces between ``should_stop`` checks,
with the words, starts and maps of one call: ``split_stoppable`` equals ``split_mapped``
for the pre-tokenizers of the shared files and for generated ones (byte level with and
without a prefix space, Metaspace's three schemes, the separator splits, Sequences), on
UDHR text and generated text; a whole encode with small pieces equals one without a stop
check; a stop request lands between pieces."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from core.errors import Cancelled
from core.tokenizers import load, pipeline
from core.tokenizers.normalizers import base as normalizer_base
from core.tokenizers.pre_tokenizers import build_pre_tokenizer
from core.tokenizers.pre_tokenizers.split_patterns import PATTERNS
from tests.core.strategies import tricky_text
from tests.core.tokenizers.stops import flips_after

FILES = ["bert-base-uncased", "gpt2", "pegasus-unigram", "llama-3", "gemma-3", "qwen3", "gpt-4o"]
GENERATED = [
    {"type": "ByteLevel", "add_prefix_space": True, "use_regex": True},
    {"type": "ByteLevel", "add_prefix_space": False, "use_regex": True},
    {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True},
    {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": True},
    {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "never", "split": True},
    {"type": "BertPreTokenizer"},
    {"type": "WhitespaceSplit"},
    {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"},
        {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": True}]},
] + [{"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern}, "behavior": behavior, "invert": invert},
        {"type": "ByteLevel", "add_prefix_space": False, "use_regex": False}]}
     for pattern in sorted(set(PATTERNS.values()))
     for behavior, invert in (("Isolated", False), ("Removed", True))]

pieces = st.lists(st.one_of(tricky_text, st.sampled_from(
    ["ab cd", " ", "  ", "\u2581x", "it's me", "a\n b", "x\u0301 y", "AB cd", "12 ab", "a  b",
     "\r\n", "héllo wörld", "a 1", "a \u00e9"])), max_size=40).map("".join)


def _same(got, want) -> None:
    assert got[0] == want[0] and list(got[1]) == list(want[1])
    if want[2] is None:
        assert got[2] is None
    else:
        assert np.array_equal(got[2][0], want[2][0]) and np.array_equal(got[2][1], want[2][1])


@pytest.fixture(scope="module")
def shared(data_dir):
    return {name: load(data_dir / "tokenizers" / name / "tokenizer.json") for name in FILES}


@pytest.fixture(scope="module")
def udhr_text(data_dir):
    return "\n".join(p.read_text("utf-8") for p in sorted((data_dir / "udhr").glob("*.txt")))


@settings(max_examples=300, deadline=None)
@given(text=pieces, size=st.integers(1, 8), first=st.integers(0, 3),
       config=st.sampled_from(GENERATED))
@example(text="ab cd ef", size=1, first=1, config=GENERATED[0])
def test_pieces_split_as_the_whole(text, size, first, config):
    pre = build_pre_tokenizer(config)
    with mock.patch.object(pipeline, "STOP_CHECK_CHARS", size):
        _same(pipeline.split_stoppable(pre, text, first, lambda: False),
              pre.split_mapped(text, first))


def test_the_shared_pre_tokenizers_split_udhr_text_in_pieces_as_whole(shared, udhr_text,
                                                                     monkeypatch):
    monkeypatch.setattr(pipeline, "STOP_CHECK_CHARS", 2048)
    text = udhr_text.replace("\n", " ")  # (the added tokens of Gemma 3 would cut at lines)
    for name, tok in shared.items():
        pre = tok.pre_tokenizer
        stop, calls = flips_after(10**9)
        _same(pipeline.split_stoppable(pre, text, 1, stop), pre.split_mapped(text, 1))
        assert len(calls) > 10 or name == "gemma-3", name  # (Gemma 3 splits on a string)


def test_an_encode_in_small_pieces_equals_one_without_stop_checks(shared, udhr_text,
                                                                  monkeypatch):
    monkeypatch.setattr(pipeline, "STOP_CHECK_CHARS", 2048)
    monkeypatch.setattr(normalizer_base, "STOP_PIECE", 2048)
    for name, tok in shared.items():
        for special in (False, True):
            whole = tok.encode(udhr_text, add_special_tokens=special)
            cut = tok.encode(udhr_text, add_special_tokens=special, should_stop=lambda: False)
            assert (cut.ids, cut.offsets, cut.word_ids) == (whole.ids, whole.offsets,
                                                             whole.word_ids), name


def test_a_stop_request_lands_between_pieces(shared, udhr_text, monkeypatch):
    monkeypatch.setattr(pipeline, "STOP_CHECK_CHARS", 2048)
    text = udhr_text.replace("\n", " ")
    stop, calls = flips_after(3)
    with pytest.raises(Cancelled):
        pipeline.split_stoppable(shared["gpt2"].pre_tokenizer, text, 1, stop)
    assert len(calls) == 4
