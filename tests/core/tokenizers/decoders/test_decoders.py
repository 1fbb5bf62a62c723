"""Each decoder alone against the reference decoder object (``tokenizers.decoders.*``) on
hypothesis-made token lists: ``decode`` equal, and the quick untracked route (``plain``)
and the owner-tracked route (``step``, what ``decode_pieces`` uses) give the same text.
Malformed decoder configs raise typed errors."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from core.errors import TokenizerFieldError, TokenizerLoadError
from core.tokenizers import decoders as ours
from core.tokenizers.decoders import Tracked, build_decoder
from core.tokenizers.formats.hf_json import build_tokenizer_json

tk = pytest.importorskip("tokenizers")
ref = tk.decoders

# characters the decoders care about: markers, hex, byte-alphabet letters, scripts, emoji
_ALPHABET = "▁ #<>0xAEFaf+|'.,?!nmtsdo é\u0939\u093fĠàĀ¤ÃĊ😀\u200d"
_WORDS = ["##", "<0xE0>", "<0xA4>", "<0xB9>", "<0x41>", "<0x20>", "<0xF0>", "<0x9F>", "<0xe0>",
          "<0x+9>", "<pad>", "</w>", "|", " n't", " 's", " do not", " ' ", "▁▁", "<0xé>"]
tokens = st.lists(st.one_of(st.text(_ALPHABET, max_size=6), st.sampled_from(_WORDS)), max_size=12)


def _tracked(decoder, toks):
    out = Tracked.join(decoder.step([Tracked.of(t, k, True) for k, t in enumerate(toks)]))
    assert len(out.owners) == len(out.text)
    assert all(0 <= o < max(len(toks), 1) for o in out.owners)
    return out.text


def _check(mine, theirs, toks):
    try:
        expected = theirs.decode(toks)
    except BaseException as exc:  # the reference panics on some inputs (Strip); skip them
        if type(exc).__name__ != "PanicException":
            raise
        assume(False)
    assert mine.decode(toks) == expected
    assert mine.plain(toks) in (None, expected)
    assert _tracked(mine, toks) == expected


PAIRS = {
    "wordpiece": (ours.WordPiece(), ref.WordPiece()),
    "wordpiece-plain": (ours.WordPiece("##", cleanup=False), ref.WordPiece("##", cleanup=False)),
    "wordpiece-empty-prefix": (ours.WordPiece("", True), ref.WordPiece("", True)),
    "byte-level": (ours.ByteLevel(), ref.ByteLevel()),
    "metaspace": (ours.Metaspace(), ref.Metaspace()),
    "metaspace-never": (ours.Metaspace("▁", "never"), ref.Metaspace("▁", "never")),
    "metaspace-first": (ours.Metaspace("#", "first"), ref.Metaspace("#", "first")),
    "byte-fallback": (ours.ByteFallback(), ref.ByteFallback()),
    "fuse": (ours.Fuse(), ref.Fuse()),
    "strip": (ours.Strip(" ", 1, 0), ref.Strip(" ", 1, 0)),
    "strip-both": (ours.Strip("▁", 2, 2), ref.Strip("▁", 2, 2)),
    "replace": (ours.Replace("▁", " "), ref.Replace("▁", " ")),
    "replace-long": (ours.Replace("##", "<>"), ref.Replace("##", "<>")),
    "replace-regex": (ours.Replace("[0-9]+", "N", is_regex=True),
                      ref.Replace(tk.Regex("[0-9]+"), "N")),
    "bpe": (ours.BPEDecoder(), ref.BPEDecoder()),
    "bpe-empty-suffix": (ours.BPEDecoder(""), ref.BPEDecoder("")),
    "ctc": (ours.CTC(), ref.CTC()),
    "ctc-plain": (ours.CTC("<pad>", "|", False), ref.CTC("<pad>", "|", False)),
    "llama": (ours.Sequence([ours.Replace("▁", " "), ours.ByteFallback(), ours.Fuse(),
                             ours.Strip(" ", 1, 0)]),
              ref.Sequence([ref.Replace("▁", " "), ref.ByteFallback(), ref.Fuse(),
                            ref.Strip(" ", 1, 0)])),
    "metaspace-bytes": (ours.Sequence([ours.ByteFallback(), ours.Metaspace()]),
                        ref.Sequence([ref.ByteFallback(), ref.Metaspace()])),
}


@pytest.mark.parametrize("name", PAIRS)
@settings(max_examples=50, deadline=None)
@given(toks=tokens)
def test_property_decoder_equals_reference(name, toks):
    _check(*PAIRS[name], toks)


@pytest.mark.parametrize("name", ["byte-level", "byte-fallback", "llama"])
@settings(max_examples=80, deadline=None)
@given(data=st.binary(max_size=16), cuts=st.lists(st.integers(0, 16), max_size=5))
def test_property_bytes_cut_anywhere_decode_like_the_reference(name, data, cuts):
    """Arbitrary bytes (invalid UTF-8 included), spelled as byte-alphabet tokens or
    ``<0x..>`` pieces and cut at arbitrary places."""
    from core.text.byte_alphabet import bytes_to_byte_level

    bounds = sorted({0, len(data), *(c for c in cuts if c <= len(data))})
    chunks = [data[a:b] for a, b in zip(bounds, bounds[1:])]
    if name == "byte-level":
        toks = [bytes_to_byte_level(c) for c in chunks]
    else:
        toks = [f"<0x{b:02X}>" for b in data] + ["▁x"]
    _check(*PAIRS[name], toks)


def test_decode_chain_keeps_strings_apart_as_the_reference_does():
    toks = ["▁Hello", "▁wor", "ld", "<0xE0>", "<0xA4>", "<0xB9>"]
    assert ours.Metaspace().decode_chain(toks) == ["Hello", " wor", "ld", *toks[3:]]
    assert ours.ByteFallback().decode_chain(toks) == [*toks[:3], "\u0939"]
    assert ours.ByteFallback().decode_chain(toks[3:5]) == ["\ufffd", "\ufffd"]
    assert ours.ByteLevel().decode_chain([]) == ours.Fuse().decode_chain([]) == [""]


def test_byte_level_partial_characters_are_named():
    from core.text.byte_alphabet import to_byte_level

    b = to_byte_level("म")  # three bytes, cut 2 + 1
    out = Tracked.join(ours.ByteLevel().step([Tracked.of(b[:2], 0, True), Tracked.of(b[2:], 1, True)]))
    assert out.text == "म" and out.owners == (1,)
    assert [p.label for p in out.parts] == ["bytes 1\u20132 of म (U+092E)", "byte 3 of म (U+092E)"]


# -- configs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cfg", [
    {"type": "WordPiece", "prefix": "##", "cleanup": True},
    {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": False},
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
    {"type": "ByteFallback"}, {"type": "Fuse"},
    {"type": "Strip", "content": " ", "start": 1, "stop": 0},
    {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
    {"type": "Replace", "pattern": {"Regex": "a+"}, "content": "b"},
    {"type": "BPEDecoder", "suffix": "</w>"},
    {"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": True},
    {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]},
])
def test_every_config_builds_and_describes_itself(cfg):
    import json

    decoder = build_decoder(cfg)
    assert decoder.type_name == cfg["type"]
    theirs = tk.Tokenizer.from_str(json.dumps({
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": cfg,
        "model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"}})).decoder
    toks = ["▁a", "##b", "<0x41>", "c</w>", "<pad>", "|", "aa"]
    assert decoder.decode(toks) == theirs.decode(toks)
    assert decoder.describe()["type"] == cfg["type"]


def _doc(decoder):
    return {"model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"},
            "decoder": decoder}


@pytest.mark.parametrize("decoder, field", [
    ({"type": "Strip", "content": "ab", "start": 1, "stop": 0}, "decoder.content"),
    ({"type": "Strip", "content": " ", "start": -1, "stop": 0}, "decoder.start"),
    ({"type": "Metaspace", "replacement": ""}, "decoder.replacement"),
    ({"type": "Nope"}, "decoder.type"),
    ({"type": "WordPiece", "cleanup": "yes"}, "decoder.cleanup"),
    ({"type": "Sequence", "decoders": [{"type": "Fuse"}, {"type": "BPEDecoder", "suffix": 3}]},
     "decoder.decoders[1].suffix"),
    ("ByteLevel", "decoder"),
])
def test_malformed_decoder_fields_name_their_path(decoder, field):
    with pytest.raises(TokenizerFieldError) as info:
        build_tokenizer_json(_doc(decoder), "t", "t.json")
    assert info.value.field == field


@pytest.mark.parametrize("decoder, message", [
    ({"type": "Replace", "pattern": {"Regex": "("}, "content": ""}, "invalid regex"),
    ({"type": "Replace", "pattern": "x", "content": ""}, "pattern"),
    ({"type": "Metaspace", "add_prefix_space": False, "prepend_scheme": "always"}, "contradicts"),
    ({"type": "Replace", "pattern": {"String": "x"}}, "missing field 'content'"),
    ({"type": "Sequence", "decoders": {"type": "Fuse"}}, "decoder"),
])
def test_malformed_decoder_configs_raise_typed_errors(decoder, message):
    with pytest.raises(TokenizerLoadError, match=message):
        build_tokenizer_json(_doc(decoder), "t", "t.json")


def test_no_decoder_joins_with_spaces_like_the_reference():
    import json

    doc = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
           "normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": None,
           "model": {"type": "WordLevel", "vocab": {"a": 0, "b##": 1, "c": 2}, "unk_token": "a"}}
    mine = build_tokenizer_json(doc, "t", "t.json")
    theirs = tk.Tokenizer.from_str(json.dumps(doc))
    assert mine.decode([0, 1, 2]) == theirs.decode([0, 1, 2]) == "a b## c"
    assert [p.text for p in mine.decode_pieces([0, 1, 2])] == ["a", " b##", " c"]
