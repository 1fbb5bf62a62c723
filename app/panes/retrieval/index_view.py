"""The Index tab: IVF recall@10 against nprobe with the fraction scanned, and what codes cost.

The sweep runs on this corpus (its paragraphs as queries) or on the seed's synthetic corpus
(100,000 × 64, nlist 256); FAISS's ``IndexIVFFlat`` is drawn beside ours when installed. The
memory bars give float32 / float16 / int8 storage at the corpus size N and at 100 N
(:func:`core.retrieval.memory_table`), with the exact search's multiply-adds per query.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from app.widgets.plot_frame import PlotFrame
from app.widgets.plot_lines import LinePlot
from core.retrieval import IVFSweep, MemoryRow

SOURCE_NAMES = {"corpus": "this corpus",
                "synthetic": "synthetic 100,000 × 64 (the seed's)"}
SOURCE_NOTES = {"corpus": "of its paragraphs as queries (each also finds itself)",
                "synthetic": "200 topics, noise 0.8, 200 perturbed corpus points as queries"}
CODE_COLOURS = ("#4c78a8", "#f58518", "#54a24b")


class MemoryBars(PlotFrame):
    """Three vertical bars (float32, float16, int8) in decimal MB, each labelled with its value.

    A pen-less curve holds the same values so the CSV exporter writes them.
    """

    def __init__(self, title: str, name: str, parent: QWidget | None = None):
        super().__init__(title, name, parent)
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.6, brushes=[])
        self.values_item = pg.PlotDataItem([], [], pen=None, name="MB")
        self.plot.addItem(self.bars)
        self.plot.addItem(self.values_item)
        self.plot.setMouseEnabled(x=False, y=False)
        self.set_labels("code type", "MB (10^6 bytes)")
        self.value_labels: list[pg.TextItem] = []
        self.names: list[str] = []
        self.values: list[float] = []

    def show_bars(self, names: list[str], values: list[float]) -> None:
        self.names, self.values = list(names), list(values)
        x = list(range(len(values)))
        self.bars.setOpts(x=x, height=values, width=0.6, brushes=[pg.mkBrush(c) for c in CODE_COLOURS[: len(x)]])
        self.values_item.setData(x, values)
        while len(self.value_labels) < len(values):  # made once, then moved and re-labelled
            label = pg.TextItem("", color="#222222", anchor=(0.5, 1))
            self.plot.addItem(label)
            self.value_labels.append(label)
        for label, xi, v in zip(self.value_labels, x, values):
            label.setText(f"{v:,.3g}" if v < 100 else f"{v:,.0f}")
            label.setPos(xi, v)
        self.plot.getAxis("bottom").setTicks([[(i, n) for i, n in enumerate(names)]])
        self.plot.setRange(xRange=(-0.6, len(x) - 0.4), yRange=(0, 1.15 * max(values, default=1)), padding=0)

    def readout_at(self, x: float, y: float) -> str:
        i = int(round(x))
        return f"{self.names[i]}: {self.values[i]:,.4g} MB" if 0 <= i < len(self.values) else ""


class IndexView(QWidget):
    """Recall-vs-nprobe plot (with its source) and the memory bars at N and 100 N."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.source_box = QComboBox()
        for key, name in SOURCE_NAMES.items():
            self.source_box.addItem(name, key)
        self.source_box.setToolTip("What the IVF sweep runs on")
        self.sweep = LinePlot("IVF recall@10 and fraction scanned vs nprobe", "retrieval_ivf_sweep",
                              x_label="nprobe (cells searched)", y_label="recall@10 / fraction scanned",
                              log_x=True, legend_offset=(-10, -10))
        self.sweep.plot.setYRange(0, 1.05)
        self.sweep_note = QLabel()
        self.sweep_note.setWordWrap(True)
        self.memory_n = MemoryBars("Memory at N", "retrieval_memory_n")
        self.memory_100n = MemoryBars("Memory at 100 N", "retrieval_memory_100n")
        self.cost = QLabel()
        self.cost.setWordWrap(True)
        self.cost.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top = QHBoxLayout()
        top.addWidget(QLabel("Sweep on"))
        top.addWidget(self.source_box)
        top.addWidget(self.sweep_note, 1)
        bars = QSplitter(Qt.Orientation.Horizontal)
        bars.addWidget(self.memory_n)
        bars.addWidget(self.memory_100n)
        lower = QWidget()
        llay = QVBoxLayout(lower)
        llay.setContentsMargins(0, 0, 0, 0)
        llay.addWidget(bars, 1)
        llay.addWidget(self.cost)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.sweep)
        split.addWidget(lower)
        split.setSizes([380, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.sweep.set_placeholder("The sweep runs once the corpus is indexed…")

    def show_sweep(self, ours: IVFSweep, theirs: IVFSweep | None, what: str) -> None:
        """Draw recall@10 and fraction scanned per nprobe; FAISS's dashed when given."""
        self.sweep.set_placeholder("")
        dash = pg.QtCore.Qt.PenStyle.DashLine
        self.sweep.set_curve("recall@10 (ours)", ours.nprobe, ours.recall, color="#1f77b4", symbol="o")
        self.sweep.set_curve("scanned (ours)", ours.nprobe, ours.fraction_scanned, color="#2ca02c", symbol="s")
        for name in ("recall@10 (FAISS)", "scanned (FAISS)"):
            if name in self.sweep.curves:
                self.sweep.curves[name].setVisible(theirs is not None)
        if theirs is not None:
            self.sweep.set_curve("recall@10 (FAISS)", theirs.nprobe, theirs.recall, color="#d62728",
                                 style=dash, symbol="t")
            self.sweep.set_curve("scanned (FAISS)", theirs.nprobe, theirs.fraction_scanned, color="#ff7f0e",
                                 style=dash, symbol="t")
        faiss = "FAISS IndexIVFFlat dashed." if theirs is not None else "FAISS is not installed: ours only."
        self.sweep_note.setText(f"nlist {ours.nlist}; {what}. {faiss}")

    def show_memory(self, rows: tuple[MemoryRow, ...], n: int, dim: int, cost_n: int, cost_100n: int) -> None:
        """Bars of every code type at N and 100 N, and the multiply-adds of an exact query."""
        names = [r.dtype for r in rows]
        self.memory_n.set_title(f"Memory at N = {n:,} × {dim}")
        self.memory_100n.set_title(f"Memory at 100 N = {100 * n:,} × {dim}")
        self.memory_n.show_bars(names, [r.mb for r in rows])
        self.memory_100n.show_bars(names, [r.mb_scaled for r in rows])
        per = ", ".join(f"{r.dtype} {r.bytes_per_vector:,} B" for r in rows)
        self.cost.setText(f"Bytes per vector: {per} (int8 adds a 4-byte scale per vector, left out here). "
                          f"An exact query costs N·d multiply-adds: {cost_n:,} at N, {cost_100n:,} at 100 N.")
