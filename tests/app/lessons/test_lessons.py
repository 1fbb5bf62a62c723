"""Lessons: every step of every lesson drives its pane into the step's state and the pane
shows the figure the lesson file expects; Page Down / Page Up step; --lesson --step renders."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app.__main__ import main
from app.lessons import LessonError, apply_step, figure_text, load_lessons, state_differences
from app.lessons.figures import figure_shown
from app.lessons.model import read_lesson
from app.main_window import MainWindow
from app.panes.stored import StateValueError, merged_state
from app.panes.positions.state import PositionsState

LESSONS = load_lessons()
CHAPTERS = ("offsets", "subwords", "pathologies", "block", "positions", "pooling", "search", "multilingual")


@pytest.fixture
def window(window_1280):
    return window_1280


def test_one_lesson_per_chapter_each_step_complete():
    assert list(LESSONS) == list(CHAPTERS)
    for lesson in LESSONS.values():
        for step in lesson.steps:
            assert step.items and all(len(i) == 6 and i[3] == "-" for i in step.items), step.title
            assert len(step.why) >= 80 and step.question.endswith("?"), step.title
    assert any(s.try_it for lesson in LESSONS.values() for s in lesson.steps)


# The course material's items (shared/material/ITEMS.md: 000-01…60, 003-01…51, 004-01…36)
MATERIAL_ITEMS = ({f"000-{i:02d}" for i in range(1, 61)} | {f"003-{i:02d}" for i in range(1, 52)}
                  | {f"004-{i:02d}" for i in range(1, 37)})
# Items no step shows, and why: the material's toy corpus of 24 hand-written English / Spanish /
# Swahili sentences is its own text (not ours to ship); the printed merges and segmentations of
# historia and mkulima need exactly those sentences (Merges ▸ Languages shows the idea on UDHR).
NOT_SHOWN = {"000-43", "000-44"}


def test_the_lessons_cover_every_item_of_the_material_but_the_toy_corpus():
    covered = {i for lesson in LESSONS.values() for s in lesson.steps for i in s.items}
    assert len(MATERIAL_ITEMS) == 147 and covered <= MATERIAL_ITEMS, covered - MATERIAL_ITEMS
    assert MATERIAL_ITEMS - covered == NOT_SHOWN  # 145 of 147


def test_every_step_of_every_lesson_shows_its_figure(window):
    """Each step, applied to one window in course order: the pane holds the step's state
    and inputs, and the figure as the pane shows it is the lesson file's value."""
    failures = []
    for lesson in LESSONS.values():
        for n, step in enumerate(lesson.steps, 1):
            pane = apply_step(window, step, wait=True)
            assert window.tabs.currentWidget() is pane
            where = f"{lesson.name} step {n}"
            diffs = state_differences(pane, step)
            shown = figure_text(pane, step)
            if diffs or not figure_shown(step.figure, shown):
                failures.append(f"{where}: {diffs} shows {shown!r}, expects {step.figure.expect!r}")
    assert not failures, "\n".join(failures)


def test_a_step_reached_directly_shows_the_same_figure(window):
    """Steps do not depend on the one before: jumping straight to the last step of each
    lesson, in reverse order, gives the same figures (the panes that embed or measure a
    corpus are left to the walk above: they take seconds each)."""
    for lesson in reversed(list(LESSONS.values())):
        step = lesson.steps[-1]
        if step.pane in ("retrieval", "compare"):
            continue
        pane = apply_step(window, step, wait=True)
        assert figure_shown(step.figure, figure_text(pane, step)), (lesson.name, figure_text(pane, step))


def test_page_down_and_up_step_the_lesson_even_from_a_text_box(window, qtbot):
    panel = window.lesson_panel
    panel.dock.show()
    panel.open_lesson("offsets", wait=True)
    editor = window.panes["alignment"].w.editor
    editor.setFocus()
    text_before = editor.toPlainText()
    qtbot.keyClick(editor, Qt.Key.Key_PageDown)
    assert panel.index == 1 and panel.step_box.currentIndex() == 1
    qtbot.keyClick(editor, Qt.Key.Key_PageDown)
    assert panel.index == 2
    assert editor.toPlainText() == "Ze\u0301 \ufb01x" != text_before  # step 3's text
    qtbot.keyClick(editor, Qt.Key.Key_PageUp)
    assert panel.index == 1
    panel.back()
    panel.back()  # stops at the first step
    assert panel.index == 0 and not panel.back_button.isEnabled()
    panel.go_to(len(panel.lesson.steps) - 1)
    assert not panel.next_button.isEnabled()


def test_the_figure_is_outlined_and_end_lesson_gives_the_users_text_back(window, qtbot):
    alignment = window.panes["alignment"]
    window.set_text("my own text")
    panel = window.lesson_panel
    panel.open_lesson("offsets", wait=True)
    qtbot.waitUntil(lambda: panel.highlighter.widget is alignment.w.table, timeout=10000)
    assert panel.shown.text() == "<b>0–4</b>"
    panel.go_to(6, wait=True)  # a try-it-yourself step: the answer waits for Reveal
    assert panel.badge.isVisibleTo(panel) and panel.reveal_button.isVisibleTo(panel)
    assert panel.highlighter.widget is None
    panel.reveal()
    assert panel.highlighter.widget is alignment.w.entities
    panel.end_lesson()
    assert alignment.w.editor.toPlainText() == "my own text"
    assert panel.highlighter.widget is None and not panel.dock.isVisible()
    with pytest.raises(LessonError, match="no lesson called 'nope'"):
        panel.open_lesson("nope")


def test_lesson_step_screenshot(qtbot, tmp_path):
    out = tmp_path / "step.png"
    assert main(["--lesson", "offsets", "--step", "2", "--presentation", "--screenshot", str(out),
                 "--size", "1280x720"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 720)
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
    for w in windows:  # as test_main_window: qtbot closes the window main() left up
        qtbot.addWidget(w)
    shown = windows[-1]
    panel = shown.lesson_panel
    assert panel.lesson.name == "offsets" and panel.index == 1 and not panel.dock.isHidden()
    assert figure_text(shown.panes["alignment"], panel.step) == panel.step.figure.expect
    assert shown.presentation.presenting and shown.statusBar().isHidden()


@pytest.mark.parametrize("argv, message", [
    (["--lesson", "nope"], "no lesson called 'nope'"),
    (["--lesson", "block", "--step", "9"], "has steps 1 to 7"),
])
def test_a_bad_lesson_or_step_is_one_line(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(argv + ["--screenshot", str(tmp_path / "x.png")])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_a_broken_lesson_file_names_the_file_and_step(tmp_path):
    path = tmp_path / "01_bad.json"
    path.write_text(json.dumps({"title": "t", "chapter": "c", "steps": [
        {"title": "s", "pane": "nowhere", "why": "w", "question": "q?",
         "figure": {"label": "l", "widget": "w", "expect": "e"}}]}), encoding="utf-8")
    with pytest.raises(LessonError, match=r"01_bad.json step 1: no pane called 'nowhere'"):
        read_lesson(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(LessonError, match="01_bad.json: cannot read"):
        read_lesson(path)


def test_merged_state_refuses_what_a_step_cannot_set():
    state = merged_state(PositionsState(), {"T": 8, "view": "anatomy"})
    assert (state.T, state.view, state.d) == (8, "anatomy", 64)
    with pytest.raises(StateValueError, match="no field colour"):
        merged_state(PositionsState(), {"colour": 1})
    with pytest.raises(StateValueError, match="refuses d=33"):
        merged_state(PositionsState(), {"d": 33})  # odd widths keep the default
    with pytest.raises(StateValueError, match="refuses T=0"):
        merged_state(PositionsState(), {"T": 0})


def test_the_panel_shows_lesson_texts_as_written(window, qtbot):
    """Markers and tags in a lesson's text are text, not markup: est</w>, <2ar>."""
    panel = window.lesson_panel
    panel.open_lesson("subwords", wait=True)
    panel.go_to(3, wait=True)  # BPE and WordPiece, merge by merge: figure 'r + </w>'
    qtbot.waitUntil(lambda: panel.highlighter.widget is not None, timeout=30000)
    assert panel.shown.text() == "<b>r + &lt;/w&gt;</b>"
    tag = next(i for i, s in enumerate(LESSONS["multilingual"].steps) if "<2ar>" in s.why)
    panel.open_lesson("multilingual")
    panel.go_to(tag)
    assert panel.why.textFormat() == Qt.TextFormat.PlainText and "<2ar>" in panel.why.text()
