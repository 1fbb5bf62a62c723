"""What several benchmarks share: the shared tokenizer files, a best-of-N timer and cl100k_base
as a ``tokenizers`` file."""

from __future__ import annotations

import functools
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


CL100K_ONIG_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
                       r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
r"""cl100k_base's split in the form ``tokenizers`` (Oniguruma) runs as published: Oniguruma
reads the possessive ``\p{N}{1,3}+`` of tiktoken's form as "one or more runs of 1-3 digits"
(it keeps "1948" whole), so the reference file uses the original, equivalent pattern."""


@functools.lru_cache(maxsize=1)
def cl100k_tokenizer_json() -> str:
    """cl100k_base as a ``tokenizers`` file (the usual conversion: byte-level vocabulary, the
    merge list derived from the ranks, ``ignore_merges``, the split pattern above, then
    ByteLevel without its own regex), built once; its ids are checked against tiktoken's
    by the benchmarks that use it (``encode.py``, ``long_words.py``)."""
    import tokenizers
    from tokenizers import Regex, decoders, models, pre_tokenizers

    from core.data import data_dir
    from core.tokenizers import load

    model = load(data_dir() / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken").model
    tok = tokenizers.Tokenizer(models.BPE(model.vocab, model.merges, ignore_merges=True))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(CL100K_ONIG_PATTERN), "isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    return tok.to_str()
