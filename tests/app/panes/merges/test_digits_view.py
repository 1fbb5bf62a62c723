"""Merges ▸ Digits: numbers of a text cut per digit, in threes from the right and from the left,
and by a real tokenizer (cl100k groups threes from the left)."""

from __future__ import annotations

import pytest

from app.panes.merges import MergesPane


@pytest.fixture
def pane(new_pane):
    return new_pane(MergesPane)


def test_schemes_on_typed_text(pane):
    pane.apply_state({"tab": 5, "digits_text": "In 2026, 12345 people paid 1000000."})
    rows = pane.digits_view.model.rows()
    assert [r[0] for r in rows] == ["2026", "12345", "1000000"]
    assert rows[1][1:4] == ["1 · 2 · 3 · 4 · 5  (5)", "12 · 345  (2)", "123 · 45  (2)"]
    assert rows[2][2] == "1 · 000 · 000  (3)"
    assert rows[0][4] == "" and "Choose a tokenizer" in pane.digits_view.note.text()
    assert pane.state.digits_text == "In 2026, 12345 people paid 1000000."
    assert pane.controls.isHidden()  # no training controls over this tab
    pane.tabs.setCurrentIndex(0)
    assert not pane.controls.isHidden()


def test_a_real_tokenizer_column(pane, data_dir):
    from core.tokenizers import load
    path = data_dir / "tokenizers" / "cl100k_base"
    pane.apply_state({"tab": 5, "digits_text": "1234 1235 12345"})
    pane.set_tokenizer(load(path), str(path))
    rows = pane.digits_view.model.rows()
    assert [r[4] for r in rows] == ["123 · 4  (2)", "123 · 5  (2)", "123 · 45  (2)"]
    assert [r[4] for r in rows] == [r[3] for r in rows]  # cl100k: threes from the left
    assert "cl100k_base" in pane.digits_view.note.text()
