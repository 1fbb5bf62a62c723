"""The main window: every pane present, --screenshot writes a PNG, state survives a restart."""

from __future__ import annotations

import os
import sys

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.__main__ import main
from app.first_run import DEFAULT_TOKENIZER
from app.main_window import PANES, MainWindow
from app.workers import GUI_SWITCH_INTERVAL, wait_for_workers
from app.tokenizer_load import LoadPhase


@pytest.fixture(autouse=True)
def _settle_workers(qtbot):
    """Let every pane's background work finish before the windows are deleted."""
    yield
    wait_for_workers(30)


def test_window_builds_with_every_pane(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    assert list(window.panes) == [name for name, _ in PANES]  # PANES: (short name, pane class)
    assert all(type(window.panes[name]) is cls for name, cls in PANES)
    assert window.tabs.count() == len(PANES)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles[0] == "Alignment"
    window.show_pane("alignment")
    assert window.tabs.currentWidget() is window.panes["alignment"]


def test_screenshot_writes_a_png(qtbot, tmp_path):
    text = tmp_path / "text.txt"
    text.write_text("Caf\u00e9 au lait \U0001F600", encoding="utf-8")
    out = tmp_path / "shot.png"
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)  # Python's default
    try:
        assert main(["--screenshot", str(out), "--pane", "alignment", "--text-file", str(text),
                     "--size", "1400x900"]) == 0
        assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL)  # the GUI thread favoured
    finally:
        sys.setswitchinterval(before)
    image = QImage(str(out))
    assert not image.isNull() and (image.width(), image.height()) == (1400, 900)
    for window in QApplication.topLevelWidgets():  # main() leaves its window up: later tests
        if isinstance(window, MainWindow):  # that move the pointer would land in it
            qtbot.addWidget(window)


def test_state_is_restored_across_a_restart(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    pane = window.panes["alignment"]
    with qtbot.waitSignal(pane.sig_encoding_changed):
        window.set_text("to be or not to be")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.mode.setCurrentIndex(pane.w.mode.findData("align"))
    window.close()  # closeEvent saves every pane's state
    again = MainWindow()
    qtbot.addWidget(again)
    restored = again.panes["alignment"]
    assert restored.w.editor.toPlainText() == "to be or not to be"
    assert restored.state.mode == "align"
    qtbot.waitUntil(lambda: restored.result is not None)  # computed on the pane's worker
    assert restored.result.text == "to be or not to be"


def test_open_from_cache_lists_the_hub_cache(qtbot, tmp_path, monkeypatch):
    snap = tmp_path / "hub" / "models--org--tiny" / "snapshots" / "0123abcd"
    snap.mkdir(parents=True)
    (snap / "vocab.txt").write_text("[UNK]\nhello\n", encoding="utf-8")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    window = MainWindow()
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.cache_scan.sig_returned):
        window.cache_menu.aboutToShow.emit()
        (scanning,) = window.cache_menu.actions()  # the GUI thread did not wait for the scan
        assert scanning.text().startswith("Scanning") and not scanning.isEnabled()
    labels = [a.text() for a in window.cache_menu.actions()]
    assert labels == ["org/tiny (vocab.txt, 0123abcd)"]
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    with qtbot.waitSignal(window.cache_scan.sig_returned):
        window.cache_menu.aboutToShow.emit()
    (only,) = window.cache_menu.actions()
    assert only.text().startswith("No tokenizers in") and not only.isEnabled()


def test_open_from_cache_skips_an_unreadable_folder(qtbot, tmp_path, monkeypatch):
    hub = tmp_path / "hub"
    for name in ("models--org--locked", "models--org--tiny"):
        snap = hub / name / "snapshots" / "0123abcd"
        snap.mkdir(parents=True)
        (snap / "vocab.txt").write_text("[UNK]\nhello\n", encoding="utf-8")
    locked = hub / "models--org--locked" / "snapshots"
    real_scandir = os.scandir

    def scandir(path="."):  # root may read any folder: the permission error is simulated
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    window = MainWindow()
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.cache_scan.sig_returned):
        window.cache_menu.aboutToShow.emit()
    actions = window.cache_menu.actions()
    assert [a.text() for a in actions if a.isEnabled()] == ["org/tiny (vocab.txt, 0123abcd)"]
    assert actions[-1].text() == f"1 unreadable folder(s) skipped, e.g. {locked}"


def _window_and_bad_file(qtbot, tmp_path, content: bytes):
    """A fresh window, its Alignment pane and a tokenizer.json holding ``content``."""
    bad = tmp_path / "tokenizer.json"
    bad.write_bytes(content)
    window = MainWindow()
    qtbot.addWidget(window)
    return window, window.panes["alignment"], bad


def test_a_bad_tokenizer_file_gives_a_message_and_keeps_the_text(qtbot, tmp_path):
    window, pane, bad = _window_and_bad_file(qtbot, tmp_path, b'{"model": {"type": "WordPiece", "vocab": ')
    with qtbot.waitSignal(pane.sig_encoding_changed):
        window.set_text("keep me")
    window.load_tokenizer(str(bad), wait=True)
    assert "Could not load tokenizer" in window.statusBar().currentMessage()
    assert str(bad) in window.statusBar().currentMessage()
    assert pane.w.editor.toPlainText() == "keep me"
    assert window.settings.value("tokenizer/current") != str(bad)  # never remembered


def test_loading_a_tokenizer_reaches_every_pane_and_is_remembered(qtbot, data_dir):
    path = data_dir / "tokenizers" / "bert-base-uncased" / "vocab.txt"
    window = MainWindow()
    qtbot.addWidget(window)
    seen = {}
    for name, pane in window.panes.items():
        original = pane.set_tokenizer
        pane.set_tokenizer = lambda tok, label, n=name, f=original: (seen.__setitem__(n, label), f(tok, label))
    window.load_tokenizer(str(path), wait=True)
    assert seen == {name: str(path) for name in window.panes}
    assert window.settings.value("tokenizer/current") == str(path)
    assert [a.text() for a in window.recent_menu.actions()] == [str(path)]


def test_a_tokenizer_asked_for_beats_the_remembered_one(qtbot, data_dir):
    bert = str(data_dir / "tokenizers" / "bert-base-uncased" / "vocab.txt")
    gpt2 = str(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    first = MainWindow()
    qtbot.addWidget(first)
    first.load_tokenizer(gpt2, wait=True)  # remembered for the next run
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_tokenizer(bert, wait=True)  # what --tokenizer does
    window.restore_tokenizer()  # what the start-up timer runs once the event loop starts
    assert not window.loader.busy
    assert window.settings.value("tokenizer/current") == bert
    fresh = MainWindow()  # no tokenizer asked for: the remembered one comes back
    qtbot.addWidget(fresh)
    with qtbot.waitSignal(fresh.loader.sig_returned, timeout=30000):
        fresh.restore_tokenizer()
    assert fresh.settings.value("tokenizer/current") == bert


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--pane", "nosuch"], "invalid choice"),
        (["--size", "12xq"], "WIDTHxHEIGHT"),
        (["--text-file", "/nonexistent/file.txt"], "no such file"),
        (["--screenshot", "/nonexistent/dir/x.png"], "does not exist"),
    ],
)
def test_command_line_errors_are_messages_not_tracebacks(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def _banner(window):
    banner = window.panes["alignment"].w.banner
    return banner.text() if not banner.isHidden() else ""


def test_a_bad_start_tokenizer_falls_back_and_the_banner_stays(qtbot, tmp_path):
    window, pane, bad = _window_and_bad_file(qtbot, tmp_path, b"\xff\xd8\xff\xe0 not a tokenizer")
    assert window.load_tokenizer(str(bad), wait=True) is not None  # what --tokenizer does
    window.restore_tokenizer()  # the start-up timer: the fallback already asked, nothing more
    qtbot.waitUntil(lambda: window.tokenizer_load.phase is LoadPhase.CHOSEN, timeout=30_000)
    assert f"{DEFAULT_TOKENIZER} (built in)" in window.tokenizer_status.text()  # not the teaching vocabulary
    pane.w.mode.setCurrentIndex(pane.w.mode.findData("tokenize"))  # no signal when it is already
    window.set_text("a result of the tokenizer in use")
    qtbot.waitUntil(lambda: pane.result is not None and pane.result.text == "a result of the tokenizer in use",
                    timeout=30_000)  # the fallback's own encoding may land before or after the text
    assert pane.result.mode == "tokenize"
    assert str(bad) in _banner(window) and "instead" in _banner(window)
    good = window.settings.value("tokenizer/current")
    with qtbot.waitSignal(window.loader.sig_returned, timeout=30_000):
        window.load_tokenizer(good)  # a load that works takes the message away
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=30_000):
        window.set_text("and now all is well")
    assert "Could not load" not in _banner(window)


@pytest.mark.parametrize("wait", [True, False], ids=["waited (--tokenizer)", "worker (File > Open)"])
def test_a_component_type_of_the_wrong_kind_is_a_banner_naming_the_file(qtbot, tmp_path, wait):
    doc = b'{"model": {"type": ["WordPiece"], "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}'
    window, pane, bad = _window_and_bad_file(qtbot, tmp_path, doc)
    window.use_demo_tokenizer()
    if wait:
        assert window.load_tokenizer(str(bad), wait=True) is not None
    else:
        with qtbot.waitSignal(window.loader.sig_errored, timeout=30_000):
            window.load_tokenizer(str(bad))
    assert f"{bad}: model.type: must be a string" in _banner(window)
    assert "unhashable" not in _banner(window)


def test_an_error_without_the_file_name_gets_it_in_the_banner(qtbot, tmp_path, monkeypatch):
    def unnamed_failure(path, **options):
        raise RuntimeError("something the loader did not foresee")
    window, pane, bad = _window_and_bad_file(qtbot, tmp_path, b"{}")
    window.use_demo_tokenizer()
    monkeypatch.setattr("app.main_window.load_tokenizer_file", unnamed_failure)
    with qtbot.waitSignal(window.loader.sig_errored, timeout=30_000):
        window.load_tokenizer(str(bad))
    assert f"Could not load tokenizer {bad}: something the loader" in _banner(window)


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
    assert not window.loader.busy  # no fallback once something was chosen


def test_a_double_clicked_atlas_cell_opens_its_tokenizer_and_text_in_alignment(qtbot, data_dir):
    path = str(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    window = MainWindow()
    qtbot.addWidget(window)
    loads = []
    window.load_tokenizer = lambda p, **kw: loads.append(p)  # the connection reads it at emit time
    compare = window.panes["compare"]
    compare.sig_tokenizer_requested.emit(path, "gpt2")
    compare.sig_tokenizer_requested.emit("", "")  # a tokenizer with no file (built in): nothing
    compare.sig_text_requested.emit("नमस्ते दुनिया")
    assert loads == [path]
    assert window.tabs.currentWidget() is window.panes["alignment"]
    assert window.panes["alignment"].state.text == "नमस्ते दुनिया"
