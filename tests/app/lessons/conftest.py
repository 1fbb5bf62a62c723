"""Every lesson test waits for the workers it started before the next test begins."""

from __future__ import annotations

import pytest

from app.workers import wait_for_workers


@pytest.fixture(autouse=True)
def _settle_workers(qtbot):
    yield
    wait_for_workers(30)
