"""The pooling pane's tables of figures: the length sweep's averages at 16, 128 and 512 tokens,
and the Worked examples tab (attention pooling of three tokens by hand, noisy-OR of three chunk
probabilities, the stand-in's padding example).

With seed 0 and strength 3 the stand-in replays the course material's pooling program
(:mod:`core.pooling.standin`), so these tables show the figures it prints. Every number comes
from ``core``; the widgets only format it.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.pooling import aggregate_chunks, attention_pool, mean_pool
from core.pooling.standin import PaddingExample, Sweep

TABLE_LENGTHS = (16, 128, 512)
TABLE_COLUMNS = (("sparse", "mean"), ("sparse", "max"), ("sparse", "attention"), ("junk", "mean"),
                 ("junk", "max"), ("dense", "mean"), ("dense", "max"))
MATERIAL_SETTINGS = (3.0, 0)  # (strength, seed) of the course material's run
EXAMPLE_H = np.array([[1.0, 0.0], [0.0, 1.0], [4.0, 0.0]])
EXAMPLE_W = np.array([1.0, 0.0])
CHUNK_PROBABILITIES = (0.1, 0.2, 0.7)


def short(v: float, places: int = 4) -> str:
    """``v`` with at most ``places`` decimals, trailing zeros dropped (0.7840 → 0.784, 4.0 → 4)."""
    text = f"{v:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _table(rows: int, headers: list[str], tip: str) -> QTableWidget:
    t = QTableWidget(rows, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    t.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    t.setToolTip(tip)
    t.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    t.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return t


def _fit_height(t: QTableWidget) -> None:
    """Make ``t`` exactly as tall as its header and rows (no scroll bar, no empty band)."""
    t.resizeRowsToContents()
    h = t.horizontalHeader().height() + sum(t.rowHeight(r) for r in range(t.rowCount())) + 2 * t.frameWidth()
    t.setFixedHeight(h)


def _set(t: QTableWidget, r: int, c: int, text: str, tip: str = "") -> None:
    item = QTableWidgetItem(text)
    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
    if tip:
        item.setToolTip(tip)
    t.setItem(r, c, item)


class SweepTable(QWidget):
    """The sweep's averages at 16, 128 and 512 tokens, one row per length."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        headers = ["tokens"] + [f"{c} · {m}" for c, m in TABLE_COLUMNS]
        self.table = _table(len(TABLE_LENGTHS), headers,
                            "Signal (pooled value on the evidence dimension) averaged over the stand-in "
                            "documents of each length. The course material prints every cell except "
                            "junk at 128 tokens.")
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.table)
        for r, n in enumerate(TABLE_LENGTHS):
            _set(self.table, r, 0, str(n))
        _fit_height(self.table)

    def render(self, sweep: Sweep, strength: float, seed: int) -> None:
        for r, n in enumerate(TABLE_LENGTHS):
            for c, (cond, method) in enumerate(TABLE_COLUMNS, start=1):
                try:
                    text = f"{sweep.at(cond, method, n):.3f}"
                except KeyError:  # a sweep without this length
                    text = "–"
                _set(self.table, r, c, text)
        same = (float(strength), int(seed)) == MATERIAL_SETTINGS
        run = ("strength 3, seed 0: the course material's own run, so these are the figures it prints"
               if same else f"strength {strength:g}, seed {seed}: another run than the course material's "
                            "(strength 3, seed 0 reproduce its figures)")
        self.caption.setText(f"Averages over {sweep.docs} documents per length — {run}.")


class WorkedView(QWidget):
    """Three small computations with every number shown: attention pooling of three tokens,
    noisy-OR of three chunk probabilities, and the stand-in's padding example."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        att = attention_pool(EXAMPLE_H, None, EXAMPLE_W)
        plain = mean_pool(EXAMPLE_H)
        self.attention = _table(3, ["token vector h", "score h·w", "weight"],
                                "Attention pooling by hand: each token is scored by its dot product with "
                                "the scorer w = (1, 0); a softmax turns the scores into weights; the pooled "
                                "vector is the weighted sum of the tokens.")
        for r, (h, s, a) in enumerate(zip(EXAMPLE_H, att.scores, att.weights)):
            _set(self.attention, r, 0, f"({short(h[0])}, {short(h[1])})")
            _set(self.attention, r, 1, short(s))
            _set(self.attention, r, 2, short(a))
        _fit_height(self.attention)
        v = att.vector
        self.attention_note = QLabel(
            f"Scorer w = (1, 0). Pooled vector ({short(v[0])}, {short(v[1])}): almost all the weight "
            f"goes to the strong third token. The plain mean is ({short(plain[0])}, {short(plain[1])}).")
        agg = aggregate_chunks(list(CHUNK_PROBABILITIES))
        self.noisy = _table(1, [f"chunk {i + 1}" for i in range(3)] + ["mean", "max", "noisy-OR"],
                            "Combining per-chunk probabilities into one document probability. Noisy-OR "
                            "treats each chunk as an independent chance to fire: 1 − Π(1 − p).")
        for c, value in enumerate(list(CHUNK_PROBABILITIES) + [agg.mean, agg.max, agg.noisy_or]):
            _set(self.noisy, 0, c, short(value))
        _fit_height(self.noisy)
        rest = " × ".join(short(1 - p) for p in CHUNK_PROBABILITIES)
        self.noisy_note = QLabel(f"Noisy-OR = 1 − {rest} = {short(agg.noisy_or)}: higher than any single "
                                 "chunk, since each one adds a chance that the document contains it.")
        self.padding = _table(1, ["masked mean", "unmasked mean", "masked max"],
                              "One stand-in document of 10 tokens padded with zero rows to 64 (values on "
                              "the evidence dimension). The first document the stand-in draws; with seed 0 "
                              "it is the course material's.")
        _fit_height(self.padding)
        self.padding_note = QLabel("Waiting for the stand-in run…")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        for title, widgets in (("Attention pooling of three tokens", (self.attention, self.attention_note)),
                               ("Noisy-OR of three chunk probabilities", (self.noisy, self.noisy_note)),
                               ("Padding a stand-in document", (self.padding, self.padding_note))):
            box = QGroupBox(title)
            blay = QVBoxLayout(box)
            for w in widgets:
                if isinstance(w, QLabel):
                    w.setWordWrap(True)
                    w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                blay.addWidget(w)
            row = QHBoxLayout()
            row.addWidget(box, 1)
            row.addStretch(0)
            layout.addLayout(row)
        layout.addStretch(1)

    def render_padding(self, p: PaddingExample | None, seed: int) -> None:
        if p is None:
            return
        for c, value in enumerate((p.masked_mean, p.unmasked_mean, p.masked_max)):
            _set(self.padding, 0, c, f"{value:.3f}")
        self.padding_note.setText(
            f"{p.n} real tokens (seed {seed}) padded to {p.length}: the masked mean is the same at both lengths; "
            f"averaging the padding rows too shrinks it by {p.n}/{p.length} "
            f"({p.masked_mean:.3f} × {p.n}/{p.length} = {p.unmasked_mean:.3f}); the masked max does not move.")
