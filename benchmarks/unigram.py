"""Unigram encode speed and memory (issue 12): a SentencePiece ``.model`` and Pegasus.

Rows, each core against its reference library in the same process (single-threaded):

- ``spm .model``: a Unigram SentencePiece model (8,000 pieces, byte fallback) trained here on
  all UDHR texts with the ``sentencepiece`` trainer, through
  :class:`core.tokenizers.formats.sentencepiece.SentencePieceTokenizer` against
  ``SentencePieceProcessor.encode(..., out_type="immutable_proto")`` (pieces with offsets);
- ``pegasus``: ``pegasus-unigram/tokenizer.json`` through ``core.tokenizers.load`` against
  ``tokenizers.Tokenizer.encode``.

For 10,000 and 1,000,000 characters of multilingual UDHR text (the ``gui_latency`` sample:
eight languages cycled), it prints core's time, the reference's, their ratio (median of
``--repeat`` interleaved runs; "cold" is a fresh core tokenizer, "warm" the same one again,
"key" the warm tokenizer on the text with one character appended, as a keystroke does) and
whether ids and offsets are equal to the reference's. Then, per row, the peak resident
memory of one 1M encode in a fresh process (``VmHWM``), in MB above the resident size
before the call (the tokenizer loaded, the text built).

Run: ``SUBWORDSCOPE_DATA=../shared/data .venv/bin/python benchmarks/unigram.py
[--repeat N] [--no-1m]``.
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before the reference library is imported
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import io  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.data import data_dir  # noqa: E402

LANGS = ("eng", "fra", "deu_1996", "rus", "cmn_hans", "hin", "arb", "tur")
PEGASUS = "tokenizers/pegasus-unigram/tokenizer.json"


def sample_text(n: int) -> str:
    """``n`` characters cycling through eight UDHR languages (same text every run)."""
    parts = [(data_dir() / "udhr" / f"{lang}.txt").read_text(encoding="utf-8") for lang in LANGS]
    chunk = max(1, n // len(parts))
    text = "".join(p[:chunk] + "\n" for p in parts)
    while len(text) < n:
        text += text
    return text[:n]


def train_model(folder: str) -> str:
    """Path of a Unigram ``.model`` (8,000 pieces, byte fallback) of all UDHR texts."""
    import sentencepiece as spm

    lines = [line for f in sorted((data_dir() / "udhr").glob("*.txt"))
             for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=out,
                                   model_type="unigram", vocab_size=8000, byte_fallback=True,
                                   character_coverage=0.9995, minloglevel=2, num_threads=1)
    path = os.path.join(folder, "udhr-unigram.model")
    Path(path).write_bytes(out.getvalue())
    return path


def core_encoder(row: str, model: str):
    """``encode(text) -> (ids, offsets)`` of a fresh core tokenizer."""
    from core.tokenizers import load

    tok = load(model if row == "spm" else data_dir() / PEGASUS)

    def encode(text):
        enc = tok.encode(text)
        return enc.ids, enc.offsets
    return encode


def reference_encoder(row: str, model: str):
    """``encode(text) -> result`` of the reference library (timed) and ``convert(text,
    result) -> (ids, offsets)`` with code-point offsets (not timed)."""
    if row == "spm":
        import sentencepiece as spm

        sp = spm.SentencePieceProcessor(model_file=model)

        def convert(text, pieces):
            at = _byte_to_char(text)
            return [p.id for p in pieces], [(at[p.begin], at[p.end]) for p in pieces]
        return (lambda text: sp.encode(text, out_type="proto").pieces), convert
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(str(data_dir() / PEGASUS))
    tok.no_truncation()
    tok.no_padding()
    # no </s>: core's encode adds no special tokens unless asked (the same call on both sides)
    return (lambda text: tok.encode(text, add_special_tokens=False),
            lambda text, enc: (enc.ids, enc.offsets))


def _byte_to_char(text: str) -> dict[int, int]:
    """UTF-8 byte offset -> code-point offset, for every character boundary."""
    out, pos = {}, 0
    for i, c in enumerate(text):
        out[pos] = i
        pos += len(c.encode("utf-8", "surrogatepass"))
    out[pos] = len(text)
    return out


def timed(fn, *args) -> tuple[float, object]:
    t0 = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - t0, result


def speed_rows(row: str, model: str, n: int, repeat: int) -> None:
    """Print cold / warm / key figures of one row at ``n`` characters."""
    text = sample_text(n)
    ref, convert = reference_encoder(row, model)
    figures: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": [], "key": []}
    equal = True
    for _ in range(repeat):
        core = core_encoder(row, model)
        for kind, t in (("cold", text), ("warm", text), ("key", text + "x")):
            tc, got = timed(core, t)
            tr, want = timed(ref, t)
            figures[kind].append((tc, tr))
            equal = equal and got == convert(t, want)
    for kind, pairs in figures.items():
        tc = statistics.median(p[0] for p in pairs)
        tr = statistics.median(p[1] for p in pairs)
        print(f"{row:8} {n:>9,} {kind:5} core {tc * 1000:9.1f} ms  ref {tr * 1000:7.1f} ms  "
              f"ratio {tc / tr:7.1f}  equal {equal}")


# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across exec.
_PEAK = """
import sys, time
sys.path.insert(0, sys.argv[1])
from benchmarks.unigram import core_encoder, sample_text
text = sample_text(int(sys.argv[4]))
encode = core_encoder(sys.argv[2], sys.argv[3])
def status(key):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(key)) / 1024
before = status("VmRSS")
t0 = time.perf_counter()
result = encode(text)
t = time.perf_counter() - t0
print(t, status("VmHWM") - before)
"""


def peak(row: str, model: str, n: int, repo: Path = REPO) -> None:
    """Print the seconds and peak extra resident MB of one cold ``n``-character encode,
    in a fresh process importing ``core`` from ``repo``."""
    out = subprocess.run([sys.executable, "-c", _PEAK, str(repo), row, model, str(n)],
                         capture_output=True, text=True, check=True).stdout.split()
    print(f"{row:8} {n:>9,} fresh process: {float(out[0]):6.2f} s, peak +{float(out[1]):6.0f} MB resident")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-1m", action="store_true", help="skip the 1,000,000-character rows")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        model = train_model(folder)
        for row in ("spm", "pegasus"):
            speed_rows(row, model, 10_000, max(args.repeat, 3))
            if not args.no_1m:
                speed_rows(row, model, 1_000_000, 1)
                peak(row, model, 1_000_000)


if __name__ == "__main__":
    main()
