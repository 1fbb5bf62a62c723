"""The vocabulary audit on the four shared tokenizers: seconds and every category count.

Run ``SUBWORDSCOPE_DATA=/work/shared/data python -m benchmarks.vocab_audit`` from the
repository root (``--no-corpus`` skips the UDHR encoding, ``--only NAME`` audits one). For each tokenizer it prints the
time of ``core.tokenizers.vocab_audit`` (best of ``--repeat`` runs, the 29 UDHR texts as
the corpus) and, as a reference for the machine's speed at that moment, the time the
reference library (``tokenizers`` / ``tiktoken``) takes to encode every entry's probe text
one by one in the same process (ratio = audit / reference), wall and CPU seconds (the CPU
time of this process: on a shared machine it is what the run itself cost). Every run loads
the tokenizer afresh, so what the audit keeps per model (a rank file's merges) is paid each
time, and the load itself is not timed. Then the count of each category.
"""

from __future__ import annotations

import argparse
import base64
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir, udhr_files  # noqa: E402
from core.tokenizers import load, vocab_audit  # noqa: E402
from core.tokenizers.vocab_audit.reach import make_probes  # noqa: E402
from core.tokenizers.vocab_audit.surface import vocab_entries  # noqa: E402
from benchmarks._shared import TOKENIZERS  # noqa: E402

CL100K = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"""
          r"""[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")


def reference_encoder(path: Path):
    """text -> ids with the reference library (no padding, truncation or special tokens)."""
    if path.suffix == ".tiktoken":
        import tiktoken
        ranks = {base64.b64decode(a): int(b) for a, b in
                 (line.split() for line in path.read_text().splitlines() if line.strip())}
        enc = tiktoken.Encoding("cl100k_base", pat_str=CL100K, mergeable_ranks=ranks,
                                special_tokens={})
        return enc.encode_ordinary
    import tokenizers
    hf = tokenizers.Tokenizer.from_file(str(path))
    hf.no_padding()
    hf.no_truncation()
    return lambda text: hf.encode(text, add_special_tokens=False).ids


def best_of(repeat: int, fn, setup=lambda: None):
    """(best wall seconds, the CPU seconds of that run, the last result) of ``fn(setup())``,
    ``setup`` not timed."""
    times, out = [], None
    for _ in range(repeat):
        arg = setup()
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn(arg)
        times.append((time.perf_counter() - t0, time.process_time() - c0))
    wall, cpu = min(times)
    return wall, cpu, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--only", choices=list(TOKENIZERS), action="append",
                        help="audit only this tokenizer (repeatable)")
    args = parser.parse_args()
    corpus = None if args.no_corpus else [f.read_text(encoding="utf-8") for f in udhr_files()]
    print(f"corpus: {len(corpus or [])} UDHR texts, {sum(map(len, corpus or [])):,} characters")
    for name, rel in TOKENIZERS.items():
        if args.only and name not in args.only:
            continue
        path = data_dir() / "tokenizers" / rel
        if not path.exists():
            print(f"{name}: {path} missing, skipped")
            continue
        seconds, cpu, audit = best_of(args.repeat, lambda tok: vocab_audit(tok, corpus), lambda: load(path))
        tok = load(path)
        texts = [p.text for p in make_probes(tok, vocab_entries(tok))]
        ref = reference_encoder(path)
        ref_seconds, ref_cpu, _ = best_of(args.repeat, lambda _: [ref(t) for t in texts])
        counts = ", ".join(f"{k} {v}" if v >= 0 else f"{k} n/a" for k, v in audit.counts().items())
        print(f"{name}: {seconds:.2f} s, {cpu:.2f} s CPU (reference encoding of the "
              f"{len(texts):,} probes one by one: {ref_seconds:.2f} s, {ref_cpu:.2f} s CPU; "
              f"ratio {seconds / ref_seconds:.1f}, CPU {cpu / ref_cpu:.1f})")
        print(f"  entries {audit.vocab_size:,} ({', '.join(f'{k} {v:,}' for k, v in audit.kinds.items())})")
        print(f"  {counts}")
        for key in ("bytes", "merges"):
            print(f"  {key}: {audit.category(key).note}")


if __name__ == "__main__":
    main()
