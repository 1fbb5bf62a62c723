"""The walk's fast paths (issue 30 §7) give what the token-by-token walk gives: runs of plain
tokens matched at once (:mod:`core.align.runs`), and an attempt ruled out before it
normalizes the text when a token has a character that text cannot hold."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.align import AlignmentError, align, cursor
from core.text.byte_alphabet import to_byte_level
from core.text.normalize import image_chars, normalize
from tests.core.strategies import any_text

_ALPHABET = st.sampled_from(list("ab ab\u00e9\u0301\u00ba\uff0c\u200c\tİ") + ["\u3000", "[UNK]"])


def _result(text, tokens, scheme, **kwargs):
    try:
        return align(text, tokens, scheme=scheme, **kwargs)
    except AlignmentError as exc:
        return ("error", str(exc), exc.token_index)


def _token_by_token(monkeypatch, text, tokens, scheme):
    with monkeypatch.context() as m:
        m.setattr(cursor, "_plain_runs", lambda *args: None)
        m.setattr(cursor, "_cannot_fit", lambda *args: False)
        return _result(text, tokens, scheme)


@st.composite
def _cut(draw, scheme):
    """A text and tokens cut from its normalized (or byte-level) form, then maybe spoilt:
    pieces split at random (``##`` or not), a token dropped, changed or moved."""
    text = draw(st.lists(_ALPHABET, max_size=40).map("".join))
    if scheme == "bytelevel":
        source = "".join(to_byte_level(c) for c in text)
        words = [source] if source else []
    else:
        source = normalize(text).text if draw(st.booleans()) else text
        words = source.split()
    tokens = []
    for word in words:
        k = 0
        while k < len(word):
            size = draw(st.integers(1, 4))
            piece = word[k:k + size]
            tokens.append(("##" + piece) if k and scheme == "wordpiece" and draw(st.integers(0, 4)) else piece)
            k += size
    if tokens and draw(st.booleans()):
        i = draw(st.integers(0, len(tokens) - 1))
        spoil = draw(st.sampled_from(["drop", "hash", "unhash", "glue", "char", "unk"]))
        if spoil == "drop":
            del tokens[i]
        elif spoil == "hash":
            tokens[i] = "##" + tokens[i]
        elif spoil == "unhash":
            tokens[i] = tokens[i].removeprefix("##")
        elif spoil == "glue" and i + 1 < len(tokens):
            tokens[i:i + 2] = [tokens[i] + tokens[i + 1].removeprefix("##")]
        elif spoil == "char":
            tokens[i] += draw(st.sampled_from(["b", "\uff0c", "\u00e9", "\u00ba"]))
        else:
            tokens[i] = "[UNK]"
    return text, tokens


@pytest.mark.parametrize("scheme", ["wordpiece", "bytelevel"])
def test_runs_and_the_probe_give_the_token_by_token_result(monkeypatch, scheme):
    monkeypatch.setattr(cursor, "RUNS_FROM", 1)  # every run, however short, matched at once

    @settings(max_examples=400, deadline=None)
    @given(_cut(scheme))
    @example(("ab ab", ["a", "##b", "ab"]))
    @example(("ab ab", ["ab", "##ab"]))  # a ## piece after a space
    @example(("a b", ["ab"]))  # a piece across a space
    def check(case):
        text, tokens = case
        assert _result(text, tokens, scheme) == _token_by_token(monkeypatch, text, tokens, scheme)

    check()


@settings(max_examples=300, deadline=None)
@given(st.one_of(any_text, st.lists(_ALPHABET, max_size=30).map("".join)),
       st.sampled_from([None, "NFD", "NFKD"]), st.booleans(), st.booleans())
def test_image_chars_holds_every_character_of_the_normalized_text(text, form, strip, lower):
    possible = image_chars(text, form=form, strip_accents=strip, lowercase=lower)
    assert set(normalize(text, form=form, strip_accents=strip, lowercase=lower).text) <= possible


def test_a_list_the_teaching_normalizer_cannot_hold_skips_it(monkeypatch):
    calls = []
    real = cursor._attempts("wordpiece")[0][0]
    monkeypatch.setattr(cursor, "normalize", lambda text: calls.append(text) or real(text))
    # "，" is "," after NFKD: only BERT's normalizer keeps it, and the teaching one is not run
    assert align("a，b", ["a", "，", "b"], scheme="wordpiece") == [(0, 1), (1, 2), (2, 3)]
    assert calls == []
    # when every attempt fails, the skipped one still gives its error (the furthest, first)
    with pytest.raises(AlignmentError) as err:
        align("a，b c", ["a", "，", "b", "d"], scheme="wordpiece")
    assert err.value.token_index == 3 and calls == ["a，b c"]
