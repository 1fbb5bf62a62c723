"""SentencePiece ``.model`` files decode exactly as ``SentencePieceProcessor.decode``: models
trained here on UDHR text (Unigram and BPE, with and without byte fallback, with the
whitespace options off, with a custom ``unk_surface``) decode the library's ids of all 29
UDHR texts, and any id list hypothesis makes up (control, unknown, byte and ``▁`` pieces
mixed), to the library's string; unknown ids raise."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from core.tokenizers.decoding import UnknownIdError
from core.tokenizers.formats.sentencepiece.model import SentencePieceModel
from core.tokenizers.formats.sentencepiece.tokenizer import SentencePieceTokenizer

spm = pytest.importorskip("sentencepiece")

# name -> trainer options
CONFIGS = {
    "unigram": dict(model_type="unigram", vocab_size=400),
    "unigram-bytes": dict(model_type="unigram", vocab_size=600, byte_fallback=True,
                          normalization_rule_name="identity"),
    "bpe-bytes": dict(model_type="bpe", vocab_size=600, byte_fallback=True),
    "bpe-keep-spaces": dict(model_type="bpe", vocab_size=400, remove_extra_whitespaces=False,
                            add_dummy_prefix=False, unk_surface="<?>"),
    "unigram-prefix-only": dict(model_type="unigram", vocab_size=400,
                                remove_extra_whitespaces=False),
}


@pytest.fixture(scope="module")
def models(udhr_texts):
    """name -> (our tokenizer, the library's processor), trained on first use."""
    train = [ln for c in ("eng", "fra", "rus", "hin") for ln in udhr_texts[c].splitlines()[:40]
             if ln.strip()]
    cache = {}

    def get(name):
        if name not in cache:
            out = io.BytesIO()
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(train), model_writer=out, character_coverage=0.99,
                minloglevel=2, num_threads=1, user_defined_symbols=["<sep>"], **CONFIGS[name])
            data = out.getvalue()
            ours = SentencePieceTokenizer(SentencePieceModel.from_bytes(data), name=name, path=name)
            cache[name] = ours, spm.SentencePieceProcessor(model_proto=data)
        return cache[name]
    return get


@pytest.mark.parametrize("name", CONFIGS)
def test_udhr_ids_decode_like_the_library(models, udhr_texts, name):
    ours, sp = models(name)
    assert len(udhr_texts) == 29
    fallback = 0
    for text in udhr_texts.values():
        ids = sp.encode(text[:3000])
        fallback += sum(map(sp.is_byte, ids))
        assert ours.decode(ids) == sp.decode(ids)
        assert ours.decode(ids, skip_special_tokens=False) == sp.decode(ids)
        assert ours.decode(ids[1::2]) == sp.decode(ids[1::2])  # byte runs torn apart
    assert (fallback > 0) == ("bytes" in name)


def test_core_ids_decode_like_the_library(models, udhr_texts):
    ours, sp = models("unigram-bytes")
    for lang in ("hin", "tha", "amh"):
        ids = ours.encode(udhr_texts[lang][:800]).ids
        assert ids == sp.encode(udhr_texts[lang][:800])
        assert ours.decode(ids) == sp.decode(ids)


def _id_lists(size):
    special = st.sampled_from([0, 1, 2, 3])  # unk, <s>, </s>, <sep>
    return st.lists(st.one_of(special, st.integers(3, size - 1), st.integers(3, 3 + 260)),
                    max_size=30)


@pytest.mark.parametrize("name", ["unigram-bytes", "bpe-keep-spaces", "unigram-prefix-only"])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_property_any_ids_decode_like_the_library(models, name, data):
    ours, sp = models(name)
    ids = data.draw(_id_lists(sp.get_piece_size()))
    assert ours.decode(ids, skip_special_tokens=False) == sp.decode(ids)
    assert ours.decode(ids) == sp.decode(ids)  # control pieces decode to nothing anyway
    pieces = ours.decode_pieces(ids)
    assert "".join(p.text for p in pieces) == sp.decode(ids)


def test_byte_pieces_share_a_character(models):
    ours, sp = models("unigram-bytes")
    ids = sp.encode("\u0e01")  # Thai, not in the training text: three byte pieces
    assert [sp.is_byte(i) for i in ids][-3:] == [True] * 3
    pieces = ours.decode_pieces(ids)[-3:]
    assert [p.text for p in pieces] == ["", "", "\u0e01"]
    assert [[q.label for q in p.parts] for p in pieces] == [
        ["byte 1 of \u0e01 (U+0E01)"], ["byte 2 of \u0e01 (U+0E01)"], ["byte 3 of \u0e01 (U+0E01)"]]


def test_unknown_surface_and_ids(models):
    ours, sp = models("bpe-keep-spaces")
    assert ours.decode([0, 0]) == sp.decode([0, 0]) == "<?><?>"
    with pytest.raises(IndexError):
        sp.decode([5, sp.get_piece_size()])
    with pytest.raises(UnknownIdError, match=f"id {sp.get_piece_size()} .position 1"):
        ours.decode([5, sp.get_piece_size()])
    assert ours.decode([]) == sp.decode([]) == ""


def test_control_piece_ends_a_byte_run_even_when_skipped(models):
    """<s> between <0xC2> and <0x80>: two bad bytes, not U+0080 (found by hypothesis)."""
    ours, sp = models("unigram-bytes")
    c2, bos, x80 = sp.piece_to_id("<0xC2>"), sp.piece_to_id("<s>"), sp.piece_to_id("<0x80>")
    ids = [c2, bos, x80]
    assert sp.decode(ids) == "\ufffd\ufffd"
    assert ours.decode(ids) == ours.decode(ids, skip_special_tokens=False) == sp.decode(ids)
    pieces = ours.decode_pieces(ids)
    assert [p.skipped for p in pieces] == [False, True, False]
    assert "".join(p.text for p in pieces) == "\ufffd\ufffd"
