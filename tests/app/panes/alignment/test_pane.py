"""The alignment pane driven through its widgets, mode by mode: data, not pixels (SPEC §2–§3)."""

from __future__ import annotations

import csv
import json
import re

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor

from app.panes.alignment import AlignmentPane
import core.align.view
from app.settings import open_settings
from app.widgets.token_table import COLUMNS
from core.align.entities import entities
from core.data import builtin_tokenizer
from core.tokenizers import demo_tokenizer, load
from core.tokenizers.normalizers import Teaching
from tests.app.panes.alignment.support import FULL, FULL_SPANS, FULL_TOKENS, LABELS, set_mode, tokenize_with


def test_first_launch_explains_itself(qtbot, pane):
    assert pane.state.mode == "tokenize" and pane.result.mode == "tokenize"
    assert pane.w.table.isColumnHidden(COLUMNS.index("Label"))
    set_mode(qtbot, pane, "labels")  # the teaching labels fit the teaching tokens
    r = pane.result
    assert pane.state.mode == "labels" and r.text == FULL
    assert r.tokens == FULL_TOKENS and r.spans == FULL_SPANS
    assert [(e.text, e.label, e.start, e.end) for e in r.entities] == [
        ("Zoe\u0301", "PER", 0, 4), ("\u0130stanbul", "LOC", 14, 22), ("Nvidia", "ORG", 30, 36)]
    assert [r.tables.utf16[e.start] for e in r.entities] == [0, 14, 31]
    assert pane.w.entities.count() == 3
    assert pane.w.table.token_model.rowCount() == 10
    assert pane.w.normalized.text() == "zoe flew to istanbul \U0001F600 with nvidia final"
    assert not pane.w.banner.isVisible()


def test_typing_updates_tokens(qtbot, pane):
    set_mode(qtbot, pane, "tokenize")
    editor = pane.w.editor
    editor.moveCursor(QTextCursor.MoveOperation.End)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        qtbot.keyClicks(editor, " cafe")
    assert pane.result.tokens[-1] == "cafe"
    assert pane.result.spans[-1] == (len(FULL) + 1, len(FULL) + 5)
    assert pane.w.table.token_model.cell(10, 1) == "cafe"


def test_a_result_is_drawn_with_its_spans_in_the_turn_that_shows_its_text(qtbot, pane):
    """The span views prepare the new spans before control returns to the event loop, so
    the paint the new text asks for shows them: never a frame of new text and old spans."""
    set_mode(qtbot, pane, "tokenize")
    seen = []

    def drawn(result):
        seen.append([(s, e) for s, e, st in pane.w.original.drawn_styles() if st.background is not None])

    pane.sig_encoding_changed.connect(drawn)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("a quick test of spans")
    starts = {s for s, e in seen[-1]}
    assert {s for s, e in pane.result.spans} <= starts  # every token's span, already at emission
    assert not any(e > len("a quick test of spans") for s, e in seen[-1])


def test_bad_token_list_shows_message_and_keeps_text(qtbot, pane):
    set_mode(qtbot, pane, "align")
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
    set_mode(qtbot, pane, "labels")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.labels_input.setPlainText("B-PER O")
    assert "2 labels for 10 tokens" in pane.w.banner.text()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.editor.setPlainText("   ")
    assert "empty" in pane.w.banner.text() and pane.result.tokens == []


def test_huge_paste_is_kept_but_not_tokenized(qtbot, pane, monkeypatch):
    monkeypatch.setattr(core.align.view, "MAX_CHARS", 5000)
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=10000):
        pane.set_text("word " * 2000)
    assert "at most 5,000" in pane.w.banner.text()
    assert len(pane.w.editor.toPlainText()) == 10000


def test_labels_mode_lists_core_entities_and_strict_toggle(qtbot, pane):
    set_mode(qtbot, pane, "labels")
    r = pane.result
    labels = LABELS.split()
    assert r.entities == entities(FULL, r.tokens, r.spans, labels)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.labels_input.setPlainText("I-PER O O O O O O O O O")
    assert [e.text for e in pane.result.entities] == ["Zoe\u0301"]
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.repair.setChecked(False)
    assert pane.result.entities == [] and pane.w.original.drawn_entities() == []


def test_restart_restores_text_mode_tokens_and_labels(qtbot, pane):
    set_mode(qtbot, pane, "align")
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
    qtbot.waitUntil(lambda: again.result is not None)  # computed on the worker
    assert again.result.spans == [(0, 5), (7, 12)]


def test_long_paste_runs_off_the_gui_thread(qtbot, pane):
    text = ("Zoe\u0301 flew to \u0130stanbul with Nvidia \ufb01nal. " * 2500)[:100_000]
    ticks = []
    timer = QTimer(interval=5, timeout=lambda: ticks.append(1))
    timer.start()
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=60000):
        pane.set_text(text)
        # private: the pane's own worker, not the extras' ones, is the one running
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
    qtbot.waitUntil(lambda: not view.filling)  # a long text goes into the view in chunks
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


def test_token_model_passes_modeltester(qtmodeltester, pane):
    qtmodeltester.check(pane.w.table.token_model)


def test_export_csv_and_json_carry_all_offsets(qtbot, pane, tmp_path):
    set_mode(qtbot, pane, "labels")
    pane.export_tokens(str(tmp_path / "t.csv"))
    pane.export_tokens(str(tmp_path / "t.json"))
    rows = list(csv.DictReader((tmp_path / "t.csv").open(encoding="utf-8")))
    emoji = rows[4]
    assert (emoji["token"], emoji["start"], emoji["utf16_start"], emoji["utf16_end"], emoji["utf8_end"]) == (
        "[UNK]", "23", "23", "25", "29")
    data = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert [(t["start"], t["end"]) for t in data["tokens"]] == FULL_SPANS
    assert data["tokens"][6]["utf16_start"] == 31 and data["tokens"][0]["label"] == "B-PER"


def test_show_error_keeps_results(pane):
    pane.show_error("Could not load tokenizer: broken.json: not JSON")
    assert "broken.json" in pane.w.banner.text() and pane.result.tokens == FULL_TOKENS


def test_demo_normalizer_options_change_tokens(qtbot, pane):
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.lowercase.setChecked(False)
    assert pane.result.tokens[0] == "[UNK]"
    tok = demo_tokenizer()
    tok.normalizer = Teaching(form="NFKD", strip_accents=True, lowercase=False, collapse_whitespace=True)
    assert pane.result.tokens == tok.encode(FULL).tokens
    assert pane.w.normalized.text().startswith("Zoe flew")


def test_align_mode_detects_surface_tokens_and_shows_the_hint(qtbot, pane):
    set_mode(qtbot, pane, "align")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe\u0301 flew")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText('["Zo", "e\u0301", "flew"]')
    r = pane.result
    assert r.error is None and r.aligned.scheme == "surface" and r.spans == [(0, 2), (2, 4), (5, 9)]
    assert "aligned as surface tokens (detected)" in pane.w.status.text()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText("zoe flew")  # no markers, lowercase: WordPiece fits
    assert pane.result.error is None and pane.result.aligned.scheme == "wordpiece"
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.scheme.setCurrentIndex(pane.w.scheme.findData("surface"))
    assert pane.state.scheme == "surface" and pane.result.mismatch.token == 0
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText('["Zo\u00e9", "flew"]')  # NFC token, NFD text
    assert "Hint: they are equal after NFC normalization" in pane.w.banner.text()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe flew")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.tokens_input.setPlainText("zoe flew")
    assert "Hint: they differ only in letter case" in pane.w.banner.text()
    assert pane.w.scheme.toolTip().count("normalizer") >= 1


# -- tokenizer files: core's audit flags and readable bytes in the table (issue 3) -------------


def test_bert_tokenizer_marks_the_dropped_accent(qtbot, pane, data_dir):
    bert = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(bert, "bert-base-uncased")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe\u0301 flew")
    r = pane.result
    assert r.tokens == ["zoe", "flew"] and r.spans == [(0, 3), (5, 9)]
    assert r.rows.ids == [bert.token_to_id("zoe"), bert.token_to_id("flew")]
    assert (3, 4, "uncov") in pane.w.original.drawn_marks()
    # the tokenizer's own pipeline instead of the teaching normalizer's controls
    assert pane.w.teaching_norm.isHidden() and not pane.w.pipeline.isHidden()
    assert [s.label for s in pane.w.pipeline.steps][:3] == [
        "BERT (lowercase, clean_text)", "BertPreTokenizer", "WordPiece 30,522"]
    assert "Normalizer" in pane.w.pipeline.text() and "WordPiece 30,522" in pane.w.pipeline.text()
    assert '"handle_chinese_chars": true' in pane.w.pipeline.stage_tooltip(0)
    set_mode(qtbot, pane, "align")  # a pasted token list: the teaching normalizer again
    assert not pane.w.teaching_norm.isHidden() and pane.w.pipeline.isHidden()


def test_bert_span_cutting_a_grapheme_is_noted(qtbot, pane, data_dir):
    bert = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(bert, "bert-base-uncased")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("Zoe\u0301 flew")  # "zoe" ends at 3, inside the cluster e + U+0301
    model = pane.w.table.token_model
    flags = COLUMNS.index("Flags")
    assert model.cell(0, flags) == "✂" and model.cell(1, flags) == ""
    assert "cuts a grapheme cluster" in model.data(model.index(0, flags), Qt.ItemDataRole.ToolTipRole)
    assert pane.result.audit.uncovered == [3]  # the accent is in no token (SPEC §8)


def test_byte_level_flags_and_readable_columns(qtbot, pane, data_dir, tmp_path):
    gpt2 = load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    model = tokenize_with(qtbot, pane, gpt2, "gpt2", "hi \U0001F600")
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
    assert r.audit.shared == [3] and r.layer.cover.tolist() == [1, 1, 1, 2]
    pane.export_tokens(str(tmp_path / "t.csv"))
    rows = list(csv.DictReader((tmp_path / "t.csv").open(encoding="utf-8")))
    assert [(row["readable"], row["flags"]) for row in rows][1:] == [
        ("␣⟨F0 9F 98⟩", "⧉  bytes 1–3 of \U0001F600"), ("⟨80⟩", "⧉  byte 4 of \U0001F600")]
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(demo_tokenizer(), "demo")
    assert pane.result.rows.token_bytes is None and model.cell(0, col["Readable"]) == ""


def test_empty_span_flag_and_readable_hidden_for_wordpiece(qtbot, pane):
    model = tokenize_with(qtbot, pane, demo_tokenizer(), "demo", "Zoe\u0301 flew")
    assert pane.w.table.isColumnHidden(COLUMNS.index("Readable"))
    assert model.flag_symbols(0) == "" and pane.result.audit.uncovered == []


def test_flag_notes_make_the_character_visible(qtbot, pane, data_dir):
    gpt2 = load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    model = tokenize_with(qtbot, pane, gpt2, "gpt2", "a\u200db")
    flags = [model.cell(i, COLUMNS.index("Flags")) for i in range(model.rowCount())]
    assert flags == ["✂", "✂ ⧉  bytes 1–2 of ⟨ZWJ⟩", "✂ ⧉  byte 3 of ⟨ZWJ⟩", ""]  # a+ZWJ is one cluster


def test_labels_mode_is_left_when_another_tokenizer_does_not_fit_its_labels(qtbot, pane):
    set_mode(qtbot, pane, "labels")
    mine = "B-PER I-PER O O B-LOC O O B-ORG O O"  # ten labels: the teaching tokens, not GPT-2's
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.labels_input.setPlainText(mine)
    assert pane.result.error is None
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_tokenizer(load(builtin_tokenizer("gpt2")), "gpt2")
    qtbot.waitUntil(lambda: not pane.busy)
    r = pane.result
    assert pane.state.mode == "tokenize" and r.mode == "tokenize" and r.error is None
    assert pane.w.mode.currentData() == "tokenize"
    assert pane.w.table.isColumnHidden(COLUMNS.index("Label"))
    banner = pane.w.banner
    assert banner.isVisible() and "10 labels do not fit" in banner.text()
    assert f"{len(r.tokens)} tokens" in banner.text()
    assert pane.w.labels_input.toPlainText() == mine == pane.state.labels_text  # never lost
    set_mode(qtbot, pane, "labels")  # asked for again: the count error says what to fix
    assert "10 labels for" in banner.text()


def test_labels_mode_stays_when_the_labels_fit_the_new_tokenizer(qtbot, pane):
    set_mode(qtbot, pane, "labels")
    gpt2 = load(builtin_tokenizer("gpt2"))
    count = len(gpt2.encode(FULL).tokens)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.labels_input.setPlainText(" ".join(["B-PER"] + ["O"] * (count - 1)))
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_tokenizer(gpt2, "gpt2")
    qtbot.waitUntil(lambda: not pane.busy)
    assert pane.state.mode == "labels" and pane.result.mode == "labels" and pane.result.error is None
    assert [e.label for e in pane.result.entities] == ["PER"] and not pane.w.banner.isVisible()


def test_a_large_count_above_the_views_follows_the_text(qtbot, pane):
    count = pane.w.count
    assert count.isVisible()
    shown = lambda: re.sub(r"<[^>]+>", "", count.text())  # noqa: E731 - the label's words
    n, size = len(FULL), len(FULL.encode("utf-8"))
    assert f"10 tokens · {n} characters · {size} bytes · 1.25 tokens per word" in shown()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("flew flew flew")
    assert "3 tokens · 14 characters · 14 bytes · 1.00 tokens per word" in shown()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35")  # Thai: no spaces, counted per character
    assert "tokens per character" in shown() and "6 characters · 18 bytes" in shown()
