"""The Cross-lingual tab compares the pane's English encoder with a multilingual one on the
same paragraph pairs when both are present. No multilingual encoder is in the shared data:
the Hugging Face cache here holds the shared all-MiniLM-L6-v2 (linked) and a small random
multilingual BERT built by the test (tests/core/encoder/tiny_multilingual.py), both found by
the app's own scan."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from app.dialogs import encoders
from app.panes.retrieval import RetrievalPane
from app.settings import open_settings, set_json
from core.data import udhr_sample_dir
from tests.app.dialogs.test_encoders import SHARED, fake_hf_cache
from tests.app.panes.retrieval.conftest import LANGUAGES, TIMEOUT
from tests.core.encoder.tiny_multilingual import UNSEEN, write_hub_snapshot

TINY = "tiny-multilingual-MiniLM"


@pytest.fixture
def two_models(monkeypatch, tmp_path):
    if not (SHARED / "model.safetensors").is_file():
        pytest.skip(f"MiniLM not found at {SHARED} (set SUBWORDSCOPE_DATA)")
    hub, data = tmp_path / "hub", tmp_path / "data"
    hub.mkdir()
    data.mkdir()
    fake_hf_cache(hub, SHARED)
    write_hub_snapshot(hub)
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    monkeypatch.setenv("SUBWORDSCOPE_DATA", str(data))
    monkeypatch.setattr(encoders, "_finder", None)
    return hub


def compared(pane) -> bool:
    ix = pane.index
    return ix is not None and ix.companion is not None and ix.companion.status == "done"


def test_the_english_model_is_compared_with_the_multilingual_one(qtbot, new_pane, two_models):
    settings = open_settings()
    set_json(settings, "retrieval/state", {"corpus_folder": str(udhr_sample_dir()), "languages": LANGUAGES,
                                           "tab": 1})
    pane = new_pane(RetrievalPane, 1400, 900, settings=settings)
    pane.show()
    qtbot.waitUntil(lambda: compared(pane), timeout=TIMEOUT)
    qtbot.waitUntil(lambda: pane.cross_view.model.rowCount() == len(LANGUAGES) - 1, timeout=TIMEOUT)
    ix = pane.index
    assert ix.model_label == "all-MiniLM-L6-v2" and ix.companion.label == TINY and ix.companion.multilingual
    rows = {r.code: r for r in ix.cross}
    assert set(rows) == set(LANGUAGES) - {"eng"}
    for r in rows.values():  # the same pairs for both models, each tokenizer's own figures
        assert r.compared.base is r.recall and r.compared.other.ranks.shape == r.recall.ranks.shape
        assert r.companion_metrics.fertility > 0 and r.companion_metrics != r.metrics
    for code in set(UNSEEN) & set(rows):  # scripts the small tokenizer never saw
        assert rows[code].companion_metrics.unknown_rate >= 0.5  # "▁" then <unk> per word
    assert rows["fra"].companion_metrics.unknown_rate < 0.05
    view = pane.cross_view
    header = [view.model.headerData(i, view.table.horizontalHeader().orientation())
              for i in range(view.model.columnCount())]
    assert "top-k share ■" in header and "top-k share ●" in header  # the plots' markers
    tip = view.model.headerData(header.index("top-k share ■"), view.table.horizontalHeader().orientation(),
                                Qt.ItemDataRole.ToolTipRole)
    assert tip == f"top-k share ({TINY})"
    col = header.index("[UNK] share ■")
    shown = {view.model.index(i, 0).data(): view.model.row(i)[col] for i in range(view.model.rowCount())}
    assert shown == pytest.approx({c: r.companion_metrics.unknown_rate for c, r in rows.items()})
    for plot, metric in ((view.by_fertility, "fertility"), (view.by_unknown, "unknown_rate")):
        x, y = plot.curve_data("companion")
        order = [r.code for r in ix.cross if r.recall is not None]
        assert x.tolist() == pytest.approx([getattr(rows[c].companion_metrics, metric) for c in order])
        assert y.tolist() == pytest.approx([rows[c].compared.other.hit_share for c in order])
        assert len(plot.links.getData()[0]) == 2 * len(order)
    text = view.summary.text()
    assert f"{TINY} (multilingual, Hugging Face cache)" in text and "Spearman" in text
    pane.cross_view.k_spin.setValue(1)  # another k: both models measured again from the stored ranks
    qtbot.waitUntil(lambda: np.allclose(view.by_fertility.curve_data("companion")[1],
                                        [rows[c].compared.other.at(1).hit_share for c in order]), timeout=5000)
