"""Byte-level, SentencePiece-style and pattern components against the reference library.

One component of a real tokenizer.json is swapped at a time (GPT-2 for ByteLevel and the
trimming post-processors, a cut-down Pegasus for Metaspace / Precompiled, BERT for Split,
CharDelimiterSplit, UnicodeScripts, WordLevel); tokens, ids and offsets must equal
``tokenizers``' on tricky fixed texts and on generated text.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.tokenizers import load
from tests.core.reference_pairs import assert_same, load_pair
from tests.core.strategies import TRICKY, tricky_text

tokenizers = pytest.importorskip("tokenizers")

BL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
GPT2_VARIANTS = {
    "pre-prefix": ("pre_tokenizer", dict(BL, add_prefix_space=True)),
    "pre-noregex": ("pre_tokenizer", dict(BL, use_regex=False)),
    "pre-split-then-bytes": ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "\\s+|[^\\s\\p{L}]+"}, "behavior": "Isolated",
         "invert": False}, dict(BL, use_regex=False)]}),
    "pre-split-then-bytes-prefix": ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "\\d+"}, "behavior": "MergedWithNext",
         "invert": False}, dict(BL, add_prefix_space=True, use_regex=True)]}),
    "file": ("pre_tokenizer", "keep"),
    "pre-bytes-then-digits": ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [
        BL, {"type": "Digits", "individual_digits": True}]}),
    "post-trim": ("post_processor", {"type": "ByteLevel", "add_prefix_space": False,
                                     "trim_offsets": True, "use_regex": True}),
    "post-trim-prefix": ("post_processor", {"type": "ByteLevel", "add_prefix_space": True,
                                            "trim_offsets": True, "use_regex": True}),
    "roberta": ("post_processor", {"type": "RobertaProcessing", "sep": ["</s>", 2],
                                   "cls": ["<s>", 0], "trim_offsets": True,
                                   "add_prefix_space": True}),
    "post-sequence": ("post_processor", {"type": "Sequence", "processors": [
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        {"type": "TemplateProcessing", "single": [
            {"SpecialToken": {"id": "<|endoftext|>", "type_id": 0}},
            {"Sequence": {"id": "A", "type_id": 0}}], "pair": [
            {"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
         "special_tokens": {"<|endoftext|>": {"id": "<|endoftext|>", "ids": [50256],
                                              "tokens": ["<|endoftext|>"]}}}]}),
}
MS = {"type": "Metaspace", "replacement": "\u2581", "split": True}
PEGASUS_VARIANTS = {
    "metaspace-first": ("pre_tokenizer", dict(MS, prepend_scheme="first")),
    "metaspace-always": ("pre_tokenizer", dict(MS, prepend_scheme="always")),
    "metaspace-never-nosplit": ("pre_tokenizer", dict(MS, prepend_scheme="never", split=False)),
    "metaspace-legacy": ("pre_tokenizer", {"type": "Metaspace", "replacement": "\u2581",
                                           "add_prefix_space": True}),
    "seq-whitespace-first": ("pre_tokenizer", {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"}, dict(MS, prepend_scheme="first")]}),
    "nmt": ("normalizer", {"type": "Nmt"}),
    "file": ("normalizer", "keep"),
}
BERT_VARIANTS = {
    **{f"split-{b}-{inv}": ("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "[\\s,.]+|\\d"},
                                                "behavior": b, "invert": inv})
       for b in ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")
       for inv in (False, True)},
    "split-string": ("pre_tokenizer", {"type": "Split", "pattern": {"String": "e"},
                                        "behavior": "MergedWithNext", "invert": False}),
    "split-contiguous-chars": ("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "[a-z]"},
                                                  "behavior": "Contiguous", "invert": False}),
    "char-delimiter": ("pre_tokenizer", {"type": "CharDelimiterSplit", "delimiter": " "}),
    "scripts": ("pre_tokenizer", {"type": "UnicodeScripts"}),
}
FIXED = TRICKY + ["".join(TRICKY), "  Hello,  World!! 123 4.5 ee--x  ", " x ", "", "   ",
                  "\x01abc", "a\x01b \x01", "Hello world  x", "\u2581x \u2581\u2581y",
                  "<|endoftext|> hi<|endoftext|>", "</s> hello", "hi</s>there  you", "a <pad> b</s>",
                  "日本語のテキスト。カタカナーとひらがな", "12345 ab12cd",
                  "\u00af", "\u00afa", " \u00af"]  # NFKC gives " \u0304": a split at original offset 0
assigned = st.characters(codec="utf-8").filter(lambda c: unicodedata.category(c) != "Cn")
TEXT = st.one_of(tricky_text.filter(lambda s: all(unicodedata.category(c) != "Cn" for c in s)),
                 st.text(assigned, max_size=20))


def _doc(data_dir, rel):
    return json.loads((data_dir / "tokenizers" / rel).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def docs(data_dir):
    pegasus = _doc(data_dir, "pegasus-unigram/tokenizer.json")
    pegasus["model"]["vocab"] = pegasus["model"]["vocab"][:20000]  # faster, same behaviour
    pegasus["added_tokens"] = pegasus["added_tokens"][:3]
    return {"gpt2": _doc(data_dir, "gpt2/tokenizer.json"), "pegasus": pegasus,
            "bert": _doc(data_dir, "bert-base-uncased/tokenizer.json")}


CASES = ([("gpt2", k, *v) for k, v in GPT2_VARIANTS.items()]
         + [("pegasus", k, *v) for k, v in PEGASUS_VARIANTS.items()]
         + [("bert", k, *v) for k, v in BERT_VARIANTS.items()])


@pytest.mark.parametrize("base,name,section,cfg", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_component_matches_reference(docs, tmp_path_factory, base, name, section, cfg):
    doc = docs[base] if cfg == "keep" else dict(docs[base], **{section: cfg})
    ours, ref = load_pair(doc, tmp_path_factory, name)
    for text in FIXED:
        for special in (False, True):
            assert_same(ours, ref, text, special)

    @settings(max_examples=15, deadline=None)
    @given(text=TEXT)
    def generated(text):
        assert_same(ours, ref, text, False)

    generated()


def test_wordlevel_model(docs, tmp_path_factory):
    bert = docs["bert"]
    model = {"type": "WordLevel", "vocab": bert["model"]["vocab"], "unk_token": "[UNK]"}
    ours, ref = load_pair(dict(bert, model=model), tmp_path_factory, "wordlevel")
    for text in FIXED:
        assert_same(ours, ref, text, True)


ADDED_TEXTS = ["hello <x> world", "a<x>b", "  <x>  ", "<x>", "x<X>y", "hello<x>", "<x>hello",
               "he <x>llo", "<x><x>", "a <x>\tb", "wor<x>ld <x>!", "\u00dcn\u00efcode <x> \u00e9",
               "<xy>", " <X> ", "<x>\u3000<x>"]


@pytest.mark.parametrize("single_word", [False, True])
@pytest.mark.parametrize("lstrip", [False, True])
@pytest.mark.parametrize("rstrip", [False, True])
@pytest.mark.parametrize("normalized", [False, True])
def test_added_token_flags(docs, tmp_path_factory, single_word, lstrip, rstrip, normalized):
    bert = docs["bert"]
    extra = {"id": 30522, "content": "<x>", "single_word": single_word, "lstrip": lstrip,
             "rstrip": rstrip, "normalized": normalized, "special": not normalized}
    ours, ref = load_pair(dict(bert, added_tokens=bert["added_tokens"] + [extra]),
                      tmp_path_factory, "added")
    for text in ADDED_TEXTS:
        assert_same(ours, ref, text, True)


BPE_OPTIONS = [{}, {"continuing_subword_prefix": "##"}, {"end_of_word_suffix": "</w>"},
               {"byte_fallback": True, "unk_token": "<unk>"},
               {"unk_token": "<unk>", "fuse_unk": True},
               {"unk_token": "<unk>", "continuing_subword_prefix": "##",
                "end_of_word_suffix": "</w>"}]


@pytest.fixture(scope="module")
def udhr(data_dir):
    return {f.stem: f.read_text(encoding="utf-8") for f in sorted((data_dir / "udhr").glob("*.txt"))}


def _trained_pair(ref, tmp_path_factory, name):
    path = tmp_path_factory.mktemp("trained") / f"{name}.json"
    ref.save(str(path))
    return load(path), ref


@pytest.mark.parametrize("options", BPE_OPTIONS, ids=lambda o: "-".join(o) or "plain")
def test_trained_bpe_options_match_reference(udhr, tmp_path_factory, options):
    """BPE tokenizer.json files with prefix/suffix, byte fallback, unknown-token fusing
    (trained here by the reference trainer), on text with unseen scripts."""
    from tokenizers import models, pre_tokenizers, trainers

    ref = tokenizers.Tokenizer(models.BPE(**options))
    ref.pre_tokenizer = pre_tokenizers.Whitespace()
    specials = ["<unk>"] + ([f"<0x{b:02X}>" for b in range(256)]
                            if options.get("byte_fallback") else [])
    extra = {k: options[k] for k in ("continuing_subword_prefix", "end_of_word_suffix")
             if k in options}
    ref.train_from_iterator([ln for c in ("eng", "fra", "rus") for ln in udhr[c].splitlines()[:80]],
                            trainers.BpeTrainer(vocab_size=600, special_tokens=specials,
                                                show_progress=False, **extra))
    ours, ref = _trained_pair(ref, tmp_path_factory, "bpe")
    for lang in ("eng", "fra", "jpn", "hin", "amh"):
        assert_same(ours, ref, udhr[lang][:3000], False)


def test_trained_unigram_with_metaspace_matches_reference(udhr, tmp_path_factory):
    from tokenizers import models, pre_tokenizers, trainers

    ref = tokenizers.Tokenizer(models.Unigram())
    ref.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first")
    ref.train_from_iterator([ln for c in ("eng", "deu_1996") for ln in udhr[c].splitlines()[:80]],
                            trainers.UnigramTrainer(vocab_size=400, unk_token="<unk>",
                                                    special_tokens=["<unk>"], show_progress=False))
    ours, ref = _trained_pair(ref, tmp_path_factory, "unigram")
    for lang in ("eng", "fra", "rus", "jpn"):
        assert_same(ours, ref, udhr[lang][:3000], False)


def test_byte_level_normalizer_with_split(docs, tmp_path_factory):
    doc = dict(docs["gpt2"], normalizer={"type": "ByteLevel"}, pre_tokenizer={
        "type": "Split", "pattern": {"Regex": "\u0120"}, "behavior": "MergedWithNext",
        "invert": False})
    ours, ref = load_pair(doc, tmp_path_factory, "bytelevel-normalizer")
    assert ours.is_byte_level
    for text in FIXED:
        assert_same(ours, ref, text, False)
