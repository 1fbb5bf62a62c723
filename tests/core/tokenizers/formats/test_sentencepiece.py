"""SentencePiece ``.model`` files: models trained here with the ``sentencepiece`` trainer on
UDHR text (Unigram and BPE, with and without byte fallback, nmt_nfkc and identity rules,
whitespace options) must encode held-out text exactly as ``SentencePieceProcessor``: pieces,
ids and original spans. Malformed files give ``TokenizerLoadError``."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from core.errors import TokenizerLoadError
from core.tokenizers.derived import derived_offsets
from core.tokenizers.formats.sentencepiece.model import (
    SentencePieceModel, load_sentencepiece_model)
from core.tokenizers.formats.sentencepiece.proto import parse_model_proto
from core.tokenizers.formats.sentencepiece.tokenizer import SentencePieceTokenizer
from core.tokenizers.models.sentencepiece import BYTE, NORMAL, UNKNOWN
from tests.core.strategies import tricky_text

spm = pytest.importorskip("sentencepiece")
from sentencepiece import sentencepiece_model_pb2 as pb2  # noqa: E402

# name -> (model_type, byte_fallback, rule, extra trainer options, escape_whitespaces)
CONFIGS = {
    "unigram-nfkc": ("unigram", False, "nmt_nfkc", {}, True),
    "unigram-nfkc-bytes": ("unigram", True, "nmt_nfkc", {}, True),
    "unigram-identity": ("unigram", False, "identity", {}, True),
    "unigram-identity-bytes": ("unigram", True, "identity", {}, True),
    "bpe-nfkc": ("bpe", False, "nmt_nfkc", {}, True),
    "bpe-nfkc-bytes": ("bpe", True, "nmt_nfkc", {}, True),
    "bpe-identity": ("bpe", False, "identity", {}, True),
    "bpe-identity-bytes": ("bpe", True, "identity", {}, True),
    "unigram-keep-spaces": ("unigram", False, "nmt_nfkc",
                            {"remove_extra_whitespaces": False, "add_dummy_prefix": False}, True),
    "bpe-suffix-no-escape": ("bpe", False, "identity", {"treat_whitespace_as_suffix": True}, False),
}
EDGE_LINES = ["  x  y ", "\ufb01 \uff76\uff85 x\u00b2 \u2460", "\t\ta\n b", "a<sep>b <sep> c", "",
              "   ", "\u2581\u2581a\u2581", "\u00e9\u00e9\u00e9 \U0001F600\U0001F600 \u4e2d\u6587",
              "e\u0301 \u017f\u0307", "\u0645\u0631\u062d\u0628\u0627 \u05e9\u05dc\u05d5\u05dd"]


def _lines(data_dir, code, limit=None):
    lines = [ln for ln in (data_dir / "udhr" / f"{code}.txt").read_text("utf-8").splitlines() if ln.strip()]
    return lines[:limit]


@pytest.fixture(scope="module")
def corpus(data_dir):
    train = [ln for c in ("eng", "fra", "rus", "vie") for ln in _lines(data_dir, c, 60)]
    held = [ln for c in ("ita", "pol", "tur", "jpn", "hin") for ln in _lines(data_dir, c, 6)]
    return train, held + EDGE_LINES


@pytest.fixture(scope="module")
def trained(corpus):
    """name -> serialized model, trained on first use."""
    cache: dict[str, bytes] = {}

    def get(name: str) -> bytes:
        if name not in cache:
            kind, fallback, rule, extra, escape = CONFIGS[name]
            out = io.BytesIO()
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(corpus[0]), model_writer=out, model_type=kind,
                vocab_size=420 if fallback else 300, byte_fallback=fallback,
                normalization_rule_name=rule, character_coverage=0.995, minloglevel=2,
                user_defined_symbols=["<sep>"], num_threads=1, **extra)
            proto = pb2.ModelProto.FromString(out.getvalue())
            proto.normalizer_spec.escape_whitespaces = escape
            cache[name] = proto.SerializeToString()
        return cache[name]
    return get


_PROCESSORS: dict[bytes, object] = {}


def reference(model_bytes, text):
    """(piece, id, start, end) from the library; its byte offsets turned into code points."""
    sp = _PROCESSORS.get(model_bytes)
    if sp is None:
        sp = _PROCESSORS[model_bytes] = spm.SentencePieceProcessor(model_proto=model_bytes)
    char_at = {len(text[:i].encode("utf-8")): i for i in range(len(text) + 1)}
    return [(p.piece, p.id, char_at[p.begin], char_at[p.end])
            for p in sp.encode(text, out_type="proto").pieces]


def ours(model, text):
    return [(t.piece, t.id, t.start, t.end) for t in model.encode(text)]


# -- parity -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", CONFIGS)
def test_held_out_lines_encode_like_the_library(trained, corpus, name):
    data = trained(name)
    model = SentencePieceModel.from_bytes(data)
    reference(data, "")
    sp = _PROCESSORS[data]
    for line in corpus[1]:
        assert ours(model, line) == reference(data, line), line
        assert model.encode_as_pieces(line) == sp.encode(line, out_type=str)
        assert model.encode_as_ids(line) == sp.encode(line)
        assert model.normalize(line).text == sp.normalize(line)


def test_the_corpus_exercises_unknowns_bytes_and_user_symbols(trained, corpus):
    data = trained("unigram-nfkc-bytes")
    pieces = [p for line in corpus[1] for p, *_ in reference(data, line)]
    assert "<sep>" in pieces and "<0xE4>" in pieces
    plain = [t for line in corpus[1] for t in reference(trained("bpe-nfkc"), line)]
    assert any(i == 0 and len(p) > 1 for p, i, *_ in plain)  # a merged run of unknowns


@pytest.mark.parametrize("name", ["unigram-nfkc", "bpe-nfkc-bytes", "unigram-keep-spaces",
                                  "bpe-suffix-no-escape"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=tricky_text)
def test_property_tricky_text_encodes_like_the_library(trained, name, text):
    data = trained(name)
    assert ours(SentencePieceModel.from_bytes(data), text) == reference(data, text)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=tricky_text)
@example(text="\u2581\u00e9")  # a ▁ typed in the text is a piece's ▁ like a space (found by hypothesis)
def test_property_spans_in_bounds_and_surfaces_match(trained, text):
    data = trained("unigram-identity")
    model = SentencePieceModel.from_bytes(data)
    pos = 0
    for t in model.encode(text):
        assert pos <= t.start <= t.end <= len(text)
        if t.id != model.unk_id:  # identity rule: a piece is its source, spaces as ▁
            source = text[t.start:t.end].replace(" ", "").replace("\u2581", "")
            assert source == t.piece.replace("\u2581", "")
        pos = t.start
    assert ours(model, text) == reference(data, text)


# -- unknown tokens, byte fallback, derived spans -------------------------------------------

def _tokenizer(data, name):
    return SentencePieceTokenizer(SentencePieceModel.from_bytes(data), name=name, path=name)


@pytest.mark.parametrize("name", ["unigram-nfkc-bytes", "bpe-identity-bytes", "unigram-nfkc", "bpe-nfkc"])
def test_unknown_and_byte_fallback_masks_follow_the_library(trained, corpus, name):
    data = trained(name)
    tok = _tokenizer(data, name)
    reference(data, "")
    sp = _PROCESSORS[data]
    unknown = fallback = 0
    for line in corpus[1]:
        ids = sp.encode(line)
        enc = tok.encode(line)
        assert enc.ids == ids
        assert enc.unknown_mask == [sp.is_unknown(i) for i in ids]
        assert enc.byte_fallback_mask == [sp.is_byte(i) for i in ids]
        unknown, fallback = unknown + sum(enc.unknown_mask), fallback + sum(enc.byte_fallback_mask)
    assert (unknown > 0, fallback > 0) == (not name.endswith("bytes"), name.endswith("bytes"))


def test_byte_pieces_get_the_character_they_spell(trained):
    enc = _tokenizer(trained("unigram-nfkc-bytes"), "u").encode("\u4e2d\u6587 x")
    assert enc.tokens[1:7] == ["<0xE4>", "<0xB8>", "<0xAD>", "<0xE6>", "<0x96>", "<0x87>"]
    assert enc.offsets[1:7] == [(0, 0), (0, 0), (0, 1), (1, 1), (1, 1), (1, 2)]  # the library's
    assert enc.derived_offsets[1:7] == [(0, 1)] * 3 + [(1, 2)] * 3


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=tricky_text)
def test_property_derived_spans_hold_each_pieces_bytes(trained, text):
    """With byte fallback: derived spans are ordered, inside the text, and a byte piece's
    span is the one character whose byte it is (of a whitespace character, the library's
    span is kept: whitespace is a convention); other pieces keep the library's span."""
    enc = _tokenizer(trained("unigram-identity-bytes"), "u").encode(text)
    last = 0
    for (a, b), ref, is_byte, piece in zip(enc.derived_offsets, enc.offsets,
                                           enc.byte_fallback_mask, enc.tokens):
        assert 0 <= last <= a <= b <= len(text)
        last = a
        if is_byte and not text[ref[0]:max(ref[1], ref[0] + 1)].isspace():
            # identity rule: the normalized character is the original one
            assert b - a == 1 and int(piece[3:5], 16) in text[a].encode("utf-8", "surrogatepass")
        else:
            assert (a, b) == ref


@pytest.mark.parametrize("name", CONFIGS)
def test_derived_spans_guessed_in_bulk_equal_the_token_walk(trained, corpus, data_dir, name):
    """The vectorized derived offsets (the text spells the ``▁`` marker out, so marked
    pieces are placed as plain literals) equal the token-by-token walk, on held-out lines
    and on a long multilingual text with byte pieces."""
    tok = _tokenizer(trained(name), name)
    long_text = "\n".join(_lines(data_dir, c, 8)[-1] for c in ("eng", "hin", "arb", "tha", "cmn_hans"))
    for text in corpus[1] + [long_text + " \U0001F469\u200d\U0001F469\u200d\U0001F467 \U0001F44D\U0001F3FD"]:
        enc = tok.encode(text)
        assert derived_offsets(enc, enc.rules) == derived_offsets(enc, enc.rules, shortcut=False), text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=tricky_text)
def test_property_derived_guess_equals_walk(trained, text):
    for name in ("unigram-nfkc-bytes", "bpe-identity-bytes"):
        enc = _tokenizer(trained(name), name).encode(text)
        assert derived_offsets(enc, enc.rules) == derived_offsets(enc, enc.rules, shortcut=False)


# -- the parsed proto ---------------------------------------------------------------------

def test_parse_agrees_with_the_library_schema(trained):
    data = trained("bpe-nfkc-bytes")
    ref = pb2.ModelProto.FromString(data)
    got = parse_model_proto(data)
    assert [(p, t) for p, _, t in got.pieces] == [(p.piece, p.type) for p in ref.pieces]
    assert [s for _, s, _ in got.pieces] == [p.score for p in ref.pieces]
    assert (got.model_type, got.byte_fallback) == (2, True)
    assert got.normalizer_name == "nmt_nfkc"
    assert got.precompiled_charsmap == ref.normalizer_spec.precompiled_charsmap
    assert (got.add_dummy_prefix, got.remove_extra_whitespaces, got.escape_whitespaces) == (True, True, True)
    model = SentencePieceModel(got)
    assert model.type_name == "BPE" and model.vocab_size == len(ref.pieces)
    assert model.unk_token == "<unk>" and model.token_to_id("<sep>") == 3
    assert model.id_to_token(0) == "<unk>" and model.id_to_token(10**6) is None
    assert model.get_vocab()["<0x41>"] == model.token_to_id("<0x41>")
    assert model.describe()["user_defined_symbols"] == ["<sep>"]


def test_normalized_text_maps_back_to_the_original(trained):
    model = SentencePieceModel.from_bytes(trained("unigram-nfkc"))
    nt = model.normalize("  \ufb01x  y")
    assert nt.text == "\u2581fix\u2581y"
    assert nt.spans == [(2, 2), (2, 3), (2, 3), (3, 4), (4, 5), (6, 7)]


def test_load_from_a_file(trained, tmp_path):
    path = tmp_path / "tiny.model"
    path.write_bytes(trained("unigram-nfkc"))
    model = load_sentencepiece_model(path)
    assert model.name == "tiny.model" and model.encode_as_pieces("Human rights")


# -- malformed files -----------------------------------------------------------------------

def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(TokenizerLoadError, match="nope.model"):
        load_sentencepiece_model(tmp_path / "nope.model")


def test_truncated_model_is_a_load_error(trained, tmp_path):
    data = trained("bpe-nfkc")
    for cut in [1, 2, 7, 50, 500, len(data) // 3, len(data) // 2, len(data) - 200, len(data) - 1]:
        with pytest.raises(TokenizerLoadError):
            SentencePieceModel.from_bytes(data[:cut])
    path = tmp_path / "cut.model"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(TokenizerLoadError, match="cut.model"):
        load_sentencepiece_model(path)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300))
def test_property_garbage_bytes_are_a_load_error(data):
    with pytest.raises(TokenizerLoadError):
        SentencePieceModel.from_bytes(data)


def test_text_and_wrong_argument_types_are_refused():
    with pytest.raises(TokenizerLoadError):
        SentencePieceModel.from_bytes(b'{"model": {"type": "Unigram"}}')
    with pytest.raises(TokenizerLoadError, match="bytes"):
        parse_model_proto("not bytes")


def _piece(text: bytes, score: bytes = b"\x00\x00\x80\xbf", kind: int = 1) -> bytes:
    body = b"\x0a" + bytes([len(text)]) + text + b"\x15" + score + b"\x18" + bytes([kind])
    return b"\x0a" + bytes([len(body)]) + body


SPECS = b"\x12\x00\x1a\x00"  # empty trainer_spec and normalizer_spec


@pytest.mark.parametrize("data, match", [
    (b"\x20\x01" + SPECS, "no pieces"),
    (b"\x08\x05" + _piece(b"<unk>", kind=2) + SPECS, "wire type 0, expected 2"),
    (b"\x0a\x09\x0a\x05<unk>\x12\x00" + SPECS, "score \\(field 2\\) has wire type 2, expected 5"),
    (_piece(b"\xff\xfe", kind=2) + SPECS, "not UTF-8"),
    (_piece(b"<unk>", kind=9) + SPECS, "unknown type 9"),
    (_piece(b"<unk>", kind=2), "truncated"),
    (_piece(b"a") + SPECS, "no unknown piece"),
    (_piece(b"<unk>", kind=2) + _piece(b"<u2>", kind=2) + SPECS, "2 unknown pieces"),
    (_piece(b"<unk>", kind=2) + _piece(b"<unk>") + SPECS, "defined twice"),
    (_piece(b"<unk>", kind=2) + _piece(b"") + SPECS, "empty"),
    (_piece(b"<unk>", kind=2) + _piece(b"<0x41>", kind=BYTE) + SPECS, "byte_fallback is off"),
    (_piece(b"<unk>", kind=2) + b"\x12\x03\x98\x02\x01\x1a\x00", "has 0 of 256"),
    (_piece(b"<unk>", kind=2) + b"\x12\x02\x18\x03\x1a\x00", "Word models are not supported"),
    (_piece(b"<unk>", kind=2) + b"\x12\x00\x1a\x06\x12\x04\x02\x00\x00\x00", "charsmap"),
    (b"\x0b\x00" + SPECS, "wire type 3"),
    (b"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", "varint"),
])
def test_hand_built_malformed_models(data, match):
    with pytest.raises(TokenizerLoadError, match=match):
        SentencePieceModel.from_bytes(data)


def test_smallest_valid_model():
    model = SentencePieceModel.from_bytes(_piece(b"<unk>", kind=UNKNOWN) + _piece(b"\xe2\x96\x81a") + SPECS)
    assert model.type_name == "Unigram"
    assert [(t.piece, t.id, t.start, t.end) for t in model.encode("a b")] == [
        ("\u2581a", 1, 0, 1), ("\u2581b", 0, 1, 3)]
    assert NORMAL == 1 and model.encode("   ") == []
