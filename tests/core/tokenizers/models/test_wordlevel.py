"""The WordLevel model (BERT's vocabulary as whole words) equals the reference library's."""

from __future__ import annotations

import pytest

from tests.core.tokenizers.reference_pairs import QUIRK_TEXTS, assert_same, load_pair

tokenizers = pytest.importorskip("tokenizers")


def test_wordlevel_model(docs, tmp_path_factory):
    bert = docs["bert"]
    model = {"type": "WordLevel", "vocab": bert["model"]["vocab"], "unk_token": "[UNK]"}
    ours, ref = load_pair(dict(bert, model=model), tmp_path_factory, "wordlevel")
    for text in QUIRK_TEXTS:
        assert_same(ours, ref, text, True)
