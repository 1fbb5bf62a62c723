"""The Compare pane's corpus chooser offers the shipped UDHR collection; its languages are
filtered by script, stage and direction, and measured by the atlas (cells cached on disk)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QThreadPool

from app.panes.compare import ComparePane
from app.panes.compare.state import TokenizerEntry, run_comparison
from app.settings import open_settings, set_json
from core.collection import COLLECTION
from tests.reference_adapters import reference_tokenizer


def test_run_comparison_on_the_collection_keeps_the_filtered_languages(data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(tmp_path))
    gpt2 = str(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    seen = []
    result = run_comparison([TokenizerEntry("gpt2", gpt2)], COLLECTION, "eng", {}, {},
                            progress=seen.append, filters={"scripts": ("Thai",)})
    codes = set(result.table.languages)
    assert "tha" in codes and "eng" in codes  # the reference stays
    assert codes == {"eng", "tha", "tha2"}
    assert seen and seen[-1] == pytest.approx(1.0)
    premiums = result.table.values("premium")[:, 0]
    assert premiums[result.table.languages.index("eng")] == 1.0
    assert list(tmp_path.rglob("*.json"))  # the cells are kept for the next opening


def test_the_chooser_offers_the_collection_and_enables_its_filters(new_pane, data_dir, qtbot):
    settings = open_settings()
    settings.setValue("compare/corpus_folder", str(data_dir / "udhr"))
    set_json(settings, "compare/tokenizer_paths", [])
    pane = new_pane(ComparePane, 1200, 800, settings)
    combo = pane.controls.corpus_combo
    labels = [combo.itemText(i) for i in range(combo.count())]
    assert labels[0].startswith("Shared UDHR") and "532" in labels[1] and labels[-1] == "Folder…"
    assert combo.currentIndex() == 0 and not pane.controls.script_combo.isEnabled()
    pane.set_corpus_folder(COLLECTION)
    assert pane.state.corpus_folder == COLLECTION and combo.currentIndex() == 1
    assert pane.controls.script_combo.isEnabled() and pane.controls.direction_combo.isEnabled()
    pane.controls.direction_combo.setCurrentIndex(2)  # right to left
    assert pane.controls.filters() == {"directions": ("rtl",)}
    pane.cancel()
    QThreadPool.globalInstance().waitForDone(60_000)


def _thai_pane(new_pane, qtbot, gpt2, tab):
    """A Compare pane on the collection's Thai texts (and English) with ``gpt2``, showing
    ``tab`` first; returns it once its result is shown."""
    settings = open_settings()
    settings.setValue("compare/corpus_folder", COLLECTION)
    settings.setValue("compare/tab", tab)
    set_json(settings, "compare/tokenizer_paths", [["gpt2", gpt2]])
    pane = new_pane(ComparePane, 1200, 800, settings)
    pane.filters = {"scripts": ("Thai",)}
    with qtbot.waitSignal(pane.sig_result_changed, timeout=120_000):
        pane.show()
    return pane


def test_a_cached_atlas_is_shown_before_its_tokenizers_load(new_pane, qtbot, data_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(tmp_path))
    gpt2 = str(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    run_comparison([TokenizerEntry("gpt2", gpt2)], COLLECTION, "eng", {}, {}, filters={"scripts": ("Thai",)})
    pane = _thai_pane(new_pane, qtbot, gpt2, "Atlas")  # a fresh pane: its cells come from the disk cache
    try:
        assert pane.tabs.currentWidget() is pane.atlas_tab  # reopened on the tab left open
        assert pane.atlas_tab.table.model().rowCount() == 3
        assert not pane.result.loaded  # shown without loading the tokenizer file
        assert not pane.vocab_tab.audit_button.isEnabled()
        pane.tabs.setCurrentWidget(pane.drill_tab)  # the drill-down needs it: loaded in the worker
        pane.drill_tab.select("tha", 2)
        line = pane.drill_tab.corpus["tha"].lines[1]
        qtbot.waitUntil(lambda: pane.drill_view.line == line and len(pane.drill_view.rows) == 1, timeout=60_000)
        assert pane.result.loaded and pane.vocab_tab.audit_button.isEnabled()
        ref = reference_tokenizer(data_dir, "gpt2").encode(line)
        assert list(pane.drill_view.rows[0].tokens) == list(ref.tokens)
    finally:
        pane.cancel()
        QThreadPool.globalInstance().waitForDone(60_000)


def test_the_gui_thread_only_installs_the_computed_views(new_pane, qtbot, data_dir, tmp_path, monkeypatch):
    """Every metric array, cell colour and heatmap cell text is computed in the worker."""
    import threading

    import app.panes.compare.atlas_views as atlas_views
    import app.panes.compare.heatmap_model as heatmap_model
    from core.metrics.table import CompareTable

    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(tmp_path))
    threads = []

    def spy(fn):
        def wrapped(*args, **kwargs):
            threads.append(threading.current_thread() is threading.main_thread())
            return fn(*args, **kwargs)
        return wrapped

    # private: spies counting how often the table's values and colours are computed
    monkeypatch.setattr(CompareTable, "_values", spy(CompareTable._values))
    monkeypatch.setattr(atlas_views, "_colours", spy(atlas_views._colours))
    monkeypatch.setattr(heatmap_model, "cell_texts", spy(heatmap_model.cell_texts))
    gpt2 = str(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    for tab in ("Atlas", "Table"):
        threads.clear()
        pane = _thai_pane(new_pane, qtbot, gpt2, tab)
        try:
            assert pane.atlas_tab.table.model().rowCount() == 3
            assert pane.heatmap_rows() and len(pane.heatmap.cell_texts()) == 3
            assert threads and not any(threads), tab  # computed, and never on the GUI thread
        finally:
            pane.cancel()
            QThreadPool.globalInstance().waitForDone(60_000)
