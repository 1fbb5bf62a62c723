"""Issue 30 §4: the stored files are looked at before they are read or written. A FIFO, a
device, a folder or a symbolic link where ``settings.ini`` or ``state.json`` should be never
blocks or stops the start, is named in one status line, and is left as it was; nothing is
written through a link (``state.json``: the link itself is replaced by a file)."""

from __future__ import annotations

import faulthandler
import json
import os
import stat
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.main_window import TEACHING, MainWindow
from app.settings import (
    MAX_SETTINGS_BYTES, MAX_STATE_BYTES, SETTINGS_FILE, STATE_FILE, config_dir, file_problem,
    open_settings, read_state, settings_problem, state_file, write_state)

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks (POSIX)")

KINDS = ("fifo", "symlink to a file outside", "folder", "symlink to /dev/null", "file over its cap")
OUTSIDE_STATE = {"alignment/state": {"text": "text kept outside the folder", "mode": "tokenize"}}
OUTSIDE_SETTINGS = "[tokenizer]\ncurrent=:teaching-example:\n[window]\ntab=3\n"


def _plant(path: Path, kind: str, outside: Path) -> None:
    """Put a ``kind`` where the stored file ``path`` should be."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "symlink to /dev/null":
        path.symlink_to("/dev/null")
    elif kind == "file over its cap":  # sparse: no disk space used
        with open(path, "wb") as f:
            f.truncate((MAX_SETTINGS_BYTES if path.name == SETTINGS_FILE else MAX_STATE_BYTES) + 1)
    else:
        outside.write_text(OUTSIDE_SETTINGS if path.name == SETTINGS_FILE else json.dumps(OUTSIDE_STATE),
                           encoding="utf-8")
        path.symlink_to(outside)


def _look(path: Path) -> tuple:
    """What is at ``path`` (without following a link) and, for a link, where it points."""
    st = os.lstat(path)
    return stat.S_IFMT(st.st_mode), os.readlink(path) if stat.S_ISLNK(st.st_mode) else None


@pytest.fixture
def watchdog():
    """A start that blocks on a FIFO fails the run (tracebacks dumped) instead of hanging it."""
    faulthandler.dump_traceback_later(120, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", [SETTINGS_FILE, STATE_FILE])
def test_a_non_file_in_a_stored_file_s_place_is_named_and_left_alone(qtbot, tmp_path, watchdog, name, kind):
    folder = config_dir()
    folder.mkdir(parents=True)
    if name == STATE_FILE:  # a fast start: the teaching vocabulary, nothing to load
        (folder / SETTINGS_FILE).write_text("[tokenizer]\ncurrent=:teaching-example:\n", encoding="utf-8")
    path, outside = folder / name, tmp_path / f"outside-{name}"
    _plant(path, kind, outside)
    before = _look(path)
    window = MainWindow()
    qtbot.addWidget(window)
    QApplication.processEvents()  # the start-up timers: restore, the status line
    message = window.statusBar().currentMessage()
    linked_state = name == STATE_FILE and kind == "symlink to a file outside"
    if linked_state:  # read through the link: a regular file
        assert window.panes["alignment"].state.text == OUTSIDE_STATE["alignment/state"]["text"]
        assert not any(d.startswith(STATE_FILE) for d in window.dropped_settings)
    else:
        named = [d for d in window.dropped_settings if d.startswith(f"{name} (")]
        assert len(named) == 1 and "not read or written" in named[0], window.dropped_settings
        assert message.startswith("Ignored unreadable settings") and named[0] in message and "\n" not in message
        window.statusBar().showMessage("Loaded a tokenizer", 5000)  # a later message: the note stays
        note = window.settings_note
        assert not note.isHidden() and "ignored" in note.text() and named[0] in note.toolTip()
        qtbot.mouseClick(note, Qt.MouseButton.LeftButton)
        assert note.isHidden()
    window.panes["alignment"].set_text("typed in this session")
    window.close()  # saves every pane, the window's settings, syncs settings.ini
    QApplication.processEvents()
    assert state_file(window.settings).flush()
    if linked_state:  # the link itself was replaced by a file; its target is unchanged
        assert stat.S_ISREG(os.lstat(path).st_mode)
        assert json.loads(path.read_text(encoding="utf-8"))["alignment/state"]["text"] == "typed in this session"
    else:
        assert _look(path) == before
    if kind == "file over its cap":  # not rewritten: the session's text stayed in memory
        assert os.lstat(path).st_size == (MAX_SETTINGS_BYTES if name == SETTINGS_FILE
                                          else MAX_STATE_BYTES) + 1
    if kind == "symlink to a file outside":
        expected = OUTSIDE_SETTINGS if name == SETTINGS_FILE else json.dumps(OUTSIDE_STATE)
        assert outside.read_text(encoding="utf-8") == expected
    if kind == "symlink to /dev/null":
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_refused_settings_file_keeps_the_session_s_settings_elsewhere(tmp_path):
    folder = config_dir()
    folder.mkdir(parents=True)
    outside = tmp_path / "outside.ini"
    outside.write_text(OUTSIDE_SETTINGS, encoding="utf-8")
    (folder / SETTINGS_FILE).symlink_to(outside)
    settings = open_settings()
    assert "symbolic link" in settings_problem(settings)
    assert settings.value("window/tab") is None  # not read through the link
    settings.setValue("tokenizer/current", TEACHING)
    settings.sync()
    assert Path(settings.fileName()).parent != folder and outside.read_text(encoding="utf-8") == OUTSIDE_SETTINGS
    write_state(settings, "merges/state", {"target": 3})  # the pane state still goes to the folder
    assert state_file(settings).flush()
    assert read_state(open_settings(), "merges/state") == {"target": 3}
    assert json.loads((folder / STATE_FILE).read_text(encoding="utf-8")) == {"merges/state": {"target": 3}}


def test_file_problem_names_the_kind_and_the_size_without_opening(tmp_path):
    fifo, big, fine, link = tmp_path / "fifo", tmp_path / "big", tmp_path / "fine", tmp_path / "link"
    os.mkfifo(fifo)
    big.write_bytes(b"x" * 11)
    fine.write_bytes(b"{}")
    link.symlink_to(fine)
    assert "FIFO" in file_problem(fifo, MAX_STATE_BYTES, links=True)
    assert "folder" in file_problem(tmp_path, MAX_STATE_BYTES, links=True)
    assert "10-byte limit" in file_problem(big, 10, links=True)
    assert file_problem(fine, 10, links=True) is None and file_problem(tmp_path / "absent", 10, links=False) is None
    assert file_problem(link, 10, links=True) is None and "symbolic link" in file_problem(link, 10, links=False)
    assert "character device" in file_problem(Path("/dev/null"), 10, links=True)
