"""Issue 24: the Unigram walks that replace the per-word prefix walk — many words' lattices
in numpy, a short word's slices tried up to its first character's reach, a long word's
numpy-found edges — each give ``tokenizers``' own segmentation, also when the hash that
finds the pieces collides."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from core.errors import Cancelled, SubwordScopeError
from core.tokenizers.models import unigram, unigram_lattice
from core.tokenizers.models.unigram import Unigram, byte_piece
from core.tokenizers.models.unigram_lattice import PieceIndex

tokenizers = pytest.importorskip("tokenizers")

ALPHABET = "ab\u00e9\u4e2d\u0915\u093f\U0001f600"  # with a Devanagari sign and an emoji
BYTES = [(byte_piece(b), -20.0) for b in range(256)]

scores = st.one_of(st.integers(-6, 0).map(float),  # whole scores: many tied paths
                   st.floats(-12, 0, allow_nan=False).map(lambda x: round(x, 1)))
vocabularies = st.lists(st.tuples(st.text(ALPHABET, min_size=1, max_size=5), scores),
                        min_size=1, max_size=16)
words = st.lists(st.text(ALPHABET + "xy", min_size=1, max_size=20), min_size=1, max_size=40)


def reference(pieces, unk_id, byte_fallback, word):
    """(tokens, ids, starts, ends) from ``tokenizers``' Unigram, code-point offsets."""
    model = tokenizers.models.Unigram(pieces, unk_id, byte_fallback)
    enc = tokenizers.Tokenizer(model).encode(word)
    if not enc.ids:
        return (), (), (), ()
    return (tuple(enc.tokens), tuple(enc.ids), *map(tuple, zip(*enc.offsets)))


@pytest.fixture
def everything_walked_together(monkeypatch):
    """Every batch of new words goes through the numpy lattice, every word of two or more
    code points through the numpy-found edges when alone."""
    monkeypatch.setattr(unigram, "LATTICE_FROM", 1)
    monkeypatch.setattr(unigram, "LONG_WORD", 2)


@settings(max_examples=150, deadline=None)
@given(pieces=vocabularies, batch=words, byte_fallback=st.booleans())
def test_many_words_walked_together_equal_the_reference(pieces, batch, byte_fallback):
    pieces = [("<unk>", 0.0)] + pieces + (BYTES if byte_fallback else [])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(unigram, "LATTICE_FROM", 1)
        model = Unigram(pieces, 0, byte_fallback)
        batch = batch * 2  # (prefetch wants 64 words or more)
        batch += ["a"] * (64 - len(batch))
        got = model.tokenize_words(batch)
    for word, piece in zip(batch, got):
        assert piece == reference(pieces, 0, byte_fallback, word), word


@settings(max_examples=150, deadline=None)
@given(pieces=vocabularies, word=st.text(ALPHABET + "xy", max_size=40),
       byte_fallback=st.booleans(), long=st.booleans())
def test_one_word_walked_either_way_equals_the_reference(pieces, word, byte_fallback, long):
    pieces = [("<unk>", 0.0)] + pieces + (BYTES if byte_fallback else [])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(unigram, "LONG_WORD", 1 if long else 10**9)
        got = Unigram(pieces, 0, byte_fallback).tokenize_word(word) if word else ((),) * 4
    assert got == reference(pieces, 0, byte_fallback, word)


@pytest.mark.parametrize("walk", ["together", "short", "long"])
def test_ties_keep_the_earlier_start_in_every_walk(walk, monkeypatch):
    """``ab`` and ``a`` + ``b`` score alike: the path whose last edge starts first wins."""
    monkeypatch.setattr(unigram, "LATTICE_FROM", 1 if walk == "together" else 10**9)
    monkeypatch.setattr(unigram, "LONG_WORD", 1 if walk == "long" else 10**9)
    pieces = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -2.0), ("ba", -2.0)]
    got = Unigram(pieces, 0).tokenize_words(["abab", "bab"] * 40)
    assert got[:2] == [reference(pieces, 0, False, "abab"), reference(pieces, 0, False, "bab")]
    assert got[0] == (("ab", "ab"), (3, 3), (0, 2), (2, 4))


def _additive(hashes, code):
    """A hash where every anagram collides (the sum of the code points)."""
    return hashes + code.astype(np.uint64)


@settings(max_examples=100, deadline=None)
@given(pieces=vocabularies, batch=words)
def test_a_colliding_hash_changes_no_segmentation(pieces, batch):
    """With a hash under which ``ab`` and ``ba`` collide, a slice that only hashes like a
    piece is never taken for it (every edge on a path is checked against its piece's code
    points), and pieces that collide with each other leave the numpy walks unused."""
    pieces = [("<unk>", 0.0)] + pieces
    batch += ["a"] * (64 - len(batch))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(unigram_lattice, "_step", _additive)
        patch.setattr(unigram, "LATTICE_FROM", 1)
        patch.setattr(unigram, "LONG_WORD", 2)
        model = Unigram(pieces, 0)
        together = model.tokenize_words(batch)
        model._cache.clear()
        alone = [model.tokenize_word(w) for w in batch]
    for word, a, b in zip(batch, together, alone):
        assert a == b == reference(pieces, 0, False, word), word


def test_a_collision_on_the_best_path_sends_the_word_to_the_per_word_walk(
        everything_walked_together, monkeypatch):
    """``ba`` hashes as the piece ``ab`` and would win the lattice; the lattice's path is
    checked, found wrong, and the word segmented alone (exactly)."""
    monkeypatch.setattr(unigram_lattice, "_step", _additive)
    pieces = [("<unk>", 0.0), ("a", -5.0), ("b", -5.0), ("ab", -1.0)]
    model = Unigram(pieces, 0)
    index = model._index
    assert index is not None
    code = np.frombuffer("ba".encode("utf-32-le"), np.uint32)
    start, length, ids, which = index.edges(code, np.array([2, 1]))
    assert (2 in length.tolist()) and not index.confirm(code, start, length, which).all()
    got = model.tokenize_words(["ba"] * 64 + ["ab"] * 64)
    assert got[0] == (("b", "a"), (2, 1), (0, 1), (1, 2))
    assert got[-1] == (("ab",), (3,), (0,), (2,))


def test_pieces_that_collide_with_each_other_build_no_index(monkeypatch):
    monkeypatch.setattr(unigram_lattice, "_step", _additive)
    assert PieceIndex.build(["ab", "ba", "a"], [0, 1, 2]) is None
    model = Unigram([("<unk>", 0.0), ("ab", -1.0), ("ba", -1.0), ("a", -3.0), ("b", -3.0)], 0)
    monkeypatch.setattr(unigram, "LATTICE_FROM", 1)
    got = model.tokenize_words(["abba"] * 64 + ["b" * 40])
    assert got[0] == (("ab", "ba"), (1, 2), (0, 2), (2, 4))
    assert got[-1][0] == ("b",) * 40


def test_the_index_is_built_at_load_and_the_reach_on_first_use():
    model = Unigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.5)], 0)
    assert model._index is not None and model._first is None
    model.tokenize_word("abab")
    assert model._first == {"<": (None, 5), "a": (1, 2)}


def test_words_left_to_the_per_word_walk(everything_walked_together):
    """Without ``unk_id`` a word with an uncovered character still raises; with byte
    fallback, unknown text is spelled in bytes; a piece typed as text fuses with
    unknown neighbours — all as when the words are segmented alone."""
    strict = Unigram([("a", -1.0), ("b", -1.0)], None)
    with pytest.raises(SubwordScopeError):
        strict.tokenize_words(["ab"] * 70 + ["ax"])
    assert strict.tokenize_words(["ab"] * 70)[0] == (("a", "b"), (0, 1), (0, 1), (1, 2))
    pieces = [("<unk>", 0.0), ("a", -1.0)] + BYTES
    spelled = Unigram(pieces, 0, byte_fallback=True)
    assert spelled.tokenize_words(["aé"] * 70)[0] == reference(pieces, 0, True, "aé")
    unk = [("<unk>", 0.0), ("a", -1.0)]
    assert Unigram(unk, 0).tokenize_words(["x<unk>ya"] * 70)[0] == reference(unk, 0, False, "x<unk>ya")


def test_a_batch_of_new_words_stops_when_asked(everything_walked_together):
    model = Unigram([("<unk>", 0.0), ("a", -1.0), ("ab", -1.5), ("abc", -2.0)], 0)
    batch = [f"ab{'c' * (k % 7)}a{k}" for k in range(500)]
    with pytest.raises(Cancelled):
        model.prefetch_words(batch, should_stop=lambda: True)
    assert not model._cache  # nothing half-made is kept
    model.prefetch_words(batch, should_stop=lambda: False)
    assert len(model._cache) == len(batch)


def test_an_edge_longer_than_the_piece_its_hash_names_is_rejected_without_reading_past_it():
    """A collision may pair a slice with a shorter piece, the last one of the index: the
    check compares lengths first and reads no code point past that piece."""
    index = PieceIndex.build(["x", "ab"], [0, 1])
    code = np.frombuffer("abzzz".encode("utf-32-le"), np.uint32)
    ok = index.confirm(code, np.array([0, 0]), np.array([5, 2]), np.array([1, 1]))
    assert ok.tolist() == [False, True]
