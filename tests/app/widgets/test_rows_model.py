"""The one read-only rows model, in both of its uses: pre-formatted rows (the Merges pane) and
values (the Compare pane)."""

from __future__ import annotations

import csv
import math

from PySide6.QtCore import Qt

from app.widgets.rows_model import HIGHLIGHT_COLOUR, CsvButton, RowsModel, format_value

DISPLAY, TIP, USER = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.UserRole
ALIGN, BACKGROUND = Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.BackgroundRole
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def cell(model, r, c, role=DISPLAY):
    return model.data(model.index(r, c), role)


def test_preformatted_rows_show_as_given_with_row_tips_and_a_highlight(qtmodeltester):
    model = RowsModel(("#", "Pair", "Count"), header_tips=("Rank", "Symbols", "Pair frequency"))
    model.set_rows([(1, "e + s", 1234), (2, "es + t", 9)], ["first", None], highlight=0)
    assert [[cell(model, r, c) for c in range(3)] for r in range(2)] == [[1, "e + s", 1234], [2, "es + t", 9]]
    assert cell(model, 0, 2, TIP) == "first" and cell(model, 1, 2, TIP) is None
    assert cell(model, 0, 2, ALIGN) is None  # numbers keep the view's default alignment
    assert cell(model, 0, 1, BACKGROUND) == HIGHLIGHT_COLOUR and cell(model, 1, 1, BACKGROUND) is None
    assert model.headerData(1, Qt.Orientation.Horizontal) == "Pair"
    assert model.headerData(2, Qt.Orientation.Horizontal, TIP) == "Pair frequency"
    changed = []
    model.dataChanged.connect(lambda top, bottom: changed.append((top.row(), bottom.row(), bottom.column())))
    model.set_highlight(1)
    assert changed == [(0, 0, 2), (1, 1, 2)] and cell(model, 1, 0, BACKGROUND) == HIGHLIGHT_COLOUR
    assert model.row(1) == (2, "es + t", 9) and model.rows() == [[1, "e + s", 1234], [2, "es + t", 9]]
    qtmodeltester.check(model)
    model.set_rows([])
    assert model.rowCount() == 0 and model.highlight == -1


def test_value_rows_are_formatted_right_aligned_and_sort_by_value(qtmodeltester):
    model = RowsModel(["language", "characters", "share"], [["Hindi", 12000, 0.123456]], formatted=True)
    assert [cell(model, 0, c) for c in range(3)] == ["Hindi", "12,000", "0.1235"]
    assert [cell(model, 0, c, USER) for c in range(3)] == ["Hindi", 12000, 0.123456]
    assert [cell(model, 0, c, ALIGN) for c in range(3)] == [None, RIGHT, RIGHT]
    assert [cell(model, 0, c, TIP) for c in range(3)] == ["Hindi", "12000", "0.123456"]
    assert model.headerData(0, Qt.Orientation.Vertical) == 1
    model.set_rows([["a", 1, float("nan"), True]], header=["x", "n", "v", "ok"])
    assert model.columnCount() == 4 and [cell(model, 0, c) for c in range(4)] == ["a", "1", "\u2014", "yes"]
    assert cell(model, 0, 3, ALIGN) is None  # a bool is not a number here
    qtmodeltester.check(model)


def test_format_value():
    assert [format_value(v) for v in (True, 1234567, 2.5e6, 0.000123456, "x")] == [
        "yes", "1,234,567", "2,500,000", "0.0001235", "x"]
    assert format_value(math.nan) == "\u2014"


def test_csv_export_writes_raw_values(qtbot, tmp_path):
    model = RowsModel(["language", "share"], [["eng", 0.5], ["fra", 0.25]], formatted=True)
    button = CsvButton(model, "shares")
    qtbot.addWidget(button)
    with qtbot.waitSignal(button.sig_status_requested) as blocker:
        out = button.export_to(tmp_path / "shares.csv")
    assert blocker.args == [f"Saved {out}"]
    assert list(csv.reader(out.open(encoding="utf-8"))) == [["language", "share"], ["eng", "0.5"], ["fra", "0.25"]]
    with qtbot.waitSignal(button.sig_status_requested) as blocker:
        assert button.export_to(tmp_path / "missing" / "x.csv") is None
    assert blocker.args[0].startswith("Export failed:")
