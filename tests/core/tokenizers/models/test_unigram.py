"""The Unigram model: golden segmentations, byte fallback, exact parity with ``tokenizers``
(hypothesis over random vocabularies, Pegasus on every UDHR text, and a file trained by the
reference trainer behind Metaspace), malformed models."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings, strategies as st

from core.errors import SubwordScopeError, TokenizerLoadError
from core.tokenizers import load
from core.tokenizers.models.unigram import Unigram, byte_piece
from tests.core.tokenizers.reference_pairs import assert_same

tokenizers = pytest.importorskip("tokenizers")

BYTES = [(byte_piece(b), -20.0) for b in range(256)]


def reference_tokens(pieces, unk_id, byte_fallback, word):
    """(token, id, start, end) from ``tokenizers``' own Unigram, code-point offsets."""
    model = tokenizers.models.Unigram(pieces, unk_id, byte_fallback)
    enc = tokenizers.Tokenizer(model).encode(word)
    return [(t, i, a, b) for t, i, (a, b) in zip(enc.tokens, enc.ids, enc.offsets)]


# -- golden ----------------------------------------------------------------------------------

def test_library_docstring_example():
    pieces = [("<unk>", 0.0), ("a", 0.0), ("b", 0.0), ("c", 0.0), ("d", 0.0), ("cd", 1.0),
              ("ab", 2.0), ("abc", 5.0), ("abcd", 10.0)]
    model = Unigram(pieces, 0)
    assert model.tokenize("abcdacdxx") == [
        ("abcd", 8, 0, 4), ("a", 1, 4, 5), ("cd", 5, 5, 7), ("xx", 0, 7, 9)]


def test_spec_section_5_best_paths():
    counts = dict(l=2, o=2, w=4, e=5, s=2, t=2, n=1, r=2, lo=3, low=7, est=9, er=4, new=6,
                  wid=3, id=3, west=2, lowe=1)
    total = sum(counts.values())
    model = Unigram([(p, math.log(c / total)) for p, c in counts.items()], None)
    assert [t for t, *_ in model.tokenize("lowest")] == ["low", "est"]
    assert [t for t, *_ in model.tokenize("newest")] == ["new", "est"]
    assert [t for t, *_ in model.tokenize("lowers")] == ["low", "er", "s"]


def test_ties_keep_the_earlier_start():
    pieces = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -2.0)]
    assert Unigram(pieces, 0).tokenize("ab") == [("ab", 3, 0, 2)]
    assert reference_tokens(pieces, 0, False, "ab") == [("ab", 3, 0, 2)]


def test_unknown_characters_fuse_and_keep_their_text():
    pieces = [("<unk>", 0.0), ("a", -1.0), ("b", -2.0)]
    model = Unigram(pieces, 0)
    assert model.unk_score == -12.0
    assert model.tokenize("a\u00e9\u00e9b\U0001F600") == [
        ("a", 1, 0, 1), ("\u00e9\u00e9", 0, 1, 3), ("b", 2, 3, 4), ("\U0001F600", 0, 4, 5)]


def test_the_unk_piece_typed_in_a_word_fuses_with_unknown_neighbours():
    """A piece whose id is ``unk_id`` (``<unk>`` typed in the text) is an unknown edge too:
    it fuses with the unknown characters around it, as in ``tokenizers``; a character that
    starts a piece but is none is unknown on its own."""
    pieces = [("<unk>", 0.0), ("a", -1.0), ("b", -2.0), ("<", -1.0)]
    model = Unigram(pieces, 0)
    for word in ["x<unk>a", "<unk>", "xx<unk>yy", "a<unk>", "<unk>x", "<u", "é<unk><unk>é",
                 "aéébé"]:
        assert model.tokenize(word) == reference_tokens(pieces, 0, False, word), word
    assert model.tokenize("x<unk>a") == [("x<unk>", 0, 0, 6), ("a", 1, 6, 7)]


def test_byte_fallback_spells_unknown_text_with_one_shared_span():
    pieces = [("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -2.0)] + BYTES
    model = Unigram(pieces, 0, byte_fallback=True)
    got = model.tokenize("abx\u00e9")
    assert got == [("ab", 3, 0, 2), ("<0x78>", 124, 2, 4), ("<0xC3>", 199, 2, 4),
                   ("<0xA9>", 173, 2, 4)]
    assert got == reference_tokens(pieces, 0, True, "abx\u00e9")


def test_byte_fallback_needs_every_byte_piece():
    pieces = [("<unk>", 0.0), ("a", -1.0), ("<0xC3>", -5.0)]
    assert Unigram(pieces, 0, byte_fallback=True).tokenize("\u00e9") == [("\u00e9", 0, 0, 1)]


def test_no_unk_id_and_an_uncovered_character_is_a_clear_error():
    with pytest.raises(SubwordScopeError, match="U\\+00E9.*no unk_id"):
        Unigram([("a", -1.0)], None).tokenize("a\u00e9")


def test_vocabulary_accessors_and_cache():
    pieces = [("<unk>", 0.0), ("a", -1.0), ("a", -3.0), ("bc", -2.0)]
    model = Unigram(pieces, 0)
    assert model.vocab_size == 4
    assert model.token_to_id("a") == 2  # a duplicated piece: the later id wins
    assert model.id_to_token(3) == "bc" and model.id_to_token(9) is None
    assert model.get_vocab() == {"<unk>": 0, "a": 2, "bc": 3}
    assert model.tokenize("") == []
    first = model.tokenize("abc")
    assert model.tokenize("abc") == first == [("a", 2, 0, 1), ("bc", 3, 1, 3)]
    info = model.describe()
    assert info["type"] == "Unigram" and info["unk_token"] == "<unk>"
    assert info["max_piece_length"] == 5 and info["unk_score"] == -13.0


# -- hypothesis: parity and invariants ---------------------------------------------------------

ALPHABET = "ab\u00e9\u4e2d "

vocabularies = st.lists(
    st.tuples(st.text(ALPHABET, min_size=1, max_size=4),
              st.floats(-12, 0, allow_nan=False).map(lambda x: round(x, 1))),
    min_size=1, max_size=14)


@settings(max_examples=200, deadline=None)
@given(pieces=vocabularies, word=st.text(ALPHABET + "xy", max_size=12),
       byte_fallback=st.booleans())
def test_property_equals_tokenizers(pieces, word, byte_fallback):
    pieces = [("<unk>", 0.0)] + pieces + (BYTES if byte_fallback else [])
    assert Unigram(pieces, 0, byte_fallback).tokenize(word) == \
        reference_tokens(pieces, 0, byte_fallback, word)


@settings(max_examples=200, deadline=None)
@given(pieces=vocabularies, word=st.text(ALPHABET + "xy", max_size=16),
       byte_fallback=st.booleans())
def test_property_pieces_tile_the_word(pieces, word, byte_fallback):
    model = Unigram([("<unk>", 0.0)] + pieces + (BYTES if byte_fallback else []), 0, byte_fallback)
    pos = 0
    for token, id_, a, b in model.tokenize(word):
        assert a == pos or (a < pos and b == pos)  # byte pieces repeat the span
        assert model.id_to_token(id_) == token or id_ == 0 and token == word[a:b]
        if not token.startswith("<0x"):
            assert token == word[a:b]
        pos = b
    assert pos == len(word)


# -- tokenizer.json models -------------------------------------------------------------------

@pytest.mark.parametrize("model, match", [
    ([], "object"),
    ({"type": "Unigram"}, "vocab"),
    ({"vocab": [["a", "x"]]}, "entry 0"),
    ({"vocab": [["a", -1.0, 3]]}, "entry 0"),
    ({"vocab": [[1, -1.0]]}, "entry 0"),
    ({"vocab": [["a", True]]}, "entry 0"),
    ({"vocab": [["a", -1.0]], "unk_id": 4}, "outside"),
    ({"vocab": [["a", -1.0]], "unk_id": "0"}, "integer"),
    ({"vocab": [], "unk_id": 0}, "empty"),
    ({"vocab": [["a", -1.0]], "byte_fallback": "yes"}, "byte_fallback"),
])
def test_malformed_model_is_a_load_error(model, match):
    with pytest.raises(TokenizerLoadError, match=match):
        Unigram.from_tokenizer_json_model(model)


@pytest.fixture(scope="module")
def pegasus(data_dir):
    path = data_dir / "tokenizers/pegasus-unigram/tokenizer.json"
    model = json.loads(path.read_text("utf-8"))["model"]
    return Unigram.from_tokenizer_json_model(model), tokenizers.Tokenizer.from_file(str(path))


def test_pegasus_vocabulary(pegasus):
    model, ref = pegasus
    assert model.vocab_size == 96_103 == ref.get_vocab_size(with_added_tokens=False)
    assert model.unk_token == "<unk>" and model.unk_id == 105
    assert model.min_score == -100.0 and not model.byte_fallback


def test_pegasus_every_udhr_text_gives_the_reference_tokens(pegasus, data_dir):
    """(b) of the brief: on the reference's own pre-tokenized words, our Unigram gives its
    tokens and ids for the whole text, and each word's pieces the model's own offsets."""
    model, ref = pegasus
    ref.no_truncation()
    texts = sorted((data_dir / "udhr").glob("*.txt"))
    assert len(texts) == 29
    for path in texts:
        text = path.read_text("utf-8")
        words = [w for w, _ in ref.pre_tokenizer.pre_tokenize_str(ref.normalizer.normalize_str(text))]
        mine = [t for w in words for t in model.tokenize(w)]
        enc = ref.encode(text, add_special_tokens=False)
        assert [t for t, *_ in mine] == enc.tokens, path.stem
        assert [i for _, i, *_ in mine] == enc.ids, path.stem
    for word in {w for w in words if len(w) > 3}:  # the last text: per-word model offsets
        want = [(t.value, t.id, len(word.encode()[:t.offsets[0]].decode()),
                 len(word.encode()[:t.offsets[1]].decode())) for t in ref.model.tokenize(word)]
        assert model.tokenize(word) == want, word


def test_trained_unigram_with_metaspace_matches_reference(udhr_texts, tmp_path_factory):
    from tokenizers import models, pre_tokenizers, trainers

    udhr = udhr_texts
    ref = tokenizers.Tokenizer(models.Unigram())
    ref.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first")
    ref.train_from_iterator([ln for c in ("eng", "deu_1996") for ln in udhr[c].splitlines()[:80]],
                            trainers.UnigramTrainer(vocab_size=400, unk_token="<unk>",
                                                    special_tokens=["<unk>"], show_progress=False))
    path = tmp_path_factory.mktemp("trained") / "unigram.json"
    ref.save(str(path))
    ours = load(path)
    for lang in ("eng", "fra", "rus", "jpn"):
        assert_same(ours, ref, udhr[lang][:3000], False)
