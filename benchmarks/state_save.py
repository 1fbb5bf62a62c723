"""How long saving the alignment pane's state takes for a 1,000,000-character text (issue 12 §5),
and how soon after the last key an edit is on disk (issue 30 §8: what a kill can lose).

Prints the GUI thread's share (building the snapshot and handing it to the writer), the
writer thread's total (JSON, temporary file, fsync, rename) and the longest the writer holds
the interpreter lock in one piece (json.dumps), which is what the GUI could wait for; then,
in an offscreen alignment pane, the time from a typed key to ``state.json`` holding the new
text (median and worst of several keys, short text and 1,000,000 characters).

Run: ``.venv/bin/python benchmarks/state_save.py``
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.panes.alignment.state import AlignmentState  # noqa: E402
from app.settings import atomic_write, open_settings, state_file, write_state  # noqa: E402

DATA = Path(os.environ.get("SUBWORDSCOPE_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def mixed_text(n: int) -> str:
    files = sorted((DATA / "udhr").glob("*.txt"))
    base = "".join(p.read_text(encoding="utf-8") for p in files) or "Zoe\u0301 \U0001F600 नमस्ते "
    return (base * (n // len(base) + 1))[:n]


def best(fn, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    text = mixed_text(1_000_000)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SUBWORDSCOPE_CONFIG_DIR"] = tmp
        settings = open_settings()
        state = AlignmentState(text=text, mode="align")
        store = state_file(settings)

        def gui_part():
            write_state(settings, "alignment/state", state.to_dict())

        gui = best(gui_part)
        store.flush()
        snapshot = {"alignment/state": state.to_dict()}
        dumps = best(lambda: json.dumps(snapshot, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        data = json.dumps(snapshot, ensure_ascii=False).encode("utf-8", "surrogatepass")
        write = best(lambda: atomic_write(Path(tmp) / "bench.json", data))
        print(f"text: {len(text):,} code points, {len(data):,} bytes of JSON")
        print(f"GUI thread (snapshot + hand-off): {gui * 1000:.3f} ms")
        print(f"writer: json.dumps {dumps * 1000:.1f} ms (holds the interpreter lock), "
              f"temp file + fsync + rename {write * 1000:.1f} ms, total {(dumps + write) * 1000:.1f} ms")


def _watch(path: Path, before: int, landed: list[float], timeout: float = 60.0) -> None:
    """Poll ``path`` every 1 ms until its modification time is no longer ``before``; append
    when (``time.perf_counter()``)."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        try:
            if path.stat().st_mtime_ns != before:
                landed.append(time.perf_counter())
                return
        except FileNotFoundError:
            pass
        time.sleep(0.001)
    landed.append(float("inf"))


def edit_to_disk(text: str, keys: int = 8, burst: int = 1) -> list[float]:
    """Seconds from each of ``keys`` typed keys (each after the last save; the last of
    ``burst`` keys typed 50 ms apart) to ``state.json`` holding the text with that key, in an
    offscreen alignment pane on ``text``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop  # noqa: PLC0415 - Qt only for this part
    from PySide6.QtTest import QTest  # noqa: PLC0415
    from PySide6.QtGui import QTextCursor  # noqa: PLC0415
    from PySide6.QtWidgets import QApplication  # noqa: PLC0415

    from app.panes.alignment import AlignmentPane  # noqa: PLC0415

    app = QApplication.instance() or QApplication([])
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SUBWORDSCOPE_CONFIG_DIR"] = tmp
        pane = AlignmentPane(open_settings())
        pane.set_text(text)
        pane.wait_until_idle(600_000)
        path = Path(tmp) / "state.json"
        store = state_file(pane.settings)
        for i in range(keys):
            time.sleep(0.7)  # the previous save is on disk, the pane idle
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            store.flush()
            pane.w.editor.moveCursor(QTextCursor.MoveOperation.End)
            for _ in range(burst - 1):  # typing: keys 50 ms apart, then the one measured
                QTest.keyClick(pane.w.editor, "x")
                end = time.perf_counter() + 0.05
                while time.perf_counter() < end:
                    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
            before = path.stat().st_mtime_ns if path.exists() else 0
            landed: list[float] = []
            watcher = threading.Thread(target=_watch, args=(path, before, landed))  # not the GUI loop,
            watcher.start()  # which a render of a long text keeps busy for a while
            t0 = time.perf_counter()
            QTest.keyClick(pane.w.editor, chr(ord("a") + i))
            while watcher.is_alive():
                app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 2)
                watcher.join(0.002)
            out.append(landed[0] - t0)
            saved = json.loads(path.read_bytes().decode("utf-8", "surrogatepass"))["alignment/state"]["text"]
            assert saved.endswith(chr(ord("a") + i)), "the file changed but not with the key"
        pane.deleteLater()
    return out


if __name__ == "__main__":
    main()
    for label, text, burst in (("short text, one key", "Zoe\u0301 flew to \u0130stanbul", 1),
                               ("short text, last of 5 keys 50 ms apart", "Zoe\u0301 flew to \u0130stanbul", 5),
                               ("1,000,000 characters, one key", mixed_text(1_000_000), 1),
                               ("1,000,000 characters, last of 5 keys", mixed_text(1_000_000), 5)):
        times = sorted(edit_to_disk(text, burst=burst))
        print(f"key to state.json ({label}): median {times[len(times) // 2] * 1000:.0f} ms, "
              f"worst {times[-1] * 1000:.0f} ms of {len(times)} keys")
