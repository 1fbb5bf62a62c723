"""Cancel latency (issue 30 §5): how long superseded work keeps running after its stop request.

Prints, per tokenizer, the milliseconds from setting ``should_stop`` to ``Cancelled`` for an
encode of a 100,000-character paste (the 29 UDHR texts joined; target <= 100 ms), stopped
``--after`` seconds in, and for the vocabulary audit with the UDHR corpus. Then the Alignment
pane's case: the paste submitted to an :class:`app.workers.TaskRunner` three times, each
superseding the last after ``--after`` seconds, against the same encode alone (target: the
newest result within 1.2x of alone). Timings under whatever else the machine runs.

Run: ``SUBWORDSCOPE_DATA=../shared/data python benchmarks/cancel.py [--after S] [--names a,b]``.
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--after", type=float, default=0.3)
    ap.add_argument("--names", default=",".join(FILES))
    args = ap.parse_args()
    udhr = [f.read_text(encoding="utf-8") for f in sorted((data_dir() / "udhr").glob("*.txt"))]
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
