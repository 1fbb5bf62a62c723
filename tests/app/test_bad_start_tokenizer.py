"""A tokenizer that fails to load keeps saying so: the banner outlives the results of the
tokenizer still in use, and a bad --tokenizer at start-up falls back to a real tokenizer."""

from __future__ import annotations

import pytest

from app.main_window import MainWindow
from app.workers import wait_for_workers


@pytest.fixture(autouse=True)
def _settle_workers(qtbot):
    yield
    wait_for_workers(30)


def _banner(window):
    banner = window.panes["alignment"].w.banner
    return banner.text() if not banner.isHidden() else ""


def test_a_bad_start_tokenizer_falls_back_and_the_banner_stays(qtbot, tmp_path):
    bad = tmp_path / "tokenizer.json"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not a tokenizer")
    window = MainWindow()
    qtbot.addWidget(window)
    pane = window.panes["alignment"]
    assert window.load_tokenizer(str(bad), wait=True) is not None  # what --tokenizer does
    window.restore_tokenizer()  # the start-up timer: the fallback already asked, nothing more
    qtbot.waitUntil(lambda: window._chosen, timeout=30_000)
    assert "bert-base-uncased" in window._status_label.text()  # not the teaching vocabulary
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=30_000):
        pane.w.mode.setCurrentIndex(pane.w.mode.findData("tokenize"))
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=30_000):
        window.set_text("a result of the tokenizer in use")
    assert str(bad) in _banner(window) and "instead" in _banner(window)
    good = window.settings.value("tokenizer/current")
    with qtbot.waitSignal(window._loader.sig_returned, timeout=30_000):
        window.load_tokenizer(good)  # a load that works takes the message away
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=30_000):
        window.set_text("and now all is well")
    assert "Could not load" not in _banner(window)


def test_a_bad_file_later_keeps_the_shown_tokenizer_and_says_so(qtbot, tmp_path):
    window = MainWindow()
    qtbot.addWidget(window)
    window.use_demo_tokenizer()
    bad = tmp_path / "vocab.txt"
    bad.write_bytes(b"")
    window.load_tokenizer(str(bad), wait=True)
    pane = window.panes["alignment"]
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=30_000):
        window.set_text("still the teaching vocabulary")
    assert "Could not load tokenizer" in _banner(window)
    assert not window._loader.busy  # no fallback once something was chosen
