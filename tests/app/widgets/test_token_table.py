"""The token table: visible markers and readable bytes, and a model that updates only the rows
an edit changed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from app.panes.alignment import state as alignment_state
from app.widgets.token_badges import readable, visible, visible_runs
from app.widgets.token_table import COLUMNS, TableRows, TokenTableModel, row_arrays
from tests.app.widgets.table_rows import table_rows
from core.align.audit import audit
from core.align.view import AlignRequest, alignment_view
from core.tokenizers import demo_tokenizer
from tests.app.panes.alignment.support import FULL


def test_visible_markers_badges_and_readable_bytes():
    assert visible("\u0120a\u010a\u0109", byte_level=True) == "␣a↵⇥"
    assert visible("\u2581der", metaspace=True) == "␣der"
    assert visible("\u0120\u2581") == "\u0120\u2581"  # running text: Maltese Ġ stays a letter
    assert visible("a\u00a0b\u200bc\u200dd") == "a⟨NBSP⟩b⟨ZWSP⟩c⟨ZWJ⟩d"
    assert readable("क".encode()[:2]) == "⟨E0 A4⟩"
    assert readable(b" \n\xf0\x9f\x98\x80") == "␣↵\U0001F600"
    assert visible_runs("␣ab⟨ZWJ⟩c") == [("␣", True), ("ab", False), ("⟨ZWJ⟩", True), ("c", False)]


def test_visible_whitespace_and_joiners():
    assert visible(" \n\t\u200d\u200cx") == "␣↵⇥⟨ZWJ⟩⟨ZWNJ⟩x"


def _fill(model, result):
    model.set_tokens(TableRows(result))


def test_token_model_updates_only_rows_that_changed(qtbot, qtmodeltester):
    tok = demo_tokenizer()

    def result(text, mode="tokenize", tokens=""):
        state = alignment_state.AlignmentState(text=text, mode=mode, tokens_text=tokens)
        return alignment_state.compute(alignment_state.Request(state, tok, True))

    texts = [FULL, FULL.replace("\U0001F600", "\U0001F603"),  # same tokens, one [UNK] shows another emoji
             FULL + " flew", FULL + " flew to", "Zoe\u0301 to" + FULL[8:], FULL + " to"]
    results = [result(t) for t in texts] + [result(FULL, "align", "zoe flew to istanbul"),
                                            result(FULL, "align", "zoe flew xx to")]
    model, changed = TokenTableModel(), []
    model.dataChanged.connect(lambda top, _bottom: changed.append(top.row()))
    for r in results:
        changed.clear()
        before = [[model.cell(i, c) for c in range(len(COLUMNS))] for i in range(model.rowCount())]
        _fill(model, r)
        fresh = TokenTableModel()
        _fill(fresh, r)
        cells = [[model.data(model.index(i, c)) for c in range(len(COLUMNS))] for i in range(model.rowCount())]
        assert cells == [[fresh.cell(i, c) for c in range(len(COLUMNS))] for i in range(fresh.rowCount())]
        first = changed[0] if changed else min(len(before), len(cells))
        assert before[:first] == cells[:first]  # rows before the announced ones did not change
        qtmodeltester.check(model)
    assert changed == [2]  # the token list fits up to "xx": rows from there change (error, no span)


def test_unknown_marks_and_derived_spans_refresh_their_rows(qtbot, qtmodeltester):
    text = "ab cd ef"
    spans = [(0, 2), (3, 5), (6, 8)]
    model, changed = TokenTableModel(), []
    model.dataChanged.connect(lambda top, _bottom: changed.append(top.row()))
    model.set_tokens(table_rows(text, ["ab", "cd", "ef"], [1, 2, 3], spans, audit=audit(text, spans)))
    assert model.cell(1, COLUMNS.index("Flags")) == ""
    model.set_tokens(table_rows(text, ["ab", "[UNK]", "ef"], [1, 0, 3], spans, unknown=[False, True, False],
                                audit=audit(text, spans, derived_offsets=[(0, 2), (3, 5), (7, 8)]),
                                derived=[(0, 2), (3, 5), (7, 8)]))
    assert changed == [1]
    assert model.cell(1, COLUMNS.index("Flags")) == "⍰ unknown"
    assert model.cell(2, COLUMNS.index("Flags")) == "≠ span"
    assert model.cell(2, COLUMNS.index("Derived span")) == "7–8"
    assert model.row_values(1)["unknown"] and model.row_values(2)["derived_start"] == 7
    qtmodeltester.check(model)


def test_row_arrays_computed_ahead_give_the_same_rows(qtbot):
    """The pane's worker computes the per-row arrays; the model then only stores them."""
    enc = demo_tokenizer().encode(FULL)
    spans = [tuple(o) for o in enc.offsets]
    flags = audit(FULL, spans)
    unknown = [t == "[UNK]" for t in enc.tokens]
    args = (FULL, enc.tokens, enc.ids, spans)
    here, ahead = TokenTableModel(), TokenTableModel()
    here.set_tokens(table_rows(*args, audit=flags, unknown=unknown))
    ahead.set_tokens(table_rows(*args, audit=flags, unknown=unknown, arrays=row_arrays(spans, flags, unknown)))
    for name in ("_marks", "_bits", "_end_max"):
        assert getattr(here, name).tolist() == getattr(ahead, name).tolist()
    # private: the marks the view bisects per redraw (no public getter)
    assert any(here._marks) and [ahead.cell(r, 2) for r in range(ahead.rowCount())] == [
        here.cell(r, 2) for r in range(here.rowCount())]


def test_the_token_that_does_not_fit_is_the_error_row(qtbot):
    """A pasted list that stops fitting: its first token that does not fit is flagged, the
    rest have no span."""
    view = alignment_view("zoe flew to", request=AlignRequest(mode="align", tokens_text="zoe flx to"))
    assert view.mismatch is not None and view.mismatch.token == 1
    model = TokenTableModel()
    model.set_tokens(TableRows(view))
    flags = [model.cell(r, COLUMNS.index("Flags")) for r in range(model.rowCount())]
    assert flags == ["", "does not fit", "not aligned"]
    assert model.data(model.index(1, 0), Qt.ItemDataRole.BackgroundRole) == QColor("#fecaca")
