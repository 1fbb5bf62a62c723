"""GUI figures of the alignment pane (issue 2): keystroke-to-repaint latency and peak memory.

Prints
- the median time from a keystroke (``QTest.keyClick`` into the text editor) to the pane
  having repainted with the new tokens, for a 10,000-character multilingual UDHR text
  (target ≤ 50 ms), next to the bare ``core`` encode time of the same text in the same
  process (the ratio is the pane's overhead);
- the app's peak resident memory (``ru_maxrss``) with the BERT tokenizer and a
  100,000-character text loaded (target ≤ 300 MB).

Run: ``QT_QPA_PLATFORM=offscreen python benchmarks/gui_latency.py [--repeats N]``.
Uses ``tokenizers/bert-base-uncased`` from the shared data when present, else the demo.
The peak-memory figure is only meaningful in a fresh process (run this script alone).
The app's settings go to a fresh temporary folder (deleted on exit), whatever
``SUBWORDSCOPE_CONFIG_DIR`` says: the run never reads or changes a user's settings.
"""

from __future__ import annotations

import argparse
import atexit
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Before anything imports the app: its settings live in a temporary folder.
CONFIG_DIR = tempfile.mkdtemp(prefix="subwordscope-bench-")
atexit.register(shutil.rmtree, CONFIG_DIR, ignore_errors=True)
os.environ["SUBWORDSCOPE_CONFIG_DIR"] = CONFIG_DIR
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LANGS = ("eng", "fra", "deu_1996", "rus", "cmn_hans", "hin", "arb", "tur")


def sample_text(data: Path, n: int) -> str:
    """``n`` characters cycling through several UDHR languages (same text every run)."""
    parts = [(data / "udhr" / f"{lang}.txt").read_text(encoding="utf-8") for lang in LANGS]
    chunk = max(1, n // len(parts))
    text = "".join(p[:chunk] + "\n" for p in parts)
    while len(text) < n:
        text += text
    return text[:n]


def rss_mb() -> float:
    """Peak resident memory of this process so far, MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def wait_for(app, pane, predicate, timeout: float = 120.0) -> None:
    end = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > end:
            raise TimeoutError("the pane did not show the new tokens in time")
        app.processEvents()


def settle(app, seconds: float = 2.0) -> None:
    """Let the other panes finish what a new tokenizer started (workers, then their plots)."""
    from PySide6.QtCore import QThreadPool

    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        QThreadPool.globalInstance().waitForDone()
        app.processEvents()


class EncodingWaiter:
    """Blocks in Qt's event loop (not a Python busy loop, which would starve the worker of
    the GIL) until the pane has shown a new tokenization. Built once and armed before the
    keystroke, so no waiting machinery is created while the worker computes."""

    def __init__(self, pane, timeout_ms: int = 120_000):
        from PySide6.QtCore import QEventLoop, QTimer

        self.loop = QEventLoop()
        self.timeout = QTimer(singleShot=True, interval=timeout_ms)
        self.timeout.timeout.connect(self.loop.quit)
        pane.sig_encoding_changed.connect(self.loop.quit)

    def arm(self) -> None:
        self.timeout.start()

    def wait(self) -> None:
        self.loop.exec()

    def disarm(self) -> None:
        self.timeout.stop()


def keystroke_latency(app, pane, repeats: int) -> list[float]:
    """Seconds from each keystroke to the repainted pane showing the edited text's tokens."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest

    editor = pane.w.editor
    editor.setFocus()
    waiter = EncodingWaiter(pane)
    times = []
    for i in range(repeats):
        editor.moveCursor(QTextCursor.MoveOperation.End)
        wait_for(app, pane, lambda: not pane._timer.isActive() and not pane._runner.busy)
        key = Qt.Key.Key_Backspace if i % 2 else Qt.Key.Key_X
        waiter.arm()
        start = time.perf_counter()
        QTest.keyClick(editor, key)
        if pane.result is None or pane.result.text != pane.state.text:
            waiter.wait()
        app.processEvents()  # the span views format the visible text on a zero-delay timer
        pane.repaint()
        times.append(time.perf_counter() - start)
        waiter.disarm()
        if pane.result.text != pane.state.text:
            raise RuntimeError("the pane did not show the edited text")
    return times


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=21)
    args = p.parse_args(argv)

    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow
    from core.data import data_dir

    app = QApplication.instance() or QApplication(sys.argv[:1])
    out: dict[str, float] = {"start_rss_mb": rss_mb()}
    window = MainWindow()
    window.resize(1400, 900)
    window.show()
    window.show_pane("alignment")
    pane = window.panes["alignment"]
    if os.environ.get("SYNC_LIMIT"):
        pane.sync_limit = int(os.environ["SYNC_LIMIT"])
    pane.w.mode.setCurrentIndex(pane.w.mode.findData("tokenize"))
    data = data_dir()
    bert_path = data / "tokenizers" / "bert-base-uncased" / "tokenizer.json"
    if bert_path.exists():
        window.load_tokenizer(str(bert_path), wait=True)
        name = "bert-base-uncased"
    else:
        name = "demo (shared data not found)"
    tokenizer = pane._tokenizer or pane._demo
    settle(app)
    out["window_rss_mb"] = rss_mb()

    text = sample_text(data, 10_000)
    pane.set_text(text)
    wait_for(app, pane, lambda: pane.result is not None and pane.result.text == text)
    settle(app, 1.0)
    core_times = []
    for _ in range(5):
        t = time.perf_counter()
        tokenizer.encode(text)
        core_times.append(time.perf_counter() - t)
    lat = keystroke_latency(app, pane, args.repeats)
    out["latency_ms"] = 1000 * statistics.median(lat)
    out["core_encode_ms"] = 1000 * statistics.median(core_times)
    print(f"tokenizer: {name}; {len(pane.result.tokens):,} tokens for 10,000 characters")
    print(f"keystroke -> repaint, median of {len(lat)}: {out['latency_ms']:.1f} ms "
          f"(target <= 50 ms; min {1000 * min(lat):.1f}, max {1000 * max(lat):.1f})")
    print(f"core encode of the same text: {out['core_encode_ms']:.1f} ms; "
          f"pane / core = {out['latency_ms'] / out['core_encode_ms']:.2f}")

    big = sample_text(data, 100_000)
    t = time.perf_counter()
    pane.set_text(big)
    wait_for(app, pane, lambda: pane.result is not None and pane.result.text == big)
    pane.repaint()
    out["load_100k_s"] = time.perf_counter() - t
    out["peak_rss_mb"] = rss_mb()
    print(f"100,000 characters: {len(pane.result.tokens):,} tokens, shown in {out['load_100k_s']:.2f} s")
    print(f"peak resident memory with {name} and 100,000 characters: "
          f"{out['peak_rss_mb']:.0f} MB (target <= 300 MB); after imports {out['start_rss_mb']:.0f} MB, "
          f"with every pane built and the tokenizer loaded {out['window_rss_mb']:.0f} MB")
    window.close()
    return out


if __name__ == "__main__":
    main()
