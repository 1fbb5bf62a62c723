"""Speed-up of ``subwordscope compare`` / ``audit`` with worker processes, on this machine.

Run ``python -m benchmarks.cli_compare`` from the repository root (``SUBWORDSCOPE_DATA``
pointing at the shared data for the 29-language UDHR; else the bundled 16-language sample).
The corpus is the UDHR written three times into a temporary folder (one file per language);
``compare`` and ``audit`` map over its chunks with ``--jobs 1`` (this process) and ``--jobs N``
(a process pool, one tokenizer load per worker, pool start-up included), alternately, three
times each; the best wall-clock times and their ratio are printed, and the tables are checked
to be equal. Tokenizers: the built-in BERT-uncased and GPT-2.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.cli.audit import reduce_audit  # noqa: E402
from app.cli.compare import reduce_table  # noqa: E402
from app.cli.corpus import corpus_files, plan_chunks  # noqa: E402
from app.cli.mapreduce import run_map  # noqa: E402
from app.cli.work import audit_chunk, compare_chunk, tokenizers  # noqa: E402
from core.data import udhr_files, udhr_sample_dir  # noqa: E402

SPECS = ("bert-base-uncased", "gpt2")
REPEATS = 3


def corpus(folder: Path, copies: int = 3) -> Path:
    """The UDHR (or the bundled sample) written ``copies`` times into ``folder``."""
    sources = udhr_files() or sorted(udhr_sample_dir().glob("*.txt"))
    for src in sources:
        (folder / src.name).write_text(src.read_text(encoding="utf-8") * copies, encoding="utf-8")
    return folder


def best(fn, chunks, jobs: int, reduce) -> tuple[float, object]:
    times, out = [], None
    for _ in range(REPEATS):
        started = time.perf_counter()
        out = reduce(run_map(fn, SPECS, chunks, jobs=jobs))
        times.append(time.perf_counter() - started)
    return min(times), out


def main() -> int:
    jobs = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        files = corpus_files(corpus(Path(tmp)))
        chunks = plan_chunks(files)
        size = sum(c.size for c in chunks)
        print(f"{len(files)} languages × 3, {size:,} bytes, {len(chunks)} chunks; {jobs} cores")
        tokenizers(SPECS)  # loaded once here (the workers load their own)
        for name, fn, reduce in (
            ("compare", compare_chunk, lambda r: reduce_table(r, SPECS, "eng")),
            ("audit", audit_chunk, lambda r: reduce_audit(r, SPECS, 3)),
        ):
            one, a = best(fn, chunks, 1, reduce)
            many, b = best(fn, chunks, jobs, reduce)
            assert a == b, f"{name}: the {jobs}-job table differs from the 1-job table"
            print(f"{name:<8} 1 job {one:6.2f} s   {jobs} jobs {many:6.2f} s   "
                  f"speed-up {one / many:4.2f}×   (tables equal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
