"""The course material's pooling figures as the pane shows them (table cells read back).

The stand-in's first run (strength 3, seed 0) is the material's program, so the Length sweep
table and the Worked examples tab must show its printed numbers, character for character.
"""

from __future__ import annotations

import pytest

from app.panes.pooling import PoolingPane
from app.panes.pooling.figures_view import TABLE_COLUMNS, TABLE_LENGTHS

# column -> the material's figure per row (16, 128, 512); junk at 128 is ours, not printed
PRINTED = {
    ("sparse", "mean"): ("0.589", "0.075", "0.016"),
    ("sparse", "max"): ("3.977", "3.874", "3.936"),
    ("sparse", "attention"): ("3.629", "3.385", "2.927"),
    ("junk", "mean"): ("0.496", None, "0.019"),
    ("junk", "max"): ("8.009", None, "7.907"),
    ("dense", "mean"): ("0.763", "0.753", "0.747"),
    ("dense", "max"): ("4.061", "5.088", "5.550"),
}


def cells(table) -> list[list[str]]:
    return [[table.item(r, c).text() if table.item(r, c) else "" for c in range(table.columnCount())]
            for r in range(table.rowCount())]


@pytest.fixture
def pane(qtbot, new_pane):
    p = new_pane(PoolingPane)
    with qtbot.waitSignal(p.sig_result_changed, timeout=60000):
        p.show()
    return p


def test_sweep_table_shows_the_materials_averages(pane, qtbot):
    shown = cells(pane.sweep_view.table.table)
    assert [row[0] for row in shown] == [str(n) for n in TABLE_LENGTHS]
    for c, key in enumerate(TABLE_COLUMNS, start=1):
        for r, printed in enumerate(PRINTED[key]):
            if printed is not None:
                assert shown[r][c] == printed, (key, TABLE_LENGTHS[r])
    assert "course material's own run" in pane.sweep_view.table.caption.text()
    assert "200 documents" in pane.sweep_view.table.caption.text()
    # the plotted curves pass through the same numbers
    x, y = pane.sweep_view.plots["mean"].curve_data("sparse")
    assert [f"{y[x.tolist().index(n)]:.3f}" for n in TABLE_LENGTHS] == list(PRINTED[("sparse", "mean")])
    # another seed is another run, and the caption says so
    with qtbot.waitSignal(pane.sig_result_changed, timeout=60000):
        pane.seed_spin.setValue(1)
    assert cells(pane.sweep_view.table.table)[0][1] != "0.589"
    assert "another run" in pane.sweep_view.table.caption.text()


def test_worked_examples_tab(pane):
    w = pane.worked_view
    assert pane.tabs.tabText(pane.tabs.indexOf(w)) == "Worked examples"
    assert cells(w.attention) == [["(1, 0)", "1", "0.0466"], ["(0, 1)", "0", "0.0171"], ["(4, 0)", "4", "0.9362"]]
    assert "(3.7916, 0.0171)" in w.attention_note.text() and "(1.6667, 0.3333)" in w.attention_note.text()
    assert cells(w.noisy) == [["0.1", "0.2", "0.7", "0.3333", "0.7", "0.784"]]
    assert "1 − 0.9 × 0.8 × 0.3 = 0.784" in w.noisy_note.text()
    assert cells(w.padding) == [["0.452", "0.071", "2.871"]]
    for table in (w.attention, w.noisy, w.padding):
        assert table.toolTip()
