"""``subwordscope encode`` on 1,000,000 characters: time against ``tokenizers`` and peak memory.

Run ``python -m benchmarks.cli_encode [TOKENIZER …]`` from the repository root with
``SUBWORDSCOPE_DATA`` pointing at the shared data (default tokenizer: ``gpt2``; any built-in
name, or a name under ``<data>/tokenizers/`` whose ``tokenizer.json`` is the reference's
input). The text is the 29 UDHR texts joined and repeated up to 1,000,000 code points
(the bundled 16-language sample without the data), written to a temporary file.

For each tokenizer it prints, best of :data:`REPEATS`:

- ``reference``: ``tokenizers.Tokenizer.encode`` of the whole text in this process, without
  special tokens, single-threaded (``RAYON_NUM_THREADS=1``), file already loaded;
- ``cli``: ``app.cli.main(["encode", "--file", F, "--tokenizer", T, "--format", FMT])`` in
  this process with its output going to ``/dev/null`` — everything the command does,
  loading the tokenizer included (``load``: that load alone, timed in this process);
  ``ratio`` = cli / reference (target ≤ 3), ``w/o load`` = (cli − load) / reference;
- ``peak RSS``: the same command in a fresh subprocess (its ``VmHWM``; target ≤ 400 MB).
"""

from __future__ import annotations

import os

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # before tokenizers starts its thread pool
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.cli import main as cli_main  # noqa: E402
from app.cli.common import load_tokenizer  # noqa: E402
from core.data import tokenizer_path, udhr_files, udhr_sample_dir  # noqa: E402

CHARS = 1_000_000
REPEATS = 2
FORMATS = ("table", "jsonl")


def corpus_text(chars: int = CHARS) -> str:
    """The UDHR texts joined (one after the other), repeated to ``chars`` code points."""
    sources = udhr_files() or sorted(udhr_sample_dir().glob("*.txt"))
    text = "".join(p.read_text(encoding="utf-8") for p in sources)
    return (text * (chars // len(text) + 1))[:chars]


def reference(name: str):
    """The ``tokenizers`` tokenizer of the shared data's ``<name>/tokenizer.json``, or None."""
    import tokenizers

    path = tokenizer_path(name) / "tokenizer.json"
    return tokenizers.Tokenizer.from_file(str(path)) if path.is_file() else None


def best(fn, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def run_cli(args: list[str]) -> None:
    saved = sys.stdout
    with open(os.devnull, "w", encoding="utf-8") as sink:
        sys.stdout = sink
        try:
            code = cli_main(args)
        finally:
            sys.stdout = saved
    if code:
        raise SystemExit(f"encode exited {code}")


_CHILD = """
import sys
from app.__main__ import main
code = main(sys.argv[1:])
status = open("/proc/self/status").read()
print(int(status.split("VmHWM:")[1].split()[0]), file=sys.stderr)
sys.exit(code)
"""


def peak_rss_mb(args: list[str]) -> float:
    """Peak resident memory (``VmHWM``, which a fork's copy of this process does not
    inflate) of the command in a fresh process, in MB."""
    done = subprocess.run([sys.executable, "-c", _CHILD, *args], cwd=ROOT, check=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(done.stderr.split()[-1]) / 1024


def main(names: list[str]) -> int:
    text = corpus_text()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.txt"
        path.write_text(text, encoding="utf-8")
        print(f"{len(text):,} code points, {path.stat().st_size:,} bytes")
        for name in names or ["gpt2"]:
            ref = reference(name)
            ref_time = best(lambda: ref.encode(text, add_special_tokens=False)) if ref else None
            load_time = best(lambda: load_tokenizer(name))
            for fmt in FORMATS:
                args = ["encode", "--file", str(path), "--tokenizer", name, "--format", fmt]
                cli_time = best(lambda: run_cli(args))
                rss = peak_rss_mb(args)
                ratio = f"{cli_time / ref_time:.2f}" if ref_time else "n/a"
                bare = f"{(cli_time - load_time) / ref_time:.2f}" if ref_time else "n/a"
                ref_text = f"{ref_time:.2f} s" if ref_time else "n/a"
                print(f"{name:<8} {fmt:<6} reference {ref_text:>8}  cli {cli_time:6.2f} s (load "
                      f"{load_time:4.2f} s)  ratio {ratio:>5}, w/o load {bare:>5} (target <= 3)  "
                      f"peak RSS {rss:4.0f} MB (target <= 400)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
