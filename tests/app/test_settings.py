"""The settings files: JSON values survive the INI round trip exactly, every stored value is
checked on read (a bad one is dropped and named once in the status bar, never a failed start),
and the panes' state is written atomically to ``state.json``."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QApplication

from app.main_window import PANES, SETTINGS_CHECKS, STATE_READERS, TEACHING, MainWindow
from app.settings import (
    STATE_FILE, atomic_write, bad_fields, drop_invalid, get_json, open_settings,
    read_state, set_json, state_file, write_state)
from app.panes.positions.state import PositionsState

DEEP = "[" * 5000 + "]" * 5000


def test_json_round_trip_through_the_settings_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CONFIG_DIR", str(tmp_path))
    s = open_settings()
    set_json(s, "k", {"text": "Zoe\u0301 \U0001F600"})
    s.sync()
    assert get_json(open_settings(), "k", None) == {"text": "Zoe\u0301 \U0001F600"}
    assert get_json(s, "missing", 42) == 42
    set_json(s, "deep", None)
    s.setValue("deep", DEEP)
    assert get_json(s, "deep", "default") == "default"  # nested too deep: unreadable, no crash


# -- every stored key, corrupted --------------------------------------------------------------
BAD_VALUES: dict[str, list] = {
    "window/geometry": ["abc", "5", QByteArray(b"\x00garbage")],
    "window/tab": ["abc", "-1", "99999", "1.5", QByteArray(b"1")],
    "tokenizer/current": [QByteArray(b"x"), "/", "/no/such/file.json"],
    "tokenizer/last_dir": [QByteArray(b"x"), "/no/such/folder"],
    "tokenizer/tiktoken_special": ["maybe", "5"],
    "tokenizer/recent": ["5", "abc", "[1, 2]", '{"a": 1}', DEEP, QByteArray(b"[]")],
    "compare/corpus_folder": [QByteArray(b"x"), "/no/such/folder"],
    "compare/tokenizer_paths": ["[[1, 2]]", "5", '[["a"]]', "abc", DEEP],
    "compare/metric": ["no-such-metric", QByteArray(b"x")],
    "compare/reference": ["zzz", QByteArray(b"x")],
    "compare/damage_form": ["nope", QByteArray(b"x")],
    "compare/sampling": ["abc", "[1e300]", '["a"]', "[1, 2, 3, 4, 5, 6, 7]", '["1 2", -5, 0]', "5", DEEP],
    "compare/last_dir": [QByteArray(b"x")],
    "compare/tab": [QByteArray(b"x")],
}
STATE_BAD = {  # pane state key -> stored objects with wrong types, out-of-range numbers, garbage
    "alignment/state": [{"text": 5}, {"mode": "zzz"}, {"scheme": 3}, {"form": "NFX"}, {"lowercase": "yes"}],
    "merges/state": [{"target": -1}, {"target": 10**9}, {"source": 5}, {"unigram": 5}, {"tab": 99}],
    "positions/state": [{"d": 0}, {"d": 7}, {"T": -5}, {"T": 10**9}, {"H": 0}, {"base": -1.0},
                        {"pair": 10**6}, {"view": "zzz"}, {"emb_dtype": 3}, {"s": 0.0}],
    "pooling/state": [{"content": 0}, {"pad_length": -1}, {"sentence": 10**6}, {"strength": "x"},
                      {"overlap": 10**9}],
    "retrieval/state": [{"k": 0}, {"nprobe": -4}, {"languages": 5}, {"method": "zzz"}, {"tab": -3}],
    "compare/state": [{"metric": "no-such-metric"}, {"damage_form": "nope"}, {"tokenizer_paths": [[1, 2]]},
                      {"tokenizer_paths": [["a"]]}, {"sampling": ["1 2", -5, 0]}, {"sampling": [1e300]},
                      {"corpus_folder": 5}, {"tab": ["Table"]}],
}
GARBAGE_STATES = ["abc", "5", "[]", DEEP]


def _cases():
    for key, values in BAD_VALUES.items():
        for v in values:
            yield pytest.param(key, v, id=f"{key}={str(v)[:20]!r}")
    for key, objects in STATE_BAD.items():
        for obj in objects:
            yield pytest.param(key, json.dumps(obj), id=f"{key}={json.dumps(obj)[:30]}")
        for raw in GARBAGE_STATES:
            yield pytest.param(key, raw, id=f"{key}={raw[:12]!r}")


def _start(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    QApplication.processEvents()  # the start-up timers: restore, the status line
    window.first_message = window.statusBar().currentMessage()
    for i in range(window.tabs.count()):  # every pane shows its restored state
        window.tabs.setCurrentIndex(i)
        QApplication.processEvents()
    return window


def test_every_key_the_app_reads_is_checked():
    assert set(BAD_VALUES) == set(SETTINGS_CHECKS)
    assert set(STATE_BAD) == set(STATE_READERS) == {f"{name}/state" for name, _ in PANES}


@pytest.mark.parametrize(("key", "value"), list(_cases()))
def test_a_corrupted_setting_never_stops_the_start(qtbot, key, value):
    settings = open_settings()
    if key != "tokenizer/current":
        settings.setValue("tokenizer/current", TEACHING)  # no tokenizer to load: a fast start
    settings.setValue(key, value)
    settings.sync()
    raw = open_settings().value(key)  # as the app reads it back
    window = _start(qtbot)
    if key in SETTINGS_CHECKS:
        assert (key in window.dropped_settings) == (not SETTINGS_CHECKS[key](raw))
    named = [d for d in window.dropped_settings if d == key or d.startswith(key + ".")]
    if named:
        message = window.first_message
        assert message.startswith("Ignored unreadable settings") and all(d in message for d in named)
        assert "\n" not in message


@pytest.mark.parametrize(("key", "obj"), [(k, o) for k, objs in STATE_BAD.items() for o in objs])
def test_a_bad_state_field_is_dropped_by_name(qtbot, key, obj):
    settings = open_settings()
    settings.setValue("tokenizer/current", TEACHING)
    set_json(settings, key, obj)
    settings.sync()
    window = _start(qtbot)
    assert [f"{key}.{name}" for name in obj] == [d for d in window.dropped_settings if d.startswith(key)]


def test_good_values_are_kept(qtbot):
    settings = open_settings()
    settings.setValue("window/tab", 2)
    set_json(settings, "tokenizer/recent", ["/a", "/b"])
    set_json(settings, "positions/state", {"d": 32, "T": 256})
    settings.setValue("tokenizer/current", TEACHING)
    settings.sync()
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.dropped_settings == []
    assert window.tabs.currentIndex() == 2
    assert bad_fields({"d": 32, "T": 256}, PositionsState.from_dict) == []


def test_a_raw_ini_file_with_garbage_starts(qtbot, tmp_path):
    path = open_settings().fileName()
    with open(path, "w", encoding="utf-8") as f:
        f.write("[window]\ntab=abc\ngeometry=\\x00\\xff\n[tokenizer]\nrecent=5\ncurrent=:teaching-example:\n"
                "[positions]\nstate=\"{\\\"d\\\": 0}\"\n[compare]\ntokenizer_paths=\"[[1,2]]\"\n"
                "[garbage\n=\n\x01\x02\n")
    window = _start(qtbot)
    assert {"window/tab", "window/geometry", "tokenizer/recent", "positions/state.d",
            "compare/tokenizer_paths"} <= set(window.dropped_settings)


def test_drop_invalid_removes_only_bad_values(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CONFIG_DIR", str(tmp_path))
    s = open_settings()
    s.setValue("window/tab", "abc")
    s.setValue("tokenizer/last_dir", "/tmp")
    s.setValue("unknown/key", "whatever")
    assert drop_invalid(s) == ["window/tab"]
    assert s.value("window/tab") is None and s.value("tokenizer/last_dir") == "/tmp"
    assert s.value("unknown/key") == "whatever"  # keys the app does not read are left alone


# -- state.json ---------------------------------------------------------------------------
def test_state_is_written_atomically_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CONFIG_DIR", str(tmp_path))
    s = open_settings()
    text = "Zoe\u0301 \U0001F600 " * 1000
    write_state(s, "alignment/state", {"text": text, "mode": "align"})
    assert state_file(s).flush()
    path = tmp_path / STATE_FILE
    assert json.loads(path.read_text(encoding="utf-8"))["alignment/state"]["text"] == text
    assert read_state(s, "alignment/state")["mode"] == "align"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_state_stored_by_an_older_version_in_the_ini_file_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CONFIG_DIR", str(tmp_path))
    s = open_settings()
    set_json(s, "alignment/state", {"text": "old"})
    assert read_state(s, "alignment/state") == {"text": "old"}
    write_state(s, "alignment/state", {"text": "new"})
    assert not s.contains("alignment/state") and read_state(s, "alignment/state") == {"text": "new"}


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "f.json"
    atomic_write(path, b"old")

    def boom(fd):
        raise OSError("disk full")

    monkeypatch.setattr("app.settings.os.fsync", boom)
    with pytest.raises(OSError):
        atomic_write(path, b"new")
    assert path.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


def test_an_unreadable_state_file_is_named_and_the_app_starts(qtbot):
    settings = open_settings()
    settings.setValue("tokenizer/current", TEACHING)
    settings.sync()
    with open(settings.fileName().replace("settings.ini", STATE_FILE), "wb") as f:
        f.write(b"\xff\xfe{garbage")
    window = _start(qtbot)
    assert STATE_FILE in window.dropped_settings


def test_the_positions_ranges_are_the_controls_ranges():
    from app.panes.positions.controls import CONTROLS, LOCAL_CONTROLS  # noqa: PLC0415 - Qt widgets module

    spin = {name: spec[:2] for name, _, kind, spec, *_ in CONTROLS + LOCAL_CONTROLS if kind in ("int", "float")}
    assert spin == {k: tuple(v) for k, v in PositionsState.RANGES.items()}
