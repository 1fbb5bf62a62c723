"""The main window: every pane present, --screenshot writes a PNG, state survives a restart."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QThreadPool
from PySide6.QtGui import QImage

from app.__main__ import main
from app.main_window import PANES, MainWindow


@pytest.fixture(autouse=True)
def _settle_workers(qtbot):
    """Let every pane's background work finish before the windows are deleted."""
    yield
    QThreadPool.globalInstance().waitForDone(30000)


def test_window_builds_with_every_pane(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    assert list(window.panes) == [name for name, _, _ in PANES]
    assert window.tabs.count() == len(PANES)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles[0] == "Alignment"
    window.show_pane("alignment")
    assert window.tabs.currentWidget() is window.panes["alignment"]


def test_screenshot_writes_a_png(qtbot, tmp_path):
    text = tmp_path / "text.txt"
    text.write_text("Caf\u00e9 au lait \U0001F600", encoding="utf-8")
    out = tmp_path / "shot.png"
    assert main(["--screenshot", str(out), "--pane", "alignment", "--text-file", str(text),
                 "--size", "1400x900"]) == 0
    image = QImage(str(out))
    assert not image.isNull() and (image.width(), image.height()) == (1400, 900)


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
    assert restored.result.text == "to be or not to be"
