"""At a glance on a Llama 3 chat prompt: special tokens drawn as chips with their id on
hover, tokens coloured by id (a toggle back to alternating, remembered), the table's long
names elided in the middle."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextCursor
from PySide6.QtWidgets import QApplication

from app.panes.alignment import AlignmentPane
from app.panes.alignment.token_ids import PER_LINE, id_columns
from app.settings import open_settings
from app.widgets.span_segments import ID_COLOURS, SPECIAL_OUTLINE, TOKEN_COLOURS, id_colour_index
from core.tokenizers import load
from tests.app.panes.alignment.support import hover, tokenize_with

CHAT = ("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nthe cat and the dog"
        "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n")
SPECIAL = ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]


@pytest.fixture
def llama(qtbot, pane, data_dir):
    tokenize_with(qtbot, pane, load(data_dir / "tokenizers" / "llama-3" / "tokenizer.json"), "llama-3", CHAT)
    pane.w.original.redraw_now()
    return pane


def _style_of(view, span):
    return next(st for s, e, st in view.drawn_styles() if span[0] <= s < span[1])


def test_special_tokens_are_chips_and_say_their_id_on_hover(llama):
    result, view = llama.result, llama.w.original
    chips = [llama.result.spans[j] for j, t in enumerate(result.tokens) if t in SPECIAL]
    assert len(chips) == 6
    drawn = sorted({(s, e) for s, e, st in view.drawn_styles() if st.outline == SPECIAL_OUTLINE})
    assert drawn == sorted(set(chips))
    user = result.tokens.index("user")
    assert _style_of(view, result.spans[user]).outline is None
    hover(view, 3)  # inside <|begin_of_text|>
    assert llama.w.strip.info() == "<|begin_of_text|> · special · id 128000 · found in the text"
    hover(view, result.spans[user][0])
    assert "special" not in llama.w.strip.info()


def test_tokens_are_coloured_by_id_and_the_toggle_is_remembered(qtbot, llama):
    result, view = llama.result, llama.w.original
    ids = result.rows.ids
    the = [j for j, t in enumerate(result.tokens) if t == "Ġthe"]
    assert len(the) == 1 and result.tokens[the[0] - 3] == "the"  # "the cat and the": two ids
    colours = {j: _style_of(view, result.spans[j]).background for j in range(len(ids))
               if result.tokens[j] not in SPECIAL}
    assert all(c == ID_COLOURS[id_colour_index(ids[j])] for j, c in colours.items())
    header = [j for j, t in enumerate(result.tokens) if t == "<|start_header_id|>"]
    after = [j + 3 for j in header]  # "ĊĊ" after each <|end_header_id|>: the same id, the same colour
    assert len({colours[j] for j in after}) == 1 and len({ids[j] for j in after}) == 1
    assert llama.w.colour_by_id.isChecked() and "colour = id" in llama.w.legend.text()
    llama.w.colour_by_id.setChecked(False)
    view.redraw_now()
    assert [_style_of(view, result.spans[j]).background for j in colours] == [TOKEN_COLOURS[j % 2] for j in colours]
    assert "next token" in llama.w.legend.text()
    llama.save_state()
    again = AlignmentPane(open_settings())
    qtbot.addWidget(again)
    assert again.state.colour_by_id is False and not again.w.colour_by_id.isChecked()


def test_the_table_elides_long_token_names_in_the_middle(llama):
    assert llama.w.table.textElideMode() == Qt.TextElideMode.ElideMiddle


def _ids_shown(qtbot, pane):
    ids = pane.w.ids
    qtbot.waitUntil(lambda: ids.text().startswith(("128000", "[128000")), timeout=10000)
    return ids


def _mouse_over_id(box, index, kind=QEvent.Type.MouseMove):
    """Send a mouse event to the middle of token ``index``'s id in the ids box."""
    block = box.document().findBlockByNumber(index // PER_LINE)
    a, b = id_columns(block.text())[index % PER_LINE]
    cursor = QTextCursor(block)
    cursor.setPosition(block.position() + (a + b) // 2)
    point = QPointF(box.cursorRect(cursor).center())
    button = Qt.MouseButton.LeftButton if kind != QEvent.Type.MouseMove else Qt.MouseButton.NoButton
    event = QMouseEvent(kind, point, box.viewport().mapToGlobal(point), button,
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(box.viewport(), event)


def test_a_hovered_or_selected_token_highlights_its_id(qtbot, llama):
    ids = _ids_shown(qtbot, llama)
    result = llama.result
    cat = result.tokens.index("Ġcat")
    hover(llama.w.original, result.spans[cat][0] + 1)
    assert ids.highlighted() == (cat, "8415")
    dog = result.tokens.index("Ġdog")
    llama.w.table.selectRow(dog)
    assert ids.highlighted() == (dog, "5679")
    ids.set_format("json")
    qtbot.waitUntil(lambda: ids.text().startswith("[128000"), timeout=10000)
    assert ids.highlighted() == (dog, "5679")  # kept over a rebuild of the box


def test_hovering_or_clicking_an_id_highlights_its_token(qtbot, llama):
    ids = _ids_shown(qtbot, llama)
    result = llama.result
    for fmt in ("space", "json"):
        ids.set_format(fmt)
        qtbot.waitUntil(lambda: ids.text().startswith("[" if fmt == "json" else "1"), timeout=10000)
        cat = result.tokens.index("Ġcat")
        _mouse_over_id(ids.box, cat)
        assert llama.w.original.linked_spans() == [result.spans[cat]]
        assert llama.w.table.current_token() == cat
        assert llama.w.strip.info().startswith(f"Token {cat} 'Ġcat'")
        eot = result.tokens.index("<|eot_id|>")
        _mouse_over_id(ids.box, eot, QEvent.Type.MouseButtonRelease)
        assert llama.current_token == eot and llama.w.original.linked_spans() == [result.spans[eot]]
        assert ids.highlighted() == (eot, "128009")


def test_ids_with_the_templates_specials_are_not_linked(qtbot, llama):
    ids = _ids_shown(qtbot, llama)
    assert ids.token_at(0, 1) == 0
    llama.w.special_tokens.setChecked(True)  # encoded again with the template's special tokens
    qtbot.waitUntil(lambda: ids.token_at(0, 1) == -1, timeout=10000)
    llama.select_token(2)
    assert ids.highlighted() == (-1, "")
