"""How long saving the alignment pane's state takes for a 1,000,000-character text (issue 12 §5).

Prints the GUI thread's share (building the snapshot and handing it to the writer), the
writer thread's total (JSON, temporary file, fsync, rename) and the longest the writer holds
the interpreter lock in one piece (json.dumps), which is what the GUI could wait for.

Run: ``.venv/bin/python benchmarks/state_save.py``
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
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


if __name__ == "__main__":
    main()
