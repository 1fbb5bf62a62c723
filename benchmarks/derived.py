"""Derived offsets (issue 11): the guessed walk against the token-by-token walk.

Prints, per shared tokenizer, the time of ``Encoding.derived_offsets`` on a fresh
encoding of a 10,000-character multilingual UDHR text (as after each keystroke: the
tokenizer's memo of token contents is warm), the time of the plain walk
(``derived_offsets(enc, rules, shortcut=False)``) in the same process, their ratio, and
the encode time for scale. Best of ``--repeats`` runs each.

Run: ``SUBWORDSCOPE_DATA=../shared/data python benchmarks/derived.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir  # noqa: E402
from core.tokenizers import load  # noqa: E402
from core.tokenizers.derived import derived_offsets  # noqa: E402
from benchmarks._shared import best  # noqa: E402

TOKENIZERS = ("bert-base-uncased", "gpt2", "pegasus-unigram", "cl100k_base")
LANGS = ("eng", "fra", "deu_1996", "rus", "cmn_hans", "hin", "arb", "tur")


def sample_text(n: int) -> str:
    parts = [(data_dir() / "udhr" / f"{lang}.txt").read_text(encoding="utf-8") for lang in LANGS]
    text = "".join(p[: n // len(parts)] + "\n" for p in parts)
    while len(text) < n:
        text += text
    return text[:n]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()
    text = sample_text(10_000)
    print(f"{'tokenizer':<20}{'tokens':>8}{'encode ms':>11}{'derived ms':>12}{'walk ms':>9}{'ratio':>7}")
    for name in TOKENIZERS:
        path = data_dir() / "tokenizers" / name
        if not path.exists():
            continue
        tok = load(path)
        enc = tok.encode(text)
        enc.derived_offsets  # warms the memo, as the previous keystroke did
        t_enc = best(lambda: tok.encode(text), 3)
        fresh = iter([tok.encode(text) for _ in range(args.repeats)])
        t_new = best(lambda: derived_offsets(next(fresh), enc.rules), args.repeats)
        t_walk = best(lambda: derived_offsets(enc, enc.rules, shortcut=False), args.repeats)
        print(f"{name:<20}{len(enc.ids):>8,}{t_enc:>11.1f}{t_new:>12.1f}{t_walk:>9.1f}"
              f"{t_new / t_walk:>7.2f}")


if __name__ == "__main__":
    main()
