"""Reference tokenizers (HF ``tokenizers``, ``tiktoken``) behind the small protocol core.metrics
reads — for tests and benchmarks only, while ``core.tokenizers`` cannot load a format yet.

Each adapter has ``name``, ``unk_token``, ``path`` and ``encode(text)`` returning an object with
``tokens``, ``ids``, ``offsets`` (code points into ``text``) and ``special_tokens_mask``.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path

from core.text.byte_alphabet import bytes_to_byte_level


@dataclass(frozen=True)
class RefEncoding:
    tokens: list[str]
    ids: list[int]
    offsets: list[tuple[int, int]]
    special_tokens_mask: list[int] = field(default_factory=list)


class HFAdapter:
    """A ``tokenizer.json`` through the ``tokenizers`` Python binding."""

    def __init__(self, path: str | Path, name: str | None = None):
        from tokenizers import Tokenizer

        self.path = str(path)
        self.name = name or Path(path).parent.name
        self.library = Tokenizer.from_file(self.path)
        self.library.no_padding()
        self.library.no_truncation()
        model = json.loads(Path(path).read_text(encoding="utf-8"))["model"]
        unk = model.get("unk_token")
        if unk is None and model.get("unk_id") is not None:
            unk = model["vocab"][model["unk_id"]][0]
        self.unk_token = unk

    def token_to_id(self, token: str) -> int | None:
        return self.library.token_to_id(token)

    def encode(self, text: str, *, add_special_tokens: bool = False) -> RefEncoding:
        enc = self.library.encode(text, add_special_tokens=add_special_tokens)
        return RefEncoding(list(enc.tokens), list(enc.ids), [tuple(o) for o in enc.offsets],
                           list(enc.special_tokens_mask))


CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)


class TiktokenAdapter:
    """A ``.tiktoken`` rank file through ``tiktoken``; offsets from the token bytes."""

    unk_token = None

    def token_to_id(self, token: str) -> int | None:
        return None

    def __init__(self, path: str | Path, name: str | None = None):
        import tiktoken

        self.path = str(path)
        self.name = name or Path(path).stem
        ranks = {}
        for line in Path(path).read_text(encoding="ascii").splitlines():
            if line:
                tok, rank = line.split()
                ranks[base64.b64decode(tok)] = int(rank)
        self.tiktoken_encoding = tiktoken.Encoding(self.name, pat_str=CL100K_PATTERN, mergeable_ranks=ranks,
                                                   special_tokens={})

    def encode(self, text: str, *, add_special_tokens: bool = False) -> RefEncoding:
        ids = self.tiktoken_encoding.encode_ordinary(text)
        pieces = [self.tiktoken_encoding.decode_single_token_bytes(i) for i in ids]
        char_of_byte = [i for i, ch in enumerate(text) for _ in ch.encode("utf-8", "surrogatepass")]
        offsets, b = [], 0
        for p in pieces:
            start, end = char_of_byte[b], char_of_byte[b + len(p) - 1] + 1
            offsets.append((start, end))
            b += len(p)
        # token strings in the GPT-2 byte alphabet, as core and the `tokenizers` library show them
        tokens = [bytes_to_byte_level(p) for p in pieces]
        return RefEncoding(tokens, list(ids), offsets, [0] * len(ids))


SHARED = {
    "bert-base-uncased": "bert-base-uncased/tokenizer.json",
    "gpt2": "gpt2/tokenizer.json",
    "pegasus-unigram": "pegasus-unigram/tokenizer.json",
    "cl100k_base": "cl100k_base/cl100k_base.tiktoken",
}


def reference_tokenizer(data_dir: str | Path, name: str):
    """Adapter for one of the shared tokenizers (``SHARED`` key)."""
    path = Path(data_dir) / "tokenizers" / SHARED[name]
    return TiktokenAdapter(path, name) if path.suffix == ".tiktoken" else HFAdapter(path, name)
