"""Unknown tokens, byte-fallback pieces and derived spans in the alignment pane (issue 11):
the table flags them with the text they swallowed, the span views mark them, the status line
counts them, and "Derived spans" redraws the views from core's derived spans."""

from __future__ import annotations

import csv

from PySide6.QtCore import Qt

from app.widgets.token_table import BYTE_FALLBACK_FLAG, COLUMNS, MISLEADING_FLAG, UNKNOWN_FLAG
from core.tokenizers import load
from core.tokenizers.formats.hf_json import build_tokenizer_json
from tests.app.panes.alignment.support import set_mode, tokenize_with
from tests.core.tokenizers.small_docs import report_517_doc, unigram_doc

THAI = "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35 \u0e04\u0e23\u0e31\u0e1a"  # สวัสดี ครับ
COL = {name: COLUMNS.index(name) for name in COLUMNS}


def _cells(model, column):
    return [model.cell(i, COL[column]) for i in range(model.rowCount())]


def test_pegasus_unknown_words_are_flagged_counted_and_marked(qtbot, pane, data_dir):
    pegasus = load(data_dir / "tokenizers" / "pegasus-unigram" / "tokenizer.json")
    model = tokenize_with(qtbot, pane, pegasus, "pegasus", THAI)
    r = pane.result
    assert r.rows.ids == [110, 105, 110, 105] and r.rows.unknown == [False, True, False, True]
    flags = _cells(model, "Flags")
    assert [UNKNOWN_FLAG in f for f in flags] == r.rows.unknown
    assert [MISLEADING_FLAG in f for f in flags] == [True, False, True, False]
    assert _cells(model, "Original")[1::2] == [THAI[:6], THAI[7:]]
    assert _cells(model, "Derived span") == ["0–0", "", "6–7", ""]
    assert not pane.w.table.isColumnHidden(COL["Derived span"])
    assert "2 unknown tokens cover 10 characters" in pane.w.status.text()
    assert "2 token spans differ from the derived span" in pane.w.status.text()
    assert pane.w.original.unknown_count() == pane.w.normalized.unknown_count() == 2
    tip = model.data(model.index(1, COL["Flags"]), Qt.ItemDataRole.ToolTipRole)
    assert "unknown token" in tip and repr(THAI[:6]) in tip


def test_derived_spans_checkbox_redraws_the_views_without_recomputing(qtbot, pane, data_dir):
    pegasus = load(data_dir / "tokenizers" / "pegasus-unigram" / "tokenizer.json")
    tokenize_with(qtbot, pane, pegasus, "pegasus", THAI)
    r = pane.result
    assert pane.w.derived.isEnabled() and pane.w.original.drawn_spans() == r.spans
    with qtbot.assertNotEmitted(pane.sig_encoding_changed):
        pane.w.derived.setChecked(True)
    assert pane.state.derived_spans and pane.w.original.drawn_spans() == r.rows.derived_spans
    assert pane.w.normalized.drawn_spans() == r.derived_view.layer.norm_spans
    assert pane.w.original.unknown_count() == 2 and "derived spans shown" in pane.w.status.text()
    pane.select_token(2)
    assert pane.w.original.linked_spans() == [(6, 7)]  # the space, not the next word's letter
    pane.w.derived.setChecked(False)
    assert pane.w.original.drawn_spans() == r.spans
    pane.select_token(2)
    assert pane.w.original.linked_spans() == [(7, 8)]


def test_bert_thai_is_unknown_and_nothing_misleads(qtbot, pane, data_dir):
    bert = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    model = tokenize_with(qtbot, pane, bert, "bert", THAI + " ok")
    assert _cells(model, "Token") == ["[UNK]", "[UNK]", "ok"]
    assert _cells(model, "Original")[:2] == [THAI[:5], THAI[7:]]  # the reference spans cut the clusters
    assert [UNKNOWN_FLAG in f for f in _cells(model, "Flags")] == [True, True, False]
    assert "2 unknown tokens cover 9 characters" in pane.w.status.text()
    assert not pane.w.derived.isEnabled() and pane.w.table.isColumnHidden(COL["Derived span"])


def test_byte_fallback_pieces_show_the_character_they_spell(qtbot, pane, tmp_path):
    tok = build_tokenizer_json(unigram_doc(byte_fallback=True), "unigram-bytes", "unigram-bytes")
    model = tokenize_with(qtbot, pane, tok, "unigram", "ab \u00e7\u00e9")
    assert [BYTE_FALLBACK_FLAG in f for f in _cells(model, "Flags")] == [False] * 3 + [True] * 4
    assert _cells(model, "Original")[3:] == ["\u00e7", "\u00e7", "\u00e9", "\u00e9"]
    assert _cells(model, "Derived span")[3:] == ["3–4", "3–4", "4–5", "4–5"]
    assert "4 byte-fallback pieces spell 2 characters" in pane.w.status.text()
    assert pane.w.original.unknown_count() == 4
    pane.export_tokens(str(tmp_path / "t.csv"))
    rows = list(csv.DictReader((tmp_path / "t.csv").open(encoding="utf-8")))
    assert [(row["byte_fallback"], row["derived_start"], row["derived_end"]) for row in rows][3:5] == [
        ("True", "3", "4"), ("True", "3", "4")]


def test_report_517_shows_the_derived_span_of_the_shifted_token(qtbot, pane):
    tok = build_tokenizer_json(report_517_doc(), "r517", "r517")
    model = tokenize_with(qtbot, pane, tok, "r517", "mugs hug")
    assert _cells(model, "Code points") == ["0–2", "2–3", "5–8"]
    assert _cells(model, "Derived span") == ["1–3", "3–4", ""]
    assert pane.result.audit.tokens[0].misleading


def test_pasted_unk_is_marked(qtbot, pane):
    set_mode(qtbot, pane, "align")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText("zoe flew to istanbul [UNK] with nv ##id ##ia final")
    model = pane.w.table.token_model
    assert [UNKNOWN_FLAG in f for f in _cells(model, "Flags")] == [i == 4 for i in range(10)]
    assert "1 unknown token covers 1 character" in pane.w.status.text()
    assert pane.w.original.unknown_count() == 1
