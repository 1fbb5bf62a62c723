"""The Compare pane keeps its options in the one store (``state.json``, the stored-state
protocol of every pane); the options an older version kept as ``compare/*`` keys of
``settings.ini`` are moved there once, checked field by field."""

from __future__ import annotations

from app.panes.compare import ComparePane
from app.panes.compare.sampling import DEFAULT_SIZES
from app.panes.compare.state import CompareState
from app.settings import open_settings, read_state, set_json, state_file
from core.collection import COLLECTION


def _legacy_settings(tmp_path):
    settings = open_settings()
    settings.setValue("compare/corpus_folder", COLLECTION)
    set_json(settings, "compare/tokenizer_paths", [["mine", str(tmp_path / "tok.json")], ["gone", "/no/such.json"]])
    settings.setValue("compare/metric", "bytes_per_token")
    settings.setValue("compare/reference", "hin")
    settings.setValue("compare/damage_form", "NFKC")
    set_json(settings, "compare/sampling", ["en 10\nsw 2", 3.5, 1000])
    settings.setValue("compare/tab", "Sampling")
    settings.setValue("compare/last_dir", str(tmp_path))
    settings.sync()
    return settings


def test_older_settings_keys_are_moved_into_the_store_once(new_pane, tmp_path):
    (tmp_path / "tok.json").write_text("{}", encoding="utf-8")
    settings = _legacy_settings(tmp_path)
    pane = new_pane(ComparePane, settings=settings)
    assert [(e.label, e.path) for e in pane.entries] == [("mine", str(tmp_path / "tok.json"))]  # a gone file is left out
    assert (pane.state.corpus_folder, pane.state.metric, pane.state.reference) == (COLLECTION, "bytes_per_token", "hin")
    assert pane.metric_combo.currentData() == "bytes_per_token" and pane.normalization.form() == "NFKC"
    assert pane.sampling.inputs() == ("en 10\nsw 2", 3.5, 1000.0)
    assert pane.tabs.tabText(pane.tabs.currentIndex()) == "Sampling"
    assert not [k for k in settings.allKeys() if k.startswith("compare/")]  # moved, not copied
    assert state_file(settings).flush()
    stored = read_state(settings, "compare/state")
    assert stored == {**CompareState().to_dict(), "corpus_folder": COLLECTION, "metric": "bytes_per_token",
                      "reference": "hin", "damage_form": "NFKC", "sampling": ["en 10\nsw 2", 3.5, 1000.0],
                      "tab": "Sampling", "last_dir": str(tmp_path),
                      "tokenizer_paths": [["mine", str(tmp_path / "tok.json")]]}
    settings.setValue("compare/metric", "premium")  # an older version run again: the store wins
    again = new_pane(ComparePane, settings=settings)
    assert again.state.metric == "bytes_per_token" and again.state.damage_form == "NFKC"


def test_a_bad_older_key_keeps_the_default(new_pane, tmp_path):
    settings = open_settings()
    settings.setValue("compare/metric", "no-such-metric")
    set_json(settings, "compare/sampling", ["en 10", -5, 0])
    settings.setValue("compare/damage_form", "NFD")
    pane = new_pane(ComparePane, settings=settings)
    assert (pane.state.metric, pane.state.damage_form) == ("fertility", "NFD")
    assert pane.sampling.inputs() == (DEFAULT_SIZES, 2.0, 5_000_000.0)  # the tab's defaults


def test_every_edit_is_stored_at_once(new_pane, tmp_path):
    settings = open_settings()
    pane = new_pane(ComparePane, settings=settings)
    pane.metric_combo.setCurrentIndex(pane.metric_combo.findData("premium"))
    assert read_state(settings, "compare/state")["metric"] == "premium"
    pane.set_corpus_folder(str(tmp_path))
    assert read_state(settings, "compare/state")["corpus_folder"] == str(tmp_path)
    pane.tabs.setCurrentIndex(3)
    assert read_state(settings, "compare/state")["tab"] == pane.tabs.tabText(3)
