"""The Atlas tab: the coloured languages × tokenizers table (sortable, double-click opens a cell
in Alignment), the sorted premium curves, the map (hover card, click picks the language),
the fairness summary with its tooltips, and the exports."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QThreadPool, Qt

from app.panes.compare import ComparePane
from app.panes.compare.atlas_tab import AtlasTab
from app.panes.compare.atlas_views import FIXED, AtlasData
from app.settings import open_settings, set_json
from core.metrics import compare_table
from core.metrics.atlas import collection_corpus, collection_languages
from core.metrics.fairness import fairness
from core.metrics.measures import SUMMARY_TOOLTIPS
from core.tokenizers import load

CODES = ("eng", "hin", "arb", "tha", "amh", "fra", "rus", "jpn")


@pytest.fixture(scope="module")
def atlas(data_dir):
    tokenizers = [load(str(data_dir / "tokenizers" / n / "tokenizer.json")) for n in ("gpt2", "bert-base-uncased")]
    corpus = collection_corpus(CODES)
    table = compare_table(tokenizers, corpus, reference="eng", names=["gpt2", "bert"])
    return AtlasData.of(table, collection_languages(corpus))


@pytest.fixture
def tab(qtbot, atlas):
    tab = AtlasTab()
    qtbot.addWidget(tab)
    tab.resize(1200, 700)
    tab.show_data(atlas, "premium")
    tab.show()
    qtbot.waitExposed(tab)
    return tab


def shown_column(tab, column):
    model = tab.table.model()
    return [model.index(r, column).data() for r in range(model.rowCount())]


def test_the_table_shows_every_cell_of_the_result(tab, atlas):
    model = tab.table.model()
    assert model.rowCount() == len(CODES) and model.columnCount() == len(FIXED) + 2
    names = shown_column(tab, 0)
    assert "Hindi" in names and "Amharic" in names and "Thai" in names
    premiums = atlas.table.values("premium")
    for r in range(model.rowCount()):
        row = tab.table.atlas.row_of(r)
        for j in range(2):
            text = model.index(r, len(FIXED) + j).data().lstrip("⚠ ")
            assert float(text) == pytest.approx(premiums[row, j], rel=5e-3)
    hin = names.index("Hindi")
    assert model.index(hin, 1).data() == "Devanagari"
    assert model.index(hin, len(FIXED)).data(Qt.ItemDataRole.BackgroundRole) is not None


def test_sorting_by_a_tokenizer_column_orders_its_premiums(tab, atlas):
    tab.table.sortByColumn(len(FIXED), Qt.SortOrder.DescendingOrder)
    rows = [tab.table.atlas.row_of(r) for r in range(len(CODES))]
    col = atlas.premiums()[rows, 0]
    finite = col[np.isfinite(col)]
    assert list(finite) == sorted(finite, reverse=True)
    assert atlas.table.languages[rows[0]] != "eng"
    tab.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    names = shown_column(tab, 0)
    assert names == sorted(names, key=str.casefold)


def test_double_click_emits_the_open_in_alignment_request(qtbot, tab, atlas):
    model = tab.table.model()
    r = shown_column(tab, 0).index("Thai")
    index = model.index(r, len(FIXED) + 1)
    tab.table.scrollTo(index)
    pos = tab.table.visualRect(index).center()
    qtbot.mouseClick(tab.table.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    with qtbot.waitSignal(tab.sig_cell_opened) as blocker:
        qtbot.mouseDClick(tab.table.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == ["tha", 1]
    with qtbot.assertNotEmitted(tab.sig_cell_opened):  # the name column opens nothing
        tab.table.doubleClicked.emit(model.index(r, 0))


def test_curves_are_sorted_premiums_with_a_hover_naming_the_language(tab, atlas):
    premiums = atlas.premiums()
    for j in range(2):
        x, y = tab.curves.curve_points(j)
        assert list(y) == sorted(premiums[np.isfinite(premiums[:, j]), j])
        assert list(x) == list(range(len(y)))
    x, y = tab.curves.curve_points(0)
    top = int(np.argmax(y))
    worst = atlas.name(int(np.nanargmax(premiums[:, 0])))
    text = tab.curves.readout_at(top, np.log10(y[top]))  # the axis is logarithmic
    assert text.startswith("gpt2: ") and worst in text
    assert tab.curves.legend is not None and len(tab.curves.legend.items) == 2  # beside the plot


def test_map_hover_card_and_click_select_the_language(qtbot, tab, atlas):
    tab.views.setCurrentIndex(2)
    qtbot.wait(50)
    hin = atlas.table.languages.index("hin")
    lang = atlas.languages[hin]
    card = tab.map.readout_at(lang.longitude, lang.latitude)
    assert "Hindi" in card and "Devanagari" in card and "gpt2" in card
    assert f"{atlas.values('tokens')[hin, 0]:,.0f} tokens" in card
    assert tab.map.readout_at(-150.0, -50.0) == ""  # the South Pacific: no language
    vb = tab.map.plot.getViewBox()
    scene = vb.mapViewToScene(QPointF(lang.longitude, lang.latitude))
    view_pos = tab.map.graphics.mapFromScene(scene)
    with qtbot.waitSignal(tab.sig_language_picked) as blocker:
        qtbot.mouseClick(tab.map.graphics.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(view_pos.x(), view_pos.y()))
    assert blocker.args == ["hin"]
    assert tab.table.atlas.row_of(tab.table.currentIndex().row()) == hin
    tab.set_map_tokenizer(1)
    assert "bert" in tab.map.readout_at(lang.longitude, lang.latitude)


def test_fairness_summary_numbers_and_tooltips(tab, atlas):
    for s in fairness(atlas.table):
        assert tab.summary.text(s.tokenizer, "gini") == f"{s.gini:.3f}"
        assert tab.summary.text(s.tokenizer, "median_premium") == f"{s.median_premium:.3g}×"
        assert tab.summary.text(s.tokenizer, "worst").startswith(atlas.name(s.worst[0][0]))
        for key in ("median_premium", "gini", "over_2x", "over_4x", "worst"):
            assert tab.summary.tooltip(s.tokenizer, key).startswith(SUMMARY_TOOLTIPS[key])


def test_exports_write_the_table_and_every_plot(tab, atlas, tmp_path):
    tab.table.sortByColumn(len(FIXED), Qt.SortOrder.AscendingOrder)
    assert tab.export_csv(str(tmp_path / "atlas.csv"))
    lines = (tmp_path / "atlas.csv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(CODES) and lines[0].startswith("language,code,iso639_3,script,latitude")
    assert lines[1].split(",")[1] == atlas.table.languages[tab.table.atlas.row_of(0)]
    for plot in (tab.curves, tab.map):
        for fmt in ("png", "svg"):
            path = plot.export_button.export_to(tmp_path / f"{plot.export_button.name}.{fmt}")
            assert path is not None and path.stat().st_size > 0


def test_the_pane_gives_its_result_to_the_atlas_and_opens_a_cell(qtbot, new_pane, data_dir, tmp_path):
    folder = tmp_path / "udhr"
    folder.mkdir()
    for code in ("eng", "hin", "tha"):
        shutil.copy(data_dir / "udhr" / f"{code}.txt", folder / f"{code}.txt")
    gpt2 = str(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    settings = open_settings()
    settings.setValue("compare/corpus_folder", str(folder))
    set_json(settings, "compare/tokenizer_paths", [["gpt2", gpt2]])
    pane = new_pane(ComparePane, 1200, 800, settings)
    with qtbot.waitSignal(pane.sig_result_changed, timeout=60_000):
        pane.show()
    try:
        model = pane.atlas_tab.table.model()
        assert model.rowCount() == 3
        assert "Hindi" in [model.index(r, 0).data() for r in range(3)]
        r = [model.index(k, 0).data() for k in range(3)].index("Thai")
        texts, tokenizers = [], []
        pane.sig_text_requested.connect(texts.append)
        pane.sig_tokenizer_requested.connect(lambda p, label: tokenizers.append((p, label)))
        pane.atlas_tab.table.doubleClicked.emit(model.index(r, len(FIXED)))
        assert tokenizers == [(gpt2, "gpt2")]
        lines = (folder / "tha.txt").read_text(encoding="utf-8").splitlines()
        assert texts == ["\n".join(line for line in lines if line.strip())]
    finally:
        pane.cancel()
        QThreadPool.globalInstance().waitForDone(60_000)


def test_the_selected_language_is_marked_on_every_curve_and_on_the_map(tab, atlas):
    premiums = atlas.premiums()
    amh = atlas.table.languages.index("amh")
    tab.select_language("amh")
    expected = []
    for j in range(2):
        x, y = tab.curves.curve_points(j)
        if np.isfinite(premiums[amh, j]):
            rank = int(np.flatnonzero(y == premiums[amh, j])[0])
            expected.append((rank, float(y[rank])))
    assert tab.curves.mark(amh) == expected and expected  # a circle on each curve where it is ranked
    assert tab.curves.mark_label.textItem.toPlainText() == "Amharic"
    assert tab.map.marked_row == amh and tab.map.ring_label.textItem.toPlainText().startswith("Amharic ")
    tab.select_language("tha")  # the mark follows the selection
    assert tab.curves.marked_row == tab.map.marked_row == atlas.table.languages.index("tha")
    assert tab.map.ring_label.textItem.toPlainText().startswith("Thai ")


def test_every_worst_served_name_is_readable(qtbot, tab, atlas):
    """The ten worst-served languages wrap inside their row: nothing is cut."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QFontMetrics

    summary = tab.summary
    tab.resize(700, 700)  # narrow: the list needs several lines
    qtbot.wait(50)
    for r, s in enumerate(fairness(atlas.table)):
        text = summary.text(s.tokenizer, "worst")
        assert all(atlas.name(i) in text for i, _p in s.worst)
        width = summary.columnWidth(summary.columnCount() - 1) - 8
        needed = QFontMetrics(summary.font()).boundingRect(QRect(0, 0, width, 10_000),
                                                           int(Qt.TextFlag.TextWordWrap), text).height()
        assert summary.rowHeight(r) >= needed
