"""One long line with no space (hex, DNA, "a"s) is laid out in pieces, kept whole when
saved and restored, and a text too long to save whole keeps a prefix that the start names
(issue 30, item 2)."""

from __future__ import annotations


import app.panes.alignment.pane as pane_module
from app.panes.alignment import AlignmentPane
from app.settings import open_settings
from app.widgets.span_segments import MAX_PARAGRAPH
from app.widgets.wrap_guard import LONG_RUN
from tests.app.panes.alignment.support import set_mode

LINE = "0123456789abcdef" * 1000  # 16,000 code points, no space


def _restarted(qtbot) -> AlignmentPane:
    again = AlignmentPane(open_settings())
    qtbot.addWidget(again)
    again.resize(1300, 800)
    again.show()
    qtbot.waitUntil(lambda: again.result is not None and not again.busy, timeout=20000)
    qtbot.waitUntil(lambda: not again.w.original.filling, timeout=20000)
    return again


def test_a_long_line_is_shown_in_paragraphs_and_restored_whole(qtbot, pane):
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_text(LINE)
    assert pane.w.editor.document().blockCount() > 1  # held as pieces: laid out piece by piece
    qtbot.waitUntil(lambda: not pane.w.original.filling, timeout=20000)
    for view in (pane.w.original, pane.w.normalized):
        doc = view.document()
        assert view.text() == LINE
        assert doc.blockCount() >= len(LINE) // MAX_PARAGRAPH  # shown broken: no huge paragraph
        assert max(len(doc.findBlockByNumber(i).text()) for i in range(doc.blockCount())) <= MAX_PARAGRAPH
        view.selectAll()
        assert view.createMimeDataFromSelection().text() == LINE  # the shown breaks are not copied
    pane.save_state()
    again = _restarted(qtbot)
    assert again.state.text == LINE and again.w.editor.toPlainText() == LINE
    assert again.start_notice is None and not again.w.banner.isVisible()
    assert again.w.editor.document().blockCount() > 1
    with qtbot.waitSignal(again.sig_encoding_changed, timeout=20000):
        again.set_text("short words again")
    assert again.w.editor.document().blockCount() == 1 and again.w.editor.soft_breaks == []


def test_a_text_too_long_to_save_keeps_a_prefix_and_the_start_says_so(qtbot, pane, monkeypatch):
    monkeypatch.setattr(pane_module, "MAX_SAVED_CHARS", 5000)
    set_mode(qtbot, pane, "tokenize")
    text = "word " * 2000  # 10,000 code points
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_text(text)
    pane.save_state()
    again = _restarted(qtbot)
    assert again.state.text == text[:5000]
    assert again.w.banner.isVisible() and "10,000 characters" in again.w.banner.text()
    assert "first 5,000" in again.w.banner.text()
    with qtbot.waitSignal(again.sig_encoding_changed, timeout=20000):
        again.w.editor.insertPlainText("x")  # an edit: the note has done its job
    assert again.start_notice is None and not again.w.banner.isVisible()


def test_a_restored_prefix_too_long_to_tokenize_still_says_it_was_cut(qtbot, pane, monkeypatch):
    """A 3M text saved as its first 2M characters is still over the 1M that are tokenized:
    the start names both (the limit's notice used to hide the cut), also when the editor
    waits for its first paint (limits lowered: saved 5,000, tokenized 3,000, waiting
    from 4,000)."""
    import core.align.view as view_module
    monkeypatch.setattr(pane_module, "MAX_SAVED_CHARS", 5000)
    monkeypatch.setattr(pane_module, "FILL_AFTER_PAINT_CHARS", 4000)
    monkeypatch.setattr(view_module, "MAX_CHARS", 3000)
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_text("word " * 2000)  # 10,000 code points
    pane.save_state()
    again = _restarted(qtbot)
    qtbot.waitUntil(lambda: again.w.editor.toPlainText() == ("word " * 2000)[:5000], timeout=20000)
    banner = again.w.banner.text()
    assert again.w.banner.isVisible() and "10,000 characters" in banner and "first 5,000" in banner
    assert "at most 3,000 are tokenized" in banner and again.start_notice is not None


def _waiting(qtbot, pane, monkeypatch) -> AlignmentPane:
    """A fresh pane restoring ``LINE`` (saved by ``pane``), never shown: its editor waits for
    the first paint (the threshold lowered to 10,000 code points)."""
    monkeypatch.setattr(pane_module, "FILL_AFTER_PAINT_CHARS", 10_000)
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_text(LINE)
    pane.save_state()
    again = AlignmentPane(open_settings())
    qtbot.addWidget(again)
    return again


def test_a_long_restored_text_fills_the_editor_after_the_first_paint(qtbot, pane, monkeypatch):
    """Qt's document and layout of a restored 2,000,000-character line took ~1 s before the
    window could be shown; the editor now waits (read-only, saying why) for its first paint."""
    set_mode(qtbot, pane, "tokenize")
    again = _waiting(qtbot, pane, monkeypatch)
    assert pane.w.editor.toPlainText() == LINE  # set by a program: at once, as before
    assert again.state.text == LINE  # computed and saved from the state meanwhile
    assert again.w.editor.toPlainText() == "" and again.w.editor.isReadOnly()
    assert "16,000 characters" in again.w.editor.placeholderText()
    again.resize(1300, 800)
    again.show()
    qtbot.waitUntil(lambda: again.w.editor.toPlainText() == LINE, timeout=20000)
    assert not again.w.editor.isReadOnly() and "16,000" not in again.w.editor.placeholderText()
    assert again.w.editor.document().blockCount() > 1
    qtbot.waitUntil(lambda: again.result is not None and not again.busy, timeout=20000)
    assert again.state.text == LINE


def test_a_waiting_text_is_filled_before_a_program_edits_it(qtbot, pane, monkeypatch):
    again = _waiting(qtbot, pane, monkeypatch)
    again.replace_text("short")  # never shown: the text goes in first, so Ctrl+Z brings it back
    assert again.w.editor.toPlainText() == "short" and not again.w.editor.isReadOnly()
    again.w.editor.undo()
    assert again.w.editor.toPlainText() == LINE


def test_a_text_set_while_one_waits_ends_the_wait(qtbot, pane, monkeypatch):
    again = _waiting(qtbot, pane, monkeypatch)
    assert again.w.editor.isReadOnly()
    again.set_text("short words")  # e.g. --text-file or a lesson, before the first paint
    assert again.w.editor.toPlainText() == "short words" and not again.w.editor.isReadOnly()
    assert "Restoring" not in again.w.editor.placeholderText()
    again.resize(800, 600)
    again.show()
    qtbot.wait(50)  # a paint: the long text does not come back
    assert again.w.editor.toPlainText() == "short words"


def test_the_guard_threshold_is_above_a_paragraph():
    assert LONG_RUN > MAX_PARAGRAPH  # the views break long runs before the editor changes mode


def test_a_pasted_line_longer_than_a_piece_is_held_in_pieces_and_tokenized_whole(qtbot, pane):
    """A line past FOLD_AT pasted with Ctrl+V: the editor holds it as pieces (Qt lays out
    only those on screen), the pane tokenizes and saves the line itself."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    from app.widgets.long_line_editor import FOLD_AT, PIECE

    set_mode(qtbot, pane, "tokenize")
    line = (LINE * 3)[:FOLD_AT + 3 * PIECE // 2]
    QGuiApplication.clipboard().setText(line)
    pane.w.editor.selectAll()
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        qtbot.keyClick(pane.w.editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert pane.state.text == line == pane.w.editor.toPlainText()
    assert pane.w.editor.document().blockCount() == len(line) // PIECE + 1
    assert sum(len(p) for p in pane.result.tokens) > 0 and pane.result.tokens[-1]
    pane.save_state()
    again = _restarted(qtbot)
    assert again.state.text == line and again.w.editor.document().blockCount() > 1


def test_a_text_the_editor_cannot_hold_as_it_is_is_tokenized_as_given_and_says_so(qtbot, pane):
    """\\r\\n, \\r, U+2029, U+FDD0 and lone surrogates: Qt's document makes line breaks of
    the first four and drops the last. The tokens stay those of the text as given and the
    banner says what the editor shows, until an edit makes the editor's text the text."""
    from PySide6.QtCore import Qt

    from app.panes.alignment.pane import held_notice

    assert held_notice("a\nb", "a\nb") is None and held_notice("a\r\nb", "a\r\nb") is None
    assert "carriage returns" in held_notice("a\r\nb\rc", "a\nb\nc")
    assert "paragraph separators" in held_notice("a\u2029b\ufdd0", "a\nb\n")
    assert "lone surrogates" in held_notice("a\ud800b", "ab")
    set_mode(qtbot, pane, "tokenize")
    text = "one\r\ntwo\rthree\u2029four"
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_text(text)
    assert pane.state.text == text and pane.result.text == text  # tokenized as given
    assert pane.w.editor.text() == "one\ntwo\nthree\nfour"
    assert pane.w.banner.isVisible() and "carriage returns" in pane.w.banner.text()
    pane.w.editor.moveCursor(pane.w.editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        qtbot.keyClick(pane.w.editor, Qt.Key.Key_X)
    assert pane.state.text == "one\ntwo\nthree\nfourx" and not pane.w.banner.isVisible()


def test_a_lone_surrogate_s_error_also_says_the_editor_drops_it(qtbot, pane):
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_text("a\ud800b")
    banner = pane.w.banner.text()
    assert "surrogate" in banner and "shows this text with its lone surrogates left out" in banner
