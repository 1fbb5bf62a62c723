"""BPE training speed on all 29 UDHR texts concatenated: 2,000 merges.

Run: ``.venv/bin/python benchmarks/train_bpe.py`` (from the repository root).

Prints, all measured in this process:

- ``BpeTrainer`` (incremental): word counting, index build, 2,000 merges, and the median /
  90th-percentile time of a single ``step()``;
- a naive loop that recounts every pair of the corpus at every step (the textbook version).
  It is too slow to run 2,000 times, so one recount step is timed at merges 0, 500, 1000,
  1500 and 1999 (starting from ``BpeTrainer``'s segmentation at that point) and the mean is
  extrapolated to 2,000 steps — the printout says so;
- the ``tokenizers`` library's ``BpeTrainer`` (Rust, counting included) with the same
  pre-tokenization pattern, ``</w>`` suffix and 2,000 merges, once with its default thread
  pool and once with ``TOKENIZERS_PARALLELISM=false`` (faster on a busy 2-core machine).

Targets: naive ≥ 20× slower than ``BpeTrainer``; median ``step()`` ≤ 5 ms (issue 4);
``BpeTrainer`` (counting + build + 2,000 merges) ≤ 3× the ``tokenizers`` time, moonshot ≤ 2×
(issue 16 §5) — the RATIO line prints that ratio against the faster of the two reference
runs; the CPU line the same in process CPU time (``time.process_time``) against the
single-threaded reference, which load from other processes on a shared machine disturbs less.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import udhr_files  # noqa: E402
from core.training.bpe import BpeTrainer  # noqa: E402
from core.training.corpus import WORD_PATTERN, word_counts  # noqa: E402
from core.training.symbols import merge_pair, merged_symbol  # noqa: E402

N_MERGES = 2000
SAMPLE_AT = (0, 500, 1000, 1500, 1999)
ROUNDS = 5


def naive_step(words: list[list], marker: str = "</w>") -> tuple | None:
    """One textbook BPE step: recount every pair of the corpus, merge the best everywhere."""
    counts: dict = {}
    for syms, c in words:
        for p in zip(syms, syms[1:]):
            counts[p] = counts.get(p, 0) + c
    if not counts:
        return None
    best = max(counts.values())
    pair = next(p for p, v in counts.items() if v == best)
    new = merged_symbol(*pair, marker)
    for entry in words:
        entry[0] = merge_pair(entry[0], pair, new)
    return pair


def time_ours(counts: dict) -> tuple[float, float, list[float], BpeTrainer, float]:
    """Build time and the time of ``run(N_MERGES)`` (what the pane's "Run to" calls), then
    every single ``step()`` timed on a second trainer (the median single step); last the
    CPU seconds of the build and the run."""
    c0, t0 = time.process_time(), time.perf_counter()
    trainer = BpeTrainer(counts)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    trainer.run(N_MERGES)
    merges = time.perf_counter() - t0
    cpu = time.process_time() - c0
    stepped = BpeTrainer(counts)
    steps = []
    for _ in range(N_MERGES):
        t = time.perf_counter()
        stepped.step()
        steps.append(time.perf_counter() - t)
    return build, merges, steps, trainer, cpu


def time_naive(counts: dict, trainer: BpeTrainer) -> list[float]:
    """Seconds of one naive recount step at each merge count in :data:`SAMPLE_AT`."""
    out = []
    for k in SAMPLE_AT:
        trainer.run_to(k)
        words = [[w.symbols, w.count] for w in trainer.words]
        expected = trainer.candidates(1)[0].pair
        t = time.perf_counter()
        pair = naive_step(words)
        out.append(time.perf_counter() - t)
        assert pair == expected, (k, pair, expected)  # both pick the same merge
    return out


def tokenizers_trainer(lines: list[str]):
    """A function timing one ``tokenizers`` BpeTrainer run of 2,000 merges (``None`` when the
    library is missing); it returns (seconds, merges done)."""
    try:
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers
    except ImportError:
        return None

    def train(vocab_size: int) -> tuple[float, dict, float]:
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.WhitespaceSplit(),
            pre_tokenizers.Split(Regex(WORD_PATTERN), behavior="isolated")])
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=0,
                                      show_progress=False, end_of_word_suffix="</w>",
                                      limit_alphabet=1_000_000)
        c, t = time.process_time(), time.perf_counter()
        tok.train_from_iterator(lines, trainer)
        seconds, cpu = time.perf_counter() - t, time.process_time() - c
        return seconds, json.loads(tok.to_str())["model"], cpu

    _, probe, _ = train(1)  # untimed: learns the size of its initial alphabet
    alphabet = len(probe["vocab"]) - len(probe["merges"])

    def run(parallel: bool) -> tuple[float, int, float]:
        os.environ["TOKENIZERS_PARALLELISM"] = "true" if parallel else "false"
        seconds, model, cpu = train(alphabet + N_MERGES)
        return seconds, len(model["merges"]), cpu

    return run


def main() -> int:
    files = udhr_files()
    if not files:
        print("shared data not found (set SUBWORDSCOPE_DATA)")
        return 1
    text = "\n".join(p.read_text(encoding="utf-8") for p in files)
    c, t = time.process_time(), time.perf_counter()
    counts = word_counts(text)
    count_s, count_cpu = time.perf_counter() - t, time.process_time() - c
    print(f"corpus: {len(files)} UDHR texts, {len(text):,} code points, "
          f"{sum(counts.values()):,} words, {len(counts):,} word types")
    reference = tokenizers_trainer(text.splitlines())
    runs, ref = [], {True: [], False: []}
    for _ in range(ROUNDS):  # interleaved, so that load on a shared machine hits all alike
        runs.append(time_ours(counts))
        if reference is not None:
            for parallel in (True, False):
                ref[parallel].append(reference(parallel))
    build, train, steps, trainer, _ = min(runs, key=lambda r: r[0] + r[1])
    ours = build + train
    print(f"BpeTrainer: counting {count_s:.3f} s, index build {build:.3f} s, "
          f"{N_MERGES} merges {train:.3f} s, total {ours + count_s:.3f} s "
          f"(best of {ROUNDS}; all totals: {', '.join(f'{r[0] + r[1]:.2f}' for r in runs)})")
    steps_ms = sorted(s * 1000 for s in steps)
    print(f"  single step(): median {statistics.median(steps_ms):.3f} ms, "
          f"90th percentile {steps_ms[int(0.9 * len(steps_ms))]:.3f} ms, max {steps_ms[-1]:.2f} ms")
    naive = time_naive(counts, trainer)
    naive_total = statistics.mean(naive) * N_MERGES
    print(f"naive recount: one step at merges {list(SAMPLE_AT)} took "
          f"{', '.join(f'{s * 1000:.0f}' for s in naive)} ms; EXTRAPOLATED to {N_MERGES} steps: "
          f"{naive_total:.1f} s -> {naive_total / train:.1f}x BpeTrainer's merge time "
          f"({naive_total / ours:.1f}x including the index build)")
    if reference is None:
        print("tokenizers not installed: no reference ratio")
        return 0
    for parallel, how in ((True, "default thread pool"), (False, "TOKENIZERS_PARALLELISM=false")):
        seconds, merges, _ = min(ref[parallel])
        print(f"tokenizers BpeTrainer (Rust, {how}, counting included, best of {ROUNDS}): "
              f"{seconds:.3f} s for {merges} merges -> BpeTrainer (counting + build + merges) "
              f"is {(ours + count_s) / seconds:.2f}x that")
    best = min(min(ref[True]), min(ref[False]))[0]
    print(f"RATIO BpeTrainer / tokenizers (faster reference run): {(ours + count_s) / best:.2f} "
          "(target <= 3, moonshot <= 2)")
    ours_cpu = count_cpu + min(r[4] for r in runs)
    ref_cpu = min(r[2] for r in ref[False])
    print(f"CPU BpeTrainer {ours_cpu:.3f} s / tokenizers single-threaded {ref_cpu:.3f} s "
          f"(process CPU time, best of {ROUNDS}): {ours_cpu / ref_cpu:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
