"""Added tokens (``single_word``, ``lstrip``, ``rstrip``, ``normalized``) are found and split
out exactly as the reference library does, in BERT's pipeline."""

from __future__ import annotations

import pytest

from tests.core.tokenizers.reference_pairs import assert_same, load_pair

tokenizers = pytest.importorskip("tokenizers")

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
