"""Byte-level BPE on very long words (issue 12 item 1), against the reference in one process.

Run ``python -m benchmarks.long_words`` from the repository root. Each row encodes one text
that the pre-tokenizer keeps as (mostly) one word — ``"a" × 10^5``, a seeded random base64
string of 10^5 characters and ``"😀" × 10^4`` (40,000 bytes) — with GPT-2 and cl100k_base
against ``tokenizers`` (the issue's reference; cl100k_base as a converted file, see
:func:`benchmarks._shared.cl100k_tokenizer_json`) and cl100k_base against ``tiktoken``'s
``encode_ordinary`` (ids only; reported, no target), and prints seconds, the ratio core /
reference (target <= 2.0) and whether the ids agree. Each row is
timed ``--repeat`` times (default 3) with freshly loaded tokenizers (cold caches, as a first
encode sees them), core and reference interleaved, in CPU seconds of this process
(``time.process_time``: the machine's other load does not count); the medians are shown. Then the
cl100k_base load time and the longest stall a 10 ms ticker thread sees while it loads and
while the merge list is derived from the ranks (issue 12 item 6: no stall over 100 ms).

``--scale 0.1`` shrinks every text (quick runs).
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before the reference library is imported
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import base64  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Callable  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._shared import cl100k_tokenizer_json  # noqa: E402
from core.data import data_dir  # noqa: E402

TARGET = 2.0
GPT2 = "gpt2/tokenizer.json"
CL100K = "cl100k_base/cl100k_base.tiktoken"


def texts(scale: float) -> dict[str, str]:
    """The long words by label (lengths in code points times ``scale``)."""
    n = max(1, int(100_000 * scale))
    rng = random.Random(12)
    b64 = base64.b64encode(rng.randbytes(n)).decode("ascii")[:n]
    return {f'"a" x {n:,}': "a" * n, f"base64 x {n:,}": b64,
            f'"\N{GRINNING FACE}" x {n // 10:,}': "\N{GRINNING FACE}" * (n // 10)}


def encoders() -> list[tuple[str, Callable[[str], list[int]], Callable[[str], list[int]], str]]:
    """Per row: the tokenizer, core's encode (ids), the reference's encode (ids), the
    reference's name (fresh objects: empty caches)."""
    import tiktoken
    import tokenizers
    from tiktoken.load import load_tiktoken_bpe

    from core.tokenizers import load
    from core.tokenizers.pre_tokenizers.split_patterns import CL100K_PATTERN

    root = data_dir() / "tokenizers"
    gpt2, cl100k, cl100k_again = load(root / GPT2), load(root / CL100K), load(root / CL100K)
    hf = tokenizers.Tokenizer.from_file(str(root / GPT2))
    hf.no_truncation()
    hf.no_padding()
    hf_cl100k = tokenizers.Tokenizer.from_str(cl100k_tokenizer_json())
    tk = tiktoken.Encoding("cl100k_base", pat_str=CL100K_PATTERN,
                           mergeable_ranks=load_tiktoken_bpe(str(root / CL100K)),
                           special_tokens={})
    return [("gpt2", lambda t: list(gpt2.encode(t).ids), lambda t: hf.encode(t).ids,
             "tokenizers"),
            ("cl100k_base", lambda t: list(cl100k.encode(t).ids),
             lambda t: hf_cl100k.encode(t, add_special_tokens=False).ids, "tokenizers"),
            ("cl100k_base", lambda t: list(cl100k_again.encode(t).ids), tk.encode_ordinary,
             "tiktoken")]  # its own core tokenizer: the row above leaves its cache warm


def timed(fn: Callable[[str], list[int]], text: str) -> tuple[float, list[int]]:
    """CPU seconds of this process for one call, and its result."""
    t0 = time.process_time()
    out = fn(text)
    return time.process_time() - t0, out


def longest_stall(fn: Callable[[], object]) -> tuple[float, float]:
    """Seconds ``fn()`` takes and the longest gap (seconds) between the 10 ms ticks of
    another thread meanwhile: how long the interpreter lock was held in one piece."""
    gaps: list[float] = []
    done = threading.Event()

    def tick() -> None:
        last = time.perf_counter()
        while not done.is_set():
            time.sleep(0.01)
            now = time.perf_counter()
            gaps.append(now - last - 0.01)
            last = now

    ticker = threading.Thread(target=tick)
    ticker.start()
    time.sleep(0.05)
    t0 = time.perf_counter()
    fn()
    seconds = time.perf_counter() - t0
    done.set()
    ticker.join()
    return seconds, max(gaps, default=0.0)


def load_figures() -> None:
    """cl100k_base: load time and stall; merge-list derivation time and stall."""
    from core.tokenizers import load

    path = data_dir() / "tokenizers" / CL100K
    box: list = []
    seconds, stall = longest_stall(lambda: box.append(load(path)))
    print(f"cl100k_base load: {seconds:.3f} s, longest stall {stall * 1000:.0f} ms")
    seconds, stall = longest_stall(lambda: box[0].model.merges)
    print(f"cl100k_base merge list from ranks (on first use only): {seconds:.3f} s, "
          f"longest stall {stall * 1000:.0f} ms")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="text length factor")
    ap.add_argument("--repeat", type=int, default=3, help="cold runs per row (median shown)")
    args = ap.parse_args(argv)
    if not (data_dir() / "tokenizers" / GPT2).is_file():
        print(f"no shared tokenizers under {data_dir()}")
        return 1
    load_figures()
    print(f"\n{'tokenizer':12} {'text':18} {'core s':>8} {'ref s':>8} {'core/ref':>8}  ids")
    runs: dict[tuple[str, str, str], list[tuple[float, float, bool]]] = {}
    for _ in range(max(1, args.repeat)):  # fresh tokenizers each time: cold caches
        for name, core, ref, ref_name in encoders():
            for label, text in texts(args.scale).items():
                core_s, core_ids = timed(core, text)
                ref_s, ref_ids = timed(ref, text)
                runs.setdefault((name, label, ref_name), []).append(
                    (core_s, ref_s, core_ids == list(ref_ids)))
    for (name, label, ref_name), got in runs.items():
        core_s = statistics.median(c for c, _, _ in got)
        ref_s = statistics.median(r for _, r, _ in got)
        ratio = core_s / ref_s if ref_s else float("inf")
        verdict = ("no target" if ref_name == "tiktoken"
                   else f"target <= {TARGET}: " + ("met" if ratio <= TARGET else "MISSED"))
        same = "equal" if all(ok for _, _, ok in got) else "DIFFER"
        print(f"{name:12} {label:18} {core_s:8.3f} {ref_s:8.3f} {ratio:8.2f}  {same}  "
              f"(vs {ref_name}; {verdict})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
