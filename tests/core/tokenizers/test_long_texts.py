"""Long texts (issue 12 item 1): one very long word (numpy rounds, ``BPE._long_piece``) and
many new words merged together (``BPE.tokenize_flat``) give the same tokens, ids, offsets
and word ids as the word-by-word path, and as the reference libraries."""

from __future__ import annotations

import base64
import random

import pytest

from core.errors import Cancelled
from core.tokenizers.models import bpe as bpe_module
from tests.core.tokenizers.loaded import shared_tokenizer

GPT2 = "gpt2/tokenizer.json"
CL100K = "cl100k_base/cl100k_base.tiktoken"


def long_texts() -> dict[str, str]:
    rng = random.Random(7)
    mixed = "ab c d\u00e9\u4e2d\U0001F600 12 ,.!\n  xyz\u0301'"
    return {
        "a": "a" * 5000,
        "emoji": "\N{GRINNING FACE}" * 800,
        "base64": base64.b64encode(rng.randbytes(9000)).decode("ascii"),
        "mixed": "".join(rng.choice(mixed) for _ in range(12000)),
        "spaced": " " + " ".join("".join(rng.choice("abcab") for _ in range(rng.randint(1, 9)))
                                 for _ in range(3000)),
        "emoji word": "x" + "\N{GRINNING FACE}\N{PILE OF POO}" * 700 + " tail",
    }


def fields(enc):
    return enc.tokens, enc.ids, enc.offsets, enc.word_ids


def word_by_word(tok, text, monkeypatch):
    """The encoding with the long-text paths switched off (heap merge per word)."""
    with monkeypatch.context() as m:
        m.setattr(bpe_module, "BATCH_WORD", 1 << 40)
        m.setattr(bpe_module, "BATCH_WORDS", 1 << 40)
        m.setattr(tok.model, "tokenize_flat", lambda words, should_stop=None: None)
        # private: the model's piece caches, emptied so each word is computed again (no public cache control)
        tok.model._pieces.clear()
        tok.model._cache.clear()
        out = tok.encode(text)
    tok.model._pieces.clear()
    tok.model._cache.clear()
    return out


@pytest.mark.parametrize("rel", [GPT2, CL100K])
@pytest.mark.parametrize("name", list(long_texts()))
def test_long_text_paths_equal_word_by_word(rel, name, data_dir, monkeypatch):
    tok = shared_tokenizer(data_dir, rel)
    text = long_texts()[name]
    want = fields(word_by_word(tok, text, monkeypatch))
    used = []
    monkeypatch.setattr(bpe_module, "BATCH_WORDS", 64)  # short texts take the rounds too
    real = bpe_module.merge_segments
    monkeypatch.setattr(bpe_module, "merge_segments", lambda *a, **k: used.append(1) or real(*a, **k))
    real_word = bpe_module.merge_word
    monkeypatch.setattr(bpe_module, "merge_word", lambda *a, **k: used.append(2) or real_word(*a, **k))
    assert fields(tok.encode(text)) == want
    assert used  # one of the numpy paths ran
    assert fields(tok.encode(text)) == want  # again, with whatever got cached


@pytest.mark.parametrize("name", list(long_texts()))
def test_long_texts_equal_tokenizers_for_gpt2(name, data_dir):
    tokenizers = pytest.importorskip("tokenizers")
    tok = shared_tokenizer(data_dir, GPT2)
    ref = tokenizers.Tokenizer.from_file(str(data_dir / "tokenizers" / GPT2))
    ref.no_truncation()
    ref.no_padding()
    text = long_texts()[name]
    got, want = tok.encode(text), ref.encode(text)
    assert (got.tokens, got.ids, got.offsets) == (want.tokens, want.ids, want.offsets)


@pytest.mark.parametrize("name", list(long_texts()))
def test_long_texts_equal_tiktoken_for_cl100k(name, data_dir):
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    from core.tokenizers.pre_tokenizers.split_patterns import CL100K_PATTERN

    tok = shared_tokenizer(data_dir, CL100K)
    ref = tiktoken.Encoding("cl100k_base", pat_str=CL100K_PATTERN, special_tokens={},
                            mergeable_ranks=load_tiktoken_bpe(str(data_dir / "tokenizers" / CL100K)))
    text = long_texts()[name]
    assert tok.encode(text).ids == ref.encode_ordinary(text)


def test_many_words_ask_should_stop_between_chunks_and_stop(data_dir):
    tok = shared_tokenizer(data_dir, GPT2)
    text = long_texts()["spaced"] * 4  # 12,000 words: several chunks of FLAT_CHUNK
    asked = []
    # private: the model's piece caches, emptied so each word is computed again (no public cache control)
    tok.model._pieces.clear()
    enc = tok.encode(text, should_stop=lambda: asked.append(1) and False)
    assert len(asked) >= 3
    tok.model._pieces.clear()
    assert fields(enc) == fields(tok.encode(text))
    calls = []

    def stop_at_third():
        calls.append(1)
        return len(calls) >= 3

    tok.model._pieces.clear()
    with pytest.raises(Cancelled):
        tok.encode(text, should_stop=stop_at_third)
    assert len(calls) == 3


@pytest.mark.parametrize("rel", [GPT2, CL100K])
def test_words_merged_together_are_cached_for_the_next_encode(rel, data_dir, monkeypatch):
    # the next keystroke on the same text looks its words up instead of merging them again
    tok = shared_tokenizer(data_dir, rel)
    text = long_texts()["spaced"] + long_texts()["mixed"]
    want = fields(word_by_word(tok, text, monkeypatch))
    used = []
    real = bpe_module.merge_segments
    monkeypatch.setattr(bpe_module, "merge_segments", lambda *a, **k: used.append(1) or real(*a, **k))
    assert fields(tok.encode(text)) == want
    assert used
    # private: the model's piece caches, emptied so each word is computed again (no public cache control)
    cached = dict(tok.model._pieces)
    assert cached
    for word, piece in list(cached.items())[:2000]:  # each cached piece is the word's own
        assert piece == tok.model._piece(word), word
    used.clear()
    assert fields(tok.encode(text + "x")) == fields(word_by_word(tok, text + "x", monkeypatch))
    tok.encode(text)  # (word_by_word emptied the cache)
    used.clear()
    assert fields(tok.encode(text)) == want
    assert not used  # nothing merged again


def test_the_flat_path_stops_caching_at_its_limit(data_dir, monkeypatch):
    tok = shared_tokenizer(data_dir, GPT2)
    # private: the model's piece caches, emptied so each word is computed again (no public cache control)
    tok.model._pieces.clear()
    monkeypatch.setattr(bpe_module, "FLAT_CACHED", 100)
    tok.encode(long_texts()["spaced"])
    assert 0 < len(tok.model._pieces) <= 100 + 64  # the few words of the per-word path
    tok.model._pieces.clear()


GEMMA3 = "gemma-3/tokenizer.json"


def gemma_lines() -> str:
    """Lines that Gemma 3's newline tokens cut into splits of one word each, some holding
    characters that are no token (byte fallback: U+0378 is unassigned, 𝔘 is not in the
    vocabulary) and repeated lines (cached words)."""
    rng = random.Random(11)
    letters = "abcdeéfg hij\u0915\u093f\u0e01\u0e34 "
    lines = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 60))) for _ in range(900)]
    lines[::37] = ["x\u0378y \U0001D518 tail"] * len(lines[::37])
    return "\n".join(lines + lines[:50])


def test_lines_cut_by_added_tokens_go_flat_and_equal_word_by_word(data_dir, monkeypatch):
    """Many one-word splits (Gemma 3's lines between its newline tokens) are merged together
    by ``tokenize_flat`` — words with a character that is no token tokenized alone and laid
    after the others — and give what the word-by-word path gives, and the reference."""
    tok = shared_tokenizer(data_dir, GEMMA3)
    text = gemma_lines()
    want = fields(word_by_word(tok, text, monkeypatch))
    answered = []
    real = type(tok.model).tokenize_flat
    monkeypatch.setattr(tok.model, "tokenize_flat", lambda words, should_stop=None: (
        answered.append(got := real(tok.model, words, should_stop)) or got))
    assert fields(tok.encode(text)) == want
    assert answered and answered[0] is not None  # the flat path ran
    assert fields(tok.encode(text)) == want  # again, with whatever got cached
    tokenizers = pytest.importorskip("tokenizers")
    ref = tokenizers.Tokenizer.from_file(str(data_dir / "tokenizers" / GEMMA3))
    got, exp = tok.encode(text), ref.encode(text, add_special_tokens=False)
    assert (got.ids, got.offsets) == (exp.ids, exp.offsets)
