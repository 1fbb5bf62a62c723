"""The alignment pane driven through its widgets: data, not pixels (SPEC §2–§3)."""

from __future__ import annotations

import csv
import json
import re

import numpy as np

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt, QTimer
from PySide6.QtGui import QMouseEvent, QTextCursor
from PySide6.QtWidgets import QApplication

from hypothesis import given, settings
from hypothesis import strategies as st

from app.panes import alignment_state
from app.panes.alignment_graphemes import GraphemeBounds
from app.panes.alignment_state import audit_spans, normalized_spans
from app.panes.alignment_pane import AlignmentPane
from app.settings import open_settings
from app.widgets.offset_map_view import change_cause, offset_rows
from app.widgets.span_segments import common_affixes, display_text, utf16_table
from app.widgets.span_text_view import SpanTextView
from app.widgets.span_segments import (
    ERROR_COLOUR,
    LINK_COLOUR,
    MULTI_COLOUR,
    TOKEN_COLOURS,
    UNKNOWN,
    carry_block_keys,
    common_prefix,
    compose_style,
    entity_colour,
    first_difference,
    marks,
    sweep,
    window_intervals,
)
from app.widgets.token_table import COLUMNS, TokenTableModel, readable, visible, visible_runs
from core.audit import grapheme_bounds
from core.entities import entities, offset_tables
from core.normalize import normalize
from core.tokenizers import demo_tokenizer, load
from core.tokenizers.normalizers import Teaching
from tests.core.strategies import any_text, tricky_text

FULL = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
FULL_TOKENS = "zoe flew to istanbul [UNK] with nv ##id ##ia final".split()
FULL_SPANS = [(0, 4), (5, 9), (11, 13), (14, 22), (23, 24), (25, 29), (30, 32), (32, 34), (34, 36), (37, 41)]
LABELS = "B-PER O O B-LOC O O B-ORG O O O"


@pytest.fixture
def pane(qtbot):
    p = AlignmentPane(open_settings())
    qtbot.addWidget(p)
    p.resize(1300, 800)
    p.show()
    qtbot.waitExposed(p)
    return p


def _set_mode(qtbot, pane, mode):
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.mode.setCurrentIndex(pane.w.mode.findData(mode))


def _hover(view, pos):
    """Send a mouse move to the middle of code point ``pos`` of a span view."""
    cursor = QTextCursor(view.document())
    cursor.setPosition(view._to_qt(pos))
    left = view.cursorRect(cursor)
    cursor.setPosition(view._to_qt(pos + 1))
    right = view.cursorRect(cursor)
    point = QPointF((left.left() + right.left()) / 2, left.center().y())
    event = QMouseEvent(QEvent.Type.MouseMove, point, view.viewport().mapToGlobal(point),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)


def test_first_launch_explains_itself(pane):
    r = pane.result
    assert pane.state.mode == "labels" and r.text == FULL
    assert r.tokens == FULL_TOKENS and r.spans == FULL_SPANS
    assert [(e.text, e.label, e.start, e.end) for e in r.entities] == [
        ("Zoe\u0301", "PER", 0, 4), ("\u0130stanbul", "LOC", 14, 22), ("Nvidia", "ORG", 30, 36)]
    assert [r.utf16[e.start] for e in r.entities] == [0, 14, 31]
    assert pane.w.entities.count() == 3
    assert pane.w.table.token_model.rowCount() == 10
    assert pane.w.normalized.text() == "zoe flew to istanbul \U0001F600 with nvidia final"
    assert not pane.w.banner.isVisible()


def test_typing_updates_tokens(qtbot, pane):
    _set_mode(qtbot, pane, "tokenize")
    editor = pane.w.editor
    editor.moveCursor(QTextCursor.MoveOperation.End)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        qtbot.keyClicks(editor, " cafe")
    assert pane.result.tokens[-1] == "cafe"
    assert pane.result.spans[-1] == (len(FULL) + 1, len(FULL) + 5)
    assert pane.w.table.token_model.cell(10, 1) == "cafe"


def test_hovering_the_original_links_token_and_normalized_text(qtbot, pane):
    view = pane.w.original
    view.redraw_now()
    _hover(view, 15)  # inside "İstanbul", token 3
    assert view.linked_spans() == [(14, 22)]
    assert pane.w.normalized.linked_spans() == [pane.result.norm_spans[3]]
    assert pane.w.table.current_token() == 3
    _hover(pane.w.normalized, 30)  # "nv|id|ia": normalized 28..34, position 30 is in ##id
    assert pane.w.original.linked_spans() == [(32, 34)]


def test_selecting_a_token_highlights_its_span_and_offset_map(qtbot, pane):
    pane.w.table.selectRow(9)
    assert pane.w.original.linked_spans() == [FULL_SPANS[9]]
    rows = pane.w.offset_map.rows
    assert (rows[0].original, rows[0].normalized) == ("\ufb01", "fi")
    qtbot.keyClick(pane.w.table, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert pane.current_token == 8 and pane.w.original.linked_spans() == [FULL_SPANS[8]]


def test_bad_token_list_shows_message_and_keeps_text(qtbot, pane):
    _set_mode(qtbot, pane, "align")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText("zoe flew from")
    banner = pane.w.banner
    assert banner.isVisible() and "token 2 'from'" in banner.text()
    assert pane.w.original.error_span() == (11, 13)
    assert pane.result.spans == [(0, 4), (5, 9), None]
    assert pane.w.editor.toPlainText() == FULL
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText(json.dumps(FULL_TOKENS))
    assert pane.result.spans == FULL_SPANS and not banner.isVisible()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText('["zoe", 3')
    assert "JSON" in banner.text()


def test_empty_text_and_wrong_label_count_give_messages(qtbot, pane):
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.labels_input.setPlainText("B-PER O")
    assert "2 labels for 10 tokens" in pane.w.banner.text()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.editor.setPlainText("   ")
    assert "empty" in pane.w.banner.text() and pane.result.tokens == []


def test_huge_paste_is_kept_but_not_tokenized(qtbot, pane, monkeypatch):
    monkeypatch.setattr(alignment_state, "MAX_CHARS", 5000)
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=10000):
        pane.set_text("word " * 2000)
    assert "at most 5,000" in pane.w.banner.text()
    assert len(pane.w.editor.toPlainText()) == 10000


def test_labels_mode_lists_core_entities_and_strict_toggle(qtbot, pane):
    r = pane.result
    labels = LABELS.split()
    assert r.entities == entities(FULL, r.tokens, r.spans, labels)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.labels_input.setPlainText("I-PER O O O O O O O O O")
    assert [e.text for e in pane.result.entities] == ["Zoe\u0301"]
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.repair.setChecked(False)
    assert pane.result.entities == [] and pane.w.original._entities == []


def test_restart_restores_text_mode_tokens_and_labels(qtbot, pane):
    _set_mode(qtbot, pane, "align")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText("hello world")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Hello  world\r\nagain")
    pane.save_state()
    again = AlignmentPane(open_settings())
    qtbot.addWidget(again)
    assert again.state.text == "Hello  world\r\nagain"
    assert again.state.mode == "align" and again.w.mode.currentData() == "align"
    assert again.w.tokens_input.toPlainText() == "hello world"
    assert again.result.spans == [(0, 5), (7, 12)]


def test_long_paste_runs_off_the_gui_thread(qtbot, pane):
    text = ("Zoe\u0301 flew to \u0130stanbul with Nvidia \ufb01nal. " * 2500)[:100_000]
    ticks = []
    timer = QTimer(interval=5, timeout=lambda: ticks.append(1))
    timer.start()
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=60000):
        pane.set_text(text)
        assert pane._runner.busy  # the GUI thread returned before the work was done
    timer.stop()
    assert ticks, "the event loop did not run while tokenizing"
    r = pane.result
    assert len(r.text) == 100_000 and len(r.tokens) > 20_000
    assert r.tokens[:3] == ["zoe", "flew", "to"]
    view = pane.w.original
    view.redraw_now()
    assert 0 < view.drawn_segments < len(r.tokens)  # only the visible part is drawn
    assert "visible part" in pane.w.status.text()
    last = len(r.tokens) - 1
    pane.select_token(last)  # the views scroll to the token's span and draw it there
    view.redraw_now()
    lo, hi = view.visible_range()
    assert lo <= r.spans[last][0] < hi and view.linked_spans() == [r.spans[last]]
    assert pane.w.table.current_token() == last


def test_stale_results_are_dropped(qtbot, pane):
    first, second = "alpha " * 1000, "flew " * 1000
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_text(first)
        pane.set_text(second)
    assert pane.result.text == second
    with qtbot.assertNotEmitted(pane.sig_encoding_changed, wait=200):
        pass
    pane._pool.waitForDone(20000)  # the cancelled task ends before teardown


def test_token_model_passes_modeltester(qtmodeltester, pane):
    qtmodeltester.check(pane.w.table.token_model)


def test_export_csv_and_json_carry_all_offsets(pane, tmp_path):
    pane.export_tokens(str(tmp_path / "t.csv"))
    pane.export_tokens(str(tmp_path / "t.json"))
    rows = list(csv.DictReader((tmp_path / "t.csv").open(encoding="utf-8")))
    emoji = rows[4]
    assert (emoji["token"], emoji["start"], emoji["utf16_start"], emoji["utf16_end"], emoji["utf8_end"]) == (
        "[UNK]", "23", "23", "25", "29")
    data = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert [(t["start"], t["end"]) for t in data["tokens"]] == FULL_SPANS
    assert data["tokens"][6]["utf16_start"] == 31 and data["tokens"][0]["label"] == "B-PER"


def test_bert_tokenizer_marks_the_dropped_accent(qtbot, pane, data_dir):
    bert = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    _set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(bert, "bert-base-uncased")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe\u0301 flew")
    r = pane.result
    assert r.tokens == ["zoe", "flew"] and r.spans == [(0, 3), (5, 9)]
    assert r.ids == [bert.token_to_id("zoe"), bert.token_to_id("flew")]
    assert (3, 4, "uncov") in pane.w.original._marks
    assert not pane.w.form.isEnabled()


def test_show_error_keeps_results(pane):
    pane.show_error("Could not load tokenizer: broken.json: not JSON")
    assert "broken.json" in pane.w.banner.text() and pane.result.tokens == FULL_TOKENS


def test_offset_rows_and_visible_whitespace():
    rows = offset_rows(normalize("Ze\u0301 \ufb01x"), 0, 6)
    assert [(r.start, r.end, r.normalized) for r in rows] == [
        (0, 1, "z"), (1, 3, "e"), (3, 4, " "), (4, 5, "fi"), (5, 6, "x")]
    assert [r.kind for r in rows] == ["case", "accent removed", "unchanged",
                                      "compatibility (NFKC/NFKD)", "unchanged"]
    assert rows[1].shape == "many → one" and rows[3].shape == "one → many"
    assert offset_rows(normalize("a  b"), 0, 4)[2].normalized == ""  # the collapsed space
    assert visible(" \n\t\u200d\u200cx") == "␣↵⇥⟨ZWJ⟩⟨ZWNJ⟩x"


def test_demo_normalizer_options_change_tokens(qtbot, pane):
    _set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.lowercase.setChecked(False)
    assert pane.result.tokens[0] == "[UNK]"
    tok = demo_tokenizer()
    tok.normalizer = Teaching(form="NFKD", strip_accents=True, lowercase=False, collapse_whitespace=True)
    assert pane.result.tokens == tok.encode(FULL).tokens
    assert pane.w.normalized.text().startswith("Zoe flew")


# -- the pane's vectorized helpers against core's scalar definitions -----------------------
@settings(max_examples=150, deadline=None)
@given(text=any_text, data=st.data())
def test_normalized_spans_equal_to_normalized(text, data):
    nt = normalize(text)
    n = len(text)
    spans = data.draw(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, n), st.integers(0, n)).map(
        lambda t: (min(t), max(t)))), max_size=8))
    assert normalized_spans(nt, spans) == [nt.to_normalized(*sp) if sp else None for sp in spans]
    counted = audit_spans(text, spans, None, None).cover  # the tokens before the first None
    k = spans.index(None) if None in spans else len(spans)
    assert counted.tolist() == [sum(1 for sp in spans[:k] if sp[0] <= i < sp[1]) for i in range(n)]


@settings(max_examples=150, deadline=None)
@given(text=any_text)
def test_utf16_table_equals_core(text):
    assert utf16_table(text) == offset_tables(text)[0]


@settings(max_examples=150, deadline=None)
@given(a=tricky_text, b=tricky_text)
def test_common_affixes(a, b):
    p, q = common_affixes(a, b)
    assert a[:p] == b[:p] and a[len(a) - q:] == b[len(b) - q:] and p + q <= min(len(a), len(b))
    assert p == len(a) or p == len(b) or a[p] != b[p]


def test_span_view_follows_edits_and_keeps_positions(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    texts = [FULL, FULL + " more", "Big \r\n" + FULL + " more", "x", FULL]
    for text in texts:
        view.set_content(text, [(0, 1)], None)
        view.redraw_now()
        assert view.document().toRawText().replace("\u2029", "\n") == display_text(text)
        assert view._to_qt(len(text)) == len(display_text(text).encode("utf-16-le")) // 2


def test_hovering_a_table_row_links_both_texts(qtbot, pane):
    table = pane.w.table
    rect = table.visualRect(table.token_model.index(6, 1))
    point = QPointF(rect.center())
    event = QMouseEvent(QEvent.Type.MouseMove, point, table.viewport().mapToGlobal(point),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(table.viewport(), event)
    assert pane.w.original.linked_spans() == [FULL_SPANS[6]]
    assert pane.w.normalized.linked_spans() == [pane.result.norm_spans[6]]
    pane.select_token(2)
    pane.w.table.sig_token_hovered.emit(-1)  # leaving the table goes back to the current token
    assert pane.w.original.linked_spans() == [FULL_SPANS[2]]


def test_bert_span_cutting_a_grapheme_is_noted(qtbot, pane, data_dir):
    bert = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    _set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(bert, "bert-base-uncased")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe\u0301 flew")  # "zoe" ends at 3, inside the cluster e + U+0301
    model = pane.w.table.token_model
    flags = COLUMNS.index("Flags")
    assert model.cell(0, flags) == "✂" and model.cell(1, flags) == ""
    assert "cuts a grapheme cluster" in model.data(model.index(0, flags), Qt.ItemDataRole.ToolTipRole)
    assert pane.result.audit.uncovered == [3]  # the accent is in no token (SPEC §8)


# -- incremental work per keystroke: the same results as recomputing everything ------------
_EDIT_PIECES = st.one_of(tricky_text, st.sampled_from(["\U0001F1EB\U0001F1F7", "\U0001F1EB", "\u1100\u1161\u11a8",
                                                       "\r", "\n", "\u200d", "\U0001F469"]))


@settings(max_examples=150, deadline=None)
@given(a=st.lists(_EDIT_PIECES, max_size=6).map("".join), data=st.data())
def test_grapheme_bounds_reused_across_edits_equal_a_fresh_run(a, data):
    cut = data.draw(st.tuples(st.integers(0, len(a)), st.integers(0, len(a))).map(sorted))
    b = a[: cut[0]] + data.draw(st.lists(_EDIT_PIECES, max_size=3).map("".join)) + a[cut[1]:]
    cache = GraphemeBounds()
    assert cache.bounds(a).tolist() == grapheme_bounds(a)
    assert cache.bounds(b).tolist() == grapheme_bounds(b)
    assert cache.starts(a).nonzero()[0].tolist() == grapheme_bounds(a)


def test_regional_indicator_pairs_stay_paired_after_an_edit():
    flags = "\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA"  # FR DE
    cache = GraphemeBounds()
    cache.bounds("x" + flags)
    assert cache.bounds(flags).tolist() == [0, 2, 4] == grapheme_bounds(flags)  # one RI fewer before
    assert cache.bounds("\U0001F1EB" + flags).tolist() == [0, 2, 4, 5] == grapheme_bounds("\U0001F1EB" + flags)


@settings(max_examples=150, deadline=None)
@given(a=st.lists(st.integers(0, 3), max_size=12), b=st.lists(st.integers(0, 3), max_size=12),
       limit=st.integers(0, 14))
def test_common_prefix_and_first_difference(a, b, limit):
    p = common_prefix(a, b)
    assert a[:p] == b[:p] and (p == min(len(a), len(b)) or a[p] != b[p])
    assert common_prefix(a, b, limit) == min(p, limit)
    assert common_prefix("".join(map(str, a)), "".join(map(str, b))) == p
    assert first_difference(np.array(a, int), np.array(b, int)) == p


def test_block_keys_follow_an_edit():
    keys = {0: ("a",), 1: ("b",), 2: ("c",), 5: ("f",)}
    assert carry_block_keys(keys, 1, 1, 0) is keys  # an edit inside one block keeps every format
    assert carry_block_keys(keys, 1, 2, 2) == {0: ("a",), 1: UNKNOWN, 2: UNKNOWN, 3: UNKNOWN, 4: UNKNOWN,
                                               7: ("f",)}  # two paragraphs added
    assert carry_block_keys(keys, 1, 2, -1) == {0: ("a",), 1: UNKNOWN, 4: ("f",)}  # two merged into one


def test_segment_styles_layer_in_order():
    assert compose_style(frozenset({("tok", 1)})).background == TOKEN_COLOURS[1]
    shared = compose_style(frozenset({("tok", 0), ("tok", 1), ("multi",)}))
    assert (shared.background, shared.underline) == (MULTI_COLOUR, "dot")
    linked = compose_style(frozenset({("tok", 0), ("ent", "PER"), ("link",)}))
    assert (linked.background, linked.foreground, linked.bold) == (LINK_COLOUR, entity_colour("PER"), True)
    error = compose_style(frozenset({("tok", 0), ("uncov",), ("link",), ("err",)}))
    assert (error.background, error.foreground, error.underline) == (ERROR_COLOUR, "#ffffff", "wave")
    text = "a b\u3000c\u3001\U0001F600"  # U+3000 is a space, U+3001 (ideographic comma) is not
    assert marks(text, np.array([0, 0, 0, 0, 0, 0, 2], np.int16)) == [
        (6, 7, "multi"), (0, 1, "uncov"), (2, 3, "uncov"), (4, 6, "uncov")]
    assert window_intervals(3, 9, [(0, 2), (2, 4), (4, 8), (9, 12), None], linked=[(5, 6)]) == [
        (2, 4, ("tok", 1)), (4, 8, ("tok", 0)), (5, 6, ("link",))]
    assert sweep([(0, 4, "a"), (2, 6, "b"), (9, 12, "c")], 1, 10) == [
        (1, 2, frozenset("a")), (2, 4, frozenset("ab")), (4, 6, frozenset("b")), (9, 10, frozenset("c"))]


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


def _fill(model, result):
    model.set_tokens(result.text, result.tokens, result.ids, result.spans, result.utf16, result.utf8,
                     labels=result.labels, audit=result.audit, token_bytes=result.token_bytes,
                     error_row=-1 if result.error_token is None else result.error_token)


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


# -- issue 3: core's audit flags, readable bytes, visible markers, causes, align schemes ---
def _tokenize_with(qtbot, pane, tokenizer, label, text):
    _set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(tokenizer, label)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text(text)
    return pane.w.table.token_model


def test_byte_level_flags_and_readable_columns(qtbot, pane, data_dir, tmp_path):
    gpt2 = load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    model = _tokenize_with(qtbot, pane, gpt2, "gpt2", "hi \U0001F600")
    r = pane.result
    assert r.tokens == ["hi", "\u0120\u00f0\u0141\u013a", "\u0122"]
    col = {name: COLUMNS.index(name) for name in ("Token", "Readable", "Flags")}
    assert not pane.w.table.isColumnHidden(col["Readable"])
    assert [model.cell(i, col["Token"]) for i in range(3)] == ["hi", "␣ðŁĺ", "Ģ"]
    assert [model.cell(i, col["Readable"]) for i in range(3)] == ["hi", "␣⟨F0 9F 98⟩", "⟨80⟩"]
    assert [model.cell(i, col["Flags"]) for i in range(3)] == [
        "", "⧉  bytes 1–3 of \U0001F600", "⧉  byte 4 of \U0001F600"]
    tip = model.data(model.index(2, col["Flags"]), Qt.ItemDataRole.ToolTipRole)
    assert "shares characters" in tip and "owns byte 4 of \U0001F600 (U+1F600)" in tip
    assert r.audit.shared == [3] and r.cover.tolist() == [1, 1, 1, 2]
    pane.export_tokens(str(tmp_path / "t.csv"))
    rows = list(csv.DictReader((tmp_path / "t.csv").open(encoding="utf-8")))
    assert [(row["readable"], row["flags"]) for row in rows][1:] == [
        ("␣⟨F0 9F 98⟩", "⧉  bytes 1–3 of \U0001F600"), ("⟨80⟩", "⧉  byte 4 of \U0001F600")]
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(demo_tokenizer(), "demo")
    assert pane.result.token_bytes is None and model.cell(0, col["Readable"]) == ""


def test_empty_span_flag_and_readable_hidden_for_wordpiece(qtbot, pane):
    model = _tokenize_with(qtbot, pane, demo_tokenizer(), "demo", "Zoe\u0301 flew")
    assert pane.w.table.isColumnHidden(COLUMNS.index("Readable"))
    assert model.flag_symbols(0) == "" and pane.result.audit.uncovered == []


def test_visible_markers_badges_and_readable_bytes():
    assert visible("\u0120a\u010a\u0109", byte_level=True) == "␣a↵⇥"
    assert visible("\u2581der", metaspace=True) == "␣der"
    assert visible("\u0120\u2581") == "\u0120\u2581"  # running text: Maltese Ġ stays a letter
    assert visible("a\u00a0b\u200bc\u200dd") == "a⟨NBSP⟩b⟨ZWSP⟩c⟨ZWJ⟩d"
    assert readable("क".encode()[:2]) == "⟨E0 A4⟩"
    assert readable(b" \n\xf0\x9f\x98\x80") == "␣↵\U0001F600"
    assert visible_runs("␣ab⟨ZWJ⟩c") == [("␣", True), ("ab", False), ("⟨ZWJ⟩", True), ("c", False)]


@pytest.mark.parametrize("original, normalized, cause", [
    ("\u00e9", "e", "accent removed"),
    ("e\u0301", "e", "accent removed"),
    ("\u00c9", "e", "accent removed + case"),
    ("E", "e", "case"),
    ("\ufb01", "fi", "compatibility (NFKC/NFKD)"),
    ("\uff21", "a", "case + compatibility (NFKC/NFKD)"),
    ("\n", " ", "whitespace mapped to a space"),
    ("\t", " ", "whitespace mapped to a space"),
    ("  ", " ", "whitespace collapsed"),
    ("\u200b", "", "control character dropped"),
    ("e\u0301", "\u00e9", "composed / decomposed (NFC/NFD)"),
    ("x", "x", "unchanged"),
])
def test_offset_map_labels_the_cause(original, normalized, cause):
    assert change_cause(original, normalized) == cause


def test_offset_rows_name_the_cause_for_newline_and_precomposed_accent():
    rows = offset_rows(normalize("\u00e9\na\tb", form="NFKD"), 0, 5)
    assert [(r.original, r.kind) for r in rows] == [
        ("\u00e9", "accent removed"), ("\n", "whitespace mapped to a space"), ("a", "unchanged"),
        ("\t", "whitespace mapped to a space"), ("b", "unchanged")]


def test_clicking_below_the_text_selects_nothing(qtbot, pane):
    view = pane.w.original
    view.redraw_now()
    below = QPointF(view.viewport().width() / 2, view.viewport().height() - 3)
    assert view.char_at(below.toPoint()) == -1
    right = view.cursorRect(QTextCursor(view.document())).center()
    assert view.char_at(right) == 0  # the first character still answers
    pane.select_token(0)
    selected = []
    view.sig_selection_changed.connect(lambda s, e: selected.append((s, e)))
    for kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease):
        event = QMouseEvent(kind, below, view.viewport().mapToGlobal(below), Qt.MouseButton.LeftButton,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(view.viewport(), event)
    assert selected == [] and pane.current_token == 0
    _hover(view, 6)
    assert view._hovered == 6
    event = QMouseEvent(QEvent.Type.MouseMove, below, view.viewport().mapToGlobal(below),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), event)
    assert view._hovered == -1


def test_align_mode_detects_surface_tokens_and_shows_the_hint(qtbot, pane):
    _set_mode(qtbot, pane, "align")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe\u0301 flew")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText('["Zo", "e\u0301", "flew"]')
    r = pane.result
    assert r.error is None and r.scheme == "surface" and r.spans == [(0, 2), (2, 4), (5, 9)]
    assert "aligned as surface tokens (detected)" in pane.w.status.text()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText("zoe flew")  # no markers, lowercase: WordPiece fits
    assert pane.result.error is None and pane.result.scheme == "wordpiece"
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.scheme.setCurrentIndex(pane.w.scheme.findData("surface"))
    assert pane.state.scheme == "surface" and pane.result.error_token == 0
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText('["Zo\u00e9", "flew"]')  # NFC token, NFD text
    assert "Hint: they are equal after NFC normalization" in pane.w.banner.text()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe flew")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText("zoe flew")
    assert "Hint: they differ only in letter case" in pane.w.banner.text()
    assert pane.w.scheme.toolTip().count("normalizer") >= 1


def test_flag_notes_make_the_character_visible(qtbot, pane, data_dir):
    gpt2 = load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    model = _tokenize_with(qtbot, pane, gpt2, "gpt2", "a\u200db")
    flags = [model.cell(i, COLUMNS.index("Flags")) for i in range(model.rowCount())]
    assert flags == ["✂", "✂ ⧉  bytes 1–2 of ⟨ZWJ⟩", "✂ ⧉  byte 3 of ⟨ZWJ⟩", ""]  # a+ZWJ is one cluster
