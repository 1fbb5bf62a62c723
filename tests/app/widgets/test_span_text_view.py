"""The span text view: edits keep positions and leave the same formats as a fresh view."""

from __future__ import annotations

import re

import numpy as np

from app.widgets.span_segments import display_text
from app.widgets.span_text_view import SpanTextView
from tests.app.panes.alignment.support import FULL


def test_span_view_follows_edits_and_keeps_positions(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    texts = [FULL, FULL + " more", "Big \r\n" + FULL + " more", "x", FULL]
    for text in texts:
        view.set_content(text, [(0, 1)], None)
        view.redraw_now()
        assert view.document().toRawText().replace("\u2029", "\n") == display_text(text)
        assert view._to_qt(len(text)) == len(display_text(text).encode("utf-16-le")) // 2


def _layout_formats(view):
    out, block = [], view.document().firstBlock()
    while block.isValid():
        out.append([(f.start, f.length, f.format.background().color().name(), f.format.fontWeight())
                    for f in block.layout().formats()])
        block = block.next()
    return out


def test_span_view_edits_leave_the_same_formats_as_a_fresh_view(qtbot):
    base = "alpha beta\ngamma delta\nepsilon \U0001F600 zeta\n" * 3
    edits = [base + "x", base[:5] + "Q" + base[5:], base[:14] + "\n\n" + base[14:], base[:3] + base[30:],
             base.replace("\U0001F600", "e"), base]
    views = []
    for _ in range(2):
        view = SpanTextView()
        qtbot.addWidget(view)
        view.resize(400, 300)
        view.show()
        views.append(view)
    qtbot.waitExposed(views[0])

    def show(view, text, linked):
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        view.set_content(text, spans, np.ones(len(text), np.int16))
        view.set_entities([(0, 5, "PER")])
        view.set_linked(linked, scroll=False)
        view.redraw_now()

    show(views[0], base, [(6, 10)])
    for i, text in enumerate(edits):
        show(views[0], text, [(6, 10)] if i % 2 else [])
        views[1].setPlainText("")  # a fresh document every time
        views[1]._text, views[1]._block_keys, views[1]._drawn_key = "", {}, None
        show(views[1], text, [(6, 10)] if i % 2 else [])
        assert _layout_formats(views[0]) == _layout_formats(views[1]), text
