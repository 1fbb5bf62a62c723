"""The Index tab: IVF recall@10 against nprobe with the fraction scanned, and what codes cost.

The sweep runs on this corpus (its paragraphs as queries) or on the seed's synthetic corpus
(100,000 × 64, nlist 256); FAISS's ``IndexIVFFlat`` is drawn beside ours when installed. The
memory bars give float32 / float16 / int8 storage at the corpus size N and at 100 N
(:func:`core.retrieval.memory_table`), with the exact search's multiply-adds per query.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.widgets.plot_frame import PlotFrame
from app.widgets.plot_lines import LinePlot
from core.retrieval import CODE_TYPES, IVFSweep, MemoryRow
from core.retrieval.exact import top_k
from core.retrieval.memory import SizeCost

SOURCE_NAMES = {"corpus": "this corpus",
                "synthetic": "synthetic 100,000 × 64 (the course material's)"}
SOURCE_NOTES = {"corpus": "of its paragraphs as queries (each also finds itself)",
                "synthetic": "200 topics, noise 0.8, 50 perturbed corpus points as queries"}
PRINTED_IVF = ((1, 0.924, 0.005), (4, 1.0, 0.015), (16, 1.0, 0.062))
"""What the course material prints for its IVF (nprobe, recall@10, fraction scanned)."""
SIZE_HEADERS = ["vectors × dims", "float32 MB", "float16 MB", "int8 MB", "multiply-adds per exact query"]
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
        self.sizes = QTableWidget(0, len(SIZE_HEADERS))
        self.sizes.setHorizontalHeaderLabels(SIZE_HEADERS)
        self.sizes.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.sizes.verticalHeader().setVisible(False)
        self.sizes.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.sizes.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sizes.setToolTip("Storage of the vectors alone (decimal MB, no int8 scales) and the work of "
                              "scoring every vector for one query, for this corpus and at 100,000 and "
                              "10,000,000 vectors; 384 dimensions is the width the course material prices.")
        self.topk_example = QLabel(topk_example_text())
        self.topk_example.setWordWrap(True)
        self.topk_example.setToolTip("How exact search finds the best k without sorting every score: "
                                     "a partition puts the k largest first, then only those k are sorted")
        self.synthetic_note = QLabel()
        self.synthetic_note.setWordWrap(True)
        self.synthetic_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.synthetic_note.setToolTip("The course material's search experiment, rerun on the same random "
                                       "stream: its corpus and queries are drawn exactly as it draws them.")
        self.synthetic_note.hide()
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
        llay.addWidget(self.sizes)
        llay.addWidget(self.cost)
        llay.addWidget(self.topk_example)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.sweep)
        split.addWidget(lower)
        split.setSizes([300, 440])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.synthetic_note)
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

    def show_sizes(self, rows: tuple[SizeCost, ...]) -> None:
        """One table row per size: MB per code type and the exact query's multiply-adds."""
        self.sizes.setRowCount(len(rows))
        for r, row in enumerate(rows):
            label = f"{row.n:,} × {row.dim}" + (" (this corpus)" if r == 0 else "")
            cells = [label] + [mb_text(row.mb(t)) for t in CODE_TYPES] + [f"{row.multiply_adds:,}"]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.sizes.setItem(r, c, item)
        self.sizes.resizeRowsToContents()
        self.sizes.setFixedHeight(self.sizes.horizontalHeader().height() + 2 * self.sizes.frameWidth()
                                  + sum(self.sizes.rowHeight(r) for r in range(len(rows))))

    def show_synthetic(self, run) -> None:
        """The material's figures on its synthetic corpus (a ``SyntheticRun``; None hides them)."""
        if run is None:
            self.synthetic_note.hide()
            return
        ours = dict(zip(run.ours.nprobe, zip(run.ours.recall, run.ours.fraction_scanned)))
        shown = [p for p, _, _ in PRINTED_IVF if p in ours]
        recall = " / ".join(f"{ours[p][0]:.3f}" for p in shown)
        scanned = " / ".join(f"{ours[p][1]:.3f}" for p in shown)
        ids = ", ".join(str(i) for i in run.top_ids)
        cos = ", ".join(f"{c:.4f}" for c in run.top_cosines)
        printed = (" / ".join(f"{r:.3f}" for p, r, _ in PRINTED_IVF if p in ours),
                   " / ".join(f"{f:.3f}" for p, _, f in PRINTED_IVF if p in ours))
        self.synthetic_note.setText(
            f"Course material's corpus ({run.n:,} × {run.dim}, seed 0, {run.n_queries} queries): the first "
            f"query's nearest three are ids {ids} (cosines {cos}); picking the top 10 without a full sort "
            f"gives {'the same' if run.full_sort_match else 'DIFFERENT'} ids as sorting every score. "
            f"int8 codes keep {run.int8_recall:.3f} of the exact top 10. IVF, nlist {run.nlist}, nprobe "
            f"{' / '.join(map(str, shown))}: recall@10 {recall}, fraction scanned {scanned} (the material's "
            f"k-means from another library gave {printed[0]} and {printed[1]}).")
        self.synthetic_note.show()


TOPK_SCORES, TOPK_K = (0.1, 0.9, 0.3, 0.7, 0.5), 2  # the material's hand example


def topk_example_text() -> str:
    """The top-k selection on five scores, worked by :func:`core.retrieval.exact.top_k`."""
    ids = top_k(np.array(TOPK_SCORES, dtype=np.float64)[:, None], np.ones(1), TOPK_K)
    return (f"Top {TOPK_K} of the scores [{', '.join(map(str, TOPK_SCORES))}] without sorting all "
            f"{len(TOPK_SCORES)}: partition, then sort the {TOPK_K} → ids [{', '.join(str(int(i)) for i in ids)}]")


def mb_text(mb: float) -> str:
    """Decimal MB as the material prints them (one decimal, thousands separated); 3 significant
    digits below 1 MB."""
    return f"{mb:,.1f}" if mb >= 1 else f"{mb:.3g}"
