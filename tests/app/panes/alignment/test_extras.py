"""The extras wired into the Alignment pane: hover both ways with the info strip, special
tokens as badges with the file's settings line, token ids, the picker in the toolbar."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from app.panes.alignment import extras as extras_module
from core.tokenizers import load
from tests.app.panes.alignment.support import hover


def _bert(qtbot, pane, data_dir, text):
    tok = load(data_dir / "tokenizers/bert-base-uncased/tokenizer.json")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_tokenizer(tok, "bert")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text(text)
    return tok


def _ids_shown(qtbot, pane, text):
    """Wait until the token-id view (built on a worker) shows ``text``."""
    return qtbot.waitSignal(pane.extras.ids.sig_shown, check_params_cb=lambda shown: shown == text)


def test_hovering_text_selects_the_row_and_fills_the_strip(qtbot, pane, data_dir):
    _bert(qtbot, pane, data_dir, "hello world \u200d!")
    extras = pane.extras
    hover(pane.w.original, 7)  # "world" is token 1
    assert pane.w.table.current_token() == 1
    assert extras.strip.info().startswith("Token 1 'world'")
    pane.w.original.sig_hovered.emit(12)  # the ZWJ (zero width: no mouse position hits it)
    assert extras.strip.info().startswith("U+200D ZERO WIDTH JOINER (ZWJ) at 12")
    assert (12, "ZWJ") in extras.markers.zero_width()


def test_hovering_a_row_links_the_text_and_fills_the_strip(qtbot, pane, data_dir):
    _bert(qtbot, pane, data_dir, "hello world")
    table = pane.w.table
    rect = table.visualRect(table.token_model.index(0, 0))
    point = QPointF(rect.center())
    event = QMouseEvent(QEvent.Type.MouseMove, point, table.viewport().mapToGlobal(point),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(table.viewport(), event)
    qtbot.waitUntil(lambda: pane.w.original.linked_spans() == [(0, 5)])
    assert pane.extras.strip.info().startswith("Token 0 'hello'")


def test_special_tokens_toggle_draws_badges_and_states_the_file_settings(qtbot, pane, data_dir):
    extras = pane.extras
    with _ids_shown(qtbot, pane, "7592 2088"):
        _bert(qtbot, pane, data_dir, "hello world")
    assert not extras.limits.isVisible()
    with _ids_shown(qtbot, pane, "101 7592 2088 102"):
        extras.special.setChecked(True)
    assert extras.markers.specials() == [(0, "[CLS]"), (11, "[SEP]")]
    assert extras.limits.isVisible() and "at most 128 tokens" in extras.limits.text()
    with _ids_shown(qtbot, pane, "7592 2088"):
        extras.special.setChecked(False)
    assert extras.markers.specials() == []


def test_special_tokens_are_encoded_only_while_asked_for_and_an_edit_cancels_them(qtbot, pane, data_dir,
                                                                                  monkeypatch):
    calls = []
    real = extras_module.encode_with_specials
    monkeypatch.setattr(extras_module, "encode_with_specials", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    _bert(qtbot, pane, data_dir, "hello world")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("hello there")
    assert calls == [] and not pane.extras.special_runner.busy  # toggle off: no second encode
    pane.extras.special.setChecked(True)  # encodes the shown result's text, on a worker
    assert pane.extras.special_runner.busy
    with qtbot.waitSignal(pane.extras.special_runner.sig_returned):  # the next result's encoding
        pane.w.editor.insertPlainText("!")  # a keystroke: the running encoding is of the old text
        assert not pane.extras.special_runner.busy
    assert calls[-1] == pane.w.editor.toPlainText()


def test_picker_and_toggles_sit_in_the_pane(qtbot, pane):
    extras = pane.extras
    assert pane.isAncestorOf(extras.picker) and pane.isAncestorOf(extras.side)
    assert extras.picker.entries()[0][0] == "Tokenizer: teaching example (15-entry WordPiece vocabulary)"
    assert not any("demo" in text for text, _, _ in extras.picker.entries())
    extras.whitespace.setChecked(True)
    assert extras.markers.show_whitespace and extras.norm_markers.show_whitespace


def test_the_pickers_teaching_example_switches_to_the_teaching_vocabulary(qtbot, pane, data_dir):
    _bert(qtbot, pane, data_dir, "hello world")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.extras.picker.sig_teaching_requested.emit()  # alone (no main window): this pane switches
    assert pane.tokenizer is None
    assert pane.extras.picker.entries()[0][0] == "Tokenizer: teaching example (15-entry WordPiece vocabulary)"


def test_side_by_side_offers_every_tokenizer_the_picker_offers_and_any_file(qtbot, pane, data_dir,
                                                                              monkeypatch):
    from app.panes.alignment import side_by_side
    from app.settings import set_json

    set_json(pane.settings, "tokenizer/recent", [str(data_dir / "tokenizers/qwen3/tokenizer.json")])
    pane.extras.picker.scan()
    qtbot.waitUntil(lambda: pane.extras.picker.sources is not None, timeout=20000)
    pane.extras.set_tokenizer(None, "teaching")  # re-reads the recent list
    texts = [text.strip() for text, _ in pane.extras.side.choices()]
    assert texts[0] == "Add tokenizer…" and texts[-1] == "Open file…"
    assert {"Built-in", "Recent"} <= set(texts)
    assert any("gpt-4o" in t.lower() for t in texts) and any("qwen3" in t for t in texts)
    llama = str(data_dir / "tokenizers/llama-3/tokenizer.json")
    monkeypatch.setattr(side_by_side.QFileDialog, "getOpenFileName", lambda *a, **k: (llama, ""))
    side = pane.extras.side
    with qtbot.waitSignal(side.sig_computed, timeout=30000) as blocker:
        side.add.activated.emit(side.add.count() - 1)  # "Open file…"
    assert [row.name for row in blocker.args[0].rows][-1] == "llama-3"
    assert blocker.args[0].rows[-1].tokens > 0
