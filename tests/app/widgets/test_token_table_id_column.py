"""The token table's ID column sits beside the index, so it is on screen however wide the
token columns are (byte-level tokenizers add a Readable column)."""

from __future__ import annotations

from tests.app.widgets.table_rows import table_rows
from app.widgets.token_table import COLUMNS, TokenTableView


def test_the_id_column_is_visible_in_a_narrow_table_with_every_column_shown(qtbot):
    view = TokenTableView()
    qtbot.addWidget(view)
    view.resize(420, 300)
    view.show_readable(True)
    view.show_derived(True)
    view.token_model.set_tokens(table_rows("hello world", ["hello", "Ġworld"], [31373, 995], [(0, 5), (5, 11)]))
    view.show()
    qtbot.waitExposed(view)
    col = COLUMNS.index("ID")
    assert not view.isColumnHidden(col)
    assert view.horizontalScrollBar().value() == 0
    assert 0 <= view.columnViewportPosition(col)
    assert view.columnViewportPosition(col) + view.columnWidth(col) <= view.viewport().width()
    assert view.token_model.cell(1, col) == "995"
    assert view.columnWidth(col) >= view.fontMetrics().horizontalAdvance("128006")  # a Llama 3 id fits
