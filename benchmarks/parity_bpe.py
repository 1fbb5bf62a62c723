"""Classic vs parity-aware BPE on the parallel UDHR texts: Gini and global compression.

Run: ``.venv/bin/python benchmarks/parity_bpe.py [N_MERGES]`` (from the repository root; the
shared data folder through ``SUBWORDSCOPE_DATA``).

Trains :class:`core.training.parity.MultilingualBpeTrainer` on every text of ``udhr/`` (29
languages, parallel) for 2,000 merges, once classic (the most frequent pair of all languages)
and once parity-aware (Foroutan et al. 2025: the most frequent pair of the language with the
most tokens), and prints for each the Gini coefficient of the per-language token counts
(:func:`core.training.parity.gini`), the global compression (characters per token), the most
and fewest tokens, and the time. Then the same with costs in tokens per character.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import udhr_files  # noqa: E402
from core.training.corpus import word_counts  # noqa: E402
from core.training.parity import NORMALIZATIONS, MultilingualBpeTrainer  # noqa: E402

N_MERGES = 2000


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else N_MERGES
    files = udhr_files()
    if not files:
        print("shared data not found (set SUBWORDSCOPE_DATA)")
        return 1
    corpora = {p.stem: word_counts(p.read_text(encoding="utf-8")) for p in files}
    print(f"corpus: {len(corpora)} parallel UDHR texts, {n:,} merges, marker </w>, ties first")
    for normalization in NORMALIZATIONS:
        results = {}
        for strategy in ("classic", "parity"):
            t0 = time.perf_counter()
            trainer = MultilingualBpeTrainer(corpora, strategy=strategy,
                                             normalization=normalization)
            trainer.run(n)
            seconds = time.perf_counter() - t0
            ginis, compression = trainer.curve()
            tokens = trainer.tokens
            worst = max(range(len(tokens)), key=tokens.__getitem__)
            best = min(range(len(tokens)), key=tokens.__getitem__)
            results[strategy] = (ginis[-1], compression[-1])
            print(f"{normalization:10s} {strategy:7s}: Gini {ginis[0]:.4f} -> {ginis[-1]:.4f} "
                  f"after {len(trainer.merges):,} merges; global compression "
                  f"{compression[-1]:.3f} chars/token; most tokens {trainer.languages[worst]} "
                  f"{tokens[worst]:,}, fewest {trainer.languages[best]} {tokens[best]:,}; "
                  f"{seconds:.2f} s")
        (gc, cc), (gp, cp) = results["classic"], results["parity"]
        print(f"RESULT {normalization}: Gini classic {gc:.4f} vs parity-aware {gp:.4f} "
              f"({(gc - gp) / gc:.0%} lower); global compression {cc:.3f} vs {cp:.3f} "
              f"({(cc - cp) / cc:.1%} lower)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
