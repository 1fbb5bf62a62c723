"""Runs of unknown tokens are searched as groups, so ``align`` stays linear when a
token list does not fit (BERT's thousands of ``[UNK]`` in a row against the wrong normalizer)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.align import AlignmentError, align
from core.align.cursor import _to_original
from core.align.unknown import Failure, walk
from core.errors import Cancelled
from core.text.normalize import normalize

UNK = "[UNK]"


def _counting(text, tokens):
    """A surface matcher for ``walk`` that counts its calls."""
    calls = [0]

    def match(i, cur):
        calls[0] += 1
        start = cur
        while start < len(text) and text[start].isspace():
            start += 1
        tok = tokens[i]
        return (start, start + len(tok)) if text.startswith(tok, start) else None

    return match, calls


def test_a_long_unknown_group_that_cannot_fit_costs_linear_work():
    words = 3_000
    text = " ".join(["ሰብዓዊ"] * words) + " x"
    tokens = [UNK] * words + ["y"]  # "y" fits nowhere: every split of the group is dead
    match, calls = _counting(text, tokens)
    polls = []  # walk polls should_stop once every 1,024 units of work: a work meter

    found = walk(text, tokens, match, [t == UNK for t in tokens], should_stop=lambda: polls.append(1))
    assert isinstance(found, Failure) and found.token_index == words - 1
    size = len(text) + len(tokens)
    assert calls[0] <= size and len(polls) <= 2 * size // 1024  # not the 8 (T + N) budget


def test_a_long_unknown_group_aligns_one_word_each():
    words = 2_000
    text = " ".join(["ሰብዓዊ"] * words) + " ok"
    spans = align(text, [UNK] * words + ["ok"], scheme="wordpiece")
    assert spans[:2] == [(0, 4), (5, 9)] and spans[-1] == (len(text) - 2, len(text))
    assert all(text[a:b] == "ሰብዓዊ" for a, b in spans[:-1])


def test_a_group_splits_a_word_when_it_has_more_tokens_than_words():
    # the first token takes its unit ("ⴰⴰ" up to the space), so the second word is split
    assert align("ⴰⴰ ⴱⴱⴱ .", ["<unk>"] * 3 + ["."], scheme="surface") == [(0, 2), (3, 4), (4, 6), (7, 8)]
    # where the next token fits decides the group's end
    assert align("ⴰⴰ ⴱⴱy", ["<unk>", "<unk>", "y"], scheme="surface") == [(0, 2), (3, 5), (5, 6)]


def test_a_group_longer_than_the_text_fails_at_the_first_token_with_no_character():
    with pytest.raises(AlignmentError) as err:
        align("ab c", [UNK] * 5, scheme="wordpiece")
    assert err.value.token_index == 3 and err.value.cursor == 4


def test_should_stop_cancels_a_group_search():
    words = 5_000
    text = " ".join(["ⴰⴰ"] * words)
    tokens = [UNK] * (2 * words) + ["y"]
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(Cancelled):
        align(text, tokens, scheme="wordpiece", should_stop=stop)
    assert len(calls) == 3


def _fits(text, pieces):
    """Slow and obvious: can ``pieces`` (strings; None = unknown: 1+ characters of one run of
    non-space characters) be laid on ``text`` in order, skipping spaces before each piece
    (text may be left over)? Exponential; only for tiny inputs."""
    if not pieces:
        return True
    text = text.lstrip()
    head, rest = pieces[0], pieces[1:]
    if head is not None:
        return text.startswith(head) and _fits(text[len(head):], rest)
    run = len(text) - len(text.lstrip("abⴰ"))
    return any(_fits(text[k:], rest) for k in range(1, run + 1))


@settings(max_examples=400, deadline=None)
@given(st.text("abⴰ ", min_size=1, max_size=9), st.lists(st.sampled_from(["<unk>", "a", "b", "ab"]),
                                                           min_size=1, max_size=7))
def test_the_search_finds_a_fit_exactly_when_one_exists(text, tokens):
    expected = _fits(text, [None if t == "<unk>" else t for t in tokens])
    try:
        spans = align(text, tokens, scheme="surface")
    except AlignmentError:
        assert not expected
        return
    assert expected
    cur = 0
    for t, (s, e) in zip(tokens, spans):
        assert text[cur:s].isspace() or cur == s
        assert e > s and (text[s:e] == t if t != "<unk>" else not any(c.isspace() for c in text[s:e]))
        cur = e


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=0, max_size=30), st.data())
def test_spans_map_to_the_original_as_to_original_does(text, data):
    nt = normalize(text)
    n = len(nt.text)
    bounds = st.integers(0, n)
    spans = [tuple(sorted(p)) for p in data.draw(st.lists(st.tuples(bounds, bounds), max_size=10))]
    assert _to_original(nt, spans) == [nt.to_original(*s) for s in spans]
