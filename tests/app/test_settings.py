"""The settings file: JSON values survive the INI round trip exactly."""

from __future__ import annotations

from app.settings import get_json, open_settings, set_json


def test_json_round_trip_through_the_settings_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CONFIG_DIR", str(tmp_path))
    s = open_settings()
    set_json(s, "k", {"text": "Zoe\u0301 \U0001F600"})
    s.sync()
    assert get_json(open_settings(), "k", None) == {"text": "Zoe\u0301 \U0001F600"}
    assert get_json(s, "missing", 42) == 42
