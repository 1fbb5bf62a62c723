"""The alignment pane on fresh settings, shown (its span views lay out their text)."""

from __future__ import annotations

import pytest

from app.panes.alignment import AlignmentPane
from app.settings import open_settings


@pytest.fixture
def pane(qtbot):
    p = AlignmentPane(open_settings())
    qtbot.addWidget(p)
    p.resize(1300, 800)
    p.show()
    qtbot.waitExposed(p)
    return p
