"""Every tokenizer the loaders build is a ``TokenizerLike``, and the app and ``core.align``
take that type where they take a tokenizer (no ``tokenizer: Any`` left)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.tokenizers import TokenizerLike, demo_tokenizer
from tests.core.tokenizers.loaded import shared_tokenizer

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("rel", ["gpt2/tokenizer.json", "cl100k_base/cl100k_base.tiktoken"])
def test_loaded_tokenizers_are_tokenizer_like(data_dir, rel):
    assert isinstance(shared_tokenizer(data_dir, rel), TokenizerLike)
    assert isinstance(demo_tokenizer(), TokenizerLike)
    assert not isinstance(object(), TokenizerLike)


def test_the_app_and_core_align_type_their_tokenizers():
    untyped = [f"{p.relative_to(ROOT)}:{k}"
               for folder in ("app", "core/align") for p in (ROOT / folder).rglob("*.py")
               for k, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"\btokenizer: Any\b", line)]
    assert not untyped
