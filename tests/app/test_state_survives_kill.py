"""Issue 12 §5: typed text survives a kill. A child process types text, switches the mode,
loads a tokenizer and shows another pane; it is killed with SIGKILL 1.5 s later, with no
chance to save on close, and a restarted app finds all of it again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")

TEXT = "Zoe\u0301 flew to \u0130stanbul \U0001F469\u200d\U0001F469\u200d\U0001F467 नमस्ते"

CHILD = r"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from app.main_window import MainWindow

app = QApplication(sys.argv)
window = MainWindow()
window.show()
pane = window.panes["alignment"]

def act():
    window.load_tokenizer(sys.argv[1], wait=True)
    pane.w.mode.setCurrentIndex(pane.w.mode.findData("align"))
    pane.w.editor.clear()
    QTest.keyClicks(pane.w.editor, "typed ")  # one key at a time (QTest types ASCII only)
    pane.w.editor.insertPlainText(sys.argv[2])  # pasted
    QTest.keyClicks(pane.w.editor, " end")
    window.show_pane("merges")
    print("TYPED", flush=True)

QTimer.singleShot(200, act)
app.exec()
"""

RESTARTED = r"""
import json, sys
from PySide6.QtWidgets import QApplication
from app.main_window import MainWindow

app = QApplication(sys.argv)
window = MainWindow()
pane = window.panes["alignment"]
print(json.dumps({"text": pane.w.editor.toPlainText(), "mode": pane.state.mode,
                  "tokenizer": window.settings.value("tokenizer/current"),
                  "tab": window.tabs.currentIndex(), "dropped": window.dropped_settings}))
"""


def _env(config: Path) -> dict:
    env = dict(os.environ, SUBWORDSCOPE_CONFIG_DIR=str(config), QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_text_mode_tokenizer_and_pane_survive_sigkill(tmp_path, data_dir):
    tokenizer = data_dir / "tokenizers" / "gpt2" / "tokenizer.json"
    if not tokenizer.is_file():
        pytest.skip(f"{tokenizer} is absent")
    config = tmp_path / "config"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tokenizer), TEXT], env=_env(config),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT)
    try:
        line = child.stdout.readline()
        assert line.strip() == "TYPED", child.stderr.read() if child.poll() is not None else line
        time.sleep(1.5)  # the last edit was 1.5 s ago: the state must be on disk by now
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    assert child.returncode == -signal.SIGKILL  # killed, not closed: nothing saved on close
    out = subprocess.run([sys.executable, "-c", RESTARTED], env=_env(config), capture_output=True,
                         text=True, cwd=REPO_ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    restored = json.loads(out.stdout.strip().splitlines()[-1])
    assert restored == {"text": f"typed {TEXT} end", "mode": "align", "tokenizer": str(tokenizer), "tab": 1,
                        "dropped": []}
    assert [p.name for p in config.iterdir() if p.name.endswith(".tmp")] == []


def test_every_edit_goes_to_the_writer_at_once(qtbot):
    """Issue 30 §8: the pane hands each edit to ``state.json``'s writer thread as it happens
    (no timer on the GUI thread, which a long render would hold up, and no debounce of the
    computation pushing the save back): the store holds the edit before the event loop runs,
    and the writer puts it on disk by itself."""
    from PySide6.QtTest import QTest  # noqa: PLC0415 - Qt only in this test

    from app.panes.alignment import AlignmentPane  # noqa: PLC0415
    from app.settings import STATE_FILE, open_settings, read_state  # noqa: PLC0415

    settings = open_settings()
    pane = AlignmentPane(settings)
    qtbot.addWidget(pane)
    pane.w.editor.clear()
    QTest.keyClicks(pane.w.editor, "typed more")
    assert read_state(settings, "alignment/state")["text"] == "typed more"  # no event loop since
    path = Path(settings.fileName()).with_name(STATE_FILE)
    qtbot.waitUntil(lambda: path.exists() and
                    json.loads(path.read_text(encoding="utf-8"))["alignment/state"]["text"] == "typed more",
                    timeout=10_000)


def test_a_delayed_write_waits_unless_flushed(tmp_path):
    from app.settings import StateFile  # noqa: PLC0415

    store = StateFile(tmp_path / "state.json")
    store.put("k", {"v": 1}, delay=3600)
    time.sleep(0.05)
    assert not store.path.exists()  # an hour from now
    assert store.flush(timeout=10)  # at close and exit: written at once
    assert json.loads(store.path.read_text(encoding="utf-8")) == {"k": {"v": 1}}
