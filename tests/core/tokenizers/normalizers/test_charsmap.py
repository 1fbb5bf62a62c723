"""The SentencePiece precompiled charsmap: decoding, both application rules, parity with
``tokenizers``' Precompiled normalizer on every UDHR text, and malformed blobs."""

from __future__ import annotations

import base64
import json
import struct

import pytest
from hypothesis import given, settings, strategies as st

from core.errors import TokenizerLoadError
from core.text.normalize import NormalizedText
from core.tokenizers.normalizers import Precompiled, Replace, Sequence
from core.tokenizers.normalizers.charsmap import Charsmap
from tests.core.strategies import any_text, tricky_text

tokenizers = pytest.importorskip("tokenizers")


@pytest.fixture(scope="module")
def pegasus_json(data_dir):
    return json.loads((data_dir / "tokenizers/pegasus-unigram/tokenizer.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def precompiled(pegasus_json):
    members = pegasus_json["normalizer"]["normalizers"]
    assert [m["type"] for m in members] == ["Precompiled", "Replace"]
    return members[0]


@pytest.fixture(scope="module")
def cmap(precompiled):
    return Charsmap.from_base64(precompiled["precompiled_charsmap"])


@pytest.fixture(scope="module")
def reference(precompiled):
    return tokenizers.normalizers.Precompiled(base64.b64decode(precompiled["precompiled_charsmap"]))


@pytest.fixture(scope="module")
def udhr(data_dir):
    return {p.stem: p.read_text("utf-8") for p in sorted((data_dir / "udhr").glob("*.txt"))}


def _reference_spans(precompiled, text, normalized):
    """Per normalized character (char, original span) as ``tokenizers`` aligns them: the
    Precompiled normalizer, a one-character Split and a vocabulary of those characters."""
    js = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": precompiled, "post_processor": None, "decoder": None,
        "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "[\\s\\S]"},
                          "behavior": "Isolated", "invert": False},
        "model": {"type": "Unigram", "unk_id": 0,
                  "vocab": [["<unk>", 0.0]] + [[c, -1.0] for c in sorted(set(normalized))]},
    }
    enc = tokenizers.Tokenizer.from_str(json.dumps(js)).encode(text)
    return list(zip(enc.tokens, enc.offsets))


# -- golden cases: the two rules --------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("\u017f\u0307x", "sx"),            # cluster ſ + dot: shortest key "ſ" -> "s" replaces it all
    ("\ufb01\u0301x", "fix"),           # ﬁ + acute: "ﬁ" -> "fi", the accent goes with it
    ("e\u0301\u0323", "\u00e9"),        # 5-byte cluster: shortest key "e\u0301" -> "é"
    ("\u017f\u0307\u0323", "s\u0307\u0323"),  # 6 bytes: too long, character by character
    ("a\r\nb\tc", "a b c"),             # CR LF is one cluster; "\r" -> " " replaces it
    ("a\x01b", "ab"),                   # control characters map to ""
    ("\uff76\uff85 \u2460 \u216b", "\u30ab\u30ca 1 XII"),
])
def test_huggingface_rule_golden(cmap, reference, text, expected):
    assert cmap.normalize(text) == expected
    assert reference.normalize_str(text) == expected


def test_sentencepiece_rule_takes_the_longest_key(cmap):
    assert cmap.normalize("\u017f\u0307x", mode="sentencepiece") == "\u1e61x"
    assert cmap.longest_match("\u017f\u0307x", 0) == (2, "\u1e61")
    assert cmap.longest_match("x", 0) is None
    assert cmap.normalize("a\r\nb", mode="sentencepiece") == "a  b"


def test_segments_are_what_changes(cmap):
    text = "a\ufb01 e\u0301\x01"
    assert cmap.normalize_segments(text) == [(1, 2, "fi"), (3, 5, "\u00e9"), (5, 6, "")]
    assert cmap.normalize_segments("plain ascii") == []


def test_unknown_mode_is_refused(cmap):
    with pytest.raises(ValueError, match="mode"):
        cmap.normalize("x", mode="nfkc")


# -- parity with tokenizers on the UDHR texts -----------------------------------------------

def test_every_udhr_text_normalizes_like_tokenizers(cmap, reference, udhr):
    assert len(udhr) == 29
    for lang, text in udhr.items():
        assert cmap.normalize(text) == reference.normalize_str(text), lang


def test_pegasus_normalizer_sequence_is_charsmap_then_replace(cmap, pegasus_json, udhr):
    """(a) of the brief: charsmap + Replace(" {2,}" -> " ") equals the whole normalizer."""
    import re

    replace = pegasus_json["normalizer"]["normalizers"][1]
    assert replace == {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}
    full = tokenizers.Tokenizer.from_str(json.dumps(pegasus_json)).normalizer
    for lang, text in udhr.items():
        assert re.sub(" {2,}", " ", cmap.normalize(text)) == full.normalize_str(text), lang


def test_offsets_through_replace_segments_match_tokenizers(cmap, precompiled, udhr):
    extra = "a\ufb01x \u216bb ae\u0301b a\x01b a\u017f\u0307b a\u3000b \uff76\uff85 \ufb01\u0301 \r\n x"
    for lang, text in [*udhr.items(), ("edge cases", extra)]:
        nt = NormalizedText.identity(text).replace_segments(cmap.normalize_segments(text))
        assert list(zip(nt.text, nt.spans)) == _reference_spans(precompiled, text, nt.text), lang


def test_leading_deletion_is_where_tokenizers_offsets_shift(cmap, precompiled):
    """tokenizers 0.2x misplaces every offset after characters deleted at the very start
    (it reads alignments as if they were still there); ``replace_segments`` does not."""
    text = "\x01ab"
    nt = NormalizedText.identity(text).replace_segments(cmap.normalize_segments(text))
    assert nt.spans == [(1, 2), (2, 3)]
    assert _reference_spans(precompiled, text, nt.text) == [("a", (0, 1)), ("b", (1, 2))]


@pytest.mark.parametrize("text", ["\x01ab", "\x01a  b", "\x01\x02abc", "\u00af\x1fa",
                                  "\x1f\u00af\x1fa", "a\x01b"])
def test_precompiled_keeps_the_reference_map_and_the_true_one(cmap, precompiled, text):
    """The normalizer's map is the reference's (quirks included); where it misplaces
    characters, ``truthful`` is the map ``replace_segments`` gives (each character at its
    source), and a Sequence carries it through its later steps."""
    true = NormalizedText.identity(text).replace_segments(cmap.normalize_segments(text))
    nt = Precompiled(cmap).normalize(NormalizedText.identity(text))
    assert list(zip(nt.text, nt.spans)) == _reference_spans(precompiled, text, nt.text)
    assert nt.true_map().spans == true.spans
    assert (nt.truthful is None) == (nt.spans == true.spans)
    replace = Replace.from_config({"pattern": {"Regex": " {2,}"}, "content": " "})
    both = Sequence([Precompiled(cmap), replace]).normalize(NormalizedText.identity(text))
    assert both.spans == replace.normalize(nt).spans
    assert both.true_map().spans == replace.normalize(true).spans


@settings(max_examples=150, deadline=None)
@given(text=tricky_text)
def test_property_matches_tokenizers_on_tricky_text(cmap, reference, text):
    assert cmap.normalize(text) == reference.normalize_str(text)


@settings(max_examples=150, deadline=None)
@given(text=any_text, mode=st.sampled_from(["huggingface", "sentencepiece"]))
def test_property_segments_sorted_disjoint_in_bounds(cmap, text, mode):
    """Also on lone surrogates, which match no key."""
    pos = 0
    for a, b, rep in cmap.normalize_segments(text, mode=mode):
        assert pos <= a < b <= len(text)
        assert isinstance(rep, str) and rep != text[a:b]
        pos = b


# -- malformed blobs ---------------------------------------------------------------------

def test_blob_round_trip_and_repr(cmap, precompiled):
    assert base64.b64encode(cmap.blob).decode() == precompiled["precompiled_charsmap"]
    assert "trie units" in repr(cmap)


@pytest.mark.parametrize("cut", [0, 3, 4, 5, 1000])
def test_blob_cut_short_is_a_load_error(cmap, cut):
    with pytest.raises(TokenizerLoadError, match="charsmap"):
        Charsmap(cmap.blob[:cut])


@pytest.mark.parametrize("bad", ["not base64!", 17, None])
def test_bad_base64_is_a_load_error(bad):
    with pytest.raises(TokenizerLoadError):
        Charsmap.from_base64(bad)


def test_pool_that_is_not_utf8_is_a_load_error():
    blob = struct.pack("<II", 4, 0) + b"\xff\xfe"
    with pytest.raises(TokenizerLoadError, match="UTF-8"):
        Charsmap(blob)


@settings(max_examples=200, deadline=None)
@given(units=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=40),
       pool=st.binary(max_size=20), text=tricky_text)
def test_property_garbage_trie_gives_only_load_errors(units, pool, text):
    blob = struct.pack(f"<I{len(units)}I", 4 * len(units), *units) + pool
    try:
        cm = Charsmap(blob)
        for mode in ("huggingface", "sentencepiece"):
            assert isinstance(cm.normalize(text + "ab\u00e9", mode=mode), str)
    except TokenizerLoadError:
        pass


@settings(max_examples=150, deadline=None)
@given(text=tricky_text)
def test_property_sentencepiece_rule_equals_walking_every_position(cmap, text):
    """The trigger pattern only skips positions where no key can start."""
    walked, pos = [], 0
    while pos < len(text):
        hit = cmap.longest_match(text, pos)
        if hit is None:
            walked.append(text[pos])
            pos += 1
        else:
            walked.append(hit[1])
            pos += hit[0]
    assert cmap.normalize(text, mode="sentencepiece") == "".join(walked)


def test_prepared_for_a_batch_the_pattern_is_compiled_once(precompiled, udhr, monkeypatch):
    """prepare(chars) (a batch's characters) compiles the pattern once; the lines then
    need no other compilation and are cut as by a charsmap met line by line."""
    from core.tokenizers.normalizers import charsmap as module

    lines = [line for text in udhr.values() for line in text.split("\n")]
    line_by_line = Charsmap.from_base64(precompiled["precompiled_charsmap"])
    expected = [line_by_line.normalize_segments(line) for line in lines]
    compiled = []
    real = module.re.compile
    monkeypatch.setattr(module.re, "compile", lambda *a: compiled.append(a) or real(*a))
    prepared = Charsmap.from_base64(precompiled["precompiled_charsmap"])
    Precompiled(prepared).prepare(set().union(*lines))
    assert len(compiled) == 1
    assert [prepared.normalize_segments(line) for line in lines] == expected
    assert len(compiled) == 1
