"""Cancel latency (issue 30 §5): how long superseded work keeps running after its stop request.

Prints, per tokenizer, the milliseconds from setting ``should_stop`` to ``Cancelled`` for an
encode of a 100,000-character paste (the 29 UDHR texts joined; target <= 100 ms), stopped
``--after`` seconds in, and for the vocabulary audit with the UDHR corpus. Then the Alignment
pane's case: the paste submitted to an :class:`app.workers.TaskRunner` three times, each
superseding the last after ``--after`` seconds, against the same encode alone (target: the
newest result within 1.2x of alone). Timings under whatever else the machine runs.

With ``--gaps``, instead: per shared ``tokenizer.json`` file, the longest stretch of work
between two ``should_stop`` questions (what a stop request can wait for at worst, with
where it is) while encoding 1,000,000 characters of UDHR text as one text (``encode``)
and as its lines (``encode_batch``); target <= 100 ms.

Run: ``SUBWORDSCOPE_DATA=../shared/data python benchmarks/cancel.py [--after S] [--names a,b]
[--gaps]``.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir  # noqa: E402
from core.errors import Cancelled  # noqa: E402
from core.tokenizers import load, vocab_audit  # noqa: E402

FILES = {"gemma-3": "gemma-3/tokenizer.json", "llama-3": "llama-3/tokenizer.json",
         "gpt2": "gpt2/tokenizer.json", "bert-base-uncased": "bert-base-uncased/tokenizer.json",
         "pegasus-unigram": "pegasus-unigram/tokenizer.json"}


def stop_latency(fn, after: float) -> float | None:
    """Run ``fn(should_stop)`` on a thread, ask it to stop ``after`` seconds in; the
    milliseconds it ran on after that (None: it finished before the request)."""
    flag, end = threading.Event(), {}

    def run():
        try:
            fn(flag.is_set)
        except Cancelled:
            end["cancelled"] = True
        end["at"] = time.perf_counter()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(after)
    asked = time.perf_counter()
    flag.set()
    thread.join()
    return (end["at"] - asked) * 1000 if end.get("cancelled") else None


def superseded(tok, texts: list[str], after: float) -> float:
    """Seconds from the last of ``texts``' submissions to its result, each submission
    superseding the one before ``after`` seconds later (a TaskRunner, as the panes use)."""
    from PySide6.QtCore import QCoreApplication

    from app.workers import TaskRunner

    app = QCoreApplication.instance() or QCoreApplication([])
    runner = TaskRunner()
    got = {}
    runner.sig_returned.connect(lambda enc: got.setdefault("at", time.perf_counter()))  # first result after the clear

    def encode(text, should_stop=None):
        return tok.encode(text, should_stop=should_stop)

    for i, text in enumerate(texts):
        got.clear()  # only the newest submission's result counts (an earlier one may land first)
        last = time.perf_counter()
        runner.submit(encode, text)
        while i < len(texts) - 1 and time.perf_counter() - last < after:
            app.processEvents()
            time.sleep(0.005)
    while "at" not in got:
        app.processEvents()
        time.sleep(0.005)
    return got["at"] - last


GAP_FILES = ["bert-base-uncased", "gpt2", "pegasus-unigram", "llama-3", "gemma-3", "qwen3",
             "gpt-4o"]


def longest_gap(run) -> tuple[float, str]:
    """``run(should_stop)`` with a ``should_stop`` that notes when it is asked: the longest
    stretch in milliseconds between two questions (the call's start and end count as
    questions), and the function that asked at its end."""
    import traceback

    stamps: list[tuple[float, str]] = [(time.perf_counter(), "start")]

    def should_stop() -> bool:
        *_, frame, _ = traceback.extract_stack(limit=3)  # (the one calling check_stop, or this)
        if frame.name == "check_stop":
            frame = traceback.extract_stack(limit=3)[0]
        stamps.append((time.perf_counter(), f"{frame.name}:{frame.lineno}"))
        return False

    run(should_stop)
    stamps.append((time.perf_counter(), "end"))
    gap, where = max((b[0] - a[0], f"{a[1]} -> {b[1]}") for a, b in zip(stamps, stamps[1:]))
    return gap * 1000, where


def gaps_table(udhr: list[str]) -> None:
    text = ("\n".join(udhr) * 4)[:1_000_000]
    lines = text.split("\n")
    print(f"longest stretch between stop checks, 1,000,000 characters ({len(lines):,} lines "
          f"for encode_batch); target <= 100 ms")
    print(f"{'file':<20}{'encode ms':>10}  {'where':<44}{'batch ms':>9}  where")
    for name in GAP_FILES:
        path = data_dir() / "tokenizers" / name / "tokenizer.json"
        if not path.exists():
            continue
        tok = load(path)  # (fresh tokenizers: cold caches, as a first paste meets them)
        one = longest_gap(lambda stop: tok.encode(text, should_stop=stop))
        tok = load(path)
        many = longest_gap(lambda stop: tok.encode_batch(lines, should_stop=stop))
        print(f"{name:<20}{one[0]:>10.0f}  {one[1]:<44}{many[0]:>9.0f}  {many[1]}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--after", type=float, default=0.3)
    ap.add_argument("--names", default=",".join(FILES))
    ap.add_argument("--gaps", action="store_true",
                    help="the longest stretch between stop checks at 1,000,000 characters")
    args = ap.parse_args()
    udhr = [f.read_text(encoding="utf-8") for f in sorted((data_dir() / "udhr").glob("*.txt"))]
    if args.gaps:
        gaps_table(udhr)
        return
    paste = "\n".join(udhr)[:100_000]
    print(f"{'tokenizer':<20}{'encode ms':>10}{'stop ms':>9}{'audit stop ms':>15}")
    for name in args.names.split(","):
        path = data_dir() / "tokenizers" / FILES[name]
        if not path.exists():
            continue
        tok = load(path)
        t = time.perf_counter()
        tok.encode(paste[::-1])
        alone = (time.perf_counter() - t) * 1000
        enc = stop_latency(lambda stop: tok.encode(paste[1:], should_stop=stop), args.after)
        audit = stop_latency(lambda stop: vocab_audit(tok, udhr, should_stop=stop), args.after)
        show = lambda ms: "done" if ms is None else f"{ms:.0f}"  # noqa: E731
        print(f"{name:<20}{alone:>10.0f}{show(enc):>9}{show(audit):>15}", flush=True)
        if name == "gemma-3":
            variants = [paste[k:] + paste[:k] for k in (7, 11, 13)]
            t = time.perf_counter()
            tok.encode(variants[0][::-1])
            single = time.perf_counter() - t
            newest = superseded(tok, variants, args.after)
            print(f"{'':<20}paste superseded twice: newest after {newest:.1f} s, alone "
                  f"{single:.1f} s, ratio {newest / single:.2f}", flush=True)


if __name__ == "__main__":
    main()
