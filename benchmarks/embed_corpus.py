"""Embed the 29-language UDHR corpus (every paragraph, /shared/data/udhr) with the numpy
all-MiniLM-L6-v2 as the Retrieval pane does (one :func:`core.retrieval.embed_corpus` call per
language, length-sorted batches, cached on disk), then reopen it from the cache as a second
start would (encoder loaded again, model hash recomputed, 29 cache files read).

Targets (issue 27 §3): the first embedding <= 60 s on two cores; the reopen <= 2 s.
Prints paragraphs, real tokens (specials included), seconds, tokens/s, and the reopen seconds.
The cache goes to a temporary folder, deleted at the end.

``--every N`` (on a busy machine) times only every N-th of the corpus's batches (each
language's lines length-sorted and cut into batches exactly as
:func:`core.retrieval.embed_corpus` does; tokenize, encode, pool), and extrapolates by tokens:
the first embedding is estimated as the timed seconds per token times the corpus's tokens; it
prints the mean cost of one batch (and per
1,000 tokens) so that runs under different loads can be compared. The cache reopen is
skipped then.

Run: ``SUBWORDSCOPE_DATA=../shared/data .venv/bin/python benchmarks/embed_corpus.py [--batch 16] [--every 10]``
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir  # noqa: E402
from core.encoder import load_encoder  # noqa: E402
from core.retrieval import embed as embed_module  # noqa: E402
from core.retrieval import embed_corpus  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=16, help="texts per forward pass")
    ap.add_argument("--every", type=int, default=0,
                    help="time only every N-th length-sorted batch and extrapolate (0: embed everything)")
    args = ap.parse_args(argv)
    model = data_dir() / "models" / "all-MiniLM-L6-v2"
    files = sorted((data_dir() / "udhr").glob("*.txt"))
    if not (model / "model.safetensors").is_file() or not files:
        print(f"MiniLM or the UDHR texts not found under {data_dir()}; set SUBWORDSCOPE_DATA")
        return 1
    corpus = {f.stem: [ln for ln in f.read_text(encoding="utf-8").splitlines() if ln.strip()]
              for f in files}
    enc = load_encoder(model)
    n = sum(len(v) for v in corpus.values())
    tokens = sum(int(enc.tokenize(v).attention_mask.sum()) for v in corpus.values())
    if args.every > 0:
        return sampled(enc, corpus, args.batch, args.every, n, tokens)
    cache = Path(tempfile.mkdtemp(prefix="embed-bench-"))
    try:
        t0 = time.perf_counter()
        for lines in corpus.values():
            embed_corpus(enc, lines, batch_size=args.batch, cache_dir=cache, return_norms=True)
        first = time.perf_counter() - t0
        print(f"embedded {n:,} paragraphs of {len(files)} languages ({tokens:,} tokens), batches of "
              f"{args.batch}: {first:.1f} s, {tokens / first:,.0f} tokens/s (target <= 60 s)")
        embed_module._file_digest.cache_clear()  # a new process hashes the model again
        t0 = time.perf_counter()
        enc2 = load_encoder(model)
        for lines in corpus.values():
            embed_corpus(enc2, lines, cache_dir=cache, return_norms=True)
        print(f"reopened from the cache (encoder loaded, model hashed, {len(files)} files read): "
              f"{time.perf_counter() - t0:.2f} s (target <= 2 s)")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return 0


def sampled(enc, corpus: dict, batch: int, every: int, n: int, tokens: int) -> int:
    """Time every ``every``-th of all the corpus's batches (each language's lines
    length-sorted and cut into batches as embed_corpus does, the languages one after the
    other) and extrapolate the whole corpus's time by tokens."""
    batches = []
    for lines in corpus.values():
        lengths = embed_module._lengths(enc, lines, None)
        order = np.argsort(lengths, kind="stable")
        batches += [(lines, lengths, order[s:s + batch]) for s in range(0, len(lines), batch)]
    picked = batches[every // 2::every]
    timed, timed_tokens = 0.0, 0
    for lines, lengths, rows in picked:
        t0 = time.perf_counter()
        out = enc.encode([lines[i] for i in rows])
        embed_module._pool(out.last_hidden_state, out.attention_mask, "mean")
        timed += time.perf_counter() - t0
        timed_tokens += int(lengths[rows].sum())
    est = timed / timed_tokens * tokens
    print(f"{n:,} paragraphs ({tokens:,} tokens) in {len(batches)} batches of <= {batch}; timed "
          f"{len(picked)} (every {every}-th): {timed / len(picked) * 1e3:.0f} ms per batch of "
          f"{timed_tokens / len(picked):.0f} tokens, {timed / timed_tokens * 1e6:.0f} ms per 1,000 tokens; "
          f"extrapolated first embedding {est:.1f} s (target <= 60 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
