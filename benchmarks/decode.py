"""Decode (issue 15 §1): ``Tokenizer.decode`` and ``decode_pieces`` against the reference.

Prints, per shared tokenizer, the time to decode the reference's ids of all 29 UDHR texts
with core's ``decode``, with the reference's own ``decode`` (``tokenizers`` or ``tiktoken``)
in the same process, their ratio, and core's ``decode_pieces`` (which also says which token
produced which characters) with its ratio to the reference. Best of ``--repeats`` runs.

Run: ``SUBWORDSCOPE_DATA=../shared/data python benchmarks/decode.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir  # noqa: E402
from core.tokenizers import load  # noqa: E402
from benchmarks._shared import best  # noqa: E402

FILES = ("bert-base-uncased/tokenizer.json", "gpt2/tokenizer.json",
         "pegasus-unigram/tokenizer.json", "cl100k_base/cl100k_base.tiktoken")


def reference(path: Path):
    """(encode, decode) of the reference library for ``path``."""
    if path.suffix == ".tiktoken":
        import tiktoken
        from tiktoken.load import load_tiktoken_bpe

        from core.tokenizers.formats.tiktoken_file import PRESETS

        enc = tiktoken.Encoding("cl100k_base", pat_str=PRESETS["cl100k_base"].pattern,
                                mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})
        return enc.encode_ordinary, enc.decode
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    return (lambda text: tok.encode(text).ids), tok.decode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    texts = [f.read_text(encoding="utf-8") for f in sorted((data_dir() / "udhr").glob("*.txt"))]
    print(f"{'tokenizer':<34}{'tokens':>9}{'core ms':>9}{'ref ms':>8}{'ratio':>7}"
          f"{'pieces ms':>11}{'ratio':>7}")
    for rel in FILES:
        path = data_dir() / "tokenizers" / rel
        if not path.exists():
            continue
        ours = load(path)
        encode, decode = reference(path)
        ids = [encode(t) for t in texts]
        t_core = best(lambda: [ours.decode(i) for i in ids], args.repeats)
        t_ref = best(lambda: [decode(i) for i in ids], args.repeats)
        t_pieces = best(lambda: [ours.decode_pieces(i) for i in ids], 1)
        n = sum(map(len, ids))
        print(f"{rel:<34}{n:>9,}{t_core:>9.0f}{t_ref:>8.0f}{t_core / t_ref:>7.1f}"
              f"{t_pieces:>11.0f}{t_pieces / t_ref:>7.1f}")


if __name__ == "__main__":
    main()
