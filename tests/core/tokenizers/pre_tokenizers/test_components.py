"""Each supported pre-tokenizer equals the reference library's inside a real pipeline.

One pre-tokenizer of a real tokenizer.json is swapped at a time (BERT's for Whitespace,
Punctuation, Digits, Split, CharDelimiterSplit, UnicodeScripts and their Sequences; GPT-2's
for ByteLevel; a cut-down Pegasus for Metaspace); tokens, ids and offsets must equal
``tokenizers``' on tricky fixed texts and on generated text.
"""

from __future__ import annotations

import pytest

from tests.core.tokenizers.reference_pairs import (
    PLAIN_GENERATED, PLAIN_TEXTS, QUIRK_GENERATED, QUIRK_TEXTS, assert_component_matches)

tokenizers = pytest.importorskip("tokenizers")

BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")

BERT_PRE_TOKENIZERS = {
    "Whitespace": {"type": "Whitespace"},
    "WhitespaceSplit": {"type": "WhitespaceSplit"},
    **{f"Punctuation{b}": {"type": "Punctuation", "behavior": b} for b in BEHAVIORS},
    "DigitsIndividual": {"type": "Digits", "individual_digits": True},
    "DigitsGrouped": {"type": "Digits", "individual_digits": False},
    "Sequence": {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"}, {"type": "Punctuation", "behavior": "Isolated"},
        {"type": "Digits", "individual_digits": True}]},
    "none": None,
}

BL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
GPT2_PRE_TOKENIZERS = {
    "pre-prefix": dict(BL, add_prefix_space=True),
    "pre-noregex": dict(BL, use_regex=False),
    "pre-split-then-bytes": {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "\\s+|[^\\s\\p{L}]+"}, "behavior": "Isolated",
         "invert": False}, dict(BL, use_regex=False)]},
    "pre-split-then-bytes-prefix": {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "\\d+"}, "behavior": "MergedWithNext",
         "invert": False}, dict(BL, add_prefix_space=True, use_regex=True)]},
    "file": "keep",
    "pre-bytes-then-digits": {"type": "Sequence", "pretokenizers": [
        BL, {"type": "Digits", "individual_digits": True}]},
}
MS = {"type": "Metaspace", "replacement": "\u2581", "split": True}
PEGASUS_PRE_TOKENIZERS = {
    "metaspace-first": dict(MS, prepend_scheme="first"),
    "metaspace-always": dict(MS, prepend_scheme="always"),
    "metaspace-never-nosplit": dict(MS, prepend_scheme="never", split=False),
    "metaspace-legacy": {"type": "Metaspace", "replacement": "\u2581", "add_prefix_space": True},
    "seq-whitespace-first": {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"}, dict(MS, prepend_scheme="first")]},
}
BERT_PATTERN_PRE_TOKENIZERS = {
    **{f"split-{b}-{inv}": {"type": "Split", "pattern": {"Regex": "[\\s,.]+|\\d"},
                            "behavior": b, "invert": inv}
       for b in BEHAVIORS for inv in (False, True)},
    "split-string": {"type": "Split", "pattern": {"String": "e"},
                     "behavior": "MergedWithNext", "invert": False},
    "split-contiguous-chars": {"type": "Split", "pattern": {"Regex": "[a-z]"},
                               "behavior": "Contiguous", "invert": False},
    "char-delimiter": {"type": "CharDelimiterSplit", "delimiter": " "},
    "scripts": {"type": "UnicodeScripts"},
}
QUIRK_CASES = ([("gpt2", k, v) for k, v in GPT2_PRE_TOKENIZERS.items()]
               + [("pegasus", k, v) for k, v in PEGASUS_PRE_TOKENIZERS.items()]
               + [("bert", k, v) for k, v in BERT_PATTERN_PRE_TOKENIZERS.items()])


@pytest.mark.parametrize("name,cfg", list(BERT_PRE_TOKENIZERS.items()),
                         ids=[f"pre_tokenizer-{n}" for n in BERT_PRE_TOKENIZERS])
def test_basic_pre_tokenizer_matches_reference(bert_doc, tmp_path_factory, name, cfg):
    assert_component_matches(dict(bert_doc, pre_tokenizer=cfg), tmp_path_factory, name,
                             PLAIN_TEXTS, PLAIN_GENERATED)


@pytest.mark.parametrize("base,name,cfg", QUIRK_CASES, ids=[f"{c[0]}-{c[1]}" for c in QUIRK_CASES])
def test_pre_tokenizer_matches_reference(docs, tmp_path_factory, base, name, cfg):
    doc = docs[base] if cfg == "keep" else dict(docs[base], pre_tokenizer=cfg)
    assert_component_matches(doc, tmp_path_factory, name, QUIRK_TEXTS, QUIRK_GENERATED)
