"""Every lesson test waits for the workers it started before the next test begins, and gets
the application's font and palette back as they were (presentation mode changes both for the
whole process: a second presentation-mode window would otherwise start from enlarged text)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import QApplication

from app.workers import wait_for_workers


@pytest.fixture(autouse=True)
def _settle_workers(qtbot):
    app = QApplication.instance()
    font, palette = QFont(app.font()), QPalette(app.palette())
    yield
    wait_for_workers(30)
    app.setFont(font)
    app.setPalette(palette)
