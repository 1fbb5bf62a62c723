"""The pipeline row's words name each stage as the tokenizer file declares it."""

from __future__ import annotations

import pytest

from core.tokenizers import demo_tokenizer
from core.tokenizers.pipeline_steps import STAGES, pipeline_steps
from tests.core.tokenizers.loaded import shared_tokenizer


@pytest.mark.parametrize("rel, labels", [
    ("llama-3/tokenizer.json", ["none", "Split regex › ByteLevel", "BPE 128,000 byte-level",
                                "ByteLevel", "ByteLevel"]),
    ("gemma-3/tokenizer.json", ['Replace " "→"▁"', 'Split " "', "BPE 262,144 + byte fallback",
                                "Template <bos> $A", 'Replace "▁"→" " › ByteFallback › Fuse']),
    ("qwen3/tokenizer.json", ["NFC", "Split regex › ByteLevel", "BPE 151,643 byte-level",
                              "ByteLevel", "ByteLevel"]),
    ("pegasus-unigram/tokenizer.json", ['Precompiled › Replace " {2,}"→" "',
                                        "WhitespaceSplit › Metaspace", "Unigram 96,103",
                                        "Template $A </s>", "Metaspace"]),
])
def test_each_stage_named_as_the_file_declares_it(data_dir, rel, labels):
    steps = pipeline_steps(shared_tokenizer(data_dir, rel))
    assert [s.stage for s in steps] == list(STAGES)
    assert [s.label for s in steps] == labels


def test_a_missing_stage_reads_none_and_says_so():
    steps = pipeline_steps(demo_tokenizer())
    post = steps[STAGES.index("post_processor")]
    assert post.label == "none" and post.detail == "The file has no post-processor"
    assert pipeline_steps(object())[0].label == "none"  # no describe(): every stage none
