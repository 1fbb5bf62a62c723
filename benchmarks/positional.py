"""Time the Positions pane: recompute (core) + redraw (pyqtgraph) of its two heaviest plots.

Cases (targets <= 100 ms each, median):
- the sinusoidal heatmap at T=8192, d=1024 (8.4 M cells);
- the RoPE score heatmap at T=2048 with head width d=128 (4.2 M cells).

Each case is timed as: the view's ``compute`` (what the worker runs), its ``render`` (setImage
on the reused ImageItem) and a synchronous repaint of the plot's viewport. A plain numpy float32
matmul with the same number of output cells is timed in the same process as a reference, so
the ratio is comparable across machines.

Run: ``QT_QPA_PLATFORM=offscreen python benchmarks/positional.py [--runs 7]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SUBWORDSCOPE_CONFIG_DIR", tempfile.mkdtemp(prefix="subwordscope-bench-"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def _median_ms(fn, runs: int) -> tuple[float, list[float]]:
    fn()  # warm-up (allocations, colormap LUT)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), times


def _case(pane, key: str, state, runs: int):
    pane.show_view(key)
    view = pane.view(key)
    QApplication.processEvents()  # lay the new view out so the repaint really paints
    frame = view.plots()[0]
    painted = frame.image_item

    def repaint():
        frame.graphics.viewport().repaint()
        assert painted.qimage is not None, "the heatmap was not painted"

    def compute():
        return type(view).compute(state)

    data = compute()

    def render():
        view.render(data)
        repaint()

    def full():
        view.render(compute())
        repaint()

    return {"compute": _median_ms(compute, runs)[0], "render": _median_ms(render, runs)[0], "total": _median_ms(full, runs)[0]}


def _reference(rows: int, cols: int, inner: int, runs: int) -> float:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(rows, inner)).astype(np.float32)
    b = rng.normal(size=(inner, cols)).astype(np.float32)
    return _median_ms(lambda: a @ b, runs)[0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7, help="timed runs per case (median reported)")
    args = p.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    from app.panes.positions import PositionsPane
    from app.panes.positions.state import PositionsState
    from app.settings import open_settings

    pane = PositionsPane(open_settings())
    pane.resize(1400, 900)
    pane.show()
    app.processEvents()
    cases = [
        ("sinusoidal heatmap T=8192 d=1024", "sinusoidal", replace(PositionsState(), T=8192, d=1024, cursor=0),
         (8192, 1024, 64)),
        ("RoPE score heatmap T=2048 d=128", "rope", replace(PositionsState(), T=2048, d=128, cursor=0),
         (2048, 2048, 128)),
    ]
    print(f"numpy {np.__version__}; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f}; median of {args.runs} runs")
    print(f"{'case':36} {'compute':>9} {'render':>9} {'total':>9} {'ref matmul':>11} {'total/ref':>9}")
    for label, key, state, (rows, cols, inner) in cases:
        r = _case(pane, key, state, args.runs)
        ref = _reference(rows, cols, inner, args.runs)
        print(f"{label:36} {r['compute']:7.1f}ms {r['render']:7.1f}ms {r['total']:7.1f}ms {ref:9.1f}ms "
              f"{r['total'] / ref:8.2f}x")
    print(f"reference: float32 matmul ({cases[0][3][0]}x{cases[0][3][2]})@({cases[0][3][2]}x{cases[0][3][1]}) and "
          f"({cases[1][3][0]}x{cases[1][3][2]})@({cases[1][3][2]}x{cases[1][3][1]}): same output cells as each heatmap")
    pane.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
