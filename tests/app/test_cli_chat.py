"""``subwordscope chat`` end to end: the table/json/csv output equals core.chat, warnings on
stderr, exit 2 with one line on bad input."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.app.test_cli_support import run_cli, run_here

MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello"}]


@pytest.fixture
def messages_file(tmp_path):
    path = tmp_path / "messages.json"
    path.write_text(json.dumps(MESSAGES), encoding="utf-8")
    return path


def test_chat_json_equals_core(data_dir, messages_file, capsys, monkeypatch):
    from core.chat import chat_tokens, load_chat_template, render_chat, template_strings
    from core.tokenizers import load

    folder = data_dir / "tokenizers" / "qwen3"
    r = run_here(capsys, monkeypatch, "chat", "--tokenizer", str(folder), "--messages", str(messages_file),
                 "--add-generation-prompt", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    template = load_chat_template(folder)
    prompt = render_chat(template, MESSAGES, add_generation_prompt=True)
    result = chat_tokens(prompt, load(folder / "tokenizer.json"), special_tokens=template_strings(template))
    assert doc["prompt"] == prompt.text and prompt.text.endswith("<|im_start|>assistant\n")
    assert [row["id"] for row in doc["rows"]] == list(result.encoding.ids)
    assert [row["message"] for row in doc["rows"]] == [result.message_of_token(i) for i in range(len(result.encoding))]
    assert {row["role"] for row in doc["rows"]} == {"system", "user", "assistant", None}
    assert all(row["assistant"] is None for row in doc["rows"])
    assert "no {% generation %}" in r.stderr and "warning" not in r.stderr


def test_chat_table_and_csv_from_stdin_with_warnings(data_dir, capsys, monkeypatch):
    folder = str(data_dir / "tokenizers" / "gemma-3")
    r = run_here(capsys, monkeypatch, "chat", "--tokenizer", folder, "--messages", "-", "--format", "csv",
                 stdin=json.dumps(MESSAGES[1:]))
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert rows[0]["token"] == "<bos>" and rows[0]["message"] == "" and rows[1]["role"] == "user"
    assert "subwordscope chat: warning: doubled BOS" in r.stderr
    r = run_here(capsys, monkeypatch, "chat", "--tokenizer", folder, "--messages", "-", stdin=json.dumps(MESSAGES[1:]))
    assert r.stdout.splitlines()[0].split() == ["index", "token", "id", "start", "end", "text", "message",
                                                "role", "assistant"]


@pytest.mark.parametrize("args, stdin, expected", [
    (["--tokenizer", "{tok}/gpt-4o"], '[{"role": "user", "content": "x"}]', "subwordscope: chat: --tokenizer: "),
    (["--tokenizer", "{tok}/qwen3"], "[]", "subwordscope: chat: stdin: the message list is empty"),
    (["--tokenizer", "{tok}/qwen3"], "[", "subwordscope: chat: stdin: not JSON"),
    (["--tokenizer", "{tok}/qwen3"], '[{"role": "user"}]', 'subwordscope: chat: stdin: message 0: needs a "content"'),
    (["--tokenizer", "{tok}/qwen3"], "  ", "subwordscope: chat: --messages: standard input is empty"),
    (["--tokenizer", "{tok}/gemma-3"], '[{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]',
     "subwordscope: chat: the chat template: the chat template failed (template line 19): Conversation roles"),
])
def test_bad_input_exits_2_with_one_line(data_dir, args, stdin, expected, capsys, monkeypatch):
    args = [a.format(tok=data_dir / "tokenizers") for a in args]
    r = run_here(capsys, monkeypatch, "chat", *args, "--messages", "-", stdin=stdin)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith(expected), r.stderr


def test_chat_in_a_fresh_process(data_dir, messages_file):
    r = run_cli("chat", "--tokenizer", str(data_dir / "tokenizers" / "llama-3"), "--messages", str(messages_file),
                "--format", "jsonl")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert rows[0]["token"] == "<|begin_of_text|>" and rows[-1]["token"] == "ĊĊ"
    assert r.stderr.count("\n") == 1  # the no-mask note only
