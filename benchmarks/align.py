"""Align a tokenizer's own tokens (issue 30 §7): ``core.align.align`` against ``encode``.

Prints, per tokenizer (BERT, GPT-2, Llama 3), the time to ``encode`` the 29 UDHR texts with
core's tokenizer and to ``align`` the tokens it gave back to each text (the CLI ``align`` and
the Alignment pane's *align a token list*, default normalization), and their ratio (target
<= 3); then the same for the 29 texts joined into one (where a failed first attempt — the
teaching normalizer against BERT's pieces — and runs of thousands of ``[UNK]`` used to make
the search grow superlinearly). Best of ``--repeats`` runs.

Run: ``SUBWORDSCOPE_DATA=../shared/data python benchmarks/align.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._shared import best  # noqa: E402
from core.align import align  # noqa: E402
from core.data import data_dir  # noqa: E402
from core.tokenizers import load  # noqa: E402

FILES = ("bert-base-uncased/tokenizer.json", "gpt2/tokenizer.json", "llama-3/tokenizer.json")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    texts = [f.read_text(encoding="utf-8") for f in sorted((data_dir() / "udhr").glob("*.txt"))]
    joined = "\n".join(texts)
    print(f"{'tokenizer':<34}{'texts':>7}{'chars':>9}{'encode ms':>11}{'align ms':>10}{'ratio':>7}")
    for rel in FILES:
        path = data_dir() / "tokenizers" / rel
        if not path.exists():
            continue
        tok = load(path)
        for label, group in (("29", texts), ("joined", [joined])):
            tokens = [tok.encode(t).tokens for t in group]
            t_enc = best(lambda: [tok.encode(t) for t in group], args.repeats)
            t_align = best(lambda: [align(t, k) for t, k in zip(group, tokens)], args.repeats)
            print(f"{rel:<34}{label:>7}{sum(map(len, group)):>9,}{t_enc:>11.0f}{t_align:>10.0f}"
                  f"{t_align / t_enc:>7.1f}")


if __name__ == "__main__":
    main()
