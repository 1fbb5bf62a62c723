"""matched_spans: the hit's tokens that also occur in the query, as code-point spans."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import OffsetError
from core.retrieval import matched_spans
from core.tokenizers import load


def test_shared_tokens_are_matched_punctuation_and_unknown_never():
    text = "Everyone has the right to education, [UNK] too."
    tokens = ["everyone", "has", "the", "right", "to", "education", ",", "[UNK]", "too", "."]
    offsets = [(0, 8), (9, 12), (13, 16), (17, 22), (23, 25), (26, 35), (35, 36), (37, 42), (43, 46), (46, 47)]
    query = ["right", "to", "education", ",", "[UNK]", "."]
    assert matched_spans(query, tokens, offsets) == ((17, 22), (23, 25), (26, 35))
    assert [text[s:e] for s, e in matched_spans(query, tokens, offsets, text_length=len(text))] == \
        ["right", "to", "education"]
    assert matched_spans(query, tokens, offsets, unk_token=None) == ((17, 22), (23, 25), (26, 35), (37, 42))
    assert matched_spans([], tokens, offsets) == ()


def test_subword_pieces_match_as_they_are():
    assert matched_spans(["educ", "##ation"], ["ed", "##uc", "##ation"], [(0, 2), (2, 4), (4, 9)]) == ((4, 9),)


def test_accent_stripping_lets_a_french_hit_match_an_english_query(data_dir):
    tok = load(str(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json"))
    q = tok.encode("right to education")
    hit = "Toute personne a droit à l'éducation."
    enc = tok.encode(hit)
    spans = matched_spans(q.tokens, enc.tokens, enc.offsets, text_length=len(hit))
    # "éducation" loses its accent and matches whole; "Toute" is "to" + "##ute": a false friend
    assert [hit[s:e] for s, e in spans] == ["To", "éducation"]


def test_bad_offsets_are_typed_errors():
    with pytest.raises(OffsetError, match="2 tokens but 1 offsets"):
        matched_spans(["a"], ["a", "b"], [(0, 1)])
    with pytest.raises(OffsetError, match="outside"):
        matched_spans(["a"], ["a"], [(0, 5)], text_length=3)
    with pytest.raises(OffsetError, match="outside"):
        matched_spans(["a"], ["a"], [(2, 1)])


WORDS = st.sampled_from(["right", "to", "##s", "educ", "##ation", ",", "[UNK]", "life", "9"])


@given(query=st.lists(WORDS, max_size=6), hit=st.lists(WORDS, max_size=12))
def test_property_spans_are_exactly_the_shared_word_tokens_in_order(query, hit):
    text, offsets = "", []
    for t in hit:  # a text whose token i covers exactly the characters of token i
        offsets.append((len(text), len(text) + len(t)))
        text += t + " "
    spans = matched_spans(query, hit, offsets, text_length=len(text))
    want = [o for t, o in zip(hit, offsets) if t in query and t not in (",", "[UNK]")]
    assert list(spans) == want
    assert all(0 <= s < e <= len(text) and text[s:e] in query for s, e in spans)
    assert list(spans) == sorted(spans)
