"""The BPE tab's "Filter words…" box: the typed text is a literal, case-insensitive
substring (regex characters mean themselves); a huge paste is searched for only up to
a cap, with a note, and makes Qt print no warning."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from app.panes.merges import MergesPane
from app.panes.merges.bpe_view import MAX_FILTER_CHARS

TEXT = "f(x) a[1] back\\slash star* plain dot.s plus+ FX"
N_WORDS = 20  # punctuation marks are words of their own: f ( x ) a [ 1 ] back \\ slash …


@pytest.fixture
def pane(new_pane, qtbot):
    p = new_pane(MergesPane)
    p.train_on("text")
    with qtbot.waitSignal(p.sig_trainer_changed, timeout=5000):
        p.controls.text_edit.setPlainText(TEXT)
    return p


@pytest.fixture
def qt_messages():
    seen: list[str] = []

    def handler(mode, context, message):
        if mode != QtCore.QtMsgType.QtDebugMsg:
            seen.append(message)

    previous = QtCore.qInstallMessageHandler(handler)
    yield seen
    QtCore.qInstallMessageHandler(previous)


def shown(view) -> list[str]:
    proxy = view.word_proxy
    return sorted(proxy.data(proxy.index(r, 0)) for r in range(proxy.rowCount()))


@pytest.mark.parametrize("typed, expected", [
    ("(", ["("]), ("[", ["["]), ("\\", ["\\"]), ("*", ["*"]), (".", ["."]), ("+", ["+"]),
    ("[1", []), ("a.", []), ("^p", []), ("s$", []), (".*", []),
    ("fx", ["FX"]), ("x", ["FX", "x"]), ("sla", ["slash"]),
])
def test_metacharacters_filter_literally(pane, qt_messages, typed, expected):
    view = pane.bpe_view
    assert len(shown(view)) == N_WORDS
    view.word_filter.setText(typed)
    assert shown(view) == expected
    assert view.filter_note.isHidden()
    assert qt_messages == []


def test_a_huge_filter_warns_nothing_and_leaves_the_pane_usable(pane, qt_messages, qtbot):
    view = pane.bpe_view
    huge = "(" * 100_000 + "a" * 100_000
    view.word_filter.setText(huge)
    assert qt_messages == []
    assert shown(view) == []  # no word holds the first MAX_FILTER_CHARS characters
    held = len(view.word_filter.text())
    assert not view.filter_note.isHidden()
    assert f"first {MAX_FILTER_CHARS:,}" in view.filter_note.text()
    assert f"{held:,}" in view.filter_note.text()
    view.word_filter.setText("star")
    assert shown(view) == ["star"] and view.filter_note.isHidden()
    view.word_filter.clear()
    assert len(shown(view)) == N_WORDS
    merges = len(pane.trainer.merges)
    pane.step()
    assert len(pane.trainer.merges) == merges + 1
    assert qt_messages == []


def test_a_long_filter_of_one_word_still_finds_it(pane, qt_messages, qtbot):
    word = "q" * (MAX_FILTER_CHARS + 50)
    with qtbot.waitSignal(pane.sig_trainer_changed, timeout=5000):
        pane.controls.text_edit.setPlainText(f"{word} other")
    view = pane.bpe_view
    view.word_filter.setText(word)
    assert shown(view) == [word[:80] + "…"]  # the table cuts long words; the filter does not
    assert not view.filter_note.isHidden()
    assert qt_messages == []
