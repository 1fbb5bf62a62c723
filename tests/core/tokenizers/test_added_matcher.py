"""The one-pass added-token matcher equals a plainly written reference matcher.

:func:`reference_matches` and :func:`reference_split` restate the reference library's
``AddedVocabulary::find_matches`` as directly as possible (quadratic, and that is fine here):
leftmost-longest non-overlapping matches of the contents, then ``single_word``, ``lstrip``
and ``rstrip`` with plain string operations and the special-token skip of
``encode_special_tokens``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.errors import Cancelled
from core.tokenizers import leftmost_longest
from core.tokenizers.added_tokens import AddedToken, AddedVocabulary
from core.tokenizers.chars import WHITESPACE, is_word_char
from core.tokenizers.leftmost_longest import STOP_CHECK_CHARS, LeftmostLongest
from tests.core.tokenizers.loaded import shared_tokenizer

_WS = "".join(WHITESPACE)


def reference_matches(patterns: list[str], text: str) -> list[tuple[int, int, str]]:
    """Leftmost-longest, non-overlapping: the first position where any pattern starts,
    the longest pattern there, then on from its end. O(n² · patterns)."""
    lengths = sorted({len(p) for p in patterns if p}, reverse=True)
    wanted = set(patterns)
    out, pos = [], 0
    while pos < len(text):
        found = None
        for i in range(pos, len(text)):
            for n in lengths:
                piece = text[i:i + n]
                if len(piece) == n and piece in wanted:
                    found = (i, i + n, piece)
                    break
            if found:
                break
        if found is None:
            break
        out.append(found)
        pos = found[1]
    return out


def reference_split(tokens: list[AddedToken], text: str, parse_special: bool = True):
    """The reference's splits of ``text`` around ``tokens`` (one kind, matched as written;
    a content listed more than once: the first entry's id, the last one's flags, special if
    any entry is)."""
    by_content = {}
    for t in tokens:
        if t.content in by_content:
            before = by_content[t.content]
            t = AddedToken(t.content, before.id, before.special or t.special, t.single_word,
                           t.lstrip, t.rstrip, t.normalized)
        if t.content:
            by_content[t.content] = t
    out, offset = [], 0
    for start, stop, content in reference_matches(list(by_content), text):
        tok = by_content[content]
        if tok.special and not parse_special:
            continue
        if tok.single_word:
            word_before = start > 0 and is_word_char(text[start - 1])
            word_after = stop < len(text) and is_word_char(text[stop])
            if word_before or word_after:
                continue
        if tok.lstrip:
            start = max(len(text[:start].rstrip(_WS)), offset)
        if tok.rstrip:
            stop += len(text[stop:]) - len(text[stop:].lstrip(_WS))
        if offset < start:
            out.append((offset, start, None))
        out.append((start, stop, tok))
        offset = stop
    if offset != len(text):
        out.append((offset, len(text), None))
    return out


_ALPHABET = "ab<>| \t\u00e9\u0301"
_patterns = st.lists(st.text(_ALPHABET, min_size=0, max_size=5), min_size=1, max_size=8)
_texts = st.text(_ALPHABET + "x.\u3000", max_size=60)


@settings(max_examples=400, deadline=None)
@given(_patterns, _texts)
def test_matcher_finds_the_reference_matches(patterns, text):
    got = [(s, e, patterns[k]) for s, e, k in LeftmostLongest(patterns).find(text)]
    assert got == reference_matches(patterns, text)


@settings(max_examples=400, deadline=None)
@given(_patterns, _texts)
@example(["a"], "x<|b <|a<|ab> <|b> <|")
def test_matcher_narrowed_by_the_third_character_finds_the_reference_matches(patterns, text):
    """Every bucket of strings that begin alike told apart by the third character too (as
    Llama 3's "<|" strings are), with two-character strings among them (found where the
    longer ones that share their third character are not there)."""
    patterns = patterns + ["<|", "<|a", "<|ab>", "<|b>"]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(leftmost_longest, "NARROW", 0)
        matcher = LeftmostLongest(patterns)
    got = [(s, e, patterns[k]) for s, e, k in matcher.find(text)]
    assert got == reference_matches(patterns, text)


@st.composite
def _tokens(draw):
    """Added tokens over :data:`_ALPHABET` with random special/single_word/lstrip/rstrip."""
    flags = st.tuples(*[st.booleans()] * 4)
    return [AddedToken(c, k, *draw(flags)) for k, c in enumerate(draw(_patterns))]


@settings(max_examples=400, deadline=None)
@given(_tokens(), _texts, st.booleans())
# rstrip runs past the start of the next match, which lstrip then cannot reach back over
@example([AddedToken("a", 1, rstrip=True), AddedToken(" b", 2, lstrip=True)], "a  b", True)
def test_splits_equal_the_reference(tokens, text, parse_special):
    got = AddedVocabulary(tokens).split_original(text, parse_special=parse_special)
    assert got == reference_split(tokens, text, parse_special)


@settings(max_examples=200, deadline=None)
@given(_tokens(), _texts)
def test_normalized_tokens_match_as_their_content_normalizes(tokens, text):
    tokens = [AddedToken(t.content.upper(), t.id, t.special, t.single_word, t.lstrip, t.rstrip,
                         normalized=True) for t in tokens]
    vocab = AddedVocabulary(tokens, normalize=str.lower)
    lowered = [AddedToken(t.content.lower(), t.id, t.special, t.single_word, t.lstrip, t.rstrip)
               for t in tokens]
    got = [(s, e, t and t.id) for s, e, t in vocab.split_normalized(text)]
    assert got == [(s, e, t and t.id) for s, e, t in reference_split(lowered, text)]
    assert vocab.split_original(text) == [(0, len(text), None)] * bool(text)


def test_gemma_contents_are_found_as_the_reference_finds_them(data_dir):
    """The 6,415 added tokens of Gemma 3 (nested prefixes: runs of newlines, tabs and ▁,
    ``<unused…>``), on text woven from them."""
    contents = [t.content for t in shared_tokenizer(data_dir, "gemma-3/tokenizer.json").added.tokens]
    matcher = LeftmostLongest(contents)
    rng = random.Random(24)
    for _ in range(30):
        parts = []
        for _ in range(rng.randrange(1, 12)):
            c = rng.choice(contents)
            cut = rng.randrange(len(c) + 1) if rng.random() < 0.3 else len(c)
            parts.append(c[:cut] + rng.choice(["", " ", "x", "\n", "<", "▁", "\t\t"]))
        text = "".join(parts)
        got = [(s, e, contents[k]) for s, e, k in matcher.find(text)]
        assert got == reference_matches(contents, text), repr(text)


def test_long_scans_ask_should_stop_and_stop():
    vocab = AddedVocabulary([AddedToken("<x>", 1, special=True)])
    text = "<x" * 500_000  # a candidate at every other code point, never a match
    asked = []
    assert vocab.split_original(text, should_stop=lambda: asked.append(1) and False) == [
        (0, len(text), None)]
    assert len(asked) >= len(text) // STOP_CHECK_CHARS - 1
    calls = []
    with pytest.raises(Cancelled):
        vocab.split_original(text, should_stop=lambda: len(calls) > 3 or calls.append(1))
    assert len(calls) == 4


def test_special_tokens_left_in_the_text_still_hide_what_they_cover():
    """As the reference: a skipped special match is not searched again for other tokens."""
    tokens = [AddedToken("<|im_start|>", 1, special=True), AddedToken("im", 2)]
    vocab = AddedVocabulary(tokens)
    text = "<|im_start|>im"
    assert [(s, e, t and t.id) for s, e, t in vocab.split_original(text)] == [
        (0, 12, 1), (12, 14, 2)]
    assert [(s, e, t and t.id) for s, e, t in vocab.split_original(text, parse_special=False)] == [
        (0, 12, None), (12, 14, 2)]
