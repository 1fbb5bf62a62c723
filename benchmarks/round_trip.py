"""Round trip (``core.align.round_trip``): cost against encoding, and growth with the text.

Run: ``SUBWORDSCOPE_DATA=../shared/data .venv/bin/python benchmarks/round_trip.py``.

1. Per shared tokenizer, over the 29 UDHR texts (whole files): seconds of ``round_trip``
   (alignment + causes, decode excluded) over seconds of ``encode`` in the same process —
   the best of 3 runs each.
2. Growth: ``round_trip`` of BERT-uncased on the French text repeated 1, 2, 4 and 8 times
   (about 12k to 95k code points), as a ratio to the single text; a linear walk doubles.
   ``difflib.SequenceMatcher`` (no autojunk) on the normalized and decoded texts of the first
   two sizes for comparison: its longest-match search is quadratic.
3. The languages × tokenizers table (every line, 4 tokenizers × 29 languages) with the
   round-trip metric over the same table without it.
"""

from __future__ import annotations

import difflib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.align.round_trip import round_trip  # noqa: E402
from core.data import data_dir  # noqa: E402
from core.metrics import compare_table, load_corpus  # noqa: E402
from core.metrics import table as table_module  # noqa: E402
from core.tokenizers import load  # noqa: E402

DIFFLIB_UP_TO = 2  # repetitions of the text difflib is timed on
SHARED = {"bert": "bert-base-uncased/tokenizer.json", "gpt2": "gpt2/tokenizer.json",
          "pegasus": "pegasus-unigram/tokenizer.json", "cl100k": "cl100k_base/cl100k_base.tiktoken"}


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def inputs(tok, text):
    enc = tok.encode(text)
    spans = [s for s, u in zip(enc.offsets, enc.unknown_mask) if u]
    return enc, tok.decode(enc.ids), spans


def per_tokenizer(toks, texts) -> None:
    print("1. round_trip / encode, 29 whole UDHR texts (best of 3)")
    for name, tok in toks.items():
        prepared = [(text, *inputs(tok, text)) for text in texts]
        t_enc = best(lambda: [tok.encode(text) for text in texts])
        t_rt = best(lambda: [round_trip(text, enc.normalized, dec, unknown_spans=spans)
                             for text, enc, dec, spans in prepared])
        print(f"   {name:8} encode {t_enc:6.2f} s   round_trip {t_rt:6.2f} s   ratio {t_rt / t_enc:5.2f}", flush=True)


def growth(tok, text) -> None:
    print("2. growth with the text (BERT-uncased, French repeated k times; ratio to k = 1)")
    base_rt = base_dl = None
    for k in (1, 2, 4, 8):
        long = "\n".join([text] * k)
        enc, dec, spans = inputs(tok, long)
        t_rt = best(lambda: round_trip(long, enc.normalized, dec, unknown_spans=spans), 2)
        base_rt = base_rt or t_rt
        line = f"   k={k}  {len(long):6} code points   round_trip ×{t_rt / base_rt:5.2f} ({t_rt:5.2f} s)"
        if k <= DIFFLIB_UP_TO:  # beyond, difflib alone takes minutes
            t_dl = best(lambda: difflib.SequenceMatcher(None, enc.normalized.text, dec, autojunk=False).get_opcodes(), 1)
            base_dl = base_dl or t_dl
            line += f"   difflib ×{t_dl / base_dl:6.2f} ({t_dl:6.2f} s)"
        print(line, flush=True)


def table_cost(toks, folder) -> None:
    corpus = load_corpus(folder)
    names = list(toks)
    t_with = best(lambda: compare_table(list(toks.values()), corpus, names=names), 1)
    original = table_module.file_cell
    table_module.file_cell = lambda *a, **kw: original(*a[:3], round_trip=False)
    try:
        t_without = best(lambda: compare_table(list(toks.values()), corpus, names=names), 1)
    finally:
        table_module.file_cell = original
    print(f"3. compare_table, 4 tokenizers × 29 languages: {t_with:.1f} s with the round trip, "
          f"{t_without:.1f} s without (ratio {t_with / t_without:.2f})")


def main() -> None:
    root = data_dir()
    toks = {name: load(str(root / "tokenizers" / rel)) for name, rel in SHARED.items()}
    files = sorted((root / "udhr").glob("*.txt"))
    texts = [f.read_text(encoding="utf-8") for f in files]
    per_tokenizer(toks, texts)
    growth(toks["bert"], (root / "udhr" / "fra.txt").read_text(encoding="utf-8"))
    table_cost(toks, root / "udhr")


if __name__ == "__main__":
    main()
