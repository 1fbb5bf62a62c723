"""Byte-level split patterns: presets, golden splits, coverage, and the reference libraries'
Unicode tables (letters and numbers newer than theirs are not letters)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from core.text.byte_alphabet import ByteLevelError, to_byte_level
# private: the characters newer than the reference's Unicode are skipped
from core.tokenizers._unicode_compat import NEWER_THAN_REFERENCE
from core.tokenizers.pre_tokenizers.split_patterns import (
    GPT2_PATTERN, PATTERNS, R50K_PATTERN, pre_split, split_pattern,
)
from tests.core.strategies import TRICKY, tricky_text

pre_tokenizers = pytest.importorskip("tokenizers.pre_tokenizers")

# Any text, lone surrogates included.
any_text = st.one_of(
    tricky_text, st.text(max_size=30),
    st.lists(st.sampled_from(TRICKY + ["\ud800", "\udfff"]), max_size=8).map("".join))
no_surrogates = any_text.filter(lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s))


def test_split_pattern_names():
    assert split_pattern("gpt2") == GPT2_PATTERN
    assert split_pattern("p50k_base") == split_pattern("r50k_base") == R50K_PATTERN
    assert split_pattern("cl100k_base").startswith("'(?i:[sdmt]|ll|ve|re)")
    assert split_pattern("o200k_base") == PATTERNS["o200k_base"]
    with pytest.raises(ByteLevelError, match="unknown split pattern"):
        split_pattern("p100k")


def test_gpt2_split_golden():
    pieces = [p for p, _, _ in pre_split("I'll pay 1,000$ now  ok\n", GPT2_PATTERN)]
    assert pieces == ["I", "'ll", " pay", " 1", ",", "000", "$", " now", " ", " ok", "\n"]


def test_cl100k_split_golden():
    pieces = [p for p, _, _ in pre_split("I'LL pay 12345!!\n\nx", PATTERNS["cl100k_base"])]
    assert pieces == ["I", "'LL", " pay", " ", "123", "45", "!!\n\n", "x"]


@settings(max_examples=200, deadline=None)
@given(any_text, st.sampled_from(sorted(PATTERNS)))
def test_pre_split_pieces_are_contiguous_and_cover_the_text(text, name):
    pieces = pre_split(text, PATTERNS[name])
    assert "".join(p for p, _, _ in pieces) == text
    pos = 0
    for piece, start, end in pieces:
        assert start == pos and end > start and text[start:end] == piece
        pos = end


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_tiktokens_gpt2_pattern_splits_like_the_original(text):
    assert pre_split(text, GPT2_PATTERN) == pre_split(text, R50K_PATTERN)


@settings(max_examples=200, deadline=None)
@given(no_surrogates)
def test_gpt2_split_equals_the_reference_bytelevel_pre_tokenizer(text):
    ref = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True).pre_tokenize_str(text)
    ours = [(to_byte_level(p), (s, e)) for p, s, e in pre_split(text, GPT2_PATTERN)]
    assert ours == ref


def test_letters_newer_than_the_reference_are_not_letters():
    newest = chr(NEWER_THAN_REFERENCE[-2][0])  # U+323B0, a CJK ideograph of Unicode 17
    ref = pre_tokenizers.ByteLevel(add_prefix_space=False).pre_tokenize_str(":" + newest)
    assert [p for p, _, _ in pre_split(":" + newest, GPT2_PATTERN)] == [":" + newest]
    assert len(ref) == 1
    assert [p for p, _, _ in pre_split(":\u4e00", GPT2_PATTERN)] == [":", "\u4e00"]


@pytest.mark.parametrize("cps", NEWER_THAN_REFERENCE[::7])
def test_every_listed_range_is_still_other_for_the_reference(cps):
    pt = pre_tokenizers.ByteLevel(add_prefix_space=False)
    for cp in {cps[0], cps[1]}:
        assert len(pt.pre_tokenize_str("!" + chr(cp))) == 1  # joins punctuation: "other"


def test_patterns_match_the_published_ones():
    openai_public = pytest.importorskip("tiktoken_ext.openai_public")
    assert PATTERNS["r50k_base"] == openai_public.r50k_pat_str
    assert PATTERNS["cl100k_base"] == (  # as printed in the shared data README
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")


# Split: the regex's matches taken whole when they tile the text equal the piece-by-piece
# definition (find_pieces, then the behaviour), for every behaviour, inverted or not.

_LLAMA3_LIKE = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
                r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_SPLIT_PATTERNS = [*PATTERNS.values(), _LLAMA3_LIKE, r"\d+", r"x*", r"(a)b", r"\s"]


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(any_text, st.text(st.sampled_from(list("ab x1\n\t'éक")), max_size=20)),
       pattern=st.sampled_from(_SPLIT_PATTERNS),
       behavior=st.sampled_from(["Removed", "Isolated", "Contiguous", "MergedWithPrevious",
                                 "MergedWithNext"]),
       invert=st.booleans(), budgeted=st.booleans())
def test_split_equals_its_piece_by_piece_definition(text, pattern, behavior, invert, budgeted):
    from core.tokenizers.pre_tokenizers.split import Split, apply_behavior, find_pieces

    split = Split(pattern, True, behavior, invert)
    split._budgeted = budgeted  # a pattern from a file (under the time budget) or a published one
    pieces = find_pieces(split._re, text)
    if invert:
        pieces = [(a, b, not m) for a, b, m in pieces]
    spans = apply_behavior(pieces, behavior)
    assert split.split(text) == ([text[a:b] for a, b in spans], [a for a, _ in spans])
