"""Row labels of a heatmap or bar chart (Compare ▸ Table at 1280×720: 29 languages in about
250 pixels) are thinned to every k-th label instead of printing over each other."""

from __future__ import annotations

import pyqtgraph as pg

from app.widgets.plot_heatmap import RowAxis

LABELS = [f"language {i}" for i in range(29)]


def _axis(qtbot, height: int, kept: list) -> RowAxis:
    axis = RowAxis("left")
    plot = pg.PlotWidget(axisItems={"left": axis})
    qtbot.addWidget(plot)
    kept.append(plot)  # the plot lives until the test ends
    axis.setTicks([[(i + 0.5, label) for i, label in enumerate(LABELS)]])
    plot.setYRange(0, len(LABELS), padding=0)
    plot.resize(400, height)
    plot.show()
    qtbot.waitUntil(lambda: axis.size().height() > height / 2)
    return axis


def test_labels_are_thinned_where_rows_are_shorter_than_a_line(qtbot):
    kept: list = []
    short = _axis(qtbot, 300, kept)  # about 9 pixels a row
    step = short.label_step(16.0)
    assert step >= 2 and short.row_pixels() * step >= 16.0
    shown = [label for _v, label in short.shown_ticks(16.0)[0]]
    assert shown[0] == LABELS[0] and shown[step] == LABELS[step] and shown[1] == ""
    assert short._tickLevels[0][1][1] == LABELS[1]  # the axis keeps every label (tooltips, exports)
    tall = _axis(qtbot, 29 * 24 + 60, kept)  # 24 pixels a row: every label
    assert tall.label_step(16.0) == 1
    assert [label for _v, label in tall.shown_ticks(16.0)[0]] == LABELS
