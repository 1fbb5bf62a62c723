"""The text editor holds a long line as pieces that Qt lays out one by one, and gives the
text back without the breaks between them, through every edit, undo, copy and paste
(issue 30, item 2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtTest import QTest

from app.widgets.long_line_editor import FOLD_AT, PIECE, SOFT_BREAK, SPACE_LOOK, LongLineEditor, fold_points
from app.widgets.span_segments import next_cluster_start, starts_cluster

ALPHABET = ["a", "b", " ", "\n", "\u0301", "\u200d", "\U0001F600", "\ufe0f", "\u0915", "\u094d", "\xa0"]


@pytest.fixture
def editor(qtbot):
    e = LongLineEditor(fold_at=8, piece=4)
    qtbot.addWidget(e)
    e.resize(300, 200)
    e.show()
    return e


def _scanned(editor: LongLineEditor) -> list[int]:
    """The soft breaks found by walking every block (what the kept positions must equal)."""
    return editor._found(0, editor.document().characterCount())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=200), st.integers(3, 30), st.integers(2, 20))
def test_fold_points_cut_only_long_lines_at_cluster_starts(chars, fold_at, piece):
    text = "".join(chars)
    points, directions = fold_points(text, fold_at, piece)
    assert len(directions) == len(points)
    assert points == sorted(set(points)) and all(0 < p < len(text) for p in points)
    lines, at = [], 0
    for line in text.split("\n"):
        lines.append((at, at + len(line)))
        at += len(line) + 1
    for p in points:
        start, end = next((s, e) for s, e in lines if s < p < e)
        assert end - start > fold_at  # only in a long line
        # at a cluster start, or exactly where the piece ends when none starts soon after
        assert starts_cluster(text, p) or all(not starts_cluster(text, c) for c in range(p, min(p + piece, end)))
    for start, end in lines:  # every piece of a long line is short
        cuts = [start] + [p for p in points if start < p < end] + [end]
        assert all(b - a <= piece + max(piece, SPACE_LOOK) for a, b in zip(cuts, cuts[1:]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET + ["\U000e0041", "\U0001f3fb", "\u200c"]), min_size=1, max_size=60),
       st.data())
def test_next_cluster_start_is_the_first_place_a_cluster_starts(chars, data):
    text = "".join(chars)
    start = data.draw(st.integers(1, len(text)))
    end = data.draw(st.integers(start, len(text) + 3))
    expected = next((c for c in range(start, min(end, len(text))) if starts_cluster(text, c)), -1)
    assert next_cluster_start(text, start, end) == expected


def test_a_line_of_words_is_cut_after_a_space_and_keeps_its_direction():
    words = "\u0645\u0631\u062d\u0628\u0627 " * 20  # Arabic words (5 letters and a space)
    text = "Hindi \u0939\u093f\u0902\u0926\u0940 then " + words + "\n" + words
    points, directions = fold_points(text, 40, 30)
    first_line = len(text) - len(words) - 1
    assert points and all(text[p - 1] == " " for p in points)  # never inside a word
    for p, d in zip(points, directions):  # each piece is laid out in its line's direction
        assert d == (Qt.LayoutDirection.LeftToRight if p < first_line else Qt.LayoutDirection.RightToLeft)
    ltr = Qt.LayoutDirection.LeftToRight  # no strong character: left to right
    assert fold_points("0123456789" * 10, 40, 30)[1] == [ltr] * 3


def test_a_million_character_line_is_held_in_pieces(qtbot):
    e = LongLineEditor()
    qtbot.addWidget(e)
    line = "0123456789abcdef" * 62_500
    e.setPlainText("before\n" + line + "\nafter")
    assert e.text() == "before\n" + line + "\nafter"
    doc = e.document()
    assert doc.blockCount() == 2 + len(line) // PIECE + 1
    assert max(len(doc.findBlockByNumber(i).text()) for i in range(doc.blockCount())) <= PIECE
    assert len(e.soft_breaks) == len(line) // PIECE and not e.document().isUndoAvailable()
    short = "x" * FOLD_AT
    e.setPlainText(short)  # a line of FOLD_AT is not folded
    assert e.document().blockCount() == 1 and e.soft_breaks == [] and e.text() == short


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chars=st.lists(st.sampled_from(ALPHABET), max_size=120))
def test_text_comes_back_as_it_went_in(editor, chars):
    e = editor  # one editor for every example: setPlainText starts each afresh
    text = "".join(chars)
    e.setPlainText(text)
    assert e.text() == text and e.soft_breaks == _scanned(e)
    e.replace_undoably(text[::-1])
    assert e.text() == text[::-1] and e.soft_breaks == _scanned(e)
    e.undo()
    assert e.text() == text and e.soft_breaks == _scanned(e)


def test_edits_across_soft_breaks_keep_the_text(editor):
    editor.setPlainText("ab\nabcdefghijklmnop\nxy")
    assert editor.soft_breaks == [7, 12, 17]  # after "abcd", "efgh", "ijkl"

    def at(pos):
        c = editor.textCursor()
        c.setPosition(pos)
        editor.setTextCursor(c)

    at(9)
    QTest.keyClick(editor, Qt.Key.Key_Return)  # a typed line break is a real one
    assert editor.text() == "ab\nabcde\nfghijklmnop\nxy"
    editor.undo()
    cursor = editor.textCursor()
    cursor.setPosition(8)
    cursor.deletePreviousChar()  # deletes the soft break: pieces join, text unchanged
    assert editor.text() == "ab\nabcdefghijklmnop\nxy" and editor.soft_breaks == [11, 16]
    editor.undo()  # brings the soft break back, mark and all
    assert editor.text() == "ab\nabcdefghijklmnop\nxy" and editor.soft_breaks == [7, 12, 17]
    editor.redo()
    assert editor.soft_breaks == [11, 16] == _scanned(editor)


def test_a_line_break_typed_in_an_emptied_piece_is_real(editor):
    editor.setPlainText("abcdefghijkl")
    assert editor.soft_breaks == [4, 9]
    c = editor.textCursor()
    c.setPosition(5)
    c.setPosition(9, QTextCursor.MoveMode.KeepAnchor)  # "efgh", the second piece, emptied
    c.removeSelectedText()
    editor.setTextCursor(c)
    assert editor.textCursor().charFormat().hasProperty(SOFT_BREAK)  # what a key would inherit
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QTest.keyClick(editor, Qt.Key.Key_Z)
    assert editor.text() == "abcd\nzijkl" and editor.soft_breaks == _scanned(editor)


def test_copy_and_paste_leave_the_soft_breaks_out(editor):
    editor.setPlainText("ab\nabcdefghijklmnop\nxy")
    c = editor.textCursor()
    c.setPosition(4)
    c.setPosition(20, QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(c)
    editor.copy()
    assert QGuiApplication.clipboard().text() == "bcdefghijklmn"
    assert QGuiApplication.clipboard().mimeData().formats() == ["text/plain"]
    editor.moveCursor(QTextCursor.MoveOperation.End)
    editor.paste()  # folded again where it goes
    assert editor.text() == "ab\nabcdefghijklmnop\nxybcdefghijklmn"
    assert editor.soft_breaks == _scanned(editor) and len(editor.soft_breaks) > 3
    mime = QMimeData()
    mime.setText("q" * 9)
    editor.insertFromMimeData(mime)  # a drop
    assert editor.text().endswith("xybcdefghijklmn" + "q" * 9)


def test_random_edits_keep_the_positions_exact(editor):
    rng = random.Random(7)
    editor.setPlainText("abcdefghijklmnopqrstuvwxyz\n" * 3)
    keys = [Qt.Key.Key_Return, Qt.Key.Key_Backspace, Qt.Key.Key_Delete, Qt.Key.Key_A, Qt.Key.Key_B]
    for step in range(300):
        n = editor.document().characterCount() - 1
        c = editor.textCursor()
        c.setPosition(rng.randint(0, n))
        if rng.random() < 0.3:
            c.setPosition(rng.randint(0, n), QTextCursor.MoveMode.KeepAnchor)
        editor.setTextCursor(c)
        roll = rng.random()
        if roll < 0.1:
            editor.undo()
        elif roll < 0.15:
            editor.redo()
        elif roll < 0.25:
            mime = QMimeData()
            mime.setText("0123456789"[:rng.randint(0, 10)] + "\n" * rng.randint(0, 1) + "abcdefghijk")
            editor.insertFromMimeData(mime)
        else:
            QTest.keyClick(editor, rng.choice(keys))
        assert editor.soft_breaks == _scanned(editor), step
        raw = editor.document().toRawText()
        assert len(editor.text()) == len(raw) - len(editor.soft_breaks)  # (BMP text: one unit each)


def test_the_mark_after_a_piece_is_drawn(editor):
    editor.setPlainText("abcdefghijkl")
    editor.repaint()  # draws the ↵ marks (a paint error would raise here)
    assert editor.soft_breaks == [4, 9]


def test_plain_text_is_qts_without_the_soft_breaks(editor):
    editor.setPlainText("a\xa0b\u2028cdefghijkl")
    assert editor.soft_breaks and editor.toPlainText() == "a b\ncdefghijkl"
    assert editor.text() == "a\xa0b\u2028cdefghijkl"


def test_a_piece_is_laid_out_in_its_lines_direction(qtbot):
    e = LongLineEditor(fold_at=40, piece=30)
    qtbot.addWidget(e)
    words = "\u0645\u0631\u062d\u0628\u0627 " * 20
    e.setPlainText("Hindi \u0939\u093f\u0902\u0926\u0940 then " + words)
    doc = e.document()
    assert doc.blockCount() > 2
    for i in range(1, doc.blockCount()):  # every piece starts with Arabic, laid out as the LTR line
        assert doc.findBlockByNumber(i).blockFormat().layoutDirection() == Qt.LayoutDirection.LeftToRight
    e.setPlainText(words)  # an RTL line
    assert doc.findBlockByNumber(1).blockFormat().layoutDirection() == Qt.LayoutDirection.RightToLeft


def test_the_tooltip_says_how_long_lines_are_shown_while_some_are(editor):
    editor.setToolTip("Type here")
    editor.setPlainText("abcdefghijkl")
    assert editor.toolTip().startswith("Type here\n\n") and "pieces" in editor.toolTip()
    editor.setPlainText("short")
    assert editor.toolTip() == "Type here"


def test_keys_at_a_soft_break_act_as_if_it_were_not_there(editor):
    """Backspace at a piece's start deletes the character before it, Delete at a piece's
    end the one after, ← and → step over the break (each was a key that changed nothing)."""
    text = "abcdefghijkl"
    editor.setPlainText(text)  # pieces abcd | efgh | ijkl; soft breaks at 4 and 9

    def key(pos, k, mods=Qt.KeyboardModifier.NoModifier):
        c = editor.textCursor()
        c.setPosition(pos)
        editor.setTextCursor(c)
        QTest.keyClick(editor, k, mods)

    key(5, Qt.Key.Key_Backspace)
    assert editor.text() == "abcefghijkl"
    editor.undo()
    key(4, Qt.Key.Key_Delete)
    assert editor.text() == "abcdfghijkl"
    editor.undo()
    assert editor.text() == text and editor.soft_breaks == [4, 9]
    key(5, Qt.Key.Key_Left)
    assert editor.textCursor().position() == 3  # one character left: before "d"
    key(4, Qt.Key.Key_Right)
    assert editor.textCursor().position() == 6  # after "e"
    key(5, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    editor.copy()
    assert QGuiApplication.clipboard().text() == "d"
    key(2, Qt.Key.Key_Backspace)  # away from a break: Qt's own
    assert editor.text() == "acdefghijkl"


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(["a", " ", "1", "\n", "\u05d0", "\u0627", "\U0001F600", "\U0001E900", "\U00020000",
                                "\u0301", ".", "\U00010330"]), max_size=80))
def test_line_directions_follow_the_first_strong_character_of_each_line(text):
    import unicodedata

    points, directions = fold_points(text, 8, 4)
    for p, d in zip(points, directions):
        start = max(text.rfind("\n", 0, p) + 1, 0)
        end = text.find("\n", p)
        line = text[start:len(text) if end < 0 else end]
        first = next((unicodedata.bidirectional(c) for c in line if unicodedata.bidirectional(c) in ("L", "R", "AL")),
                     "L")
        assert d == (Qt.LayoutDirection.LeftToRight if first == "L" else Qt.LayoutDirection.RightToLeft)
