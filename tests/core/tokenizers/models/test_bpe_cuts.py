"""Words cut where no merge can cross (``bpe_cuts``) give exactly the tokens and spans of
the uncut word: on random merge lists over an alphabet with ``▁`` (hypothesis), and on
Gemma 3's lines, whose pre-tokenizer never cuts them. The cut is refused where it would not
be exact."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from core.tokenizers.models.bpe import BPE, CUT_FROM
from core.tokenizers.models.bpe_cuts import MARKER, cut_words, join_pieces, merge_free_cutter
from tests.core.tokenizers.loaded import shared_tokenizer
from tests.core.tokenizers.models.merge_lists import merge_lists

M = MARKER


def _model(symbols, merges, **options) -> BPE:
    vocab = {"<unk>": 0, **{s: i + 1 for i, s in enumerate(symbols)}}
    return BPE(vocab, merges, unk_token="<unk>", **options)


def _uncut(model: BPE, word: str) -> tuple:
    """The word's tokens by the loop that never cuts (``tokenize``)."""
    return tuple(zip(*model.tokenize(word))) if word else ((), (), (), ())


@settings(max_examples=300, deadline=None)
@given(merge_lists(alphabet="ab" + M, most=14, longest=6),
       st.text("ab" + M + "x", min_size=CUT_FROM, max_size=80))
def test_cut_words_give_the_tokens_of_the_whole_word(table, word):
    model = _model(*table)
    assert model.merge_free_cutter() is not None
    assert model.tokenize_words([word, word[:5]]) == [_uncut(model, word), _uncut(model, word[:5])]
    assert model.tokenize_word(word) == _uncut(model, word)


def test_a_token_holding_c_marker_keeps_c_and_marker_together():
    cutter = merge_free_cutter(["a", "b", M, "a" + M + "b", M + "b"])
    assert cutter.split("b" + M + "b" + "a" + M + "b" + M + M + "a") == [
        "b", M + "ba" + M + "b", M + M + "a"]
    assert merge_free_cutter(["a", "b"]) is None  # no ▁: the file does not mark words


@pytest.mark.parametrize("joiner", ["\n", "\uffff", "\ud800"])
def test_a_token_holding_the_separator_before_the_marker_keeps_them_together(joiner):
    """U+FFFF separates the tokens laid end to end, so a token holding one is looked at
    alone; a line feed and a lone surrogate are characters like any other; a vocabulary
    given as a dict (its ids ignored) gives the same cutter as its tokens."""
    tokens = ["a", M, joiner + M]
    for given in (tokens, dict.fromkeys(tokens, 0)):
        cutter = merge_free_cutter(given)
        assert cutter.split(f"a{joiner}{M}a{M}a") == [f"a{joiner}{M}a", M + "a"]
    assert merge_free_cutter({"a": 0}) is None


def test_cut_and_join_are_inverse():
    cutter = merge_free_cutter(["a", M])
    words = ["", "a", "a" + M + "a" + M + M + "a", M + "a"]
    parts, per_word, shifts = cut_words(words, cutter)
    assert parts == ["", "a", "a", M + "a", M + M + "a", M + "a"]
    assert per_word == [1, 1, 3, 1] and shifts == [0, 0, 0, 1, 3, 0]
    pieces = [((p,), (i,), (0,), (len(p),)) for i, p in enumerate(parts)]
    joined = join_pieces(pieces, per_word, shifts)
    assert joined[2] == (("a", M + "a", M + M + "a"), (2, 3, 4), (0, 1, 3), (1, 3, 6))


def _joined_plainly(pieces, per_word, shifts):
    """The definition: each word's parts' tokens laid end to end, spans shifted."""
    out, at = [], 0
    for n in per_word:
        parts = list(zip(pieces[at:at + n], shifts[at:at + n]))
        out.append(tuple(tuple(x for piece, s in parts for x in (piece[k] if k < 2 else
                                                                  [v + s for v in piece[k]]))
                         for k in range(4)))
        at += n
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.sampled_from(["a", "b", M]), max_size=8), max_size=6))
def test_join_pieces_equals_the_part_by_part_definition(words):
    cutter = merge_free_cutter(["a", "b", M, "a" + M])
    parts, per_word, shifts = cut_words(words, cutter)
    pieces = [(tuple(p), tuple(range(i, i + len(p))), tuple(range(len(p))),
               tuple(range(1, len(p) + 1))) for i, p in enumerate(parts)]
    assert join_pieces(pieces, per_word, shifts) == _joined_plainly(pieces, per_word, shifts)


@pytest.mark.parametrize("options", [
    {"ignore_merges": True}, {"continuing_subword_prefix": "##"},
    {"end_of_word_suffix": "</w>"}])
def test_no_cut_where_it_would_not_be_exact(options):
    assert _model(["a", M], [], **options).merge_free_cutter() is None
    dropping = BPE({"a": 0, M: 1}, [])  # no unknown token, no byte fallback
    assert dropping.merge_free_cutter() is None


def test_gemma_3_lines_cut_equal_uncut(data_dir):
    tok = shared_tokenizer(data_dir, "gemma-3/tokenizer.json")
    model = tok.model
    assert model.merge_free_cutter().pattern.startswith("(?<=[^>")  # only ">▁</" crosses
    text = (data_dir / "udhr" / "hin.txt").read_text(encoding="utf-8")
    text += (data_dir / "udhr" / "eng.txt").read_text(encoding="utf-8")
    lines = [line.replace(" ", M) for line in text.splitlines()[:120] if line]
    assert model.tokenize_words(lines) == [_uncut(model, w) for w in lines]
