"""Encode speed of core tokenizers against the reference library, in one process.

Run ``python -m benchmarks.encode`` from the repository root. For each row: the text is all
UDHR texts joined by newlines, three times; the figure is core's encode-with-offsets time
divided by the reference's (median of ``--repeat`` interleaved runs, single-threaded
reference), both with a fresh core tokenizer (cold per-word cache) and a warm one.
Targets (issue 2/3): <= 2.0 for WordPiece and Unigram, <= 3.0 for byte-level BPE.

To add a row: append a :class:`Row` to :data:`ROWS` (functions building the core encoder
and the reference encoder, each ``encode(text) -> object``).
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before the reference library is imported
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Callable  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir, udhr_files  # noqa: E402

Encoder = Callable[[str], object]


@dataclass(frozen=True)
class Row:
    """One tokenizer: builders of the core and the reference encoders."""

    name: str
    core: Callable[[], Encoder]
    reference: Callable[[], Encoder]
    reference_name: str = "tokenizers"


def _core_bert() -> Encoder:
    from core.tokenizers import load

    tok = load(data_dir() / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    return lambda text: tok.encode(text)


def _hf_bert() -> Encoder:
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(
        str(data_dir() / "tokenizers" / "bert-base-uncased" / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return lambda text: tok.encode(text).offsets


ROWS: list[Row] = [Row("bert-base-uncased (WordPiece)", _core_bert, _hf_bert)]


def corpus() -> str:
    """All UDHR texts, newline-joined, three times."""
    return "\n".join(f.read_text(encoding="utf-8") for f in udhr_files()) * 3


def _timed(fn: Encoder, text: str) -> float:
    t0 = time.perf_counter()
    fn(text)
    return time.perf_counter() - t0


def measure(row: Row, text: str, repeat: int) -> tuple[float, float, float]:
    """Median seconds: core with a fresh tokenizer (cold word cache), core warm, reference.

    Runs are interleaved (cold, warm, reference, cold, ...) so that load from other
    processes on the machine affects all three alike.
    """
    ref, warm = row.reference(), row.core()
    warm(text)  # fill the cache once
    cold_t, warm_t, ref_t = [], [], []
    for _ in range(repeat):
        cold = row.core()
        cold_t.append(_timed(cold, text))
        warm_t.append(_timed(warm, text))
        ref_t.append(_timed(ref, text))
    return statistics.median(cold_t), statistics.median(warm_t), statistics.median(ref_t)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    text = corpus()
    if not text:
        print(f"no UDHR texts under {data_dir()}")
        return 1
    print(f"text: {len(text):,} code points; median of {args.repeat} interleaved runs")
    print(f"{'tokenizer':32} {'cold s':>7} {'warm s':>7} {'ref s':>7} "
          f"{'cold/ref':>8} {'warm/ref':>8}")
    for row in ROWS:
        cold, warm, ref = measure(row, text, args.repeat)
        print(f"{row.name:32} {cold:7.3f} {warm:7.3f} {ref:7.3f} {cold / ref:8.2f} "
              f"{warm / ref:8.2f}  (reference: {row.reference_name})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
