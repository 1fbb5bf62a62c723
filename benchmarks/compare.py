"""Full languages × tokenizers table from a cold start: load + encode + metrics, in seconds.

Run: ``/tmp/venv/bin/python benchmarks/compare.py`` (from the repository root);
``benchmarks/compare.py atlas`` times the whole UDHR collection instead (:func:`atlas`). Tokenizers
are loaded through ``core.tokenizers.load`` where it can read the file; a file it cannot yet
read falls back to the reference library (``tokenizers`` / ``tiktoken``) and is marked "ref".
A second run with every tokenizer through the reference libraries gives the ratio (and must
give the same value for every metric of ``METRICS``, the unknown shares and unknown-adjusted
costs included). Prints the headline: the highest and lowest premium per tokenizer relative to
English among the languages it leaves under 1 % of the characters unknown
(``core.metrics.extremes``), and the raw lowest it would claim otherwise.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir  # noqa: E402
from core.metrics import METRICS, UNKNOWN_LIMIT, compare_table, extremes, load_corpus  # noqa: E402
from tests.reference_adapters import SHARED, reference_tokenizer  # noqa: E402


def load_core(path: Path):
    """A core tokenizer, or None with the reason when core cannot load it yet."""
    try:
        from core.tokenizers import load
    except ImportError as exc:
        return None, f"core.tokenizers.load unavailable ({exc})"
    try:
        return load(str(path)), ""
    except Exception as exc:  # a benchmark reports every failure, it never stops on one
        return None, f"{type(exc).__name__}: {exc}"


class Timed:
    """Wraps a tokenizer and adds up the seconds spent in ``encode``."""

    def __init__(self, tok):
        self.tok, self.seconds = tok, 0.0
        self.name, self.unk_token = tok.name, getattr(tok, "unk_token", None)

    def token_to_id(self, token):
        return self.tok.token_to_id(token)

    def encode(self, text):
        t = time.perf_counter()
        out = self.tok.encode(text)
        self.seconds += time.perf_counter() - t
        return out


def run(use_core: bool) -> tuple[float, object, list[str]]:
    t0 = time.perf_counter()
    corpus = load_corpus(data_dir() / "udhr")
    toks, how = [], []
    for name, rel in SHARED.items():
        tok, why = load_core(data_dir() / "tokenizers" / rel) if use_core else (None, "reference run")
        if tok is None:
            tok = reference_tokenizer(data_dir(), name)
            how.append(f"{name}: ref ({why})")
        else:
            how.append(f"{name}: core")
        toks.append(Timed(tok))
    t1 = time.perf_counter()
    table = compare_table(toks, corpus, names=list(SHARED), reference="eng")
    total = time.perf_counter() - t0
    encode = sum(t.seconds for t in toks)
    how.append(f"split: corpus + tokenizer loading {t1 - t0:.2f} s, encode {encode:.2f} s "
               f"({', '.join(f'{n} {t.seconds:.2f}' for n, t in zip(SHARED, toks))}), "
               f"metrics {total - (t1 - t0) - encode:.2f} s")
    return total, table, how


def headline(table) -> list[str]:
    """Highest and lowest premium per tokenizer (English itself left out) among languages with
    under 1 % of the characters inside unknown tokens: a low premium bought with [UNK] tokens
    is lost text, not efficiency. Where the raw lowest is such a cell, it is named beside."""
    prem, unk = table.values("premium"), table.values("unknown_share")
    adj = table.values("adjusted_premium")
    others = [i for i, code in enumerate(table.languages) if code != table.reference]
    lines = []
    for j, e in enumerate(extremes(table, "premium")):
        if e.cheapest is None:
            lines.append(f"  {e.tokenizer:18s} no language with < {UNKNOWN_LIMIT:.0%} unknown")
            continue
        hi, lo = e.dearest, e.cheapest
        lines.append(f"  {e.tokenizer:18s} highest {table.languages[hi]:14s} {prem[hi, j]:6.2f}x (unk {unk[hi, j]:.1%})"
                     f"   lowest with < {UNKNOWN_LIMIT:.0%} unknown {table.languages[lo]:9s} {prem[lo, j]:5.2f}x"
                     f" (unk {unk[lo, j]:.2%})")
        raw = others[int(np.nanargmin(prem[others, j]))]
        if raw != lo:
            lines.append(f"  {'':18s} not ranked: {len(e.excluded)} languages over {UNKNOWN_LIMIT:.0%} unknown, e.g. "
                         f"{table.languages[raw]} {prem[raw, j]:.2f}x raw with {unk[raw, j]:.1%} of its characters "
                         f"unknown ({adj[raw, j]:.2f}x unknown-adjusted)")
    return lines


ATLAS_FILES = ("llama-3", "gemma-3", "qwen3", "gpt-4o", "bert-base-uncased", "gpt2", "pegasus-unigram")


def atlas() -> None:
    """The whole UDHR collection × the 7 shared tokenizer.json files on two processes, with an
    empty disk cache (cold), then reopened from the cache, then with one more column (the
    seventh file added to the first six cached); then the Compare pane reopened on that cache
    in a fresh process (:func:`pane_reopen`)."""
    import os
    import subprocess
    import tempfile

    from core.metrics.atlas import CellStore, atlas_table, collection_corpus, collection_languages
    from core.metrics.fairness import fairness

    paths = [str(data_dir() / "tokenizers" / name / "tokenizer.json") for name in ATLAS_FILES]
    with tempfile.TemporaryDirectory() as tmp:
        store = CellStore(Path(tmp) / "atlas")  # where the pane's default store is under this cache folder
        t0 = time.perf_counter()
        corpus = collection_corpus()
        collection_languages(corpus, store)
        table = atlas_table(paths[:-1], corpus, names=ATLAS_FILES[:-1], jobs=2, store=store)
        six = time.perf_counter() - t0
        t0 = time.perf_counter()
        table = atlas_table(paths, corpus, names=ATLAS_FILES, jobs=2, store=store)
        one = time.perf_counter() - t0
        t0 = time.perf_counter()
        corpus = collection_corpus()
        collection_languages(corpus, store)
        table = atlas_table(paths, corpus, names=ATLAS_FILES, jobs=2, store=store)
        reopen = time.perf_counter() - t0
        env = {**os.environ, "SUBWORDSCOPE_CACHE_DIR": tmp, "SUBWORDSCOPE_CONFIG_DIR": tmp,
               "QT_QPA_PLATFORM": "offscreen"}
        out = subprocess.run([sys.executable, __file__, "atlas-pane", *paths], env=env, capture_output=True,
                             text=True, timeout=600)
        pane = out.stdout.strip() or f"failed: {out.stderr.strip()[-500:]}"
    n = len(table.languages)
    print(f"atlas {n} texts x {len(paths)} tokenizer.json files, 2 processes (under load)")
    print(f"  cold, 6 columns: {six:.1f} s; + 1 column: {one:.1f} s; cold full atlas ~ {six + one:.1f} s (target <= 120)")
    print(f"  reopen from the disk cache (collection read + cache + table): {reopen:.2f} s (target <= 2)")
    print(f"  pane reopen from a fresh process (offscreen; pane start to the full atlas shown): {pane}")
    for f in fairness(table):
        worst = ", ".join(f"{table.languages[i]} {p:.1f}" for i, p in f.worst[:5])
        print(f"  {f.tokenizer:18s} median premium {f.median_premium:.2f}  Gini {f.gini:.3f}  "
              f">2x {f.over_2x:.0%}  >4x {f.over_4x:.0%}  ({len(f.excluded)} excluded)  worst: {worst}")


def pane_reopen(paths: list[str]) -> None:
    """Run in a fresh process by :func:`atlas`: the Compare pane on the UDHR collection with
    ``paths`` (cells cached), offscreen; prints the seconds from the pane's construction to the
    whole atlas in its Atlas tab."""
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.panes.compare import ComparePane
    from app.settings import open_settings, set_json
    from core.collection import COLLECTION, languages

    app = QApplication.instance() or QApplication([])
    settings = open_settings()
    settings.setValue("compare/corpus_folder", COLLECTION)
    set_json(settings, "compare/tokenizer_paths", [[Path(p).parent.name, p] for p in paths])
    t0 = time.perf_counter()
    pane = ComparePane(settings)
    pane.resize(1280, 720)
    pane.tabs.setCurrentWidget(pane.atlas_tab)
    pane.show()
    loop = QEventLoop()
    pane.sig_result_changed.connect(loop.quit)
    QTimer.singleShot(300_000, loop.quit)
    loop.exec()
    app.processEvents()
    shown = time.perf_counter() - t0
    model = pane.atlas_tab.table.model()
    full = model.rowCount() == len(languages()) and model.columnCount() == 2 + len(paths)
    print(f"{shown:.2f} s (target <= 2){'' if full else ' — NOT the full atlas'}")


def main() -> None:
    if sys.argv[1:] == ["atlas"]:
        atlas()
        return
    if sys.argv[1:2] == ["atlas-pane"]:
        pane_reopen(sys.argv[2:])
        return
    secs, table, how = run(use_core=True)
    ref_secs, ref_table, ref_how = run(use_core=False)
    n_l, n_t = len(table.languages), len(table.tokenizers)
    print(f"compare table {n_l} languages x {n_t} tokenizers, cold start (load + encode + metrics)")
    for line in how:
        print("  " + line)
    print(f"seconds: {secs:.2f} (target <= 10)")
    print(f"reference-library run: {ref_secs:.2f} s; ratio {secs / ref_secs:.2f}x")
    print("  " + ref_how[-1])
    differ = [m for m in METRICS if not np.allclose(table.values(m), ref_table.values(m), equal_nan=True)]
    print(f"every metric equal to the reference-library run: {not differ}" + (f" (differ: {', '.join(differ)})" if differ else ""))
    print("premium vs English (tokens on the same UDHR content):")
    print("\n".join(headline(table)))


if __name__ == "__main__":
    main()
