"""Embed the 29-language UDHR corpus (every paragraph, /shared/data/udhr) with the numpy
all-MiniLM-L6-v2 as the Retrieval pane does (one :func:`core.retrieval.embed_corpus` call per
language, length-sorted batches, cached on disk), then reopen it from the cache as a second
start would (encoder loaded again, model hash recomputed, 29 cache files read).

Targets (issue 27 §3): the first embedding <= 60 s on two cores; the reopen <= 2 s.
Prints paragraphs, real tokens (specials included), seconds, tokens/s, and the reopen seconds.
The cache goes to a temporary folder, deleted at the end.

Run: ``SUBWORDSCOPE_DATA=../shared/data .venv/bin/python benchmarks/embed_corpus.py [--batch 16]``
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir  # noqa: E402
from core.encoder import load_encoder  # noqa: E402
from core.retrieval import embed as embed_module  # noqa: E402
from core.retrieval import embed_corpus  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=16, help="texts per forward pass")
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


if __name__ == "__main__":
    sys.exit(main())
