"""Encode speed of core tokenizers against the reference library, in one process.

Run ``python -m benchmarks.encode`` from the repository root. For each row: the text is all
UDHR texts joined by newlines, three times; the figure is core's encode-with-offsets time
divided by the reference's (median of ``--repeat`` interleaved runs, single-threaded
reference), both with a fresh core tokenizer (cold per-word cache) and a warm one. Every
time is CPU seconds of this process (:func:`_timed`).
Targets (issue 2/3): <= 2.0 for WordPiece and Unigram, <= 3.0 for byte-level BPE; cl100k is
reported against tiktoken's ``encode_ordinary`` (ids only; no target). Then, per shared
tokenizer file, the load time and the extra resident memory, each in a fresh process
(targets <= 1 s, <= 150 MB).

Then the line workload (issue 16): the same UDHR texts cut into lines, three times (every
line one text, empty ones included), through ``Tokenizer.encode_batch`` against the
reference's batch call (``tokenizers`` ``encode_batch``, with offsets, as the issue sets it),
both single-threaded. cl100k_base has
no ``tokenizers`` file, so its target row runs ``tokenizers`` on the usual conversion (merge
list derived from the ranks; the ids are checked against tiktoken's and the check printed),
and a second row, without a target, compares with tiktoken (ids only, no offsets). Cold: a
fresh core tokenizer against a fresh reference object (both word caches empty); warm: both
reused. Target: <= 1.5 (moonshot <= 1.0). Also the loop of ``encode`` calls it replaces.

Then every shared ``tokenizer.json`` file (BERT, GPT-2, Pegasus and the modern ones:
Llama 3, Gemma 3, Qwen3, GPT-4o; issue 24), each against ``tokenizers`` on the same file:
load (``core.tokenizers.load`` against ``Tokenizer.from_file``, each timed in a fresh
process after its imports, as an app loads its first tokenizer: :func:`load_cpu`; loaded
in this process after other work, the reference's load took up to twice as long and ours
up to 1.2 times), encode_batch cold (fresh objects) and warm (reused) over the UDHR lines once (not
three times), and one long text (the UDHR texts joined once, fresh objects), each the
ratio of medians of ``--repeat`` interleaved runs (``--repeat-files`` for this table). Targets (issue 24): load, cold and
one long text <= 1.5, warm <= 1.0. ``--only files`` prints only this table; ``--files``
picks some of them (by folder name).

To add a row: append a :class:`Row` to :data:`ROWS` (functions building the core encoder
and the reference encoder, each ``encode(text) -> object``; and, for the line workload, the
core and reference batch encoders, each ``encode_batch(texts) -> object``).
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before the reference library is imported
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Callable  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._shared import cl100k_tokenizer_json  # noqa: E402
from core.data import data_dir, udhr_files  # noqa: E402

Encoder = Callable[[str], object]


@dataclass(frozen=True)
class Row:
    """One tokenizer: builders of the core and the reference encoders."""

    name: str
    core: Callable[[], Encoder]
    reference: Callable[[], Encoder]
    reference_name: str = "tokenizers"
    core_batch: Callable[[], Callable[[list[str]], object]] | None = None
    reference_batch: Callable[[], Callable[[list[str]], object]] | None = None
    batch_reference_name: str = "tokenizers encode_batch"
    batch_target: float | None = 1.5
    one_text: bool = True  # also a row of the one-text table


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


def _core(rel: str) -> Callable[[], Encoder]:
    def build() -> Encoder:
        from core.tokenizers import load

        tok = load(data_dir() / "tokenizers" / rel)
        return lambda text: tok.encode(text)
    return build


def _hf(rel: str) -> Callable[[], Encoder]:
    def build() -> Encoder:
        import tokenizers

        tok = tokenizers.Tokenizer.from_file(str(data_dir() / "tokenizers" / rel))
        tok.no_truncation()
        tok.no_padding()
        return lambda text: tok.encode(text).offsets
    return build


def _tiktoken_cl100k() -> Encoder:
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    from core.tokenizers.pre_tokenizers.split_patterns import CL100K_PATTERN

    path = data_dir() / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    enc = tiktoken.Encoding("cl100k_base", pat_str=CL100K_PATTERN,
                            mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})
    return enc.encode_ordinary


def _core_batch(rel: str) -> Callable[[], Callable[[list[str]], object]]:
    def build():
        from core.tokenizers import load

        return load(data_dir() / "tokenizers" / rel).encode_batch
    return build


def _hf_batch(rel: str) -> Callable[[], Callable[[list[str]], object]]:
    def build():
        import tokenizers

        tok = tokenizers.Tokenizer.from_file(str(data_dir() / "tokenizers" / rel))
        tok.no_truncation()
        tok.no_padding()
        return lambda texts: [e.offsets for e in tok.encode_batch(texts, add_special_tokens=False)]
    return build


def _tiktoken_batch() -> Callable[[list[str]], object]:
    enc = _tiktoken_cl100k().__self__  # the tiktoken.Encoding of its bound encode_ordinary
    return lambda texts: enc.encode_ordinary_batch(texts, num_threads=1)


def _hf_cl100k_batch() -> Callable[[list[str]], object]:
    import tokenizers

    tok = tokenizers.Tokenizer.from_str(cl100k_tokenizer_json())  # a fresh (cold) object
    return lambda texts: [e.offsets for e in tok.encode_batch(texts, add_special_tokens=False)]


def check_cl100k_conversion(texts: list[str]) -> str:
    """Whether the converted cl100k_base file gives tiktoken's ids on every text."""
    import tokenizers

    tok = tokenizers.Tokenizer.from_str(cl100k_tokenizer_json())
    ours = [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]
    theirs = _tiktoken_batch()(texts)
    bad = sum(a != b for a, b in zip(ours, theirs))
    return (f"ids equal to tiktoken's on all {len(texts):,} texts" if not bad
            else f"ids DIFFER from tiktoken's on {bad:,} of {len(texts):,} texts")


ROWS: list[Row] = [
    Row("bert-base-uncased (WordPiece)", _core_bert, _hf_bert,
        core_batch=_core_batch("bert-base-uncased/tokenizer.json"),
        reference_batch=_hf_batch("bert-base-uncased/tokenizer.json")),
    Row("gpt2 (byte-level BPE)", _core("gpt2/tokenizer.json"), _hf("gpt2/tokenizer.json"),
        core_batch=_core_batch("gpt2/tokenizer.json"),
        reference_batch=_hf_batch("gpt2/tokenizer.json")),
    Row("pegasus (Unigram)", _core("pegasus-unigram/tokenizer.json"),
        _hf("pegasus-unigram/tokenizer.json"),
        core_batch=_core_batch("pegasus-unigram/tokenizer.json"),
        reference_batch=_hf_batch("pegasus-unigram/tokenizer.json")),
    Row("cl100k_base (rank BPE)", _core("cl100k_base/cl100k_base.tiktoken"), _tiktoken_cl100k,
        "tiktoken, ids only", core_batch=_core_batch("cl100k_base/cl100k_base.tiktoken"),
        reference_batch=_hf_cl100k_batch,
        batch_reference_name="tokenizers encode_batch on the converted file"),
    Row("cl100k_base vs tiktoken", _core("cl100k_base/cl100k_base.tiktoken"), _tiktoken_cl100k,
        "tiktoken, ids only", core_batch=_core_batch("cl100k_base/cl100k_base.tiktoken"),
        reference_batch=_tiktoken_batch,
        batch_reference_name="tiktoken encode_ordinary_batch, 1 thread, ids only",
        batch_target=None, one_text=False),
]
BATCH_TARGET = ROWS[0].batch_target
TARGETS = {"bert-base-uncased (WordPiece)": 2.0, "gpt2 (byte-level BPE)": 3.0,
           "pegasus (Unigram)": 2.0}

#: Shared tokenizer files whose load time and extra memory are reported (targets: <= 1 s,
#: <= 150 MB each).
LOAD_FILES = ["bert-base-uncased/tokenizer.json", "bert-base-uncased/vocab.txt",
              "gpt2/tokenizer.json", "gpt2/vocab.json", "pegasus-unigram/tokenizer.json",
              "cl100k_base/cl100k_base.tiktoken"]

_LOAD_PROBE = """
import os, sys, time
os.environ["RAYON_NUM_THREADS"] = "1"
sys.path.insert(0, sys.argv[3])
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024
if sys.argv[1] == "core":
    import core.tokenizers, numpy, regex, orjson
    load = core.tokenizers.load
else:
    import tokenizers
    def load(path):
        tok = tokenizers.Tokenizer.from_file(path)
        tok.no_truncation()
        tok.no_padding()
        return tok
before = rss()
t0, c0 = time.perf_counter(), time.process_time()
tok = load(sys.argv[2])
print(time.perf_counter() - t0, time.process_time() - c0, rss() - before)
"""


def _load_probe(which: str, path: Path) -> tuple[float, float, float]:
    """One load of ``path`` by core (``which="core"``) or the reference, in a fresh process
    after its imports: wall seconds, CPU seconds and the extra resident memory (MB)."""
    import subprocess

    out = subprocess.run([sys.executable, "-c", _LOAD_PROBE, which, str(path),
                          str(Path(__file__).resolve().parent.parent)],
                         capture_output=True, text=True, check=True).stdout.split()
    wall, cpu, mb = map(float, out[-3:])
    return wall, cpu, mb


def load_cpu(which: str, path: Path) -> float:
    """CPU seconds of one load of ``path`` by core (``which="core"``) or the reference, in
    a fresh process after its imports."""
    return _load_probe(which, path)[1]


def load_figures(rel: str) -> tuple[float, float]:
    """Seconds to load a shared file and the extra resident memory (MB), in a fresh process."""
    wall, _, mb = _load_probe("core", data_dir() / "tokenizers" / rel)
    return wall, mb


def corpus() -> str:
    """All UDHR texts, newline-joined, three times."""
    return "\n".join(f.read_text(encoding="utf-8") for f in udhr_files()) * 3


def lines() -> list[str]:
    """Every line of every UDHR text, three times (the issue's line workload)."""
    return corpus().split("\n")


def measure_batch(row: Row, texts: list[str], repeat: int) -> tuple[float, ...]:
    """Median seconds of the line workload: core cold, reference cold, core warm,
    reference warm, and core's loop of ``encode`` calls (warm); interleaved."""
    core_warm, ref_warm = row.core_batch(), row.reference_batch()
    loop = row.core()
    core_warm(texts)
    ref_warm(texts)
    for text in texts:
        loop(text)
    runs: list[list[float]] = [[], [], [], [], []]
    for _ in range(repeat):
        cold, ref_cold = row.core_batch(), row.reference_batch()
        for k, (fn, arg) in enumerate([(cold, texts), (ref_cold, texts), (core_warm, texts),
                                       (ref_warm, texts)]):
            runs[k].append(_timed(fn, arg))
        runs[4].append(_timed(lambda ts: [loop(t) for t in ts], texts))
    return tuple(statistics.median(r) for r in runs)


def batch_figures(repeat: int) -> None:
    """The line-workload table: encode_batch against the reference's batch call."""
    texts = lines()
    print(f"\nline workload: {len(texts):,} lines, {sum(map(len, texts)):,} code points; "
          f"median of {repeat} interleaved runs (target <= {BATCH_TARGET}, moonshot <= 1.0)")
    print(f"{'tokenizer':32} {'cold s':>7} {'ref s':>7} {'warm s':>7} {'ref s':>7} "
          f"{'cold/ref':>8} {'warm/ref':>8} {'loop s':>7}")
    for row in ROWS:
        if row.core_batch is None:
            continue
        cold, ref_cold, warm, ref_warm, loop = measure_batch(row, texts, repeat)
        worst = max(cold / ref_cold, warm / ref_warm)
        verdict = ("no target" if row.batch_target is None
                   else "target: " + ("met" if worst <= row.batch_target else "MISSED"))
        print(f"{row.name:32} {cold:7.3f} {ref_cold:7.3f} {warm:7.3f} {ref_warm:7.3f} "
              f"{cold / ref_cold:8.2f} {warm / ref_warm:8.2f} {loop:7.3f}  "
              f"(reference: {row.batch_reference_name})  {verdict}", flush=True)
    print(f"converted cl100k_base file: {check_cl100k_conversion(texts)}")


def _timed(fn: Encoder, text: str) -> float:
    """CPU seconds of one call, the same way for core and the reference: the process's
    CPU time (both run single-threaded here, so time spent waiting for a core shared with
    other processes does not count), after a full collection (so no garbage of an earlier
    call is collected inside this one). The cyclic collector runs as each library leaves
    it, as in a program using it alone: core's batch call pauses it, the reference's does
    not (its Python results pay for the collections they trigger)."""
    gc.collect()
    t0 = time.process_time()
    fn(text)
    return time.process_time() - t0


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


FILES = ["bert-base-uncased", "gpt2", "pegasus-unigram", "llama-3", "gemma-3", "qwen3", "gpt-4o"]
"""Folders of the shared tokenizer.json files of the per-file table."""
FILE_TARGETS = (1.5, 1.5, 1.0, 1.5)  # load, encode_batch cold, warm, one long text


def file_figures(name: str, lines_once: list[str], long_text: str, repeat: int
                 ) -> tuple[float, ...]:
    """Median CPU seconds, core then reference: load, encode_batch cold, encode_batch
    warm, one long text (encode with offsets, fresh objects). Interleaved runs."""
    import tokenizers

    from core.tokenizers import load

    path = data_dir() / "tokenizers" / name / "tokenizer.json"

    def ref_load(p):
        tok = tokenizers.Tokenizer.from_file(str(p))
        tok.no_truncation()
        tok.no_padding()
        return tok

    def ref_batch(tok):
        return lambda texts: [e.offsets for e in tok.encode_batch(texts, add_special_tokens=False)]

    runs: list[list[float]] = [[] for _ in range(8)]
    for _ in range(repeat):
        runs[0].append(load_cpu("core", path))
        runs[1].append(load_cpu("ref", path))
        core, ref = load(path), ref_load(path)
        runs[2].append(_timed(core.encode_batch, lines_once))  # cold
        runs[3].append(_timed(ref_batch(ref), lines_once))
        runs[4].append(_timed(core.encode_batch, lines_once))  # warm
        runs[5].append(_timed(ref_batch(ref), lines_once))
        core, ref = load(path), ref_load(path)  # fresh for the long text
        runs[6].append(_timed(core.encode, long_text))
        runs[7].append(_timed(lambda t: ref.encode(t).offsets, long_text))
    return tuple(statistics.median(r) for r in runs)


def files_table(repeat: int, names: list[str]) -> None:
    """The per-file table: load, encode_batch cold/warm and one long text against
    ``tokenizers`` for every shared tokenizer.json file."""
    text_once = "\n".join(f.read_text(encoding="utf-8") for f in udhr_files())
    lines_once = text_once.split("\n")
    print(f"\nshared tokenizer.json files against tokenizers (single-threaded): UDHR lines "
          f"once ({len(lines_once):,} lines), one long text of {len(text_once):,} code points; "
          f"median of {repeat} interleaved runs, CPU seconds; targets load/cold/long <= "
          f"{FILE_TARGETS[0]}, warm <= {FILE_TARGETS[2]}")
    print(f"{'file':18} {'load':>6} {'ref':>6} {'ratio':>6} | {'cold':>6} {'ref':>6} {'ratio':>6} | "
          f"{'warm':>6} {'ref':>6} {'ratio':>6} | {'long':>6} {'ref':>6} {'ratio':>6}")
    for name in names:
        if not (data_dir() / "tokenizers" / name / "tokenizer.json").exists():
            print(f"{name:18} (absent)")
            continue
        t = file_figures(name, lines_once, text_once, repeat)
        ratios = [t[k] / t[k + 1] for k in range(0, 8, 2)]
        missed = [label for label, r, target in zip(("load", "cold", "warm", "long"), ratios,
                                                   FILE_TARGETS) if r > target]
        cells = " | ".join(f"{t[k]:6.3f} {t[k + 1]:6.3f} {t[k] / t[k + 1]:6.2f}"
                           for k in range(0, 8, 2))
        print(f"{name:18} {cells}  " + ("targets met" if not missed
                                        else "MISSED: " + ", ".join(missed)), flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-gui", action="store_true", help="skip the keystroke and memory figures")
    ap.add_argument("--no-load", action="store_true", help="skip the load time and memory figures")
    ap.add_argument("--only", choices=["text", "lines", "files"],
                    help="only the one-text table, the line workload or the per-file table")
    ap.add_argument("--files", nargs="+", choices=FILES, default=FILES,
                    help="the shared tokenizer.json files of the per-file table")
    ap.add_argument("--repeat-files", type=int, default=3,
                    help="interleaved runs of the per-file table (Gemma 3 is slow)")
    args = ap.parse_args(argv)
    text = corpus()
    if not text:
        print(f"no UDHR texts under {data_dir()}")
        return 1
    if args.only in (None, "text"):
        one_text_figures(text, args.repeat)
    if args.only in (None, "lines"):
        batch_figures(args.repeat)
    if args.only in (None, "files"):
        files_table(args.repeat_files, args.files)
    if args.only is not None:
        return 0
    if not args.no_load:
        print(f"\n{'file':36} {'load s':>7} {'extra MB':>9}")
        for rel in LOAD_FILES:
            seconds, mb = load_figures(rel)
            print(f"{rel:36} {seconds:7.3f} {mb:9.1f}")
    if not args.no_gui:
        gui_figures()
    return 0


def one_text_figures(text: str, repeat: int) -> None:
    """The one-text table: all UDHR texts as one string, core encode against the reference."""
    print(f"text: {len(text):,} code points; median of {repeat} interleaved runs")
    print(f"{'tokenizer':32} {'cold s':>7} {'warm s':>7} {'ref s':>7} "
          f"{'cold/ref':>8} {'warm/ref':>8}")
    for row in (r for r in ROWS if r.one_text):
        cold, warm, ref = measure(row, text, repeat)
        target = TARGETS.get(row.name)
        verdict = "" if target is None else f"  target <= {target}: " + (
            "met" if cold / ref <= target else "MISSED")
        print(f"{row.name:32} {cold:7.3f} {warm:7.3f} {ref:7.3f} {cold / ref:8.2f} "
              f"{warm / ref:8.2f}  (reference: {row.reference_name}){verdict}")


def gui_figures() -> None:
    """Keystroke-to-repaint latency and the app's peak memory (issue 2), measured by
    ``benchmarks/gui_latency.py`` in a fresh process so this script's own memory and
    caches do not count."""
    import subprocess

    print("\nalignment pane (benchmarks/gui_latency.py, fresh process):", flush=True)
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    script = Path(__file__).with_name("gui_latency.py")
    subprocess.run([sys.executable, str(script)], env=env, check=False)


if __name__ == "__main__":
    raise SystemExit(main())
