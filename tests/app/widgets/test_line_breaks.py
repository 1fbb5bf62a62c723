"""A normalized text shown broken where its original has line breaks (SentencePiece and
BERT normalize newlines away): display only, every position stays a code point of the text."""

from __future__ import annotations

import numpy as np
import pytest

from app.widgets.span_segments import line_breaks, qt_positions, with_breaks
from app.widgets.span_text_view import SpanTextView
from core.text.normalize import NormalizedText
from core.text.offsets import utf16_table
from tests.app.widgets.shown import shown

ORIGINAL = "ab\ncd\n\nef \U0001F600\ngh"


def _metaspace(original: str) -> NormalizedText:
    """A SentencePiece-like normalization: runs of whitespace become one ▁, a ▁ in front."""
    text, starts, ends, i = ["\u2581"], [0], [0], 0
    while i < len(original):
        j = i
        while j < len(original) and original[j].isspace():
            j += 1
        if j > i:
            text.append("\u2581"), starts.append(i), ends.append(j)
            i = j
        else:
            text.append(original[i]), starts.append(i), ends.append(i + 1)
            i += 1
    return NormalizedText(original, "".join(text), starts, ends)


def test_breaks_go_where_the_original_breaks_lines():
    nt = _metaspace(ORIGINAL)
    breaks = line_breaks(nt.original, nt.text, np.asarray(nt.ends))
    shown = with_breaks(nt.text, breaks)
    assert shown == "\u2581ab\n\u2581cd\n\u2581ef\u2581\U0001F600\n\u2581gh"  # the ▁ opens the next line
    # a newline that became a space ends its line; one kept as a newline needs no break
    bert = NormalizedText("a\nb\nc", "a b\nc", [0, 1, 2, 3, 4], [1, 2, 3, 4, 5])
    assert line_breaks(bert.original, bert.text, np.asarray(bert.ends)).tolist() == [2]
    assert line_breaks("abc", "abc", np.arange(1, 4)).tolist() == []


def test_qt_positions_and_pieces_follow_the_breaks():
    text = "\u2581ab\u2581c\U0001F600d"
    breaks = np.array([3, 5])
    table = list(qt_positions(utf16_table(text), breaks))
    shown = with_breaks(text, breaks)
    units = shown.encode("utf-16-le")
    for cp, ch in enumerate(text):  # every code point is where the table says in the shown text
        assert units[2 * table[cp]: 2 * table[cp] + len(ch.encode("utf-16-le"))] == ch.encode("utf-16-le")
    assert table[-1] == len(units) // 2
    # a piece [a, b) holds the breaks in (a, b]: pieces put together give the whole
    assert with_breaks(text[0:3], breaks, 0) + with_breaks(text[3:], breaks, 3) == shown
    assert with_breaks(text[3:5], breaks, 3) == "\u2581c\n"


@pytest.fixture
def view(qtbot):
    return shown(qtbot, SpanTextView(), 500, 300)


def _show(view, nt):
    breaks = line_breaks(nt.original, nt.text, np.asarray(nt.ends))
    view.set_content(nt.text, [(0, 3)], None, qt_positions(utf16_table(nt.text), breaks), breaks=breaks)
    view.redraw_now()
    return breaks


def test_the_view_shows_paragraphs_and_maps_positions_back(view):
    nt = _metaspace(ORIGINAL * 3)
    breaks = _show(view, nt)
    assert view.document().blockCount() == len(breaks) + 1
    assert view.document().toRawText().replace("\u2029", "\n") == with_breaks(nt.text, breaks)
    for cp in range(len(nt.text) + 1):
        # private: code point ↔ Qt position and the inserted breaks of the span view (no public seam)
        assert view._to_cp(view._to_qt(cp)) == cp
    # a shown break (the end of a paragraph) maps to the character after it, and is no character
    first = int(breaks[0])
    at_break = view._to_qt(first) - 1
    assert view._to_cp(at_break) == first
    assert view._break_at(at_break, first - 1) and not view._break_at(at_break - 1, first - 2)
    assert view.document().findBlock(at_break).text() == with_breaks(nt.text, breaks).split("\n")[0]


def test_edits_keep_the_shown_text_equal_to_a_fresh_view(view, qtbot):
    base = ORIGINAL * 4
    edits = [base + "x", base[:4] + "\n" + base[4:], base[:9] + base[12:], "zz\n" + base, base.replace("\n", " "),
             base]
    fresh = SpanTextView()
    qtbot.addWidget(fresh)
    for original in edits:
        nt = _metaspace(original)
        breaks = _show(view, nt)
        fresh.set_content("", [])
        _show(fresh, nt)
        shown = view.document().toRawText().replace("\u2029", "\n")
        assert shown == with_breaks(nt.text, breaks) == fresh.document().toRawText().replace("\u2029", "\n")
        assert view.document().blockCount() == len(breaks) + 1
        # private: code point ↔ Qt position and the inserted breaks of the span view (no public seam)
        assert [view._to_qt(c) for c in range(len(nt.text) + 1)] == [fresh._to_qt(c) for c in range(len(nt.text) + 1)]


def test_a_copied_selection_holds_the_text_not_the_shown_breaks(view):
    from PySide6.QtGui import QTextCursor
    nt = _metaspace(ORIGINAL)
    _show(view, nt)
    cursor = view.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    view.setTextCursor(cursor)
    assert view.createMimeDataFromSelection().text() == nt.text  # no "\n" / U+2029 from the view
    view.copy_drops = "\u2581"
    assert view.createMimeDataFromSelection().text() == nt.text.replace("\u2581", "")
