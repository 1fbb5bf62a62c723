"""Each supported normalizer equals the reference library's inside a real pipeline.

One normalizer of a real tokenizer.json is swapped at a time (BERT's for the Unicode, strip,
replace and BERT normalizers; a cut-down Pegasus for Nmt and its own Precompiled; GPT-2's
for the ByteLevel normalizer); tokens, ids and offsets must equal ``tokenizers``' on tricky
fixed texts and on generated text.
"""

from __future__ import annotations

import pytest

from tests.core.tokenizers.reference_pairs import (
    PLAIN_GENERATED, PLAIN_TEXTS, QUIRK_GENERATED, QUIRK_TEXTS, assert_component_matches,
    assert_same, load_pair)

tokenizers = pytest.importorskip("tokenizers")

BERT_NORMALIZERS = {
    "Lowercase": {"type": "Lowercase"},
    "NFD": {"type": "NFD"},
    "NFKD": {"type": "NFKD"},
    "NFC": {"type": "NFC"},
    "NFKC": {"type": "NFKC"},
    "StripAccents": {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]},
    "Strip": {"type": "Strip", "strip_left": True, "strip_right": True},
    "StripLeft": {"type": "Strip", "strip_left": True, "strip_right": False},
    "ReplaceString": {"type": "Replace", "pattern": {"String": "e"}, "content": "XY"},
    "ReplaceShrink": {"type": "Replace", "pattern": {"String": "  "}, "content": " "},
    "ReplaceRegex": {"type": "Replace", "pattern": {"Regex": "\\s+"}, "content": "_"},
    "Prepend": {"type": "Prepend", "prepend": "\u2581"},
    "Sequence": {"type": "Sequence", "normalizers": [{"type": "NFKC"}, {"type": "Lowercase"}]},
    "BertCased": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                  "strip_accents": None, "lowercase": False},
    "BertStripOnly": {"type": "BertNormalizer", "clean_text": False,
                      "handle_chinese_chars": False, "strip_accents": True, "lowercase": False},
    "none": None,
}
PEGASUS_NORMALIZERS = {
    "nmt": {"type": "Nmt"},
    "file": "keep",
}


@pytest.mark.parametrize("name,cfg", list(BERT_NORMALIZERS.items()),
                         ids=[f"normalizer-{n}" for n in BERT_NORMALIZERS])
def test_bert_normalizer_matches_reference(bert_doc, tmp_path_factory, name, cfg):
    assert_component_matches(dict(bert_doc, normalizer=cfg), tmp_path_factory, name,
                             PLAIN_TEXTS, PLAIN_GENERATED)


@pytest.mark.parametrize("name,cfg", list(PEGASUS_NORMALIZERS.items()),
                         ids=[f"pegasus-{n}" for n in PEGASUS_NORMALIZERS])
def test_pegasus_normalizer_matches_reference(docs, tmp_path_factory, name, cfg):
    doc = docs["pegasus"] if cfg == "keep" else dict(docs["pegasus"], normalizer=cfg)
    assert_component_matches(doc, tmp_path_factory, name, QUIRK_TEXTS, QUIRK_GENERATED)


def test_byte_level_normalizer_with_split(docs, tmp_path_factory):
    doc = dict(docs["gpt2"], normalizer={"type": "ByteLevel"}, pre_tokenizer={
        "type": "Split", "pattern": {"Regex": "\u0120"}, "behavior": "MergedWithNext",
        "invert": False})
    ours, ref = load_pair(doc, tmp_path_factory, "bytelevel-normalizer")
    assert ours.is_byte_level
    for text in QUIRK_TEXTS:
        assert_same(ours, ref, text, False)
