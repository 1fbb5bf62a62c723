"""Parity of core tokenizers with the reference libraries, tokenizer x language.

Run ``python -m benchmarks.parity`` (from the repository root) for the table: ids equal /
offsets equal / first difference, for every tokenizer core can load and every UDHR text.
Tests import :func:`compare_encodings`, :data:`CASES` and :func:`compare_case`.

References: ``tokenizers`` for tokenizer.json, vocab.txt and GPT-2 vocab files (truncation
and padding switched off: Pegasus' file carries max_length 192, GPT-2's 50), ``tiktoken``
for rank files (ids from ``encode_ordinary``; tokens spelled in the byte-level alphabet;
offsets derived from token byte lengths: a token's span is every character whose UTF-8
bytes it contains). SentencePiece ``.model`` files are compared in the tests, on models
trained there (the shared data has none).

To add a row: add a :class:`Case` to :data:`CASES` with a function building the core
tokenizer and one building the reference (``encode(text, add_special_tokens) -> (tokens,
ids, offsets)``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

os.environ.setdefault("RAYON_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

Triple = tuple[list[str], list[int], list[tuple[int, int]]]


@dataclass(frozen=True)
class Difference:
    """Outcome of comparing one encoding with the reference's."""

    tokens_equal: bool
    ids_equal: bool
    offsets_equal: bool
    first_difference: str | None  # human-readable, None when all equal

    @property
    def equal(self) -> bool:
        return self.tokens_equal and self.ids_equal and self.offsets_equal


def compare_encodings(text: str, core: Triple, ref: Triple) -> Difference:
    """Compare core's (tokens, ids, offsets) with the reference's, naming the first mismatch."""
    (ct, ci, co), (rt, ri, ro) = core, ref
    first = None
    for k in range(max(len(ct), len(rt))):
        c = (ct[k], ci[k], tuple(co[k])) if k < len(ct) else None
        r = (rt[k], ri[k], tuple(ro[k])) if k < len(rt) else None
        if c != r:
            where = r[2] if r else c[2]
            context = text[max(0, where[0] - 10):where[1] + 10]
            first = f"token {k}: core {c} vs reference {r} near {context!r}"
            break
    return Difference(list(ct) == list(rt), list(ci) == list(ri),
                      [tuple(o) for o in co] == [tuple(o) for o in ro], first)


@dataclass(frozen=True)
class Case:
    """One tokenizer row: how to build it in core and in the reference library."""

    name: str
    relpath: str  # under the shared data's tokenizers/ folder
    core: Callable[[Path], object]
    reference: Callable[[Path], Callable[[str, bool], Triple]]


def _core_load(path: Path):
    from core.tokenizers import load

    return load(path)


def _hf_from_file(path: Path):
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return _hf_encoder(tok)


def _hf_bert_vocab(path: Path):
    import tokenizers

    return _hf_encoder(tokenizers.BertWordPieceTokenizer(str(path)))


def _hf_gpt2_files(path: Path):
    import tokenizers

    tok = tokenizers.ByteLevelBPETokenizer(str(path), str(path.with_name("merges.txt")))
    tok.add_special_tokens(["<|endoftext|>"])
    return _hf_encoder(tok)


def _tiktoken_ref(path: Path):
    """tiktoken's ids; tokens spelled in the byte-level alphabet; offsets derived from the
    token byte lengths (a token's span = the characters whose bytes it contains)."""
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    from core.text.byte_alphabet import bytes_to_byte_level
    from core.tokenizers.formats.tiktoken_file import PRESETS, detect_preset

    enc = tiktoken.Encoding(name=path.stem, pat_str=PRESETS[detect_preset(path)].pattern,
                            mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})

    def encode(text: str, add_special_tokens: bool) -> Triple:
        ids = enc.encode_ordinary(text)
        pieces = [enc.decode_single_token_bytes(i) for i in ids]
        char_of_byte = [i for i, ch in enumerate(text) for _ in ch.encode("utf-8")]
        offsets, pos = [], 0
        for b in pieces:
            offsets.append((char_of_byte[pos], char_of_byte[pos + len(b) - 1] + 1))
            pos += len(b)
        return [bytes_to_byte_level(b) for b in pieces], ids, offsets
    return encode


def _hf_encoder(tok) -> Callable[[str, bool], Triple]:
    def encode(text: str, add_special_tokens: bool) -> Triple:
        e = tok.encode(text, add_special_tokens=add_special_tokens)
        return e.tokens, e.ids, e.offsets
    return encode


CASES: list[Case] = [
    Case("bert-base-uncased/tokenizer.json", "bert-base-uncased/tokenizer.json", _core_load,
         _hf_from_file),
    Case("bert-base-uncased/vocab.txt", "bert-base-uncased/vocab.txt", _core_load,
         _hf_bert_vocab),
    Case("gpt2/tokenizer.json", "gpt2/tokenizer.json", _core_load, _hf_from_file),
    Case("gpt2/vocab.json+merges.txt", "gpt2/vocab.json", _core_load, _hf_gpt2_files),
    Case("pegasus-unigram/tokenizer.json", "pegasus-unigram/tokenizer.json", _core_load,
         _hf_from_file),
    Case("cl100k_base.tiktoken (tiktoken)", "cl100k_base/cl100k_base.tiktoken", _core_load,
         _tiktoken_ref),
]


def compare_case(core_tok, ref_encode, text: str, add_special_tokens: bool) -> Difference:
    """Encode ``text`` with both and compare."""
    e = core_tok.encode(text, add_special_tokens=add_special_tokens)
    return compare_encodings(text, (e.tokens, e.ids, e.offsets),
                             ref_encode(text, add_special_tokens))


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from core.data import data_dir, udhr_files

    texts = udhr_files()
    if not texts:
        print(f"no UDHR texts under {data_dir()}")
        return 1
    failures = 0
    print(f"{'tokenizer':36} {'lang':14} {'ids':>4} {'offs':>4}  first difference")
    for case in CASES:
        path = data_dir() / "tokenizers" / case.relpath
        core_tok, ref = case.core(path), case.reference(path)
        for f in texts:
            text = f.read_text(encoding="utf-8")
            diffs = [compare_case(core_tok, ref, text, sp) for sp in (False, True)]
            ids_ok = all(d.ids_equal and d.tokens_equal for d in diffs)
            offs_ok = all(d.offsets_equal for d in diffs)
            first = next((d.first_difference for d in diffs if d.first_difference), "")
            failures += not (ids_ok and offs_ok)
            print(f"{case.name:36} {f.stem:14} {'yes' if ids_ok else 'NO':>4} "
                  f"{'yes' if offs_ok else 'NO':>4}  {first}")
    rows = len(CASES) * len(texts)
    print(f"\n{rows - failures}/{rows} rows equal")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
