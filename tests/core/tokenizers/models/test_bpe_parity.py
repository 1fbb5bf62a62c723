"""Byte-level BPE models against the reference libraries on real files and all UDHR texts.

The text is split here the way the reference pre-tokenizers split it (GPT-2 / cl100k pattern),
each piece is mapped to the byte-level alphabet, and the concatenated token sequences are
compared over the whole text.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from core.text.byte_alphabet import (
    byte_span_to_char_span, byte_to_char_index, from_byte_level, to_byte_level)
from core.tokenizers.formats.gpt2_files import load_gpt2_files
from core.tokenizers.formats.tiktoken_file import load_tiktoken
from core.tokenizers.models.bpe import BPE
from core.tokenizers.pre_tokenizers.split_patterns import GPT2_PATTERN, pre_split
from tests.core.strategies import TRICKY, tricky_text

tokenizers = pytest.importorskip("tokenizers")
tiktoken = pytest.importorskip("tiktoken")
from tiktoken.load import load_tiktoken_bpe  # noqa: E402  (test oracle only)

text_with_surrogates = st.one_of(
    tricky_text, st.text(max_size=40),
    st.lists(st.sampled_from(TRICKY + ["\ud83d", "\ude00", "\udc80x"]), max_size=8).map("".join))
surrogate_free = text_with_surrogates.filter(
    lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s))


@pytest.fixture(scope="module")
def gpt2_dir(data_dir):
    return data_dir / "tokenizers" / "gpt2"


@pytest.fixture(scope="module")
def gpt2_models(gpt2_dir):
    model = json.loads((gpt2_dir / "tokenizer.json").read_text(encoding="utf-8"))["model"]
    return {"tokenizer.json": BPE.from_tokenizer_json_model(model),
            "vocab.json+merges.txt": load_gpt2_files(gpt2_dir / "vocab.json")}


@pytest.fixture(scope="module")
def gpt2_reference(gpt2_dir):
    ref = tokenizers.Tokenizer.from_file(str(gpt2_dir / "tokenizer.json"))
    ref.no_truncation()  # the file carries max_length 50
    return ref


@pytest.fixture(scope="module")
def cl100k(data_dir):
    path = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    tf = load_tiktoken(path)
    ref = tiktoken.Encoding(name="cl100k_base", pat_str=tf.pattern,
                            mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})
    return tf, ref


@pytest.fixture(scope="module")
def udhr(data_dir):
    files = sorted((data_dir / "udhr").glob("*.txt"))
    return {p.stem: p.read_text(encoding="utf-8") for p in files}


def split(text: str, pattern: str) -> list[tuple[str, int, list[int]]]:
    """Pieces as the reference pre-tokenizer makes them: (byte-level word, start, byte index)."""
    return [(to_byte_level(p), start, byte_to_char_index(p))
            for p, start, _ in pre_split(text, pattern)]


def encode(model: BPE, text: str, pattern: str, pieces=None) -> list[tuple[str, int, int, int]]:
    """Pipeline stand-in: split, map to bytes, tokenize, map byte spans to text spans."""
    out = []
    for word, start, index in pieces or split(text, pattern):
        for token, tid, b0, b1 in model.tokenize(word):
            s, e = byte_span_to_char_span(index, b0, b1)
            out.append((token, tid, start + s, start + e))
    return out


@pytest.fixture(scope="module")
def gpt2_cases(udhr, gpt2_reference):
    """Per UDHR text: its GPT-2 pieces and the reference's (tokens, ids, offsets)."""
    return {lang: (split(text, GPT2_PATTERN), gpt2_reference.encode(text))
            for lang, text in udhr.items()}


@pytest.fixture(scope="module")
def cl100k_pieces(udhr, cl100k):
    return {lang: split(text, cl100k[0].pattern) for lang, text in udhr.items()}


def test_udhr_corpus_is_complete(udhr):
    assert len(udhr) == 29


@pytest.mark.parametrize("source", ["tokenizer.json", "vocab.json+merges.txt"])
def test_gpt2_tokens_ids_and_offsets_equal_tokenizers_on_every_udhr_text(
        source, gpt2_models, gpt2_cases, udhr):
    model = gpt2_models[source]
    differing = []
    for lang, text in udhr.items():
        pieces, ref = gpt2_cases[lang]
        ours = encode(model, text, GPT2_PATTERN, pieces)
        if ([t[0] for t in ours] != ref.tokens or [t[1] for t in ours] != ref.ids
                or [(t[2], t[3]) for t in ours] != ref.offsets):
            differing.append(lang)
    assert differing == []


def test_cl100k_ids_equal_tiktoken_on_every_udhr_text(cl100k, cl100k_pieces, udhr):
    tf, ref = cl100k
    differing = [lang for lang, text in udhr.items()
                 if [t[1] for t in encode(tf.model, text, tf.pattern, cl100k_pieces[lang])]
                 != ref.encode_ordinary(text)]
    assert differing == []


def test_golden_spans_of_spec_section_8(gpt2_models):
    model = gpt2_models["tokenizer.json"]
    assert encode(model, "Zoe\u0301 flew", GPT2_PATTERN) == [
        ("Z", 57, 0, 1), ("oe", 2577, 1, 3), ("Ì", 136, 3, 4), ("ģ", 223, 3, 4),
        ("Ġflew", 13112, 4, 9)]
    assert [(t[0], t[2], t[3]) for t in encode(model, "hi \U0001F600", GPT2_PATTERN)][1:] == [
        ("ĠðŁĺ", 2, 4), ("Ģ", 3, 4)]


@pytest.mark.parametrize("which", ["gpt2", "cl100k"])
def test_byte_lengths_sum_and_word_offsets_cover_each_word(which, gpt2_models, gpt2_cases,
                                                          cl100k, cl100k_pieces, udhr):
    model = gpt2_models["tokenizer.json"] if which == "gpt2" else cl100k[0].model
    for lang, text in udhr.items():
        total = 0
        pieces = gpt2_cases[lang][0] if which == "gpt2" else cl100k_pieces[lang]
        for word, _, _ in pieces:
            toks = model.tokenize(word)
            assert [t[2] for t in toks] == [0, *(t[3] for t in toks[:-1])]
            assert toks[-1][3] == len(word) and "".join(t[0] for t in toks) == word
            total += sum(len(from_byte_level(t[0])) for t in toks)
        assert total == len(text.encode("utf-8"))


@settings(max_examples=150, deadline=None)
@given(surrogate_free)
def test_gpt2_equals_tokenizers_on_arbitrary_text(gpt2_models, gpt2_reference, text):
    ref = gpt2_reference.encode(text)
    ours = encode(gpt2_models["vocab.json+merges.txt"], text, GPT2_PATTERN)
    assert [(t[0], t[1], (t[2], t[3])) for t in ours] == list(zip(ref.tokens, ref.ids, ref.offsets))


@settings(max_examples=150, deadline=None)
@given(surrogate_free)
def test_cl100k_equals_tiktoken_on_arbitrary_text(cl100k, text):
    tf, ref = cl100k
    assert [t[1] for t in encode(tf.model, text, tf.pattern)] == ref.encode_ordinary(text)


@settings(max_examples=150, deadline=None)
@given(text_with_surrogates)
def test_token_bytes_concatenate_to_the_text_even_with_lone_surrogates(gpt2_models, cl100k, text):
    # Lone surrogates are byte-encoded with "surrogatepass" (tiktoken cannot take them).
    expected = text.encode("utf-8", "surrogatepass")
    for model, pattern in ((gpt2_models["tokenizer.json"], GPT2_PATTERN),
                           (cl100k[0].model, cl100k[0].pattern)):
        tokens = encode(model, text, pattern)
        assert b"".join(from_byte_level(t[0]) for t in tokens) == expected
        assert all(0 <= t[2] < t[3] <= len(text) for t in tokens)
