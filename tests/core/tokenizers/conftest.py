"""Real tokenizer.json documents and UDHR texts shared by the tokenizer tests (read once)."""

from __future__ import annotations

import json

import pytest

# the helpers' own assertions get pytest's detailed messages, as test modules do
pytest.register_assert_rewrite("tests.core.tokenizers.reference_pairs",
                               "tests.core.tokenizers.formats.file_helpers")


def _doc(data_dir, rel):
    return json.loads((data_dir / "tokenizers" / rel).read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def bert_doc(data_dir):
    """BERT-base-uncased's tokenizer.json (not to be mutated)."""
    return _doc(data_dir, "bert-base-uncased/tokenizer.json")


@pytest.fixture(scope="session")
def docs(data_dir):
    """GPT-2's, a cut-down Pegasus' and BERT's tokenizer.json (not to be mutated)."""
    pegasus = _doc(data_dir, "pegasus-unigram/tokenizer.json")
    pegasus["model"]["vocab"] = pegasus["model"]["vocab"][:20000]  # faster, same behaviour
    pegasus["added_tokens"] = pegasus["added_tokens"][:3]
    return {"gpt2": _doc(data_dir, "gpt2/tokenizer.json"), "pegasus": pegasus,
            "bert": _doc(data_dir, "bert-base-uncased/tokenizer.json")}


@pytest.fixture(scope="session")
def udhr_texts(data_dir):
    """Every UDHR text by file stem."""
    return {f.stem: f.read_text(encoding="utf-8")
            for f in sorted((data_dir / "udhr").glob("*.txt"))}
