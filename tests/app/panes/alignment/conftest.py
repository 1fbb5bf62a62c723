"""The alignment pane on fresh settings, shown (its span views lay out their text), with
its first result (computed on the pane's worker) on screen."""

from __future__ import annotations

import pytest

from app.panes.alignment import AlignmentPane
from app.settings import open_settings
from app.workers import wait_for_workers


@pytest.fixture
def pane(qtbot):
    p = AlignmentPane(open_settings())
    qtbot.addWidget(p)
    p.resize(1300, 800)
    p.show()
    qtbot.waitExposed(p)
    qtbot.waitUntil(lambda: p.result is not None and not p.busy, timeout=20000)
    yield p
    p.cancel_compute()
    wait_for_workers(20)  # cancelled tasks end at their next should_stop check
