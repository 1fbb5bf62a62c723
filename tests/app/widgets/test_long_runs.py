"""Long stretches with no space: the span views show them broken into paragraphs (display
only, never inside a grapheme cluster), and an editor wraps them anywhere, so Qt lays them
out in linear time (issue 30, item 2)."""

from __future__ import annotations

import unicodedata

import numpy as np
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QPlainTextEdit

from app.widgets.span_segments import LONG_CLUSTER, display_text, long_cluster_breaks, long_run_breaks, with_breaks
from app.widgets.span_text_view import SpanTextView
from app.widgets.wrap_guard import WrapGuard, has_long_run, set_plain_text
from core.text.graphemes import grapheme_bounds
from tests.app.widgets.shown import shown


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", " ", "\n", "\u0301", "\u200d", "😀", "\ufe0f"]), max_size=300),
       st.integers(8, 40))
def test_breaks_cut_only_long_runs_and_never_before_a_mark(chars, most):
    text = "".join(chars)
    breaks = long_run_breaks(text, most)
    assert list(breaks) == sorted(set(breaks.tolist()))
    for b in breaks.tolist():
        assert 0 < b < len(text)
        assert not unicodedata.category(text[b]).startswith("M") and text[b] not in "\u200d\ufe0f"
        assert text[b - 1] != "\u200d"
    # with the shown breaks, no paragraph is longer than most + the cluster look-ahead, unless
    # its stretch could not be broken (a run of marks and joiners)
    shown_text = with_breaks(display_text(text, most), breaks)
    for paragraph in shown_text.split("\n"):
        if len(paragraph) > 2 * most + 32:
            assert " " not in paragraph[most:]  # display_text breaks at spaces
            assert all(not ch.isalpha() for ch in paragraph[most:most + 32])


def test_a_long_hex_line_gets_a_break_every_paragraph():
    text = "0123456789abcdef" * 1000
    breaks = long_run_breaks(text, 3000)
    assert breaks.tolist() == list(range(3000, len(text), 3000))
    assert len(long_run_breaks("word " * 4000, 3000)) == 0  # spaces break it already
    # one cluster: not split; a break before and after it, also at the ends of the text (what
    # is typed next to it goes into a paragraph of its own)
    assert long_run_breaks("e" + "\u0301" * 10_000, 3000).tolist() == [0, 10_001]


def test_has_long_run():
    assert has_long_run("a" * 50, 50) and not has_long_run("a" * 49 + " " + "a" * 49, 50)
    assert not has_long_run("a\u2029" * 100, 3)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(["a", " ", "\t", "\n", "\x0b", "\r", "\x85", "\xa0", "\u2028", "\u2029",
                                "\u3000", "\u3001", "\u2000", "\x1c", "\U0001F600", "\ud800"]), max_size=40),
       st.integers(1, 6))
def test_has_long_run_is_the_longest_run_without_the_editors_whitespace(text, least):
    breaks = "\t\n\x0b\x0c\r \x85\xa0\u2028\u2029\u3000"
    longest = max((len(run) for run in regex.split(f"[{breaks}]", text)), default=0)
    assert has_long_run(text, least) == (len(text) >= least and longest >= least)


def test_the_editor_wraps_anywhere_only_while_it_holds_a_long_run(qtbot):
    editor = shown(qtbot, QPlainTextEdit(), 500, 300)
    WrapGuard(editor, least=100)
    default = editor.wordWrapMode()
    assert default != QTextOption.WrapMode.WrapAnywhere
    editor.insertPlainText("short words " * 5)
    assert editor.wordWrapMode() == default
    assert not editor.document().firstBlock().layout().cacheEnabled()
    editor.insertPlainText("x" * 150)  # a paste: switched before Qt lays it out
    assert editor.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
    assert editor.document().firstBlock().layout().cacheEnabled()  # no reshaping per cursor blink
    set_plain_text(editor, "short again")
    assert editor.wordWrapMode() == default
    set_plain_text(editor, "y" * 150)
    assert editor.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
    assert editor.toPlainText() == "y" * 150


def test_a_span_view_shows_a_long_line_in_paragraphs_with_the_same_positions(qtbot):
    view = shown(qtbot, SpanTextView(), 500, 300)
    text = "ab" * 10_000
    view.set_content(text, [(i, i + 2) for i in range(0, len(text), 2)])
    qtbot.waitUntil(lambda: not view.filling)
    assert view.document().blockCount() >= 6
    # private: the breaks inserted in a long run and the code point → Qt positions (no public seam)
    assert len(view._breaks) and np.all(np.diff(view._breaks) > 0)
    for cp in (0, 2999, 3000, 3001, 12_345, len(text) - 1):
        block = view.document().findBlock(view._to_qt(cp))
        assert block.text()[view._to_qt(cp) - block.position()] == text[cp]


def test_replacing_a_long_line_never_lays_it_out_in_the_default_mode(qtbot):
    # issue 30 re-attack: set_plain_text("hello") after a 1,000,000-character line set the
    # default (word) wrap mode while the editor still held the long line, so Qt laid that
    # line out again in the quadratic mode before replacing it (28 s of CPU for 1M "a")
    editor = shown(qtbot, QPlainTextEdit(), 500, 300)
    WrapGuard(editor, least=100)
    default = editor.wordWrapMode()
    set_plain_text(editor, "x" * 150)
    held = []  # the editor's text length each time its wrap mode is set
    set_mode = editor.setWordWrapMode
    editor.setWordWrapMode = lambda mode: (held.append((mode, len(editor.toPlainText()))), set_mode(mode))
    set_plain_text(editor, "short again")
    assert editor.wordWrapMode() == default and editor.toPlainText() == "short again"
    assert held and all(length < 100 for mode, length in held if mode != QTextOption.WrapMode.WrapAnywhere)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["a", " ", "\n", "\u0301" * 40, "\u0301", "\u200d", "😀", "\ufe0f" * 30]),
                max_size=30))
def test_a_long_cluster_is_a_paragraph_of_its_own_and_never_split(chars):
    text = "".join(chars)
    breaks = set(long_cluster_breaks(text).tolist())
    assert breaks <= set(grapheme_bounds(text))  # never inside a cluster
    assert breaks <= set(long_run_breaks(text).tolist())
    text = "".join(c for c in chars if c not in ("\u200d", "\ufe0f" * 30))
    breaks = set(long_cluster_breaks(text).tolist())
    for m in regex.finditer("\u0301{%d,}" % LONG_CLUSTER, text):  # marks: a break on each side
        assert m.start() - 1 in breaks or m.start() == 0  # also at the start of the text
        assert m.end() in breaks  # also at the end of the text


def test_typing_after_a_long_cluster_leaves_its_paragraph_alone(qtbot):
    view = shown(qtbot, SpanTextView(), 500, 300)
    text = "e" + "\u0301" * 10_000
    view.set_content(text, [(0, len(text))])  # the cluster ends the text: a paragraph follows it
    view.grab()
    revision = view.document().firstBlock().next().revision()
    view.set_content(text + "x", [(0, len(text)), (len(text), len(text) + 1)])  # the first key after it
    assert view.document().firstBlock().next().revision() == revision
    view.set_content(text, [(0, len(text))])  # and deleting it again
    assert view.document().firstBlock().next().revision() == revision and view.text() == text
    text = "a" + text  # (not at the start of the text: no empty paragraph before it)
    view.set_content(text + "x", [(0, len(text)), (len(text), len(text) + 1)])
    view.grab()
    first = view.document().firstBlock().next()
    assert first.text() == text[1:] and first.layout().cacheEnabled()  # shaped once, kept while unedited
    revision = first.revision()
    view.set_content(text + "xy", [(0, len(text)), (len(text), len(text) + 2)])
    view.grab()
    assert view.document().firstBlock().next().revision() == revision
    assert view.document().blockCount() == 3 and view.text() == text + "xy"


_PIECES = ["e" + "\u0301" * 70, "\u0301" * 70, "x", "ab", " ", "\n", "😀", "\u0915\u094d"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=6), min_size=2, max_size=6))
def test_edits_next_to_long_clusters_keep_the_document_a_fresh_view_would_show(qtbot, texts):
    """Each text in turn goes into one view as a small edit (a break before or after a long
    cluster at either end of the text comes and goes with it); the document is the one a
    fresh view shows, and so are the code point → Qt position tables."""
    view = SpanTextView()
    qtbot.addWidget(view)
    for pieces in texts:
        text = "".join(pieces)
        view.set_content(text, [(0, len(text))] if text else [])
        fresh = SpanTextView()
        fresh.set_content(text, [(0, len(text))] if text else [])
        shown_text = view.document().toRawText().replace("\u2029", "\n")
        assert shown_text == fresh.document().toRawText().replace("\u2029", "\n")
        assert shown_text == with_breaks(display_text(text), long_run_breaks(text))
        # private: code point -> Qt position of the span view (no public seam)
        assert [view._to_qt(c) for c in range(len(text) + 1)] == [fresh._to_qt(c) for c in range(len(text) + 1)]
        fresh.deleteLater()


def test_typing_before_a_long_cluster_leaves_its_paragraph_alone(qtbot):
    view = shown(qtbot, SpanTextView(), 500, 300)
    text = "e" + "\u0301" * 10_000
    view.set_content(text, [(0, len(text))])  # the cluster starts the text: an empty line before it
    view.grab()
    block = view.document().firstBlock().next()
    assert block.text() == text and view.document().firstBlock().text() == ""
    revision = block.revision()
    view.set_content("x" + text, [(0, 1), (1, len(text) + 1)])  # the first key before it
    assert view.document().firstBlock().text() == "x" and view.document().firstBlock().next().revision() == revision
    view.set_content(text, [(0, len(text))])  # and deleting it again
    assert view.document().firstBlock().next().revision() == revision and view.text() == text
