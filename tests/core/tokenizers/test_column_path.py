"""Long texts gather offsets and word ids as numpy chunks (issue 12 item 4: memory of a
1,000,000-character paste) and hand work to C in bounded calls (GUI stalls): the results
equal the list path's, field for field, for every tokenizer kind; the chunked helpers
(trim_offsets_arrays, the chunked separator split and translate, the whitespace table)
equal what they replace."""

from __future__ import annotations

import random

import numpy as np
import pytest

from core.text.normalize import _translate
from core.text.columns import OptionalIntArray, SpanArray
from core.tokenizers import chars
from core.tokenizers import builder as builder_module
from core.tokenizers import pipeline as pipeline_module
from core.tokenizers.derived import _is_space
from core.tokenizers.encoding import COMPACT_TOKENS
from core.tokenizers.pre_tokenizers import separators
from core.tokenizers.processors.byte_level import trim_offsets, trim_offsets_arrays
from tests.core.tokenizers.loaded import shared_tokenizer

RELS = ["bert-base-uncased/tokenizer.json", "gpt2/tokenizer.json", "pegasus-unigram/tokenizer.json",
        "cl100k_base/cl100k_base.tiktoken", "llama-3/tokenizer.json", "gemma-3/tokenizer.json"]


def mixed_text(udhr_texts, n: int) -> str:
    parts = [udhr_texts[k][:n // 4] for k in ("eng", "rus", "cmn_hans", "arb") if k in udhr_texts]
    return "\n".join(parts) + " <|endoftext|>  [SEP] x\u0301 \U0001F600  "


def chat_text(udhr_texts) -> str:
    """Short turns between Llama 3's and Gemma 3's special tokens: many small splits."""
    lines = [ln for k in ("eng", "hin", "tha") if k in udhr_texts
             for ln in udhr_texts[k].splitlines()[:20] if ln.strip()]
    return "".join(f"<|start_header_id|>user<|end_header_id|>\n\n{ln[:60]}<|eot_id|>"
                   f"<start_of_turn>model\n{ln[60:120]}<end_of_turn>\n" for ln in lines)


def fields(enc):
    return (enc.tokens, enc.ids, list(enc.offsets), list(enc.word_ids), enc.special_tokens_mask,
            enc.type_ids, enc.normalized.text)


@pytest.mark.parametrize("rel", RELS)
@pytest.mark.parametrize("special", [False, True])
def test_column_path_equals_list_path(rel, special, data_dir, udhr_texts, monkeypatch):
    tok = shared_tokenizer(data_dir, rel)
    for text in (mixed_text(udhr_texts, 6000), chat_text(udhr_texts), "", " a",
                 "  hello  world  ", "<|endoftext|>"):
        monkeypatch.setattr(builder_module, "COLUMN_CHARS", 1 << 40)
        lists = tok.encode(text, add_special_tokens=special)
        monkeypatch.setattr(builder_module, "COLUMN_CHARS", 0)
        monkeypatch.setattr(pipeline_module, "WORD_CHUNK", 7)  # many chunks, char maps cut
        cols = tok.encode(text, add_special_tokens=special)
        assert fields(cols) == fields(lists)
        assert cols == lists
        compact = len(cols) >= COMPACT_TOKENS
        assert isinstance(cols.offsets, SpanArray) == compact
        assert isinstance(cols.word_ids, OptionalIntArray) == compact
        assert cols.derived_offsets == lists.derived_offsets


def test_column_path_compacts_long_encodings(data_dir, udhr_texts, monkeypatch):
    tok = shared_tokenizer(data_dir, RELS[0])
    monkeypatch.setattr(builder_module, "COLUMN_CHARS", 0)
    enc = tok.encode(mixed_text(udhr_texts, 40000), add_special_tokens=True)
    assert len(enc) >= COMPACT_TOKENS
    assert isinstance(enc.offsets, SpanArray) and isinstance(enc.word_ids, OptionalIntArray)
    assert enc.word_ids[0] is None and enc.word_ids[-1] is None and None not in enc.offsets


def test_trim_offsets_arrays_equals_trim_offsets(monkeypatch):
    rng = random.Random(3)
    alphabet = ["\u0120", " ", "\n", "a", "b", "\u3000", "Ġa"]
    for prefix in (True, False):
        for _ in range(30):
            n = rng.randint(0, 60)
            tokens = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))) for _ in range(n)]
            offsets = []
            for tok in tokens:
                a = rng.randint(0, 5)
                offsets.append((a, a + rng.randint(0, len(tok) + 1)))
            starts = np.array([a for a, _ in offsets], np.int64)
            ends = np.array([b for _, b in offsets], np.int64)
            monkeypatch.setattr("core.tokenizers.processors.byte_level.TRIM_CHUNK", rng.choice([1, 7, 65536]))
            trim_offsets(tokens, offsets, prefix)
            trim_offsets_arrays(tokens, starts, ends, prefix)
            assert list(zip(starts.tolist(), ends.tolist())) == offsets


def test_chunked_separator_split_equals_one_split(monkeypatch):
    rng = random.Random(5)
    text = "".join(rng.choice("ab c,  .\n\u3000d\u00e9!") for _ in range(5000))
    for pre in (separators.bert_pre_tokenizer(), separators.whitespace_split()):
        whole = pre.split_long(text)
        monkeypatch.setattr(separators, "LONG_CHUNK", 17)
        assert pre.split_long(text) == whole
        assert pre.split_long("x" * 100) == (["x" * 100], [0])  # no place to cut: one split
        monkeypatch.setattr(separators, "LONG_CHUNK", 65536)


def test_chunked_translate_and_space_table_equal_str_methods():
    text = "".join(map(chr, range(0x3100))) + "\ud800 \U0001F600" * 3
    table = {ord("a"): "b", 0x3000: " ", ord("\ud800"): "?"}
    assert _translate(text, table, chunk=5) == text.translate(table)
    assert _is_space(text).tolist() == [c.isspace() for c in text]
    assert all(c.isspace() for c in chars.WHITESPACE)


def test_full_slice_of_a_column_is_itself():
    spans = SpanArray.from_pairs([(0, 1), (1, 3)])
    ids = OptionalIntArray.from_list([0, None])
    assert spans[:] is spans and spans[0:2] is spans and spans[:1] == [(0, 1)]
    assert ids[:] is ids and ids[1:] == [None]
