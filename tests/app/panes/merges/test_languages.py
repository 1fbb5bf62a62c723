"""Merges ▸ Languages: classic and parity-aware BPE side by side on parallel UDHR texts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.panes.merges import MergesPane
from app.panes.merges.languages import SYNC_STEPS, LanguagesView
from app.panes.merges.parallel import parallel_texts, train_both
from core.data import udhr_sample_dir
from core.training.parity import gini

FEW = ["arb", "eng", "hin", "tha"]  # in the shipped sample and the shared 29


@pytest.fixture
def view(qtbot):
    v = LanguagesView({"codes": FEW, "target": 5})
    qtbot.addWidget(v)
    v.resize(1200, 800)
    with qtbot.waitSignal(v.runner.sig_returned, timeout=30000):
        v.retrain()
    idle(v, qtbot)
    return v


def idle(view, qtbot):
    """Wait until the task has ended (its result arrives just before)."""
    qtbot.waitUntil(lambda: not view.runner.busy, timeout=30000)


def table(view, key):
    m = view.models[key]
    return [[m.data(m.index(r, c)) for c in range(m.columnCount())] for r in range(m.rowCount())]


def test_texts_are_the_shared_29_or_the_shipped_sample():
    what, texts = parallel_texts()
    codes = [t.code for t in texts]
    assert set(FEW) <= set(codes) and codes == sorted(codes)
    shipped = sorted(p.stem for p in udhr_sample_dir().glob("*.txt"))
    assert len(codes) in (29, len(shipped)) and str(len(codes)) in what
    hindi = next(t for t in texts if t.code == "hin")
    assert hindi.name == "Hindi" and any("\u0900" <= c <= "\u097f" for c in hindi.sample)


def test_tables_show_each_trainers_tokens_and_gini(view):
    classic, parity = view.trainers
    assert view.result.codes == tuple(FEW) and len(parity.merges) == 5
    for key, trainer in (("classic", classic), ("parity", parity)):
        rows = table(view, key)
        assert [r[0] for r in rows] == ["Arabic", "English", "Hindi", "Thai"]
        assert [int(str(r[1]).replace(",", "")) for r in rows] == list(trainer.tokens)
        costs = trainer.costs()
        assert view.models[key].highlight == costs.index(max(costs))
        assert f"Gini {gini(trainer.tokens):.4f}" in view.summaries[key].text()
    assert "for " in view.summaries["parity"].text()  # names the language that chose
    _, y = view.plot.curve_data("Parity-aware BPE")
    assert list(y) == parity.curve()[0]


def test_step_undo_and_short_run_to_move_both_trainers(view):
    classic, parity = view.trainers
    before = (classic.merges, parity.merges)
    view.step_button.click()
    assert len(classic.merges) == len(parity.merges) == 6 and view.target_spin.value() == 6
    view.undo_button.click()
    assert (classic.merges, parity.merges) == before
    view.target_spin.setValue(5 + SYNC_STEPS)
    view.run_button.click()
    assert not view.runner.busy and len(parity.merges) == 5 + SYNC_STEPS
    assert view.state()["target"] == 5 + SYNC_STEPS


def test_long_run_goes_to_the_worker_and_cancel_keeps_the_trainers(view, qtbot):
    shown = view.trainers
    view.run_to(5 + SYNC_STEPS + 1)
    assert view.runner.busy and not view.step_button.isEnabled()
    view.cancel()
    idle(view, qtbot)
    assert view.trainers == shown and len(shown[1].merges) == 5
    assert view.target_spin.value() == 5 and view.step_button.isEnabled()
    with qtbot.waitSignal(view.runner.sig_returned, timeout=30000):
        view.run_to(300)
    assert len(view.trainers[1].merges) == 300
    expected = train_both([t for t in view.texts if t.code in FEW], 300)
    assert view.trainers[1].merges == expected.parity.merges
    assert view.trainers[0].merges == expected.classic.merges


def test_unticking_every_language_says_what_to_do(view, qtbot):
    view.none_button.click()
    qtbot.waitUntil(lambda: view.result is None, timeout=5000)
    assert "Tick at least one language" in view.message.text()
    assert view.models["parity"].rowCount() == 0 and view.state()["codes"] == []


def test_pane_tab_trains_on_first_show_and_remembers_the_state(new_pane, qtbot):
    pane = new_pane(MergesPane)
    pane.show()
    assert pane.languages_view.result is None and not pane.languages_view.runner.busy
    pane.languages_view.set_ticked(FEW[:2])
    with qtbot.waitSignal(pane.languages_view.runner.sig_returned, timeout=30000):
        pane.tabs.setCurrentWidget(pane.languages_view)
    assert not pane.controls.isVisible()
    assert pane.languages_view.result.codes == ("arb", "eng")
    assert pane.state.languages["codes"] == ["arb", "eng"]
    pane.tabs.setCurrentIndex(0)
    assert pane.controls.isVisible()


def test_shortcuts_step_the_tab_shown(new_pane, qtbot):
    pane = new_pane(MergesPane)
    pane.show()
    qtbot.waitExposed(pane)
    view = pane.languages_view
    view.set_ticked(FEW[:2])
    with qtbot.waitSignal(view.runner.sig_returned, timeout=30000):
        pane.tabs.setCurrentWidget(view)
    idle(view, qtbot)
    pane.activateWindow()
    view.tables["parity"].setFocus()
    qtbot.waitUntil(lambda: pane.isActiveWindow())
    k, bpe_k = len(view.trainers[1].merges), len(pane.trainer.merges)
    ctrl = Qt.KeyboardModifier.ControlModifier
    qtbot.keyClick(view.tables["parity"], Qt.Key.Key_Right, ctrl)
    assert len(view.trainers[1].merges) == len(view.trainers[0].merges) == k + 1
    qtbot.keyClick(view.tables["parity"], Qt.Key.Key_Left, ctrl)
    qtbot.keyClick(view.tables["parity"], Qt.Key.Key_Left, ctrl)
    assert len(view.trainers[1].merges) == k - 1
    with qtbot.waitSignal(view.runner.sig_returned, timeout=30000):  # a long move: the worker
        qtbot.keyClick(view.tables["parity"], Qt.Key.Key_Home, ctrl)
    assert view.trainers[1].merges == [] and len(pane.trainer.merges) == bpe_k


@pytest.mark.parametrize("stored", [None, [], "x", {"codes": [["eng"], 3, "eng"], "target": True,
                                                    "normalization": "bytes"},
                                    {"codes": "eng", "target": -4}])
def test_odd_stored_state_falls_back_to_defaults(qtbot, stored):
    v = LanguagesView(stored)
    qtbot.addWidget(v)
    state = v.state()
    assert state["target"] == 200 and state["normalization"] == "parallel"
    assert state["codes"] in (None, ["eng"])
