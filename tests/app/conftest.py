"""App tests: offscreen Qt, settings in a temporary folder, a pane factory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    """Every app test gets its own empty settings folder."""
    monkeypatch.setenv("SUBWORDSCOPE_CONFIG_DIR", str(tmp_path / "config"))
    yield


@pytest.fixture
def new_pane(qtbot):
    """Factory: ``new_pane(PaneClass, width, height, settings=None)`` builds a pane on the
    test's settings (fresh ones unless given), owned by ``qtbot`` and resized."""
    from app.settings import open_settings

    def make(cls, width: int = 1300, height: int = 850, settings=None):
        pane = cls(open_settings() if settings is None else settings)
        qtbot.addWidget(pane)
        pane.resize(width, height)
        return pane

    return make


@pytest.fixture(autouse=True)
def _delete_windows_after_the_test():
    """Delete every top-level widget a test left (qtbot closes them, Python would delete
    them only when the cyclic collector finds them: hundreds of windows destroyed in one
    collection made a later test wait a minute)."""
    yield
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        return
    for widget in QApplication.topLevelWidgets():
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def window_1280(qtbot):
    """The main window at 1280×720, shown; shut down at teardown, and the application's font
    and palette put back (they are process-wide: presentation mode and the text size change
    them for every later window)."""
    from PySide6.QtGui import QFont, QPalette
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow

    app = QApplication.instance()
    font, palette = QFont(app.font()), QPalette(app.palette())
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    yield w
    w.shutdown()
    app.setFont(font)
    app.setPalette(palette)
