"""The token-id view, the tokenizer picker and the side-by-side rows, each on its own."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtGui import QGuiApplication

from hypothesis import given
from hypothesis import strategies as st

from app.panes.alignment.picker import MAX_CACHE_SHOWN, MORE, OPEN, TEACHING, TokenizerPicker
from app.panes.alignment.side_by_side import DIFFER_COLOUR, MAX_CHARS, SHARED_COLOUR, SideBySidePanel
from app.panes.alignment.token_ids import BUILD_DELAY_MS, TokenIdsView, format_ids, shown_text
from core.data import builtin_tokenizers
from core.tokenizers import demo_tokenizer, load


def test_format_ids():
    assert format_ids([101, 7592, 102], "space") == "101 7592 102"
    assert json.loads(format_ids([101, None], "json")) == [101, None]
    assert format_ids([], "space") == ""
    with pytest.raises(ValueError):
        format_ids([1], "csv")


ids_lists = st.lists(st.one_of(st.none(), st.integers(0, 300_000)), max_size=80)


@given(ids_lists, st.integers(1, 30))
def test_shown_text_is_every_id_in_short_lines(ids, per_line):
    json_text, space_text = shown_text(ids, "json", per_line=per_line), shown_text(ids, "space", per_line=per_line)
    assert json.loads(json_text) == ids
    assert space_text.split() == ["?" if i is None else str(i) for i in ids]
    assert all(len(line.split()) <= per_line for line in space_text.splitlines())
    assert space_text.count("\n") == max(0, (len(ids) - 1) // per_line)


def test_shown_text_stops_at_the_limit_and_says_how_many_there_are():
    text = shown_text(list(range(1000)), "space", limit=100, per_line=25)
    lines = text.splitlines()
    assert len(lines) == 5 and lines[3].split()[-1] == "99" and lines[-1] == "… 1,000 ids: Copy copies all"
    assert shown_text(list(range(7)), "json", limit=5, per_line=2) == "[0, 1,\n 2, 3,\n 4,\n … 7 ids: Copy copies all"


def test_token_ids_view_copies_what_it_shows(qtbot):
    view = TokenIdsView()
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.sig_shown):
        view.set_ids([5, 6, 7])
    assert view.text() == "5 6 7" == view.box.toPlainText() and view.count.text() == "3 ids"
    with qtbot.waitSignal(view.sig_shown):
        view.set_format("json")
    assert view.text() == "[5, 6, 7]"
    with qtbot.waitSignal(view.sig_copied) as blocker:
        view.copy.click()
    assert blocker.args == [3] and QGuiApplication.clipboard().text() == "[5, 6, 7]"


def test_token_ids_view_builds_only_when_visible_and_copies_all_of_a_huge_list(qtbot):
    view = TokenIdsView()
    qtbot.addWidget(view)
    ids = list(range(50_000))
    view.set_ids(ids)  # hidden: nothing is built
    # private: whether the id view's text builder runs (no public seam)
    assert not view._builder.busy and view.text() == "" and "first 20,000 shown" in view.count.text()
    with qtbot.waitSignal(view.sig_shown):
        view.show()
    assert view.text().splitlines()[-1] == "… 50,000 ids: Copy copies all"
    assert view.box.blockCount() == 20_000 // 25 + 1
    with qtbot.waitSignal(view.sig_copied) as blocker:
        view.copy_ids()
    assert blocker.args == [50_000] and QGuiApplication.clipboard().text().split() == [str(i) for i in ids]
    edits = []
    view.box.textChanged.connect(lambda: edits.append(1))
    with qtbot.waitSignal(view.sig_shown):
        view.set_ids(list(ids))  # the same ids again: the box is not rewritten
    assert edits == []


def test_token_ids_view_builds_new_ids_after_a_frame_and_an_edit_stops_that(qtbot):
    """New ids wait for the pane's frame (no build competes with it); an edit of the text
    stops the build of ids that are stale by then; the next ids are shown."""
    view = TokenIdsView()
    qtbot.addWidget(view)
    view.show()
    view.set_ids([1, 2, 3])
    # private: whether the id view's text builder runs (no public seam)
    assert not view._builder.busy and view.text() == ""  # not yet: the tokens are drawn first
    view.text_edited()
    qtbot.wait(4 * BUILD_DELAY_MS)
    assert not view._builder.busy and view.text() == ""
    with qtbot.waitSignal(view.sig_shown):
        view.set_ids([4, 5])
    assert view.text() == "4 5" == view.box.toPlainText()


def _fake_cache(root, models):
    for i in range(models):
        snap = root / f"models--org--m{i:04d}/snapshots/abcdef123456"
        snap.mkdir(parents=True)
        (snap / "vocab.txt").write_text("[UNK]\na\n", encoding="utf-8")
    return root


def test_picker_lists_sections_and_emits_choices(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(_fake_cache(tmp_path / "hub", 1)))
    snap = tmp_path / "hub/models--org--m0000/snapshots/abcdef123456"
    picker = TokenizerPicker()
    qtbot.addWidget(picker)
    picker.set_recent(["/y/recent.json"])
    assert ("    scanning…", None, False) in picker.entries()
    with qtbot.waitSignal(picker.sig_cache_scanned) as blocker:
        picker.scan()
    assert blocker.args == [1]
    entries = picker.entries()
    paths = [p for _, p, _ in entries]
    texts = [t for t, _, _ in entries]
    builtin = [p for t, p, _ in entries[2:2 + len(builtin_tokenizers())]]
    assert texts[1] == "Built-in" and all(p and p.startswith(os.environ["SUBWORDSCOPE_CACHE_DIR"]) for p in builtin)
    assert paths.index(TEACHING) < paths.index("/y/recent.json") < paths.index(str(snap / "vocab.txt"))
    assert paths[-1] == OPEN and entries[0][0].startswith("Tokenizer:") and MORE not in paths
    with qtbot.waitSignal(picker.sig_teaching_requested):
        picker.activated.emit(paths.index(TEACHING))
    with qtbot.waitSignal(picker.sig_path_chosen) as chosen:
        picker.activated.emit(paths.index("/y/recent.json"))
    assert chosen.args == ["/y/recent.json"] and picker.currentIndex() == 0
    with qtbot.waitSignal(picker.sig_open_requested):
        picker.activated.emit(len(paths) - 1)


def test_picker_lists_at_most_the_cap_of_the_cache_then_more(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(_fake_cache(tmp_path / "hub", MAX_CACHE_SHOWN + 5)))
    picker = TokenizerPicker()
    qtbot.addWidget(picker)
    with qtbot.waitSignal(picker.sig_cache_scanned) as blocker:
        picker.scan()
    paths = [p for _, p, _ in picker.entries()]
    assert blocker.args == [MAX_CACHE_SHOWN + 5]
    assert sum(1 for p in paths if p and p.startswith(str(tmp_path))) == MAX_CACHE_SHOWN
    assert picker.entries()[paths.index(MORE)][0] == "    More… (5 more: Open from Cache)"
    with qtbot.waitSignal(picker.sig_more_requested):
        picker.activated.emit(paths.index(MORE))
    submitted = []
    # private: the picker's scans, counted through its runner
    picker._runner.sig_busy_changed.connect(submitted.append)
    picker.scan()  # once only
    assert True not in submitted


def test_side_by_side_rows_line_up_and_mark_differing_boundaries(qtbot, data_dir):
    panel = SideBySidePanel()
    qtbot.addWidget(panel)
    bert = load(data_dir / "tokenizers/bert-base-uncased/tokenizer.json")
    gpt2 = load(data_dir / "tokenizers/gpt2/tokenizer.json")
    panel.set_text("Hello worldly")
    panel.set_primary("BERT", bert)
    with qtbot.waitSignal(panel.sig_computed) as blocker:
        panel.add_tokenizer("GPT-2", gpt2)
    result = blocker.args[0]
    assert panel.names() == ["BERT", "GPT-2"] and result.differing == (6, 11)
    lines = panel.view.lines()
    assert lines[0].tail.startswith("3 tokens · 4.33 chars/token · 0 unknown")
    bert_bars = {p: c for p, c, _ in lines[0].bars}
    assert bert_bars[6] == bert_bars[11] == DIFFER_COLOUR and bert_bars[5] == SHARED_COLOUR
    layouts = panel.view.body_layouts()
    assert layouts[0].lineAt(0).cursorToX(5)[0] == layouts[1].lineAt(0).cursorToX(5)[0]


def test_side_by_side_loads_on_a_worker_and_reports_failures(qtbot, data_dir, tmp_path):
    panel = SideBySidePanel()
    qtbot.addWidget(panel)
    panel.set_primary("demo", demo_tokenizer())
    with qtbot.waitSignal(panel.sig_computed):
        panel.add_path(str(data_dir / "tokenizers/gpt2/tokenizer.json"), "GPT-2")
    assert panel.names() == ["demo", "GPT-2"]
    bad = tmp_path / "broken.json"
    bad.write_text("{", encoding="utf-8")
    with qtbot.waitSignal(panel.sig_failed) as failed:
        panel.add_path(str(bad))
    assert "Could not load tokenizer" in failed.args[0]


def test_side_by_side_does_no_work_without_added_rows_and_debounces_with_them(qtbot, data_dir):
    panel = SideBySidePanel()
    qtbot.addWidget(panel)
    panel.set_primary("demo", demo_tokenizer())
    panel.set_text("zoe flew to istanbul")
    # private: the panel's debounce timer and encoder (the pause before encoding)
    assert not panel._encoder.busy and not panel._timer.isActive() and panel.result is None
    with qtbot.waitSignal(panel.sig_computed):
        panel.add_tokenizer("GPT-2", load(data_dir / "tokenizers/gpt2/tokenizer.json"))
    with qtbot.waitSignal(panel.sig_computed) as blocker:
        panel.set_text("zoe flew")
        panel.set_text("zoe flew to")  # supersedes the first edit: one encoding, of this text
        assert panel._timer.isActive() and not panel._encoder.busy  # waits for the pause
    assert blocker.args[0].text == "zoe flew to"
    long = "a b " * MAX_CHARS
    with qtbot.waitSignal(panel.sig_computed):
        panel.set_text(long)
    panel.set_text(long + "more")  # past the compared part: nothing to redo
    assert not panel._timer.isActive() and "(first 600 code points)" in panel.note.text()
    panel.clear_added()
    assert panel.result is None and panel.view.lines() == []


def test_an_empty_side_by_side_is_one_title_line_and_gets_room_back_with_rows(qtbot, data_dir):
    """At 1280×720 the empty panel's 75 px went to nothing; now the text views get them."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel, QSplitter

    column = QSplitter(Qt.Orientation.Vertical)
    qtbot.addWidget(column)
    column.addWidget(QLabel("a view above"))
    panel = SideBySidePanel()
    column.addWidget(panel)
    column.resize(600, 500)
    column.setSizes([300, 200])
    column.show()
    qtbot.waitExposed(column)
    assert panel.view.isHidden() and column.sizes()[1] <= panel.minimumSizeHint().height() + 2
    assert column.sizes()[0] > 400  # the room went to the other view
    panel.set_primary("demo", demo_tokenizer())
    panel.set_text("zoe flew to istanbul")
    with qtbot.waitSignal(panel.sig_computed):
        panel.add_tokenizer("GPT-2", load(data_dir / "tokenizers/gpt2/tokenizer.json"))
    qtbot.wait(20)  # the splitter lays out the new maximum
    assert panel.view.isVisible() and column.sizes()[1] >= 120 and len(panel.view.lines()) == 2
    panel.clear_added()
    qtbot.wait(20)
    assert panel.view.isHidden() and column.sizes()[1] < 60
