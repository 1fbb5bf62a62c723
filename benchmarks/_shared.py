"""What several benchmarks share: the shared tokenizer files and a best-of-N timer."""

from __future__ import annotations

import time
from typing import Callable

TOKENIZERS = {
    "bert-base-uncased": "bert-base-uncased/tokenizer.json",
    "gpt2": "gpt2/tokenizer.json",
    "pegasus-unigram": "pegasus-unigram/tokenizer.json",
    "cl100k_base": "cl100k_base/cl100k_base.tiktoken",
}
"""The four shared tokenizers by name, as paths under ``<data>/tokenizers``."""


def best(fn: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` calls of ``fn``, in milliseconds."""
    out = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out * 1000
