"""Shared fixtures of the chat tests: the shared tokenizers with a chat template, each loaded
once per session (ours and transformers', the oracle)."""

from __future__ import annotations

import pytest

TEMPLATED = ("llama-3", "gemma-3", "qwen3")

MESSAGE_LISTS = {
    "system+user": [{"role": "system", "content": "You are terse."},
                    {"role": "user", "content": "  Quelle heure est-il à Tōkyō? 👩\u200d👩\u200d👧  "}],
    "user only": [{"role": "user", "content": "Hi"}],
    "multi-turn": [{"role": "system", "content": "S"}, {"role": "user", "content": "Q1\nsecond line"},
                   {"role": "assistant", "content": "A1  "}, {"role": "user", "content": "मनुष्य Q2"},
                   {"role": "assistant", "content": "<think>\nhmm\n</think>\n\nA2"}],
    "no system": [{"role": "user", "content": "Q1"}, {"role": "assistant", "content": "A1"},
                  {"role": "user", "content": "Q2"}],
}


@pytest.fixture(scope="session")
def oracle(data_dir):
    """transformers' tokenizer of a shared folder, loaded offline once."""
    transformers = pytest.importorskip("transformers")
    import os
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    cache = {}

    def get(name: str):
        if name not in cache:
            cache[name] = transformers.AutoTokenizer.from_pretrained(str(data_dir / "tokenizers" / name))
        return cache[name]
    return get


@pytest.fixture(scope="session")
def ours(data_dir):
    """Our tokenizer of a shared folder's tokenizer.json, loaded once."""
    from core.tokenizers import load
    cache = {}

    def get(name: str):
        if name not in cache:
            cache[name] = load(data_dir / "tokenizers" / name / "tokenizer.json")
        return cache[name]
    return get
