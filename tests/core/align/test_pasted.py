"""Token lists pasted from other tools (issue 11, item 6): decoded pieces with leading spaces,
``▁`` pieces in lowercased / accent-stripped form, and letter-case hints that never ask for
an option that is already on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.align import align
from core.align.modes import align_tokens
from core.tokenizers import load

TEACHING = dict(form="NFKD", strip_accents=True, lowercase=True, collapse_whitespace=True)


def test_decoded_pieces_keep_their_leading_space():
    assert align("Hello world", ["Hello", " world"]) == [(0, 5), (5, 11)]
    assert align("Hello  world\n", ["Hello", " ", " world", "\n"]) == [(0, 5), (5, 6), (6, 12), (12, 13)]
    # a prefix space the text does not have (decode of a tokenizer that adds one)
    assert align("Hello world", [" Hello", " world"]) == [(0, 5), (5, 11)]


def test_auto_mode_aligns_decoded_pieces_as_surface_strings():
    out = align_tokens("Hello world", '["Hello", " world"]', TEACHING)
    assert out.error is None and out.aligned.scheme == "surface"
    assert out.spans == [(0, 5), (5, 11)] and not out.aligned.after_normalizer


def test_tiktoken_decoded_tokens_align_to_the_encodings_offsets(data_dir):
    """``decode([id])`` of every cl100k token of an English paragraph (all whole characters)
    aligns, leading spaces included, exactly where the encoding puts the tokens."""
    tok = load(data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken")
    text = (data_dir / "udhr" / "eng.txt").read_text("utf-8").splitlines()[3]
    enc = tok.encode(text)
    pieces = [b.decode("utf-8") for b in enc.token_bytes]
    assert any(p.startswith(" ") for p in pieces) and "".join(pieces) == text
    assert align(text, pieces) == enc.offsets


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=5)
                      .filter(lambda w: w.strip() == w and w), min_size=1, max_size=6))
def test_property_pieces_that_spell_the_text_align_to_their_own_place(words):
    text = " ".join(words)
    pieces = [words[0]] + [" " + w for w in words[1:]]
    spans = align(text, pieces, scheme="surface")
    pos = 0
    for piece, (a, b) in zip(pieces, spans):
        assert (a, b) == (pos, pos + len(piece)) and text[a:b] == piece
        pos = b


def test_lowercased_metaspace_pieces_align_through_the_teaching_normalizer():
    text = "Zo\u00e9 flew to \u0130stanbul"
    out = align_tokens(text, "\u2581zoe \u2581flew \u2581to \u2581istanbul", TEACHING)
    assert out.error is None and out.aligned.scheme == "sentencepiece" and out.aligned.after_normalizer
    assert [text[a:b] for a, b in out.spans] == ["Zo\u00e9", " flew", " to", " \u0130stanbul"]
    exact = align_tokens(text, "\u2581Zo\u00e9 \u2581flew", TEACHING)  # as it is: no normalizer needed
    assert exact.error is None and not exact.aligned.after_normalizer
    assert exact.normalized.text == text


def test_lowercased_byte_level_pieces_align_too():
    out = align_tokens("Hello World", "hello \u0120world", TEACHING)
    assert out.error is None and out.aligned.scheme == "bytelevel" and out.aligned.after_normalizer
    assert out.spans == [(0, 5), (5, 11)]


def _hint(text, tokens, scheme, **options):
    out = align_tokens(text, tokens, dict(TEACHING, **options), scheme=scheme,
                       normalize_all=options != {})
    assert out.error
    return out.error.split("Hint: ", 1)[1]


@pytest.mark.parametrize("text, tokens, scheme, options, says, never", [
    # Lowercase is ticked but surface tokens are matched against the raw text
    ("Zoe flew", "zoe flew", "surface", {}, "Lowercase is on", "turn Lowercase on"),
    # Lowercase is off: asking for it is right
    ("Zoe flew", "zoe flew", "surface", {"lowercase": False}, "turn Lowercase on", "is on"),
    # the normalizer lowercased the text, the tokens keep capitals
    ("Zoe flew", "Zoe flew", "wordpiece", {}, "turn Lowercase off", "turn Lowercase on"),
    ("zoe flew", "Zoe flew", "surface", {}, "tokens have capitals", "turn Lowercase on"),
])
def test_case_hint_never_asks_for_an_option_that_is_on(text, tokens, scheme, options, says, never):
    hint = _hint(text, tokens, scheme, **options)
    assert says in hint and never not in hint and "letter case" in hint
    assert "choose a normalizer that lowercases" not in hint
