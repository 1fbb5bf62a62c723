"""Misleading token spans on the UDHR texts: where the reference library's offset differs from
the span the token's own content occupies (``Encoding.derived_offsets``), per shared tokenizer.

Run ``python -m benchmarks.misleading`` from the repository root. Each UDHR text is encoded
whole (without special tokens); a token is misleading when ``offsets[i] != derived_offsets[i]``.
Every such token is sorted into a kind:

- ``lone ▁ claims the next character``: a Metaspace ``▁`` token on its own, which the
  reference gives the span of the first character of the next token (the prepended marker
  takes that character's alignment) although it holds only the space before it, or nothing
  at the start of the text;
- ``dropped character shifts the span``: a character the model could not encode was dropped
  (BPE without an unknown token) and the reference moved the token left
  (huggingface/tokenizers#517);
- ``trimmed past a character``: ``trim_offsets`` removed a prefix space the text does not
  have, and the token lost a real character (huggingface/tokenizers#1300);
- ``byte piece``: a byte-fallback piece whose reference span is empty or covers several
  characters, while it holds one byte of one character;
- ``other``.

Also printed: tokens, unknown tokens and byte-fallback pieces (``Encoding.unknown_mask``,
``Encoding.byte_fallback_mask``), and the time to compute the derived spans.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir, udhr_files  # noqa: E402
from core.tokenizers import load  # noqa: E402
from benchmarks._shared import TOKENIZERS  # noqa: E402

KINDS = ("lone ▁ claims the next character", "dropped character shifts the span",
         "trimmed past a character", "byte piece", "other")


def kind(enc, j: int) -> str:
    """Which kind of misleading span token ``j`` of ``enc`` has (see the module docstring)."""
    (r0, r1), (d0, d1) = enc.offsets[j], enc.derived_offsets[j]
    if enc.byte_fallback_mask[j]:
        return KINDS[3]
    if enc.tokens[j] == (enc.rules.metaspace or "\u2581"):
        return KINDS[0]
    if r0 > d0 and r1 <= d1:
        return KINDS[2]
    if r0 < d0:
        return KINDS[1]
    return KINDS[4]


def tally(tokenizer, texts: list[str]) -> tuple[Counter, float]:
    """Counts (``tokens``, ``unknown``, ``byte fallback``, ``misleading``, each kind) over
    ``texts`` and the seconds spent computing derived spans."""
    counts: Counter = Counter()
    seconds = 0.0
    for text in texts:
        enc = tokenizer.encode(text)
        started = time.perf_counter()
        derived = enc.derived_offsets
        seconds += time.perf_counter() - started
        counts["tokens"] += len(enc)
        counts["unknown"] += sum(enc.unknown_mask)
        counts["byte fallback"] += sum(enc.byte_fallback_mask)
        for j, (ref, ours) in enumerate(zip(enc.offsets, derived)):
            if tuple(ref) != tuple(ours):
                counts["misleading"] += 1
                counts[kind(enc, j)] += 1
    return counts, seconds


def main() -> int:
    files = udhr_files()
    if not files:
        print(f"no UDHR texts under {data_dir()}", file=sys.stderr)
        return 1
    texts = [f.read_text(encoding="utf-8") for f in files]
    print(f"{len(texts)} UDHR texts, {sum(map(len, texts)):,} code points, each encoded whole")
    print(f"{'tokenizer':<20}{'tokens':>9}{'unknown':>9}{'bytes':>7}{'misleading':>12}{'derived s':>11}")
    kinds = {}
    for name, rel in TOKENIZERS.items():
        path = data_dir() / "tokenizers" / rel
        if not path.exists():
            print(f"{name:<20}absent")
            continue
        counts, seconds = tally(load(path), texts)
        kinds[name] = counts
        print(f"{name:<20}{counts['tokens']:>9,}{counts['unknown']:>9,}{counts['byte fallback']:>7,}"
              f"{counts['misleading']:>12,}{seconds:>11.2f}")
    for name, counts in kinds.items():
        found = [f"{k}: {counts[k]:,}" for k in KINDS if counts[k]]
        print(f"{name}: " + ("; ".join(found) if found else "no misleading spans"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
