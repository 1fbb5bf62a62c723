"""Compare pane on the shared corpus and the four shared tokenizers: every cost is shown with
its unknown share, high-unknown cells are marked and never ranked cheapest, cells carry their
numbers, the colour scale is robust and the hover card stays inside the plot."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF
from PySide6.QtTest import QTest

from app.panes.compare.controls import SHARED_TOKENIZERS
from app.panes.compare.heatmap_model import format_value, percent
from app.widgets.plot_heatmap import contrast
from core.metrics import extremes, row_order, unreliable
from tests.app.panes.compare.test_pane import make_pane, wait_result  # noqa: F401 - make_pane is a fixture

LANGS = ("eng", "fra", "deu_1996", "rus", "arb", "hin", "tam", "tha", "amh", "cmn_hans")


@pytest.fixture
def corpus(data_dir, tmp_path):
    """A wider slice of the UDHR than test_pane's (overrides its ``corpus`` for ``make_pane``)."""
    folder = tmp_path / "udhr"
    folder.mkdir()
    for code in LANGS:
        shutil.copy(data_dir / "udhr" / f"{code}.txt", folder / f"{code}.txt")
    return folder


@pytest.fixture
def shared_pane(qtbot, make_pane, data_dir):  # noqa: F811 - the imported fixture
    paths = [str(data_dir / "tokenizers" / rel) for rel in SHARED_TOKENIZERS]
    pane = make_pane(paths)
    wait_result(qtbot, pane, timeout=120_000)
    assert pane.result.table.tokenizers == ("bert-base-uncased", "gpt2", "pegasus-unigram", "cl100k_base")
    return pane


def choose(combo, data):
    combo.setCurrentIndex(combo.findData(data))
    assert combo.currentData() == data


def cell(pane, code, tokenizer):
    """(row, col) of a language × tokenizer in the heatmap as shown."""
    table = pane.result.table
    return pane.heatmap_rows().index(table.languages.index(code)), table.tokenizers.index(tokenizer)


def test_high_unknown_cells_are_marked_and_never_ranked_cheapest(shared_pane):
    pane, table = shared_pane, shared_pane.result.table
    choose(pane.metric_combo, "premium")
    hm, model = pane.heatmap, pane.table_tab.model
    np.testing.assert_array_equal(hm.image(), table.values("premium")[pane.heatmap_rows()])
    np.testing.assert_array_equal(hm.cells.marked, unreliable(table)[pane.heatmap_rows()])
    share = table.values("unknown_share")
    for code, tok in (("tha", "bert-base-uncased"), ("amh", "pegasus-unigram")):
        r, c = cell(pane, code, tok)
        i = table.languages.index(code)
        assert hm.cells.marked[r, c] and share[i, c] > 0.9
        assert hm.cell_texts()[r][c] == f"{format_value(hm.image()[r, c], 'premium')} ⚠ {percent(share[i, c])} unk"
        assert hm.image()[r, c] < 0.4  # the raw premium that used to look cheapest
    assert hm.cell_texts()[cell(pane, "tha", "bert-base-uncased")[0]][0].endswith("⚠ 96 % unk")
    r, c = cell(pane, "tam", "gpt2")
    assert not hm.cells.marked[r, c] and hm.cell_texts()[r][c] == format_value(hm.image()[r, c], "premium")

    summary = pane.table_tab.summary.text()
    assert "< 1 % unknown" in summary and "cheapest Thai" not in summary and "cheapest Amharic" not in summary
    bert, _gpt2, pegasus, _cl100k = extremes(table, "premium")
    assert table.languages[bert.cheapest] == "fra" and table.languages[pegasus.cheapest] == "fra"
    assert "bert-base-uncased: cheapest French 1.82" in summary

    choose(pane.sort_combo, "bert-base-uncased")
    model = pane.table_tab.model
    r, _ = cell(pane, "tha", "bert-base-uncased")
    assert r >= model.ranked > 0 and model.ranked < len(LANGS)
    assert hm.ranked_line.isVisible() and hm.ranked_line.value() == model.ranked
    top = hm.image()[:model.ranked, 0]
    assert not hm.cells.marked[:model.ranked, 0].any() and np.all(np.diff(top) <= 0)
    assert hm.cells.marked[model.ranked:, 0].all()
    choose(pane.sort_combo, "mean")
    assert pane.heatmap_rows() == row_order(table, "premium", None)[0]
    rows = pane.heatmap_rows()  # Thai's mean leaves BERT's 0.19 and Pegasus' 0.35 out
    assert rows.index(table.languages.index("tha")) < rows.index(table.languages.index("fra"))
    choose(pane.sort_combo, "language")
    assert not hm.ranked_line.isVisible()

    pane.bar_mode.setCurrentIndex(pane.bar_mode.findData("language"))
    pane.bar_item.setCurrentIndex(pane.bar_item.findData("tha"))
    texts = pane.bars.bar_texts()
    assert texts[0].endswith("⚠ 96 % unk") and "⚠" not in texts[1]
    assert len(pane.bars.marked_bars.opts["y"]) == 2  # BERT and Pegasus leave Thai unknown


def test_cells_show_readable_numbers_and_the_scale_is_not_flattened(shared_pane):
    pane = shared_pane
    choose(pane.metric_combo, "fertility")
    hm, model = pane.heatmap, pane.table_tab.model
    values = hm.image()
    assert [row for row in hm.cell_texts()] == model.texts
    assert all(t.startswith(format_value(values[r, c], "fertility"))
               for r, row in enumerate(hm.cell_texts()) for c, t in enumerate(row))
    r, c = cell(pane, "tam", "gpt2")
    assert values[r, c] > 25 and hm.cell_texts()[r][c] == "30.1"

    lo, hi = hm.levels()
    assert (lo, hi) == model.levels and model.log
    reliable = values[~hm.cells.marked]
    np.testing.assert_allclose(np.log10([lo, hi]), np.percentile(np.log10(reliable), [5, 95]))
    assert hi < values[r, c]  # GPT-2 on Tamil is clipped to the end colour
    np.testing.assert_allclose(hm.image_item.levels, np.log10([lo, hi]))
    median = float(np.median(values))
    assert hm.color_position(median) > 0.2
    assert (median - values.min()) / (values.max() - values.min()) < 0.1  # what min-max colour did

    for r, row in enumerate(hm.cells.text_colors):
        for c, color in enumerate(row):
            assert contrast(color, hm.cells.fills[r][c]) >= 4.5
            assert hm.cells.fills[r][c] == hm.cell_color(values[r, c])
    assert {hm.cells.text_colors[r][c].name() for r in range(len(values)) for c in range(4)} == {"#000000", "#ffffff"}

    legend = pane.table_tab.legend.text()
    assert "logarithmic" in legend and "5th–95th percentile of the cells under 1 % unknown" in legend
    assert f"({format_value(lo, 'fertility')} – {format_value(hi, 'fertility')})" in legend
    assert "hatched, red outline" in legend


def test_unknown_adjusted_cost_is_a_metric_with_its_rule_in_the_legend(shared_pane):
    pane, table = shared_pane, shared_pane.result.table
    choose(pane.metric_combo, "adjusted_premium")
    rows = pane.heatmap_rows()
    np.testing.assert_array_equal(pane.heatmap.image(), table.values("adjusted_premium")[rows])
    r, c = cell(pane, "tha", "bert-base-uncased")
    assert pane.heatmap.image()[r, c] > 10 and table.values("premium")[rows][r, c] < 0.2
    assert "each unknown token counts as one token per UTF-8 byte" in pane.table_tab.legend.text()
    assert "cheapest Thai" not in pane.table_tab.summary.text()
    choose(pane.metric_combo, "unknown_share")
    assert pane.table_tab.summary.isHidden()  # not a cost: nothing is ranked
    assert pane.heatmap.cell_texts()[r][c].startswith("96 %")


def point_until(qtbot, widget, where, done):
    """Move the pointer to ``where()`` (viewport coordinates) until ``done()``: again on every
    poll, 1 px apart each time, since Qt drops a move to the same place and the plot may
    still move while the legend re-wraps."""
    polls = []

    def moved():
        polls.append(1)
        QTest.mouseMove(widget, where() + QPoint(0, len(polls) % 2))
        return done()

    qtbot.waitUntil(moved, timeout=5000)


def test_hover_card_stays_inside_the_plot_at_every_corner(shared_pane, qtbot):
    pane = shared_pane
    choose(pane.metric_combo, "premium")
    hm = pane.heatmap
    vb, viewport = hm.plot.getViewBox(), hm.graphics.viewport()
    rows, cols = hm.image().shape
    for r, c in ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)):
        corner = QPointF(c + (0.05 if c == 0 else 0.95), r + (0.05 if r == 0 else 0.95))
        title = f"{hm.row_labels[r]} × {hm.col_labels[c]}\n"
        point_until(qtbot, viewport, lambda: hm.graphics.mapFromScene(vb.mapViewToScene(corner)),
                    lambda: hm.card.isVisible() and hm.card.text().startswith(title))
        inside = hm.graphics.mapFromScene(vb.sceneBoundingRect()).boundingRect()
        assert inside.contains(hm.card.geometry()), (r, c, hm.card.geometry(), inside)
        assert "unknown:" in hm.card.text()
    assert hm.readout.isHidden()  # the header readout, which clipped long text, gives way to the card
    axis = hm.plot.getAxis("left")
    point_until(qtbot, viewport, lambda: hm.graphics.mapFromScene(axis.sceneBoundingRect().center()),
                lambda: not hm.card.isVisible())
