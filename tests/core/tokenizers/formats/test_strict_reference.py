"""Strict like the reference: a tokenizer.json the ``tokenizers`` library refuses is refused
here too (and one it accepts is accepted), with a message that names the field and the value
and shows no Python internals. ``tokenizers.Tokenizer.from_str`` is the oracle."""

from __future__ import annotations

import json
import re

import pytest

from core.errors import TokenizerFieldError, TokenizerLoadError
from core.tokenizers import load

tokenizers = pytest.importorskip("tokenizers")

WP = {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
      "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "a": 1, "##b": 2}}
BPE = {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}
UNI = {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["a", -1.0]]}
ADDED = {"id": 5, "content": "x", "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}
PAD = {"strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None,
       "pad_id": 0, "pad_type_id": 0, "pad_token": "[PAD]"}
SPLIT = {"type": "Split", "pattern": {"String": " "}, "behavior": "Removed", "invert": False}
BL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}


def _doc(**changes):
    doc = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
           "normalizer": None, "pre_tokenizer": None, "post_processor": None, "decoder": None,
           "model": WP}
    doc.update(changes)
    return doc


# (name, document, words our message must hold: the field and the value) — None: accepted
MUTANTS = [
    ("negative id", _doc(model=dict(WP, vocab={"[UNK]": -1, "a": 1})), ['vocab["[UNK]"]', "-1"]),
    ("10^30 id", _doc(model=dict(WP, vocab={"[UNK]": 10**30})), ['vocab["[UNK]"]', "1" + "0" * 30]),
    ("2^32 id", _doc(model=dict(WP, vocab={"[UNK]": 2**32})), ['vocab["[UNK]"]', str(2**32)]),
    ("float id", _doc(model=dict(BPE, vocab={"a": 0.5, "b": 1, "ab": 2})), ['vocab["a"]', "0.5"]),
    ("max chars -1", _doc(model=dict(WP, max_input_chars_per_word=-1)),
     ["max_input_chars_per_word", "-1"]),
    ("max chars 1.5", _doc(model=dict(WP, max_input_chars_per_word=1.5)),
     ["max_input_chars_per_word", "1.5"]),
    ("dropout -3", _doc(model=dict(BPE, dropout=-3)), ["model.dropout", "-3"]),
    ("dropout 1.5", _doc(model=dict(BPE, dropout=1.5)), ["model.dropout", "1.5"]),
    ("dropout 0.5", _doc(model=dict(BPE, dropout=0.5)), None),
    ("dropout 1", _doc(model=dict(BPE, dropout=1)), None),
    ("byte_fallback yes", _doc(model=dict(BPE, byte_fallback="yes")), ["byte_fallback", '"yes"']),
    ("fuse_unk yes", _doc(model=dict(BPE, fuse_unk="yes")), ["fuse_unk", '"yes"']),
    ("unigram unk -1", _doc(model=dict(UNI, unk_id=-1)), ["unk_id", "-1"]),
    ("unigram score str", _doc(model=dict(UNI, vocab=[["<unk>", "0"]])), ["model.vocab[0][1]", '"0"']),
    ("unigram int score", _doc(model=dict(UNI, vocab=[["<unk>", 0], ["a", -1]])), None),
    ("unigram bf yes", _doc(model=dict(UNI, byte_fallback="yes")), ["byte_fallback", '"yes"']),
    ("wordlevel negative", _doc(model={"type": "WordLevel", "vocab": {"<unk>": -2},
                                       "unk_token": "<unk>"}), ['vocab["<unk>"]', "-2"]),
    ("unknown decoder", _doc(decoder={"type": "Foo"}), ["decoder.type", '"Foo"']),
    ("decoder list", _doc(decoder=[1]), ["decoder", "[1]"]),
    ("decoder flag yes", _doc(decoder=dict(BL, add_prefix_space="yes")),
     ["decoder.add_prefix_space", '"yes"']),
    ("decoder cleanup yes", _doc(decoder={"type": "WordPiece", "prefix": "##", "cleanup": "yes"}),
     ["decoder.cleanup", '"yes"']),
    ("decoder scheme", _doc(decoder={"type": "Metaspace", "replacement": "▁",
                                     "prepend_scheme": "sometimes", "split": True}),
     ["decoder.prepend_scheme", '"sometimes"']),
    ("decoder in sequence", _doc(decoder={"type": "Sequence", "decoders": [
        {"type": "Fuse"}, {"type": "Bogus"}]}), ["decoder.decoders[1].type", '"Bogus"']),
    ("good decoders", _doc(decoder={"type": "Sequence", "decoders": [
        {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Replace", "pattern":
         {"String": "▁"}, "content": " "}, {"type": "Strip", "content": " ", "start": 1,
                                           "stop": 0}]}), None),
    ("unknown normalizer", _doc(normalizer={"type": "Foo"}), ["normalizer", "'Foo'"]),
    ("lowercase yes", _doc(normalizer={"type": "BertNormalizer", "clean_text": True,
                                       "handle_chinese_chars": True, "strip_accents": None,
                                       "lowercase": "yes"}), ["normalizer.lowercase", '"yes"']),
    ("strip yes", _doc(normalizer={"type": "Strip", "strip_left": "yes", "strip_right": True}),
     ["strip_left", '"yes"']),
    ("replace two keys", _doc(normalizer={"type": "Replace", "pattern": {"Regex": "a",
                                                                         "String": "b"},
                                          "content": "x"}), ["normalizer.pattern"]),
    ("nested normalizer flag", _doc(normalizer={"type": "Sequence", "normalizers": [
        {"type": "NFC"}, {"type": "Strip", "strip_left": 1, "strip_right": True}]}),
     ["normalizer.normalizers[1].strip_left", "1"]),
    ("unknown pre-tokenizer", _doc(pre_tokenizer={"type": "Foo"}), ["pre-tokenizer", "'Foo'"]),
    ("byte level yes", _doc(pre_tokenizer=dict(BL, add_prefix_space="yes")),
     ["add_prefix_space", '"yes"']),
    ("digits yes", _doc(pre_tokenizer={"type": "Digits", "individual_digits": "yes"}),
     ["individual_digits", '"yes"']),
    ("split invert yes", _doc(pre_tokenizer=dict(SPLIT, invert="yes")), ["invert", '"yes"']),
    ("split pattern string", _doc(pre_tokenizer=dict(SPLIT, pattern=" ")), ["pattern", '" "']),
    ("split behavior", _doc(pre_tokenizer=dict(SPLIT, behavior="Up")), ["behavior", '"Up"']),
    ("metaspace split yes", _doc(pre_tokenizer={"type": "Metaspace", "replacement": "▁",
                                               "prepend_scheme": "always", "split": "yes"}),
     ["split", '"yes"']),
    ("bert processing -1", _doc(post_processor={"type": "BertProcessing", "sep": ["[SEP]", -1],
                                                "cls": ["[CLS]", 1]}),
     ["post_processor.sep[1]", "-1"]),
    ("byte level post yes", _doc(post_processor=dict(BL, trim_offsets="yes")),
     ["trim_offsets", '"yes"']),
    ("added id -1", _doc(added_tokens=[dict(ADDED, id=-1)]), ["added_tokens[0].id", "-1"]),
    ("added id 10^30", _doc(added_tokens=[dict(ADDED, id=10**30)]), ["added_tokens[0].id"]),
    ("added special yes", _doc(added_tokens=[dict(ADDED, special="yes")]),
     ["added_tokens[0].special", '"yes"']),
    ("padding direction", _doc(padding=dict(PAD, direction="Up")), ["padding.direction", '"Up"']),
    ("padding ok", _doc(padding=PAD), None),
    ("truncation ok", _doc(truncation={"direction": "Right", "max_length": 512,
                                       "strategy": "LongestFirst", "stride": 0}), None),
    ("truncation -1", _doc(truncation={"direction": "Right", "max_length": -1,
                                       "strategy": "LongestFirst", "stride": 0}),
     ["truncation.max_length", "-1"]),
    ("version 2", _doc(version="2.0"), ["version", '"2.0"']),
    ("unknown top field", _doc(extra=1), ["extra"]),
    ("no version", {k: v for k, v in _doc().items() if k != "version"}, None),
    ("model type list", _doc(model=dict(WP, type=["WordPiece"])),
     ["model.type", "must be a string", '["WordPiece"]']),
    ("model type null", _doc(model=dict(WP, type=None)), ["model.type", "null"]),
    ("pre-tokenizer type object", _doc(pre_tokenizer={"type": {"a": 1}}),
     ["pre_tokenizer.type", '{"a": 1}']),
    ("member type list", _doc(normalizer={"type": "Sequence", "normalizers": [
        {"type": "NFC"}, {"type": ["NFC"]}]}), ["normalizer.normalizers[1].type", '["NFC"]']),
    ("decoder member type 3", _doc(decoder={"type": "Sequence", "decoders": [{"type": 3}]}),
     ["decoder.decoders[0].type", "3"]),
    ("decoder member null", _doc(decoder={"type": "Sequence", "decoders": [None]}),
     ["decoder.decoders[0]", "null"]),
    ("processor member list", _doc(post_processor={"type": "Sequence", "processors": [[]]}),
     ["post_processor.processors[0]", "[]"]),
]

INTERNALS = ("unhashable", "index out of range", "object is not", "KeyError", "NoneType",
             "Traceback", "not subscriptable", "has no attribute")


def _reference_accepts(text: str) -> bool:
    try:
        tokenizers.Tokenizer.from_str(text)
    except Exception:  # the reference raises a plain Exception subclass
        return False
    return True


@pytest.mark.parametrize("name,doc,words", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_refused_exactly_when_the_reference_refuses(tmp_path, name, doc, words):
    text = json.dumps(doc, ensure_ascii=False)
    assert _reference_accepts(text) == (words is None), "the oracle changed its mind"
    path = tmp_path / "tokenizer.json"
    path.write_text(text, encoding="utf-8")
    if words is None:
        load(path)
        return
    with pytest.raises(TokenizerLoadError) as info:
        load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    for word in words:
        assert word in message, message
    assert not any(bad in message for bad in INTERNALS), message


@pytest.mark.parametrize("literal", ["NaN", "-Infinity", "Infinity", "1e400"])
def test_non_finite_unigram_scores_like_the_reference(tmp_path, literal):
    text = json.dumps(_doc(model=UNI)).replace("-1.0", literal)
    assert not _reference_accepts(text)
    path = tmp_path / "tokenizer.json"
    path.write_text(text)
    with pytest.raises(TokenizerFieldError, match=r"model\.vocab\[1\]\[1\]: .*(Infinity|NaN)"):
        load(path)


def test_deep_nesting_like_the_reference(tmp_path):
    def nested(levels):
        inner = {"type": "Lowercase"}
        for _ in range(levels):
            inner = {"type": "Sequence", "normalizers": [inner]}
        return json.dumps(_doc(normalizer=inner))
    path = tmp_path / "tokenizer.json"
    for levels, accepted in ((50, True), (70, False)):
        assert _reference_accepts(nested(levels)) == accepted
        path.write_text(nested(levels))
        if accepted:
            load(path)
        else:
            with pytest.raises(TokenizerFieldError, match="nested deeper than 128"):
                load(path)


def test_ids_from_2_to_the_31_are_refused_on_purpose(tmp_path):
    """The reference allows ids up to 2**32 - 1; ids index int32 arrays here."""
    text = json.dumps(_doc(model=dict(WP, vocab={"[UNK]": 0, "a": 2**31})))
    assert _reference_accepts(text)
    path = tmp_path / "tokenizer.json"
    path.write_text(text)
    with pytest.raises(TokenizerFieldError, match=r'model\.vocab\["a"\]: an id must be'):
        load(path)


@pytest.mark.parametrize("section,component", [
    ("normalizer", {"type": ["x"], "clean_text": True, "handle_chinese_chars": True,
                    "strip_accents": None, "lowercase": True}),
    ("post_processor", {"type": {"a": 1}, "sep": ["[SEP]", 1], "cls": ["[CLS]", 0]}),
    ("decoder", {"type": 3, "prefix": "##", "cleanup": True}),
])
def test_a_type_that_is_not_a_string_is_refused_on_purpose(tmp_path, section, component):
    """The reference guesses a normalizer, post-processor or decoder from its other fields
    when its ``type`` is not a string it knows; here the type must be named."""
    text = json.dumps(_doc(**{section: component}))
    assert _reference_accepts(text)
    path = tmp_path / "tokenizer.json"
    path.write_text(text)
    expected = rf"^{re.escape(str(path))}: {section}\.type: must be a string"
    with pytest.raises(TokenizerFieldError, match=expected):
        load(path)
