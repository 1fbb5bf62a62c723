"""Each supported normalizer / pre-tokenizer / post-processor equals the reference library's.

A BERT tokenizer.json gets one component swapped at a time; tokens, ids and offsets must
equal ``tokenizers``' on tricky fixed texts and on generated text. Generated text is limited
to code points assigned in Python's Unicode version (14.0): for later additions the
reference (newer tables) and ``unicodedata`` can legitimately disagree.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.reference_pairs import assert_same, load_pair
from tests.core.strategies import TRICKY, tricky_text

tokenizers = pytest.importorskip("tokenizers")

NORMALIZERS = {
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
PRE_TOKENIZERS = {
    "Whitespace": {"type": "Whitespace"},
    "WhitespaceSplit": {"type": "WhitespaceSplit"},
    **{f"Punctuation{b}": {"type": "Punctuation", "behavior": b}
       for b in ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")},
    "DigitsIndividual": {"type": "Digits", "individual_digits": True},
    "DigitsGrouped": {"type": "Digits", "individual_digits": False},
    "Sequence": {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"}, {"type": "Punctuation", "behavior": "Isolated"},
        {"type": "Digits", "individual_digits": True}]},
    "none": None,
}
POST_PROCESSORS = {
    "BertProcessing": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]},
}
VARIANTS = ([("normalizer", k, v) for k, v in NORMALIZERS.items()]
            + [("pre_tokenizer", k, v) for k, v in PRE_TOKENIZERS.items()]
            + [("post_processor", k, v) for k, v in POST_PROCESSORS.items()])
FIXED = TRICKY + ["".join(TRICKY), "  Hello,  World!! 123 4.5 ee--x  ", "a...b,,c 12ab34",
                  "\u01c4emal \ufb01x \u0130i \u1e9e \u01c5 \u03a3\u03c3\u03c2 \u03a3\u0391\u03a3",
                  "e\u0301\u0301 \u1e9b\u0323", " x ", ""]
assigned = st.characters(codec="utf-8").filter(lambda c: unicodedata.category(c) != "Cn")
TEXT = st.one_of(tricky_text, st.text(assigned, max_size=20))


@pytest.fixture(scope="module")
def bert_doc(data_dir):
    path = data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json"
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("section,name,cfg", VARIANTS, ids=[f"{s}-{n}" for s, n, _ in VARIANTS])
def test_component_matches_reference(bert_doc, tmp_path_factory, section, name, cfg):
    ours, ref = load_pair(dict(bert_doc, **{section: cfg}), tmp_path_factory, name)
    for text in FIXED:
        for special in (False, True):
            assert_same(ours, ref, text, special)

    @settings(max_examples=15, deadline=None)
    @given(text=TEXT)
    def generated(text):
        assert_same(ours, ref, text, False)

    generated()
