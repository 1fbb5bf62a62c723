"""Chat mode of the Alignment pane: the shared tokenizers' own chat templates render the
messages into the pane's text (equal to core.chat's prompt), each message's span and tokens
shown and selectable, the assistant mask, JSON in and out, the messages remembered, and the
failures (bad JSON, no template) told in the notes line."""

from __future__ import annotations

import json
import os
from functools import lru_cache

import pytest

from app.panes.alignment import AlignmentPane
from app.panes.alignment.chat_mode import DEFAULT_MESSAGES, NO_TEMPLATE_TEACHING
from app.panes.alignment.state import AlignmentState
from core.chat import chat_tokens, load_chat_template, render_chat, template_strings
from core.tokenizers import load as load_file
from tests.core.chat.test_tokens import GENERATION

MESSAGES = [
    {"role": "system", "content": "Answer in the user's language."},
    {"role": "user", "content": "नमस्ते! مرحبا بالعالم. สวัสดีครับ"},
    {"role": "assistant", "content": "Family: 👩\u200d👩\u200d👧\u200d👦 — done."},
    {"role": "user", "content": "Thanks\nbye"},
]


@lru_cache(maxsize=4)
def load(path):
    """A shared tokenizer loaded once for the module (Gemma 3's takes seconds)."""
    return load_file(path)


def core_tokens(folder, tokenizer, messages, generation):
    template = load_chat_template(folder)
    prompt = render_chat(template, messages, add_generation_prompt=generation)
    return chat_tokens(prompt, tokenizer, special_tokens=template_strings(template), bos_token=template.bos_token)


def rendered(pane) -> bool:
    chat = pane.chat
    return (chat.shown is not None and not chat.busy and not pane.busy and pane.result is not None
            and pane.result.text == chat.shown.prompt.text)


def start_chat(qtbot, pane, path, messages=MESSAGES, generation=True):
    pane.chat.load_json(json.dumps(messages))
    pane.w.chat.generation.setChecked(generation)
    pane.set_tokenizer(load(path), str(path))
    pane.chat.set_on(True)
    qtbot.waitUntil(lambda: rendered(pane), timeout=30000)


@pytest.mark.parametrize("name", ["llama-3", "qwen3", "gemma-3"])
@pytest.mark.parametrize("generation", [False, True])
def test_the_pane_shows_the_prompt_core_renders_with_each_message_on_its_tokens(qtbot, pane, data_dir, name,
                                                                                generation):
    folder = data_dir / "tokenizers" / name
    start_chat(qtbot, pane, folder / "tokenizer.json", generation=generation)
    expected = core_tokens(folder, load(folder / "tokenizer.json"), MESSAGES, generation)
    prompt = expected.prompt
    assert pane.state.text == prompt.text == pane.w.editor.toPlainText() == pane.result.text
    assert pane.chat.shown.prompt.spans == prompt.spans
    assert list(pane.result.rows.ids) == list(expected.encoding.ids)
    table = pane.w.chat.table
    assert table.rowCount() == len(MESSAGES)
    for span, (a, b) in zip(prompt.spans, expected.token_ranges):
        if span.index is None:
            continue
        assert table.item(span.index, 0).text() == MESSAGES[span.index]["role"]
        assert table.item(span.index, 2).text() == f"{span.start}–{span.end}"
        assert table.item(span.index, 3).text().startswith(f"{b - a} ({a}–{b})")
        assert pane.chat.message_tokens(span.index) == list(range(a, b))
    assert [(p[0], p[2], p[3]) for p in pane.w.chat.band.parts] == [
        (s.index, a, b) for s, (a, b) in zip(prompt.spans, expected.token_ranges)]
    note = pane.w.chat.note
    assert f"{len(expected.encoding.ids):,} tokens" in note and "no mask" in note
    assert ("doubled BOS" in note) == (name == "gemma-3")  # <bos> in the template and the post-processor
    assert pane.chat.shown.prompt.add_generation_prompt == generation
    if name != "llama-3":  # Llama 3's template writes the assistant header whatever the flag
        assert prompt.text.endswith("<|im_start|>assistant\n" if name == "qwen3" else
                                    "<start_of_turn>model\n") == generation


def test_clicking_a_message_selects_its_tokens_in_every_view(qtbot, pane, data_dir):
    start_chat(qtbot, pane, data_dir / "tokenizers" / "qwen3" / "tokenizer.json")
    first, stop = pane.chat.shown.message_tokens(1)
    pane.w.chat.table.selectRow(1)
    assert pane.w.table.currentIndex().row() == first
    spans = [pane.result.spans[i] for i in range(first, stop)]
    assert pane.w.original.linked_spans() == [tuple(s) for s in spans]
    assert pane.w.chat.band.selected == 1
    pane.w.chat.band.sig_clicked.emit(2)  # a click on the band selects the row too
    assert pane.w.chat.current_row() == 2
    assert pane.w.table.currentIndex().row() == pane.chat.shown.message_tokens(2)[0]


def test_the_assistant_mask_of_a_generation_template(qtbot, pane, data_dir, tmp_path):
    source = data_dir / "tokenizers" / "llama-3"
    os.symlink(source / "tokenizer.json", tmp_path / "tokenizer.json")
    config = json.loads((source / "tokenizer_config.json").read_text(encoding="utf-8"))
    config["chat_template"] = GENERATION["llama-3"]
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    start_chat(qtbot, pane, tmp_path / "tokenizer.json")
    expected = core_tokens(tmp_path, load(tmp_path / "tokenizer.json"), MESSAGES, True)
    n = sum(expected.assistant_mask)
    assert n > 0 and pane.chat.shown.assistant_mask == expected.assistant_mask
    assert f"loss mask: {n:,} of {len(expected.encoding.ids):,} tokens" in pane.w.chat.note
    masked = pane.chat.mask_tokens()
    assert masked == [i for i, v in enumerate(expected.assistant_mask) if v]
    assert all(pane.chat.shown.message_of_token(i) == 2 for i in masked)  # the assistant's message
    assert pane.w.chat.table.item(2, 3).text().endswith(f", {n} in the mask")
    assert pane.w.chat.buttons["mask"].isEnabled()
    pane.w.chat.buttons["mask"].click()
    assert pane.w.original.linked_spans() == [tuple(pane.result.spans[i]) for i in masked]


def test_editing_the_messages_renders_again_and_is_remembered(qtbot, pane, data_dir):
    start_chat(qtbot, pane, data_dir / "tokenizers" / "qwen3" / "tokenizer.json", generation=False)
    panel = pane.w.chat
    panel.table.selectRow(3)
    panel.buttons["add"].click()  # after a user message: an assistant one
    assert panel.current_row() == 4 and panel.role.currentText() == "assistant"
    panel.content.setPlainText("ไม่เป็นไร")
    qtbot.waitUntil(lambda: rendered(pane) and "ไม่เป็นไร" in pane.state.text, timeout=30000)
    assert pane.state.text.endswith("ไม่เป็นไร<|im_end|>\n")
    panel.buttons["up"].click()
    panel.generation.setChecked(True)
    qtbot.waitUntil(lambda: rendered(pane) and pane.state.text.endswith("<|im_start|>assistant\n"), timeout=30000)
    saved = AlignmentState.from_dict(pane.state.to_dict())
    assert saved.chat and saved.chat_generation
    roles = [m["role"] for m in json.loads(saved.chat_messages)]
    assert roles == ["system", "user", "assistant", "assistant", "user"]
    panel.buttons["remove"].click()
    assert len(json.loads(pane.state.chat_messages)) == 4


def test_the_stored_messages_come_back_in_a_new_pane(qtbot, pane):
    pane.chat.load_json(json.dumps(MESSAGES))
    pane.w.chat.generation.setChecked(False)
    pane.chat.set_on(True)
    pane.save_state()
    again = AlignmentPane(pane.settings)
    qtbot.addWidget(again)
    assert again.w.chat.messages == MESSAGES and not again.w.chat.generation.isChecked()
    assert again.w.chat_toggle.isChecked() and not again.w.chat.isHidden()
    assert again.w.chat.note == NO_TEMPLATE_TEACHING  # no tokenizer yet: the teaching vocabulary's
    assert AlignmentState.from_dict({"chat_messages": "not json"}).chat_messages == "not json"
    from app.panes.alignment.chat_mode import stored_messages
    assert stored_messages("not json") == DEFAULT_MESSAGES == stored_messages("")


def test_bad_json_is_told_and_keeps_the_messages(qtbot, pane, data_dir, tmp_path):
    start_chat(qtbot, pane, data_dir / "tokenizers" / "llama-3" / "tokenizer.json")
    text = pane.state.text
    assert not pane.chat.load_json('[{"role": "user", "content": "hi"', "the clipboard")
    assert pane.w.chat.note.startswith("Could not read the messages from the clipboard: not JSON")
    assert not pane.chat.load_json('[{"content": "hi"}]')
    assert 'message 0: needs a "role"' in pane.w.chat.note
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00")
    assert not pane.chat.open_json(str(bad))
    assert str(bad) in pane.w.chat.note
    if hasattr(os, "mkfifo"):  # a FIFO picked in the dialog: refused before it is opened (no hang)
        fifo = tmp_path / "fifo.json"
        os.mkfifo(fifo)
        assert not pane.chat.open_json(str(fifo))
        assert str(fifo) in pane.w.chat.note and "regular file" in pane.w.chat.note
    assert pane.w.chat.messages == MESSAGES and pane.state.text == text
    out = tmp_path / "messages.json"
    assert pane.chat.save_json(str(out))
    assert json.loads(out.read_text(encoding="utf-8")) == MESSAGES
    assert pane.chat.open_json(str(out)) and pane.w.chat.messages == MESSAGES
    panel = pane.w.chat  # an empty list cannot be rendered: told, the last prompt's text stays
    for _ in MESSAGES:
        panel.table.selectRow(0)
        panel.buttons["remove"].click()
    qtbot.waitUntil(lambda: "the message list is empty" in panel.note, timeout=5000)
    assert pane.state.text == text


def test_a_tokenizer_without_a_template_is_named(qtbot, pane, data_dir):
    folder = data_dir / "tokenizers" / "gpt-4o"
    pane.set_tokenizer(load(folder / "tokenizer.json"), str(folder / "tokenizer.json"))
    text = pane.state.text
    pane.chat.set_on(True)
    qtbot.waitUntil(lambda: not pane.chat.busy and pane.w.chat.note != "", timeout=30000)
    note = pane.w.chat.note
    assert str(folder / "tokenizer_config.json") in note and "no chat template" in note
    assert pane.chat.shown is None and pane.state.text == text and pane.w.chat.band.parts == []
    pane.set_tokenizer(None, "teaching")
    assert pane.w.chat.note == NO_TEMPLATE_TEACHING
    pane.chat.set_on(False)
    assert pane.w.chat.isHidden() and not pane.state.chat


def test_a_template_the_tokenizer_cannot_encode_faithfully_is_warned(qtbot, pane, data_dir, tmp_path):
    os.symlink(data_dir / "tokenizers" / "gpt2" / "tokenizer.json", tmp_path / "tokenizer.json")
    os.symlink(data_dir / "tokenizers" / "llama-3" / "tokenizer_config.json", tmp_path / "tokenizer_config.json")
    start_chat(qtbot, pane, tmp_path / "tokenizer.json")  # GPT-2 has none of Llama 3's special tokens
    expected = core_tokens(tmp_path, load(tmp_path / "tokenizer.json"), MESSAGES, True)
    assert any(w.kind == "split-special" for w in expected.warnings)
    note = pane.w.chat.note
    assert "'<|start_header_id|>' is not one token of this tokenizer (5× in the prompt)" in note
    assert note.count("⚠") == len(expected.warnings)


def test_a_failing_template_and_content_blocks_are_told_without_a_crash(qtbot, pane, data_dir):
    start_chat(qtbot, pane, data_dir / "tokenizers" / "gemma-3" / "tokenizer.json")
    text = pane.state.text
    two_users = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]
    assert pane.chat.load_json(json.dumps(two_users))
    qtbot.waitUntil(lambda: not pane.chat.busy and "the chat template failed" in pane.w.chat.note, timeout=30000)
    assert "Conversation roles must alternate" in pane.w.chat.note
    assert pane.chat.shown is None and pane.state.text == text and pane.w.chat.band.parts == []
    blocks = [{"role": "user", "content": [{"type": "text", "text": "नमस्ते"}]}]
    assert pane.chat.load_json(json.dumps(blocks))
    qtbot.waitUntil(lambda: rendered(pane), timeout=30000)
    assert "नमस्ते" in pane.state.text
    panel = pane.w.chat
    assert panel.table.item(0, 1).text() == "[content blocks]" and panel.content.isReadOnly()
    assert pane.chat.message_tokens(0) == list(range(*pane.chat.shown.message_tokens(0)))


def test_the_json_menu_copies_and_pastes_the_messages(qtbot, pane):
    from PySide6.QtWidgets import QApplication
    panel = pane.w.chat
    pane.chat.load_json(json.dumps(MESSAGES))
    panel.json_actions["copy"].trigger()
    assert json.loads(QApplication.clipboard().text()) == MESSAGES
    QApplication.clipboard().setText(json.dumps(MESSAGES[:2]))
    panel.json_actions["paste"].trigger()
    assert panel.messages == MESSAGES[:2] and json.loads(pane.state.chat_messages) == MESSAGES[:2]
    QApplication.clipboard().setText("{oops")
    panel.json_actions["paste"].trigger()
    assert panel.note.startswith("Could not read the messages from the clipboard: not JSON")
    assert panel.messages == MESSAGES[:2]
