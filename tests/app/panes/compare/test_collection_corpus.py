"""The Compare pane's corpus chooser offers the shipped UDHR collection; its languages are
filtered by script, stage and direction, and measured by the atlas (cells cached on disk)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QThreadPool

from app.panes.compare import ComparePane
from app.panes.compare.state import TokenizerEntry, run_comparison
from app.settings import open_settings, set_json
from core.collection import COLLECTION


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
