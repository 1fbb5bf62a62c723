"""The course material's search figures as the Retrieval pane's Index tab shows them."""

from __future__ import annotations

import pytest

from .conftest import TIMEOUT


def cells(table) -> list[list[str]]:
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def test_memory_and_query_cost_at_the_materials_sizes(make_pane, qtbot):
    pane = make_pane()  # the stand-in: 32 dimensions, so the 384-wide rows are added
    with qtbot.waitSignal(pane.sig_sweep_changed, timeout=TIMEOUT):
        pane.tabs.setCurrentIndex(2)
    ix, shown = pane.index, cells(pane.index_view.sizes)
    assert shown[0][0] == f"{ix.n:,} × {ix.dim} (this corpus)"
    assert shown[0][4] == f"{ix.n * ix.dim:,}"
    rows = {row[0]: row[1:] for row in shown}
    assert rows["100,000 × 384"] == ["153.6", "76.8", "38.4", "38,400,000"]
    assert rows["10,000,000 × 384"] == ["15,360.0", "7,680.0", "3,840.0", "3,840,000,000"]
    assert rows[f"100,000 × {ix.dim}"][3] == f"{100_000 * ix.dim:,}"
    assert pane.index_view.sizes.toolTip()


@pytest.mark.slow
def test_synthetic_source_shows_the_materials_search_figures(make_pane, qtbot):
    pane = make_pane()
    with qtbot.waitSignal(pane.sig_sweep_changed, timeout=TIMEOUT):
        pane.tabs.setCurrentIndex(2)
    assert pane.index_view.synthetic_note.isHidden()
    with qtbot.waitSignal(pane.sig_sweep_changed, timeout=4 * TIMEOUT):
        pane.index_view.source_box.setCurrentIndex(1)
    note = pane.index_view.synthetic_note.text()
    assert "ids 71429, 29778, 66022 (cosines 0.9396, 0.7573, 0.7373)" in note
    assert "the same ids as sorting every score" in note
    assert "int8 codes keep 0.986 of the exact top 10" in note
    assert "50 queries" in note and "nprobe 1 / 4 / 16" in note
    assert "recall@10 0.942 / 1.000 / 1.000" in note  # ours; the material printed 0.924 / 1.000 / 1.000
    # private: the synthetic run the note was made from (kept by the pane only)
    run = pane._synthetic
    x, y = pane.index_view.sweep.curve_data("recall@10 (ours)")
    assert x.tolist() == list(run.ours.nprobe) and y.tolist() == list(run.ours.recall)
    assert not pane.index_view.synthetic_note.isHidden()
    pane.index_view.source_box.setCurrentIndex(0)
    assert pane.index_view.synthetic_note.isHidden()
