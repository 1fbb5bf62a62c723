"""Special tokens in the token table: the ``special`` flag, and a tooltip naming the id and
where the token came from, for a chat prompt's own special tokens (Llama 3)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.app.widgets.table_rows import table_rows
from app.panes.alignment import AlignmentPane
from app.settings import open_settings
from app.widgets.token_table import COLUMNS, SPECIAL_BACKGROUND
from core.data import builtin_tokenizer
from core.tokenizers import load
from tests.app.panes.alignment.support import FULL_SPANS, tokenize_with


def test_a_chat_prompts_special_tokens_are_flagged_with_their_id_and_source(qtbot, pane, data_dir):
    tok = load(data_dir / "tokenizers" / "llama-3" / "tokenizer.json")
    text = "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi <|eot_id|> and <unk>"
    model = tokenize_with(qtbot, pane, tok, "llama-3", text)
    tokens = pane.result.tokens
    flags = COLUMNS.index("Flags")
    special = [model.cell(j, flags) == "special" for j in range(len(tokens))]
    assert [t for t, s in zip(tokens, special) if s] == [
        "<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]
    tip = model.data(model.index(0, COLUMNS.index("Token")), Qt.ItemDataRole.ToolTipRole)
    assert tip == "<|begin_of_text|>\nspecial · id 128000 · found in the text"
    user = tokens.index("user")
    assert model.cell(user, flags) == ""
    assert "special" not in model.data(model.index(user, 1), Qt.ItemDataRole.ToolTipRole)


def test_template_tokens_are_said_to_come_from_the_post_processor(qtbot, pane):
    model = pane.w.table.token_model
    model.set_tokens(table_rows("hi", ["[CLS]", "hi", "[SEP]"], [101, 7632, 102], [(0, 0), (0, 2), (2, 2)],
                                specials=[1, 0, 1]))
    assert [model.cell(j, COLUMNS.index("Flags")) for j in range(3)] == ["special", "", "special"]
    tip = model.data(model.index(2, 0), Qt.ItemDataRole.ToolTipRole)
    assert tip.endswith("special · id 102 · added by the post-processor")
    background = [model.data(model.index(j, 1), Qt.ItemDataRole.BackgroundRole) for j in range(3)]
    assert background == [SPECIAL_BACKGROUND, None, SPECIAL_BACKGROUND]


def test_parse_special_tokens_off_encodes_them_as_plain_text_as_tokenizers_does(qtbot, pane, data_dir):
    path = data_dir / "tokenizers" / "llama-3" / "tokenizer.json"
    text = "<|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|> bye<|eot_id|>"
    tokenize_with(qtbot, pane, load(path), "llama-3", text)
    box = pane.w.parse_special
    assert box.isChecked() and pane.state.parse_special
    assert pane.result.rows.ids.count(128009) == 2
    assert "became special ids: <|eot_id|> ×2, <|start_header_id|>, <|end_header_id|>" in pane.w.status.text()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        box.setChecked(False)
    hf = pytest.importorskip("tokenizers").Tokenizer.from_file(str(path))
    hf.encode_special_tokens = True
    assert pane.result.rows.ids == hf.encode(text, add_special_tokens=False).ids  # the oracle
    assert 128009 not in pane.result.rows.ids
    flags = COLUMNS.index("Flags")
    assert all(pane.w.table.token_model.cell(j, flags) != "special" for j in range(len(pane.result.tokens)))
    assert "read as plain text" in pane.w.status.text() and "became special ids" not in pane.w.status.text()
    pane.save_state()
    again = AlignmentPane(open_settings())  # remembered
    qtbot.addWidget(again)
    assert again.state.parse_special is False and not again.w.parse_special.isChecked()


def test_a_pasted_token_list_is_aligned_with_a_tokenizer_that_has_special_tokens(qtbot, pane):
    bert = load(builtin_tokenizer("bert-base-uncased"))  # [CLS], [SEP], … : ids to look for
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_tokenizer(bert, "bert")
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.w.mode.setCurrentIndex(pane.w.mode.findData("align"))  # pasted tokens have no ids
    assert pane.result.mode == "align" and pane.result.spans == FULL_SPANS
    assert "Could not" not in pane.w.banner.text()
