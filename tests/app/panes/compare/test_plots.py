"""The Compare heatmap keeps a label under every tokenizer column, however long the names."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainter, QPicture

from app.panes.compare.heatmap_model import HeatmapModel
from app.panes.compare.plots import MetricHeatmap

NAMES = ["bert-base-uncased", "gpt2", "pegasus-unigram", "cl100k_base", "bert-base-uncased (2)"]


def _model(cols: list[str]) -> HeatmapModel:
    rows, n = ["English", "Hindi"], len(cols)
    values = np.arange(2.0 * n).reshape(2, n) + 1
    texts = [[f"{v:g}" for v in row] for row in values]
    return HeatmapModel("fertility", [0, 1], rows, cols, values, np.zeros((2, n)), np.zeros((2, n)),
                        np.zeros((2, n), dtype=bool), texts, texts, (1.0, 2.0 * n), None)


def drawn_labels(axis) -> list[str]:
    picture = QPicture()
    painter = QPainter(picture)
    try:
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in texts]


class _Hover:
    def __init__(self, x: float, exit_: bool = False):
        self.x, self.exit = x, exit_

    def isExit(self) -> bool:  # noqa: N802 - pyqtgraph's HoverEvent
        return self.exit

    def pos(self) -> QPointF:
        return QPointF(self.x, 5.0)


def test_every_column_keeps_a_label_and_the_full_name_as_tooltip(qtbot):
    plot = MetricHeatmap()
    qtbot.addWidget(plot)
    plot.resize(700, 500)
    plot.show()
    plot.show_model(_model(NAMES), "Fertility")
    qtbot.waitUntil(lambda: plot.plot.getAxis("bottom").size().width() > 100)
    axis = plot.plot.getAxis("bottom")
    labels = drawn_labels(axis)
    assert len(labels) == 5 and all(labels)  # a plain AxisItem dropped the 5th (it stuck out)
    assert labels[1] == "gpt2" and labels[4] != NAMES[4] and labels[4].endswith("(2)") and "…" in labels[4]
    width = axis.size().width()
    axis.hoverEvent(_Hover(width * 0.9))
    assert axis.toolTip() == "bert-base-uncased (2)"
    axis.hoverEvent(_Hover(width * 0.3))
    assert axis.toolTip() == "gpt2"
    axis.hoverEvent(_Hover(0.0, exit_=True))
    assert axis.toolTip() == ""
    plot.resize(1600, 500)  # room enough: nothing is shortened
    qtbot.waitUntil(lambda: axis.size().width() > 1000)
    assert drawn_labels(axis) == NAMES
