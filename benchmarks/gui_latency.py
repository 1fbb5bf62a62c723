"""GUI figures of the alignment pane (issues 2, 11, 12), per tokenizer: keystroke latency,
the longest GUI stall while pasting, and peak memory.

Prints, for BERT, GPT-2, cl100k, Pegasus (tokenizer.json) and a SentencePiece ``.model``
(trained here on the UDHR texts with the ``sentencepiece`` library):

- ``keys 10k``: the median time from a keystroke (``QTest.keyClick`` at the end of the
  editor's 10,000-character multilingual UDHR text) to the final repaint: the pane holds
  the new tokens, its span views have prepared them, and Qt has painted and flushed the
  window (target ≤ 30 ms, issue 24; see :func:`run_loop`); the GUI thread's CPU time of it
  (``gui cpu``: key handling, rendering, painting; the rest is the worker's computation
  and waiting for a CPU), and the bare ``core`` encode time of the same text (the worker
  also derives offsets and audits the spans, so it takes longer than ``core``); ``@start``:
  the median of the same keystrokes typed at the start of the text, where the span views
  and the table show the new tokens (their repaint, Qt's layout of the edited paragraph
  and the table's new cells are then part of it; at the end they are off screen);
- ``emoji 2k stall``: the longest GUI stall while typing into 2,000 emoji (issue 12: the old
  on-GUI-thread path froze 1.9 s with GPT-2);
- ``stall 100k`` / ``stall 1M``: the longest GUI stall from pasting 100,000 / 1,000,000
  characters until their tokens are drawn (targets: none over 100 ms / 200 ms), and how
  long the result took to appear;
- ``a/b/real``: paste 100k "a", then 100k "b", then a short real text: seconds until the
  real text's tokens appear (issue 12: 256 s when cancelled work filled the pool);
- ``peak MB``: the process's peak resident memory once the 1M paste is shown (target ≤ 500);
- ``marks st`` / ``marks key``: the longest stall pasting "e" and 10,000 × U+0301 (one
  grapheme cluster, thousands of tokens inside it; issue 30: 10.6–15 s), the median
  keystroke latency typed after it, and ``mk@start`` typed before it (the new tokens, the
  table's first rows and the cluster's neighbourhood then on screen) (targets: ≤ 100 ms /
  ≤ 50 ms / ≤ 50 ms);
- ``line1M st``: the longest stall pasting one line of 1,000,000 hex digits with no space
  (issue 30: 20.7 s; target ≤ 200 ms), and ``zwj1M st`` the same for one line of
  1,000,000 code points of family emoji (a ZWJ sequence of 7 code points, several tokens
  inside each: the attack's worst long line); with ``--no-1m`` both skipped;
- the start with a 2,000,000-character line restored from ``state.json`` (a fresh process
  per start, its own temporary ``SUBWORDSCOPE_CONFIG_DIR``): seconds until the window is
  shown and painted, minus the same start with a short text (issue 30: 140 s; target: a
  delay ≤ 2 s), and how long after that paint the line is in the editor (Qt's document and
  layout of it: the pane fills the editor with a long restored text once it has painted);
- File ▸ Open from Cache with 20,000 cached models (fake ones, in a temporary folder): the
  longest GUI stall from opening the menu until it lists them (issue 12: a 7 s freeze).

A stall is the largest gap between the ticks of a ``QTimer`` asked to tick every 10 ms (so
10 ms means no stall); ``stall`` is measured over keystrokes of their own, since the meter's
ticks take the interpreter from the worker. Nothing polls while a latency is measured: the
wait ends on the signals that can end it (:func:`run_loop`), so the figure is what a user
waits for, without load the benchmark adds. Each tokenizer runs in a fresh process (peak
memory is per process); once its tokenizer is loaded, the figures wait until no worker of
the window runs (:func:`settle`: the other panes' work at start is not the Alignment
pane's, and took the CPU from the first figures of earlier runs). On a busy machine every figure grows with the load (the worker
and the GUI thread wait for a CPU): compare ``gui cpu`` and runs made at the same time.

Run: ``QT_QPA_PLATFORM=offscreen python benchmarks/gui_latency.py [--repeats N]
[--tokenizers bert,gpt2,...] [--no-1m] [--no-start]`` (``--tokenizers`` also takes llama3,
gemma3, qwen3 and gpt4o). Settings go to a fresh temporary folder (deleted on
exit): the run never reads or changes a user's settings.
"""

from __future__ import annotations

import argparse
import atexit
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG_DIR = tempfile.mkdtemp(prefix="subwordscope-bench-")  # before anything imports the app
atexit.register(shutil.rmtree, CONFIG_DIR, ignore_errors=True)
os.environ["SUBWORDSCOPE_CONFIG_DIR"] = CONFIG_DIR
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

LANGS = ("eng", "fra", "deu_1996", "rus", "cmn_hans", "hin", "arb", "tur")
TOKENIZERS = {
    "bert": "tokenizers/bert-base-uncased/tokenizer.json",
    "gpt2": "tokenizers/gpt2/tokenizer.json",
    "cl100k": "tokenizers/cl100k_base/cl100k_base.tiktoken",
    "pegasus": "tokenizers/pegasus-unigram/tokenizer.json",
    "spm": "",  # trained by train_sentencepiece()
    "llama3": "tokenizers/llama-3/tokenizer.json",  # modern ones: not in the default run (--tokenizers)
    "gemma3": "tokenizers/gemma-3/tokenizer.json",
    "qwen3": "tokenizers/qwen3/tokenizer.json",
    "gpt4o": "tokenizers/gpt-4o/tokenizer.json",
}
DEFAULT_TOKENIZERS = "bert,gpt2,cl100k,pegasus,spm"
MARKS = 10_000  # combining marks after one "e": one grapheme cluster (issue 30)
LONG_LINE = 1_000_000  # code points of one line with no space (issue 30)
FAMILY = "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"  # one emoji ZWJ sequence
RESTORED_LINE = 2_000_000  # code points of the long line restored from state.json at start


def sample_text(data: Path, n: int) -> str:
    """``n`` characters cycling through several UDHR languages (same text every run)."""
    parts = [(data / "udhr" / f"{lang}.txt").read_text(encoding="utf-8") for lang in LANGS]
    chunk = max(1, n // len(parts))
    text = "".join(p[:chunk] + "\n" for p in parts)
    while len(text) < n:
        text += text
    return text[:n]


def train_sentencepiece(data: Path, folder: str) -> str:
    """A Unigram SentencePiece ``.model`` (8,000 pieces, byte fallback) of all UDHR texts."""
    import sentencepiece as spm

    lines = [line for f in sorted((data / "udhr").glob("*.txt"))
             for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=out, model_type="unigram",
                                   vocab_size=8000, byte_fallback=True, character_coverage=0.9995,
                                   minloglevel=2, num_threads=1)
    path = os.path.join(folder, "udhr-unigram.model")
    Path(path).write_bytes(out.getvalue())
    return path


def peak_mb() -> float:
    """Peak resident memory of this process so far, MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class StallMeter:
    """The largest gap between ticks of a 10 ms ``QTimer`` (seconds) while it runs."""

    def __init__(self):
        from PySide6.QtCore import QTimer

        self.timer = QTimer(interval=10)
        self.timer.timeout.connect(self._tick)
        self.last, self.worst = 0.0, 0.0

    def start(self) -> None:
        self.last, self.worst = time.perf_counter(), 0.0
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst, self.last = max(self.worst, now - self.last), now

    def stop(self) -> float:
        self._tick()
        self.timer.stop()
        return self.worst


def run_loop(app, pane, done, timeout: float = 600.0, signals: tuple = ()) -> None:
    """Run Qt's event loop until ``done()``, then deliver the repaint Qt has pending (the
    user's final frame): nothing polls, so the worker and the GUI thread get the
    interpreter and the CPU exactly as they would for a user.

    ``done()`` is checked when one of the few signals that can change it is emitted: the
    pane's result was rendered, its worker became idle, its debounce timer fired, a span
    view put the next chunk of a long text into its document (``_fill_timer``), or one of
    ``signals`` (the caller's: what else ``done`` waits for). Once it
    holds, the span views' zero-delay redraw timers are run (they prepare what changed and
    ask for a repaint) and then the posted events are delivered, among them the window's
    ``UpdateRequest``: Qt paints the widgets marked dirty and flushes the window, the very
    frame a user would see next; nothing that did not change is repainted (an earlier
    version repainted the whole pane and polled ``done()`` with a 1 ms timer, which kept
    the GUI thread waking and taking the interpreter from the worker: both inflated the
    figure)."""
    from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer

    views = _span_views(pane)
    if not done():
        loop, expired = QEventLoop(), QTimer(singleShot=True, interval=int(timeout * 1000))
        check = lambda *_: done() and loop.quit()  # noqa: E731
        signals = [pane.sig_encoding_changed, pane._runner.sig_busy_changed, pane._timer.timeout,
                   *(v._fill_timer.timeout for v in views), *signals]
        for signal in signals:
            signal.connect(check)
        expired.timeout.connect(loop.quit)
        expired.start()
        if not done():
            loop.exec()
        expired.stop()
        for signal in signals:
            signal.disconnect(check)
    if not done():
        raise TimeoutError("the pane did not show the new tokens in time")
    for view in views:
        if view._timer.isActive():
            view.redraw_now()  # what its zero-delay timer would run on the next turn
    QCoreApplication.sendPostedEvents()  # the pending UpdateRequest: paint and flush


def _span_views(pane) -> tuple:
    """The pane's span views (original, normalized)."""
    return pane.w.original, pane.w.normalized


def shown(pane, text: str):
    """The pane shows ``text``'s tokens, and its span views hold all of the text."""
    views = _span_views(pane)
    return lambda: (pane.result is not None and pane.result.text == text and not pane.busy
                    and not any(v.filling for v in views))


def keystrokes(app, pane, repeats: int, *, stall: bool = False,
               at: str = "end") -> tuple[list[float], float, list[float]]:
    """Seconds from each keystroke to the final repaint (see :func:`run_loop`); with
    ``stall``, the longest stall meanwhile (else 0: the stall meter's 10 ms timer takes the
    interpreter from the worker 100 times a second, so latencies are measured without it);
    the GUI thread's CPU seconds of each (``time.thread_time``: the part of the latency that
    is the GUI's own work, less disturbed by other processes than the wall clock).

    Each keystroke comes once the previous burst has settled (the debounce timer expired):
    it is the leading edge of a burst, computed at once, as a user's first keystroke after
    a pause is. The keys type "x" and delete it again at the end of the text (``at="end"``:
    the span views show the start of the text, so only the status line and the table's
    row count change on screen) or at its start (``"start"``: the new tokens are on
    screen, the span views and the table repaint them)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest

    editor, meter, times, worst, cpu = pane.w.editor, StallMeter(), [], 0.0, []
    editor.setFocus()
    move, delete = ((QTextCursor.MoveOperation.End, Qt.Key.Key_Backspace) if at == "end" else
                    (QTextCursor.MoveOperation.Start, Qt.Key.Key_Delete))
    for i in range(repeats):
        editor.moveCursor(move)
        run_loop(app, pane, lambda: not pane._timer.isActive() and not pane.busy)
        if stall:
            meter.start()
        start, start_cpu = time.perf_counter(), time.thread_time()
        QTest.keyClick(editor, delete if i % 2 else Qt.Key.Key_X)
        run_loop(app, pane, shown(pane, pane.state.text))
        times.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
        if stall:
            worst = max(worst, meter.stop())
    return times, worst, cpu


def paste(app, pane, text: str) -> tuple[float, float]:
    """Paste ``text`` (it replaces the editor's text): (longest stall, seconds to shown)."""
    meter = StallMeter()
    meter.start()
    start = time.perf_counter()
    pane.set_text(text)
    run_loop(app, pane, shown(pane, text))
    return meter.stop(), time.perf_counter() - start


def measure(name: str, path: str, repeats: int, big: bool) -> dict:
    """Every figure for one tokenizer, in this process."""
    from PySide6.QtWidgets import QApplication

    from app.__main__ import open_window
    from app.main_window import MainWindow
    from core.data import data_dir

    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = open_window(MainWindow)  # as the app starts it
    window.resize(1400, 900)
    window.show()
    window.show_pane("alignment")
    pane = window.panes["alignment"]
    pane.w.mode.setCurrentIndex(pane.w.mode.findData("tokenize"))
    window.load_tokenizer(path, wait=True)
    settle(app, window)
    tokenizer = pane.tokenizer
    data = data_dir()
    out: dict = {"name": name}
    text = sample_text(data, 10_000)
    paste(app, pane, text)
    core = []
    for _ in range(5):
        t = time.perf_counter()
        tokenizer.encode(text)
        core.append(time.perf_counter() - t)
    lat, _, gui = keystrokes(app, pane, repeats)
    out["keys_stall"] = keystrokes(app, pane, 6, stall=True)[1]
    out["keys_start"] = statistics.median(keystrokes(app, pane, repeats, at="start")[0])
    out.update(keys=statistics.median(lat), keys_max=max(lat), core=statistics.median(core),
               keys_gui=statistics.median(gui))
    paste(app, pane, "\U0001F600" * 2000)
    out["emoji_stall"] = keystrokes(app, pane, 5, stall=True)[1]
    out["marks_stall"] = paste(app, pane, "e" + "\u0301" * MARKS)[0]
    out["marks_keys"] = statistics.median(keystrokes(app, pane, min(repeats, 9))[0])
    out["marks_keys_start"] = statistics.median(keystrokes(app, pane, min(repeats, 9), at="start")[0])
    out["stall_100k"], out["shown_100k"] = paste(app, pane, sample_text(data, 100_000))
    start = time.perf_counter()
    pane.set_text("a" * 100_000)
    pane.set_text("b" * 100_000)
    paste(app, pane, "Everyone has the right to life.")
    out["abreal"] = time.perf_counter() - start
    if big:
        out["stall_1m"], out["shown_1m"] = paste(app, pane, sample_text(data, 1_000_000))
        out["tokens_1m"] = len(pane.result.tokens)
    out["peak_mb"] = peak_mb()  # of the 1M paste: before the long line's own result
    if big:
        out["line_stall"] = paste(app, pane, hex_line(LONG_LINE))[0]
        paste(app, pane, "Everyone has the right to life.")
        out["zwj_stall"] = paste(app, pane, (FAMILY * (LONG_LINE // len(FAMILY) + 1))[:LONG_LINE])[0]
    window.close()
    return out


def settle(app, window, timeout: float = 300.0) -> None:
    """Run the event loop until no worker of the window runs: the other panes compute at
    start (Pooling encodes its sentences with the encoder found on disk, 3–6 s on two
    cores), and the figures are the Alignment pane's own (polled every 50 ms; nothing is
    measured meanwhile)."""
    from PySide6.QtCore import QEventLoop, QTimer

    from app.workers import TaskRunner

    runners = window.findChildren(TaskRunner)
    deadline = time.perf_counter() + timeout
    while any(r.running for r in runners) and time.perf_counter() < deadline:
        loop = QEventLoop()
        QTimer.singleShot(50, loop.quit)
        loop.exec()


def hex_line(n: int) -> str:
    """One line of ``n`` hex digits (no space, no line break; the same every run)."""
    digits = "".join("0123456789abcdef"[(i * i * 7919 + i) % 16] for i in range(65_536))
    return (digits * (n // len(digits) + 1))[:n]


START_SCRIPT = """
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {repo!r})
from PySide6.QtWidgets import QApplication
from app.main_window import MainWindow
app = QApplication(sys.argv[:1])
window = MainWindow()
window.resize(1400, 900)
window.show()
app.processEvents()
window.repaint()
shown = time.perf_counter() - t0
editor = window.panes["alignment"].w.editor
while editor.document().characterCount() <= 1 and time.perf_counter() - t0 < 600:
    app.processEvents()  # a long restored text goes into the editor after the first paint
    time.sleep(0.001)
print(shown, time.perf_counter() - t0)
window.shutdown()
"""


def start_seconds(text: str) -> tuple[float, float]:
    """Seconds from a fresh process's first line to its first painted window, and to the
    editor holding the text, with ``text`` saved as the Alignment pane's text in a temporary
    ``SUBWORDSCOPE_CONFIG_DIR``."""
    folder = tempfile.mkdtemp(prefix="subwordscope-start-", dir=CONFIG_DIR)
    state = {"alignment/state": {"text": text, "mode": "tokenize"}}
    Path(folder, "state.json").write_text(json.dumps(state), encoding="utf-8")
    env = dict(os.environ, SUBWORDSCOPE_CONFIG_DIR=folder, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", START_SCRIPT.format(repo=str(REPO))], env=env,
                          capture_output=True, text=True, timeout=1200)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode or not lines:
        raise RuntimeError(done.stderr.strip().splitlines()[-1:] or "the start failed")
    shown, filled = map(float, lines[-1].split())
    return shown, filled


def cache_scan(models: int) -> tuple[float, float, int]:
    """(longest stall, seconds, tokenizers listed) for File ▸ Open from Cache over a fake
    hub cache of ``models`` models, one snapshot with a ``vocab.txt`` each."""
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow

    hub = Path(CONFIG_DIR) / "hub"
    for i in range(models):
        snap = hub / f"models--org--m{i:05d}" / "snapshots" / "0123abcd"
        snap.mkdir(parents=True)
        (snap / "vocab.txt").write_text("[UNK]\n")
    os.environ["HF_HUB_CACHE"] = str(hub)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.show()
    pane = window.panes["alignment"]
    run_loop(app, pane, lambda: not pane.busy)  # the first result and paint come first
    found: list = []
    window.cache_scan.sig_returned.connect(lambda scan: found.append(len(scan.found)))
    meter, start = StallMeter(), time.perf_counter()
    meter.start()
    window.cache_menu.aboutToShow.emit()
    run_loop(app, pane, lambda: bool(found), signals=(window.cache_scan.sig_returned,))
    return meter.stop(), time.perf_counter() - start, found[0]


def row(r: dict) -> str:
    ms = lambda s: f"{1000 * s:7.0f}"  # noqa: E731
    big = (f"{ms(r['stall_1m'])} {r['shown_1m']:7.1f}" if "stall_1m" in r else f"{'—':>7} {'—':>7}")
    line = (f"{ms(r['line_stall'])} {ms(r['zwj_stall'])}" if "line_stall" in r else f"{'—':>7} {'—':>7}")
    return (f"{r['name']:<8} {ms(r['keys'])} {ms(r['keys_max'])} {ms(r['keys_gui'])} {ms(r['core'])} "
            f"{ms(r['keys_start'])} "
            f"{ms(r['keys_stall'])} "
            f"{ms(r['emoji_stall'])} {ms(r['marks_stall'])} {ms(r['marks_keys'])} {ms(r['marks_keys_start'])} "
            f"{ms(r['stall_100k'])} {r['shown_100k']:7.2f} {r['abreal']:7.2f} "
            f"{big} {line} {r['peak_mb']:7.0f}")


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=21)
    p.add_argument("--tokenizers", default=DEFAULT_TOKENIZERS, help=f"any of {','.join(TOKENIZERS)}")
    p.add_argument("--no-start", action="store_true", help="skip the start with a restored long line")
    p.add_argument("--no-1m", action="store_true", help="skip the 1,000,000-character paste")
    p.add_argument("--cache-models", type=int, default=20_000, help="fake models for the cache scan (0: skip)")
    p.add_argument("--one", nargs=2, metavar=("NAME", "PATH"), help=argparse.SUPPRESS)
    p.add_argument("--cache-only", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one:
        print(json.dumps(measure(*args.one, args.repeats, not args.no_1m)))
        return []
    if args.cache_only:
        print(json.dumps(cache_scan(args.cache_models)))
        return []
    from core.data import data_dir

    data = data_dir()
    print("ms unless s; stall = longest gap between 10 ms timer ticks (10 = none); targets: keys10k <= 30, "
          "marks st <= 100, marks key and mk@start <= 50, stall 100k <= 100, stall 1M <= 200, line1M st and zwj1M st <= 200, peak <= 500 MB")
    print(f"{'':<8} {'keys10k':>7} {'max':>7} {'gui cpu':>7} {'core':>7} {'@start':>7} {'stall':>7} {'emoji2k':>7} "
          f"{'marks st':>7} {'marks key':>7} {'mk@start':>7} "
          f"{'st100k':>7} {'100k s':>7} {'a/b/rl s':>7} {'st1M':>7} {'1M s':>7} {'line1M st':>7} {'zwj1M st':>7} {'peak MB':>7}")
    rows = []
    for name in args.tokenizers.split(","):
        rel = TOKENIZERS[name]
        path = str(data / rel) if rel else train_sentencepiece(data, CONFIG_DIR)
        cmd = [sys.executable, __file__, "--one", name, path, "--repeats", str(args.repeats)]
        done = subprocess.run(cmd + (["--no-1m"] if args.no_1m else []), capture_output=True, text=True)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if done.returncode or not lines:
            print(f"{name:<8} failed: {done.stderr.strip().splitlines()[-1:]}")
            continue
        rows.append(json.loads(lines[-1]))
        print(row(rows[-1]), flush=True)
    if not args.no_start:
        (base, _), (restored, filled) = (start_seconds("Everyone has the right to life."),
                                         start_seconds(hex_line(RESTORED_LINE)))
        print(f"start with a {RESTORED_LINE:,}-character line restored from state.json: {restored:.1f} s, "
              f"{restored - base:.1f} s more than with a short text ({base:.1f} s) (target: <= 2 s more; "
              f"issue 30: 140 s); the line in the editor {filled - restored:.1f} s after the first paint",
              flush=True)
    if args.cache_models:
        done = subprocess.run([sys.executable, __file__, "--cache-only", "--cache-models", str(args.cache_models)],
                              capture_output=True, text=True)
        lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
        if lines:
            stall, seconds, listed = json.loads(lines[-1])
            print(f"File > Open from Cache, {args.cache_models:,} models: longest stall {1000 * stall:.0f} ms, "
                  f"listed {listed:,} tokenizers after {seconds:.1f} s (scanned on a worker)")
        else:
            print(f"cache scan failed: {done.stderr.strip().splitlines()[-1:]}")
    return rows


if __name__ == "__main__":
    main()
