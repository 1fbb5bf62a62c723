"""Added tokens on the modern files (issue 24 item 3), against ``tokenizers`` in one process.

Run ``python -m benchmarks.added_tokens`` from the repository root. For Gemma 3 (6,415 added
tokens), Llama 3 (256) and Qwen3 (26) it prints, in CPU milliseconds of this process
(``time.process_time``, best of ``--repeat``; the reference single-threaded):

- ``load``: loading the file, core / ``tokenizers.Tokenizer.from_file``, each in a fresh
  process after its imports (``benchmarks.encode.load_cpu``);
- per text — the first 10,000 characters of the English UDHR, and a chat prompt of the same
  length full of the model's special tokens — ``encode`` core / reference (target for the
  whole encode: <= 1.5), and ``search``: core's added-token search alone
  (``AddedVocabulary.split_original`` + ``split_normalized`` of the text), in ms and as a share
  of the reference's whole encode;
- for Gemma 3, the search on a 100k-character paste (the old matcher: 13 s).

The matcher is built as the file loads (its cost is in ``load``).
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before the reference library is imported
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import gc  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Callable  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.encode import load_cpu  # noqa: E402
from core.data import data_dir  # noqa: E402

TARGET = 1.5
FILES = {"gemma-3": "gemma-3/tokenizer.json", "llama-3": "llama-3/tokenizer.json",
         "qwen3": "qwen3/tokenizer.json"}
TURNS = {
    "gemma-3": ("<bos>", "<start_of_turn>{role}\n{text}<end_of_turn>\n"),
    "llama-3": ("<|begin_of_text|>",
                "<|start_header_id|>{role}<|end_header_id|>\n\n{text}<|eot_id|>"),
    "qwen3": ("", "<|im_start|>{role}\n{text}<|im_end|>\n"),
}
N_CHARS = 10_000


def cpu_ms(fn: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` calls of ``fn``, in CPU milliseconds of this process,
    after a full collection (no garbage of an earlier row, such as Gemma 3's vocabulary,
    is collected inside the calls; one before each millisecond call would time them with
    cold processor caches)."""
    gc.collect()
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best * 1000


def chat_prompt(name: str, udhr: str, n: int) -> str:
    """Turns of the model's chat format over short UDHR lines, ``n`` characters long."""
    bos, turn = TURNS[name]
    lines = [ln for ln in udhr.splitlines() if ln.strip()]
    out, k = [bos], 0
    while sum(map(len, out)) < n:
        role = ("user", "assistant" if name != "gemma-3" else "model")[k % 2]
        out.append(turn.format(role=role, text=lines[k % len(lines)][:120]))
        k += 1
    return "".join(out)[:n]


def search(tok, text: str) -> None:
    """Core's added-token search alone, as the pipeline runs it on a text."""
    added = tok.added
    added.split_original(text)
    if added.has_normalized:
        added.split_normalized(text)


def row(name: str, repeat: int) -> None:
    import tokenizers

    from core.tokenizers import load

    path = data_dir() / "tokenizers" / FILES[name]
    if not path.exists():
        print(f"{name}: {path} is absent, skipped")
        return
    core_load, ref_load = load_cpu("core", path) * 1000, load_cpu("ref", path) * 1000
    tok, ref = load(path), tokenizers.Tokenizer.from_file(str(path))
    print(f"{name}: {len(tok.added.tokens):,} added tokens; load {core_load:.0f} / {ref_load:.0f} ms"
          f" = {core_load / ref_load:.2f}x")
    udhr = (data_dir() / "udhr" / "eng.txt").read_text(encoding="utf-8")
    texts = {"UDHR eng 10k": udhr[:N_CHARS], "chat prompt 10k": chat_prompt(name, udhr, N_CHARS)}
    for label, text in texts.items():
        same = tok.encode(text).ids == ref.encode(text, add_special_tokens=False).ids
        core_ms = cpu_ms(lambda: tok.encode(text), repeat)
        ref_ms = cpu_ms(lambda: ref.encode(text, add_special_tokens=False), repeat)
        search_ms = cpu_ms(lambda: search(tok, text), repeat)
        ratio = core_ms / ref_ms
        print(f"  {label:16} encode {core_ms:7.2f} / {ref_ms:6.2f} ms = {ratio:5.2f}x "
              f"({'within' if ratio <= TARGET else 'over'} {TARGET}x)  search {search_ms:6.3f} ms "
              f"= {search_ms / ref_ms:5.1%} of the reference's encode  ids equal: {same}")
    if name == "gemma-3":
        paste = (udhr * (100_000 // len(udhr) + 1))[:100_000]
        print(f"  search on a 100k paste: {cpu_ms(lambda: search(tok, paste), repeat):.2f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20,
                        help="calls of each, the fastest kept (default 20: the figures are "
                             "milliseconds, and a noisy machine slows a run of a few)")
    parser.add_argument("names", nargs="*", default=list(FILES), help="files to measure")
    args = parser.parse_args(argv)
    for name in args.names:
        row(name, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
