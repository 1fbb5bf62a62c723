"""The splits of a text cut by added tokens share one map of the whole text (stage 1), and
a normalizer that writes character for character normalizes the whole text once (stage 2):
encodings equal the reference library's and those of the piece-by-piece path, added tokens
whose text that normalizer would change keep their own, and the whole normalized text is
the pieces' joined."""

from __future__ import annotations

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from core.tokenizers import pipeline as stages
from tests.core.tokenizers.reference_pairs import assert_same, load_pair

tokenizers = pytest.importorskip("tokenizers")

CHARS = ["a", "b", "x", "\u2581", "<", ">", "\u00e9"]
MERGES = [["\u2581", "a"], ["a", "b"], ["\u2581a", "b"], ["<", "x"]]


def _added(id_, content, **flags):
    return {"id": id_, "content": content, "single_word": False, "lstrip": False,
            "rstrip": False, "normalized": False, "special": False, **flags}


def _doc(pre_tokenizer: dict) -> dict:
    vocab = {"<unk>": 0, **{c: k + 1 for k, c in enumerate(CHARS)}}
    for a, b in MERGES:
        vocab[a + b] = len(vocab)
    n = len(vocab)
    added = [_added(n, "<a b>", special=True), _added(n + 1, "<t>", lstrip=True),
             _added(n + 2, "<r>", rstrip=True), _added(n + 3, "\u2581\u2581", normalized=True),
             _added(n + 4, "ab\u2581", normalized=True, single_word=True),
             _added(n + 5, "\n", special=True)]
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
        "pre_tokenizer": pre_tokenizer, "post_processor": None, "decoder": None,
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>",
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": [" ".join(m) for m in MERGES]},
    }


PRE_TOKENIZERS = {
    "gemma": {"type": "Split", "pattern": {"String": " "}, "behavior": "MergedWithPrevious",
              "invert": False},
    "words": {"type": "Split", "pattern": {"String": "\u2581"}, "behavior": "MergedWithNext",
              "invert": False},
}


@pytest.fixture(scope="module", params=sorted(PRE_TOKENIZERS))
def pair(request, tmp_path_factory):
    name = request.param
    return load_pair(_doc(PRE_TOKENIZERS[name]), tmp_path_factory, f"whole-{name}")


_TEXTS = st.lists(st.sampled_from(["a", "b", " ", "  ", "ab", "<a b>", "<t>", "<r>", "\u2581",
                                   "x", "\n", "\u00e9", "e\u0301", "<x"]),
                  max_size=30).map("".join)


@settings(max_examples=150, deadline=None)
@given(text=_TEXTS)
@example(text=" <t> ab <r>  <a b>\n ab  x")
@example(text="<a b><a b>  \u2581 ab ")
@example(text="")
def test_a_text_cut_by_added_tokens_encodes_as_the_reference(pair, text):
    ours, ref = pair
    assert ours.normalizer.char_for_char
    for special in (False, True):
        assert_same(ours, ref, text, special)


@settings(max_examples=150, deadline=None)
@given(text=_TEXTS)
@example(text=" <t> ab <r>  <a b>\n ab  x")
def test_normalizing_the_whole_text_equals_normalizing_each_piece(pair, text):
    """The same encoding, field for field, with the normalizer made to go piece by piece;
    the whole normalized text keeps every added token's matched text as written. (Texts
    where an ``rstrip`` token's whitespace holds a later split, which the reference
    splits out again, overlapping, are left out: there the two joins keep a different
    copy of the overlap; the encodings above still equal the reference's.)"""
    ours, _ = pair
    splits = stages.split_added(ours.added, text)
    assume(all(a.end <= b.start for a, b in zip(splits, splits[1:])))
    whole = ours.encode(text)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(ours.normalizer, "char_for_char", False)
        assert ours.encode(text) == whole
        pieces = ours.normalize(text)
    assert ours.normalize(text) == pieces == whole.normalized
    expected = [s.surface if s.token else s.surface.replace(" ", "\u2581") for s in splits]
    assert whole.normalized.text == "".join(expected)
    assert list(whole.normalized.starts) == list(range(len(text)))


def test_the_splits_share_one_map_and_keep_changed_tokens_apart(pair):
    ours, _ = pair
    text = "ab <a b> x <t>\n<r>"
    splits = stages.normalize(ours.normalizer, stages.split_added(ours.added, text))
    assert [s.surface for s in splits] == ["ab\u2581", "<a b>", "\u2581x", " <t>", "\n", "<r>"]
    assert all(s.normalized.original is text and s.shift == 0 for s in splits)
    kept = {s.surface for s in splits if s.normalized.text == text}  # the original's map
    assert kept == {"<a b>", " <t>"}  # the tokens whose text the normalizer would change
    assert len({id(s.normalized) for s in splits}) == 2
    joined = stages.joined_normalized(text, splits)
    assert joined.text == "ab\u2581<a b>\u2581x <t>\n<r>"
    assert list(joined.starts) == list(range(len(text)))
