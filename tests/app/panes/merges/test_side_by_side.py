"""Merges ▸ BPE vs WordPiece: the lecture reading's side-by-side merge table and its trade-off
table (characters, merges, word level with [UNK]), read from the tab's models; WordPiece
trains on the tab's worker."""

from __future__ import annotations

import pytest

from app.panes.merges import MergesPane
from tests.app.panes.merges.test_pane import TRADE_OFF_TEXT


@pytest.fixture
def pane(new_pane):
    return new_pane(MergesPane)


def _trained(qtbot, pane) -> None:
    """Wait for the WordPiece column (it trains off the GUI thread)."""
    qtbot.waitUntil(lambda: not pane.side_view.training, timeout=30000)


def test_six_merges_side_by_side_as_in_the_reading(pane, qtbot):
    pane.apply_state({"source": "builtin", "tie_break": "smallest", "target": 6, "tab": 4})
    _trained(qtbot, pane)
    assert pane.tabs.currentWidget() is pane.side_view
    rows = pane.side_view.merges_model.rows()
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r[1] for r in rows] == ["e + s", "es + t", "est + </w>", "l + o", "lo + w", "e + w"]
    assert [r[3] for r in rows] == ["i + d", "l + o", "s + t", "lo + w", "w + id", "r + </w>"]
    assert rows[0][4] == "0.3333" and rows[0][2] == 9
    pane.undo()  # the WordPiece column follows the shared step controls
    _trained(qtbot, pane)
    assert [r[3] for r in pane.side_view.merges_model.rows()][-1] == "w + id"


def test_trade_off_rows_with_the_word_level_baseline(pane, qtbot):
    pane.apply_state({"source": "text", "text": TRADE_OFF_TEXT, "tie_break": "first", "target": 30,
                      "heldout": "learners", "tab": 4})
    _trained(qtbot, pane)
    rows = {r[0]: r[1:] for r in pane.side_view.tradeoff_model.rows()}
    assert rows["characters (0 merges)"] == [17, 107, "l e a r n e r s </w>"]
    assert rows["BPE, 30 merges"] == [47, 26, "learn er s</w>"]
    assert rows["word level (+ [UNK])"] == [12, 16, "[UNK]"]
    assert rows["WordPiece, 30 merges"][0] == 47
    pane.run_to(10)
    assert {r[0]: r[1:] for r in pane.side_view.tradeoff_model.rows()}["BPE, 10 merges"] == \
        [27, 65, "l e a r n er s</w>"]


def test_wordpiece_trains_off_the_gui_thread_and_cancel_keeps_the_column(pane, qtbot):
    """A corpus near the tab's limits: the GUI thread returns with the BPE column complete
    while WordPiece is still training; Cancel stops it and leaves the column as it was;
    the next step asks again and the column catches up with BPE."""
    words = " ".join(f"w{i}ord{i % 7}x{i % 13}" for i in range(2500))
    pane.apply_state({"source": "text", "text": words, "tie_break": "first", "target": 150, "tab": 4})
    view = pane.side_view
    assert view.training and view.cancel_button.isVisibleTo(view)  # returned at once
    assert len(view.merges_model.rows()) == 150
    assert view.merges_model.rows()[-1][1]  # BPE's column is complete already
    view.cancel_button.click()
    assert not view.training and view.wordpiece is None
    assert all(r[3] == "" for r in view.merges_model.rows())  # nothing invented
    pane.step()
    assert view.training
    _trained(qtbot, pane)
    rows = view.merges_model.rows()
    assert len(rows) == 151 and all(r[3] for r in rows)
    assert len(view.wordpiece.merges) == 151
    assert any(r[0].startswith("WordPiece, 151 merges") for r in view.tradeoff_model.rows())
