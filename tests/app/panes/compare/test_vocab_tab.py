"""Compare ▸ Vocabulary: the audit runs in the worker, its categories and examples equal core's,
an activated example sends its text out, Cancel keeps the shown audit; the pane forwards the
text and the main window puts it in the Alignment pane."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from app.panes.compare import ComparePane
from app.panes.compare.vocab_tab import VocabTab
from core.tokenizers import load, vocab_audit

VOCAB = ["[UNK]", "a", "b", "ab", "##b", "##.", "A", "\u0301", "a b"]


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps({
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": {"type": "BertNormalizer", "lowercase": True}, "post_processor": None,
        "pre_tokenizer": {"type": "BertPreTokenizer"}, "decoder": None,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {t: i for i, t in enumerate(VOCAB)}}}))
    return load(path)


@pytest.fixture
def tab(qtbot):
    widget = VocabTab()
    qtbot.addWidget(widget)
    yield widget
    widget.cancel()


def audit_in(qtbot, tab):
    with qtbot.waitSignal(tab.sig_audit_changed, timeout=60_000):
        tab.start_audit()


def test_categories_and_examples_equal_core(qtbot, tab, tiny):
    tab.set_tokenizers([("tiny", tiny)], ["ab a", "bb"])
    audit_in(qtbot, tab)
    expected = vocab_audit(tiny, ["ab a", "bb"])
    rows = [tab.categories.item(r).text() for r in range(tab.categories.count())]
    assert rows == [f"{c.title}: {c.count:,}" if c.applicable else f"{c.title}: n/a"
                    for c in expected.categories]
    tab.select_category("unreachable")
    unreachable = expected.category("unreachable")
    assert unreachable.count == 4  # ##. , A, the lone accent, "a b"
    shown = [(tab.examples.item(r, 0).text(), tab.examples.item(r, 1).text(), tab.examples.item(r, 2).text())
             for r in range(tab.examples.rowCount())]
    assert shown == [(str(e.id), e.shown, e.detail) for e in unreachable.examples]
    assert ("7", "\u25cc\u0301") in [s[:2] for s in shown]  # the lone mark on a dotted circle


def test_activated_example_requests_its_text(qtbot, tab, tiny):
    tab.set_tokenizers([("tiny", tiny)], [])
    audit_in(qtbot, tab)
    tab.select_category("unreachable")
    row = next(r for r in range(tab.examples.rowCount()) if tab.examples.item(r, 0).text() == "8")
    with qtbot.waitSignal(tab.sig_text_requested) as blocker:
        tab.examples.itemActivated.emit(tab.examples.item(row, 1))
    assert blocker.args == ["a b"]
    assert tab.examples.item(row, 1).data(Qt.ItemDataRole.UserRole) == "a b"


def test_cancel_keeps_the_shown_audit(qtbot, tab, tiny, data_dir):
    tab.set_tokenizers([("tiny", tiny)], [])
    audit_in(qtbot, tab)
    first = tab.audit
    pegasus = load(data_dir / "tokenizers" / "pegasus-unigram" / "tokenizer.json")
    tab.set_tokenizers([("pegasus", pegasus)], [])
    with qtbot.assertNotEmitted(tab.sig_audit_changed, wait=200):
        # private: the tab's worker finishing (no public signal)
        with qtbot.waitSignal(tab._runner.sig_busy_changed, timeout=10_000):
            tab.start_audit()
        tab.cancel()
    assert tab.audit is first and "cancelled" in tab.message.text()
    assert tab.audit_button.isEnabled()


def test_no_tokenizer_says_so(tab):
    tab.start_audit()
    assert "No tokenizer" in tab.message.text() and tab.audit is None


def test_pane_forwards_example_text_to_alignment(qtbot, tiny):
    from app.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    compare = window.panes["compare"]
    assert isinstance(compare, ComparePane)
    assert compare.tabs.tabText(compare.tabs.count() - 1) == "Vocabulary"
    editor = window.panes["alignment"].w.editor
    compare.vocab_tab.sig_text_requested.emit("a b")
    assert editor.toPlainText() == "a b"
    assert window.tabs.currentWidget() is window.panes["alignment"]
    editor.undo()  # one undoable edit: the user's text comes back
    assert editor.toPlainText() != "a b"
    window.shutdown()


def test_the_progress_bar_shows_only_while_an_audit_runs(qtbot, tab, tiny, data_dir):
    assert tab.progress.isHidden()
    tab.set_tokenizers([("tiny", tiny)], ["ab a"])
    with qtbot.waitSignal(tab.sig_audit_changed, timeout=60_000):
        tab.start_audit()
        assert not tab.progress.isHidden()
    qtbot.waitUntil(lambda: not tab.busy)
    assert tab.progress.isHidden()  # not a blank full bar once the audit is shown
    pegasus = load(data_dir / "tokenizers" / "pegasus-unigram" / "tokenizer.json")
    tab.set_tokenizers([("pegasus", pegasus)], [])
    tab.start_audit()
    assert not tab.progress.isHidden()
    tab.cancel()
    assert tab.progress.isHidden() and "cancelled" in tab.message.text()
