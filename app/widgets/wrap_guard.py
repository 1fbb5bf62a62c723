"""Keeps a text editor's layout linear in the length of a line with no space in it.

Qt's default wrap mode (``WrapAtWordBoundaryOrAnywhere``) looks for a word boundary from
the start of every visual line to the end of the word; in a line of hex, DNA or "a"s with
no boundary that is the rest of the paragraph, so laying out one such line costs
O(length² / line width): 300,000 characters froze the editor 13 s, 1,000,000 over a minute.
``WrapAnywhere`` breaks at any grapheme cluster and lays the same line out in O(length)
(0.4 s for 300,000). :class:`WrapGuard` switches an editor to it when an insertion brings
a stretch of :data:`LONG_RUN` or more code points with no whitespace, *before* Qt lays out
the inserted text (``contentsChange`` is emitted before the document layout runs for an
insertion such as a paste), and back to the default once the whole text is replaced by one
without such a stretch. It also keeps the glyphs of such paragraphs shaped between paints
(see :meth:`WrapGuard._keep_layouts`). ``setPlainText`` lays the text out before that signal once the
editor has held a text, so a program replacing the text calls :func:`set_plain_text`,
which picks the mode first.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QPlainTextEdit

from core.text.char_classes import capped_lookup

LONG_RUN = 5000  # code points with no whitespace from which the editor wraps anywhere
_WHITESPACE = np.array([9, 10, 11, 12, 13, 32, 0x85, 0xA0, 0x2028, 0x2029, 0x3000])
_IS_WHITESPACE = np.zeros(0x3002, bool)  # by code point (the last entry: every one above U+3000)
_IS_WHITESPACE[_WHITESPACE] = True


def has_long_run(text: str, least: int = LONG_RUN) -> bool:
    """Whether ``text`` has ``least`` or more consecutive code points none of which is
    whitespace (tab, line and paragraph separators, spaces). O(n) at numpy speed (one table
    look-up per code point: a 1,000,000-character paste asks this up to three times)."""
    if len(text) < least:
        return False
    spaces = np.flatnonzero(capped_lookup(_IS_WHITESPACE, text))
    gaps = np.diff(np.concatenate(([-1], spaces, [len(text)])))
    return bool((gaps > least).any())


def set_plain_text(editor: QPlainTextEdit, text: str) -> None:
    """``editor.setPlainText(text)`` in the wrap mode :class:`WrapGuard` would pick for
    ``text``, never laying a long line out in the default mode: the switch to wrapping
    anywhere comes before the new text, the switch back after it (setting the default mode
    while the editor still holds a 1,000,000-character line made Qt lay that line out again
    in the quadratic mode: 28 s of CPU). O(n) at numpy speed, plus Qt's layout."""
    guard = editor.findChild(WrapGuard)
    if guard is None or has_long_run(text, guard.least):
        if guard is not None:
            guard.fit(text)
        editor.setPlainText(text)
        return
    editor.setPlainText(text)
    guard.fit(text)


class WrapGuard(QObject):
    """Watches ``editor``'s document and sets its word-wrap mode (see the module doc).

    Cost per edit: O(1) for an insertion shorter than :data:`LONG_RUN`, else O(text) at
    C and numpy speed."""

    def __init__(self, editor: QPlainTextEdit, least: int = LONG_RUN):
        super().__init__(editor)
        self.editor, self.least = editor, least
        self.default = editor.wordWrapMode()
        # A vertical scroll bar appearing would narrow the editor and make Qt lay every
        # paragraph out again (0.8 s more for a 1,000,000-character line): always shown.
        editor.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        editor.document().contentsChange.connect(self._on_change)

    def fit(self, text: str) -> None:
        """Wrap anywhere if ``text`` (the editor's next text) has a long unbroken stretch,
        else in the default mode."""
        mode = QTextOption.WrapMode.WrapAnywhere if has_long_run(text, self.least) else self.default
        if self.editor.wordWrapMode() != mode:
            self.editor.setWordWrapMode(mode)

    @property
    def anywhere(self) -> bool:
        """The editor wraps anywhere now (its text has or had a long unbroken stretch)."""
        return self.editor.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere

    def _on_change(self, pos: int, removed: int, added: int) -> None:
        doc = self.editor.document()
        self._keep_layouts(doc, pos, added)
        whole = pos == 0 and 0 < added and added >= doc.characterCount() - 1  # (setPlainText removes first)
        if added < self.least:
            if whole and self.anywhere:  # the text was replaced by a short one
                self.editor.setWordWrapMode(self.default)
            return
        # The document's raw text, not a QTextCursor: moving a cursor here would lay the
        # block out now, in the old mode (a UTF-16 slice of the code points is close enough).
        long = has_long_run(doc.toRawText()[max(0, pos - self.least):pos + added + self.least], self.least)
        if long and not self.anywhere:
            self.editor.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        elif whole and not long and self.anywhere:
            self.editor.setWordWrapMode(self.default)

    def _keep_layouts(self, doc, pos: int, added: int) -> None:
        """Keep the shaped glyphs of every paragraph of :attr:`least` code points or more
        that the change touched (``QTextLayout.setCacheEnabled``): otherwise Qt frees them
        after each paint and the next one (the cursor blinks twice a second) itemizes and
        shapes the whole paragraph again, ~0.3 s for 1,000,000 characters — the event loop
        never rests. O(log blocks) per keystroke; O(blocks touched) for a long insertion."""
        block = doc.findBlock(pos)
        last = doc.findBlock(pos + added) if added >= self.least else block
        while block.isValid():
            if block.length() >= self.least and block.layout() is not None:
                block.layout().setCacheEnabled(True)
            if block == last:
                break
            block = block.next()
