"""App tests: offscreen Qt, settings in a temporary folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path, monkeypatch):
    """Every app test gets its own empty settings folder."""
    monkeypatch.setenv("SUBWORDSCOPE_CONFIG_DIR", str(tmp_path / "config"))
    yield
