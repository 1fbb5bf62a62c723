"""A first run with no shared data: the bundled BERT on the multilingual sample, Compare on the
bundled UDHR sample; remembered settings beat the defaults and the command line beats both;
the Teaching Example menu item; Help; no internal document named in any UI text."""

from __future__ import annotations

import re

import pytest
from PySide6 import QtWidgets
from PySide6.QtCore import QThreadPool
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QWidget

import app.__main__ as entry
from app import help as help_texts
from app.first_run import SAMPLE_TEXT, default_tokenizer_path
import app.main_window as main_window_module
from app.main_window import TEACHING, MainWindow
from app.panes.alignment.state import DEMO_LABELS, DEMO_TEXT
from app.panes.compare import ComparePane
from app.panes.compare.table_tab import COMPUTING
from app.settings import flush_states, open_settings, read_state, set_json
from core.data import builtin_tokenizer, udhr_sample_dir


@pytest.fixture(autouse=True)
def _no_shared_data(tmp_path, monkeypatch):
    """A new user's machine: the data folder is empty, the cache folder is fresh."""
    (tmp_path / "data").mkdir()
    monkeypatch.setenv("SUBWORDSCOPE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(tmp_path / "cache"))
    yield
    QThreadPool.globalInstance().waitForDone(30000)


def started(qtbot) -> MainWindow:
    """A main window after its start-up restore has run and its tokenizer has arrived."""
    window = MainWindow()
    qtbot.addWidget(window)
    settle(window)
    return window


def settle(window: MainWindow) -> None:
    """Run the start-up timer, wait for the tokenizer, then for the alignment result."""
    QApplication.processEvents()
    window.wait_for_loader()
    assert window.panes["alignment"].wait_until_idle()


def test_the_first_screen_is_gpt_4o_on_the_sample_in_tokenize_mode_with_bert_beside_it(qtbot):
    window = started(qtbot)
    pane = window.panes["alignment"]
    tok = pane.tokenizer
    assert tok is not None and tok.vocab_size > 199_000  # o200k_base, not the teaching vocabulary
    assert window.settings.value("tokenizer/current") == default_tokenizer_path()
    assert pane.w.editor.toPlainText() == SAMPLE_TEXT
    assert pane.state.mode == "tokenize" and pane.result.mode == "tokenize"  # tokens first
    assert not any(t == "[UNK]" for t in pane.result.tokens)  # every script encoded
    side = pane.extras.side
    qtbot.waitUntil(lambda: side.result is not None and len(side.result.rows) == 2, timeout=30000)
    rows = side.result.rows
    assert [r.name for r in rows] == ["gpt-4o", "bert-base-uncased"]
    assert rows[1].unknown > 0 and rows[0].unknown == 0  # the 2018 vocabulary's [UNK]s beside it
    assert "gpt-4o (built in)" in window.tokenizer_status.text()


def test_a_remembered_tokenizer_beats_the_default(qtbot):
    gpt2 = str(builtin_tokenizer("gpt2"))
    open_settings().setValue("tokenizer/current", gpt2)
    window = started(qtbot)
    assert window.panes["alignment"].tokenizer.vocab_size == 50257
    assert window.settings.value("tokenizer/current") == gpt2


def test_a_remembered_text_is_not_replaced_by_the_sample(qtbot):
    settings = open_settings()
    set_json(settings, "alignment/state", {"text": "my own text", "mode": "tokenize"})
    settings.sync()
    window = started(qtbot)
    pane = window.panes["alignment"]
    assert pane.w.editor.toPlainText() == "my own text" and pane.state.mode == "tokenize"


def _remember_everything(tmp_path) -> tuple[str, str]:
    """Settings of an earlier run (GPT-2, a text, the Compare tab); return (bert, text file)."""
    settings = open_settings()
    settings.setValue("tokenizer/current", str(builtin_tokenizer("gpt2")))
    set_json(settings, "alignment/state", {"text": "remembered", "mode": "tokenize"})
    settings.setValue("window/tab", 4)
    settings.sync()
    text = tmp_path / "text.txt"
    text.write_text("from the command line", encoding="utf-8")
    return str(builtin_tokenizer("bert-base-uncased")), str(text)


class _Recorded(MainWindow):
    made: list[MainWindow] = []

    def __init__(self) -> None:
        super().__init__()
        _Recorded.made.append(self)


class _NoLoopApplication:
    """``QApplication`` as ``main`` uses it, except that ``exec()`` returns 0 at once."""

    class _App:
        def __getattr__(self, name):
            return getattr(QApplication.instance(), name)

        def exec(self) -> int:
            return 0

    @classmethod
    def instance(cls):
        return cls._App()


@pytest.mark.parametrize("screenshot", [True, False], ids=["screenshot run", "normal run"])
def test_the_command_line_beats_remembered_settings(qtbot, tmp_path, monkeypatch, screenshot):
    bert, text = _remember_everything(tmp_path)
    _Recorded.made = []
    monkeypatch.setattr(main_window_module, "MainWindow", _Recorded)  # read when the GUI starts
    argv = ["--tokenizer", bert, "--text-file", text, "--pane", "merges"]
    if screenshot:
        argv += ["--screenshot", str(tmp_path / "shot.png")]
    else:  # the normal path, with app.exec() returning at once (settle() runs the events)
        monkeypatch.setattr(QtWidgets, "QApplication", _NoLoopApplication)
    assert entry.main(argv) == 0
    (window,) = _Recorded.made
    qtbot.addWidget(window)
    settle(window)
    pane = window.panes["alignment"]
    assert pane.tokenizer.vocab_size == 30522 and window.settings.value("tokenizer/current") == bert
    assert pane.w.editor.toPlainText() == "from the command line"
    assert window.tabs.currentWidget() is window.panes["merges"]


def test_a_screenshot_run_leaves_the_remembered_settings_alone(qtbot, tmp_path, monkeypatch):
    bert, text = _remember_everything(tmp_path)
    _Recorded.made = []
    monkeypatch.setattr(main_window_module, "MainWindow", _Recorded)
    argv = ["--tokenizer", bert, "--text-file", text, "--pane", "merges", "--screenshot", str(tmp_path / "shot.png")]
    assert entry.main(argv) == 0
    (window,) = _Recorded.made
    qtbot.addWidget(window)
    settle(window)
    assert window.panes["alignment"].w.editor.toPlainText() == "from the command line"  # shown
    window.shutdown()
    flush_states()
    mine = open_settings()  # what the user's next start restores
    assert mine.value("tokenizer/current") == str(builtin_tokenizer("gpt2"))
    assert int(mine.value("window/tab")) == 4
    assert read_state(mine, "alignment/state")["text"] == "remembered"


def test_a_built_in_name_is_a_tokenizer_for_the_window_too(qtbot, tmp_path, monkeypatch):
    _Recorded.made = []
    monkeypatch.setattr(main_window_module, "MainWindow", _Recorded)
    argv = ["--tokenizer", "gpt2", "--screenshot", str(tmp_path / "shot.png")]
    assert entry.main(argv) == 0
    (window,) = _Recorded.made
    qtbot.addWidget(window)
    settle(window)
    assert window.panes["alignment"].tokenizer.vocab_size == 50257
    assert window.settings.value("tokenizer/current") == str(builtin_tokenizer("gpt2"))


def test_teaching_example_replaces_the_text_undoably_and_is_remembered(qtbot):
    window = started(qtbot)
    pane = window.panes["alignment"]
    pane.w.editor.setPlainText("typed by me")
    window.show_teaching_example()
    assert pane.wait_until_idle()
    assert pane.tokenizer is None and pane.w.editor.toPlainText() == DEMO_TEXT
    assert pane.state.mode == "labels" and pane.state.labels_text == DEMO_LABELS
    assert [e.text for e in pane.result.entities] == ["Zoe\u0301", "\u0130stanbul", "Nvidia"]
    assert window.settings.value("tokenizer/current") == TEACHING
    pane.w.editor.undo()
    assert pane.w.editor.toPlainText() == "typed by me"
    window.close()
    again = started(qtbot)  # the teaching vocabulary comes back, not the default BERT
    assert again.panes["alignment"].tokenizer is None and not again.loader.busy


def test_compare_computes_on_the_bundled_corpus_and_tokenizers(qtbot):
    pane = ComparePane(open_settings())
    qtbot.addWidget(pane)
    assert pane.state.corpus_folder == str(udhr_sample_dir())
    assert [e.label for e in pane.entries] == ["bert-base-uncased", "gpt2"]
    with qtbot.waitSignal(pane.sig_result_changed, timeout=120_000):
        pane.show()
    table = pane.result.table
    assert len(table.languages) == 16 and list(table.tokenizers) == ["bert-base-uncased", "gpt2"]
    assert not pane.heatmap.has_placeholder()


def test_compare_without_a_corpus_says_what_to_do(qtbot, tmp_path):
    pane = ComparePane(open_settings())
    qtbot.addWidget(pane)
    pane.set_corpus_folder("")
    pane.recompute()
    assert "Choose a corpus folder" in pane.message.text() and not pane.busy
    assert pane.heatmap.placeholder.text() not in ("", COMPUTING)
    pane.set_corpus_folder(str(tmp_path / "gone"))  # a folder that is not there: the worker says so
    pane.recompute()
    qtbot.waitUntil(lambda: not pane.busy, timeout=30_000)
    assert "gone" in pane.message.text() and pane.heatmap.placeholder.text() not in ("", COMPUTING)


def test_keyboard_shortcuts_list_every_shortcut_with_a_description(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    rows = help_texts.shortcut_rows(window, window.panes)
    menu_keys = {a.shortcut().toString() for a in window.findChildren(QAction) if not a.shortcut().isEmpty()}
    assert menu_keys <= {keys for _, keys, _ in rows}
    assert ("Everywhere", "Ctrl+D", "Teaching Example") in rows and ("Everywhere", "F1", "What Am I Looking At?") in rows
    undescribed = [row for row in rows if row[2] == help_texts.UNDESCRIBED]
    assert not undescribed, f"give these shortcuts a whatsThis or a SHORTCUT_NOTES entry: {undescribed}"
    dialog = window.show_shortcuts()
    qtbot.addWidget(dialog)
    assert dialog.findChild(QWidget, "shortcuts").rowCount() == len(rows)


def test_what_am_i_looking_at_describes_the_current_pane(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    assert set(help_texts.PANE_HELP) == set(window.panes)
    for name, pane in window.panes.items():
        window.show_pane(name)
        box = window.show_pane_help()
        qtbot.addWidget(box)
        assert box.text() == help_texts.PANE_HELP[name] and pane.title in box.windowTitle()


def _ui_strings(window: MainWindow) -> list[str]:
    out = [a.text() + a.statusTip() + a.toolTip() for a in window.findChildren(QAction)]
    for w in window.findChildren(QWidget):
        out.append(w.toolTip() + w.statusTip() + w.whatsThis())
        if isinstance(w, (QLabel, QAbstractButton)):
            out.append(w.text())
        if isinstance(w, QComboBox):
            out += [w.itemText(i) + str(w.itemData(i, 3) or "") for i in range(w.count())]
    return out


def test_no_ui_text_names_an_internal_document(qtbot):
    window = started(qtbot)
    window.show_teaching_example()
    for name in window.panes:
        window.show_pane(name)
    found = [s for s in _ui_strings(window) if "SPEC" in s or "DESIGN" in s or "\u00a7" in s]
    assert not found


def test_the_top_level_help_is_plain_text(capsys):
    with pytest.raises(SystemExit) as stop:
        entry.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "--screenshot" in out and "Exit codes" in out
    assert "`" not in out and not re.search(r":[a-z]+:", out)  # no reST literals or roles
