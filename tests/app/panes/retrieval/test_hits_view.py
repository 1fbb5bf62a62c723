"""The hit texts: a right-to-left hit reads right to left on its left-to-right line."""

from __future__ import annotations

from PySide6.QtCore import QPoint

from app.panes.retrieval.hits_view import HitsView
from app.panes.retrieval.search import Hit, QueryResult

ARABIC = "لكل شخص الحق في التعلم."


def _result(hits) -> QueryResult:
    return QueryResult(None, "exact", "cosine", len(hits), tuple(hits), 1.0, 1.0, 0.1, 0.1, 1.0, True, "", ())


def drawn(view, block_number: int) -> dict[int, float]:
    """Code point -> the x (viewport pixels) where ``char_at`` first finds it on the line."""
    block = view.document().findBlockByNumber(block_number)
    y = int(view.blockBoundingGeometry(block).translated(view.contentOffset()).center().y())
    out: dict[int, float] = {}
    for x in range(0, view.viewport().width()):
        out.setdefault(view.char_at(QPoint(x, y)), x)
    out.pop(-1, None)
    return out


def test_an_arabic_hit_ends_at_its_left_and_hover_finds_its_characters(qtbot):
    view = HitsView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    hits = [Hit(1, 0, 0.9, 0.9, "eng", 3, "Everyone has the right to education.", ((26, 35),)),
            Hit(2, 7, 0.8, 0.8, "arb", 18, ARABIC, ((8, 12),))]
    view.render(_result(hits), "")
    tv = view.text_view
    qtbot.waitUntil(lambda: tv.text() != "" and not tv.filling)
    text = tv.text()
    for hit, start in zip(hits, view.starts):
        assert text[start:start + len(hit.text)] == hit.text
    assert view.shown_spans == [(s + st, e + st) for h, st in zip(hits, view.starts) for s, e in h.spans]
    assert text.split("\n")[1] == f"2. [arb ¶19] \u2068{ARABIC}\u2069"
    x = drawn(tv, 1)
    start = view.starts[1]
    stop, first = start + len(ARABIC) - 1, start
    head_end = start - 3  # the "]" of the head
    assert stop in x and first in x and head_end in x  # hover finds them
    assert x[head_end] < x[stop] < x[first]  # head, then the sentence's full stop at its left end
    assert max(x.values()) - x[first] < 12  # the sentence starts at the line's right end
    x0 = drawn(tv, 0)  # the English hit: left to right as before
    assert x0[view.starts[0]] < x0[view.starts[0] + len(hits[0].text) - 1]


def test_copying_a_hit_leaves_out_the_isolates(qtbot):
    from PySide6.QtGui import QTextCursor
    view = HitsView()
    qtbot.addWidget(view)
    view.render(_result([Hit(1, 7, 0.8, 0.8, "arb", 18, ARABIC, ((8, 12),))]), "")
    tv = view.text_view
    qtbot.waitUntil(lambda: tv.text() != "" and not tv.filling)
    cursor = tv.textCursor()
    cursor.select(QTextCursor.SelectionType.Document)
    tv.setTextCursor(cursor)
    assert tv.createMimeDataFromSelection().text() == f"1. [arb ¶19] {ARABIC}"
