"""Each supported post-processor equals the reference library's inside a real pipeline.

The post-processor of a real tokenizer.json is swapped (BERT's for BertProcessing, GPT-2's
for the trimming ByteLevel and RobertaProcessing ones and a Sequence with a template);
tokens, ids and offsets must equal ``tokenizers``' on tricky fixed texts, with and without
special tokens, and on generated text.
"""

from __future__ import annotations

import pytest

from tests.core.tokenizers.reference_pairs import (
    PLAIN_GENERATED, PLAIN_TEXTS, QUIRK_GENERATED, QUIRK_TEXTS, assert_component_matches)

tokenizers = pytest.importorskip("tokenizers")

BERT_POST_PROCESSORS = {
    "BertProcessing": {"type": "BertProcessing", "sep": ["[SEP]", 102], "cls": ["[CLS]", 101]},
}
GPT2_POST_PROCESSORS = {
    "post-trim": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                  "use_regex": True},
    "post-trim-prefix": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                         "use_regex": True},
    "roberta": {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                "trim_offsets": True, "add_prefix_space": True},
    "post-sequence": {"type": "Sequence", "processors": [
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        {"type": "TemplateProcessing", "single": [
            {"SpecialToken": {"id": "<|endoftext|>", "type_id": 0}},
            {"Sequence": {"id": "A", "type_id": 0}}], "pair": [
            {"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
         "special_tokens": {"<|endoftext|>": {"id": "<|endoftext|>", "ids": [50256],
                                              "tokens": ["<|endoftext|>"]}}}]},
}


@pytest.mark.parametrize("name,cfg", list(BERT_POST_PROCESSORS.items()),
                         ids=[f"post_processor-{n}" for n in BERT_POST_PROCESSORS])
def test_bert_post_processor_matches_reference(bert_doc, tmp_path_factory, name, cfg):
    assert_component_matches(dict(bert_doc, post_processor=cfg), tmp_path_factory, name,
                             PLAIN_TEXTS, PLAIN_GENERATED)


@pytest.mark.parametrize("name,cfg", list(GPT2_POST_PROCESSORS.items()),
                         ids=[f"gpt2-{n}" for n in GPT2_POST_PROCESSORS])
def test_byte_level_post_processor_matches_reference(docs, tmp_path_factory, name, cfg):
    assert_component_matches(dict(docs["gpt2"], post_processor=cfg), tmp_path_factory, name,
                             QUIRK_TEXTS, QUIRK_GENERATED)
