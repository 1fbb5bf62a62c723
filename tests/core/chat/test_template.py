"""core.chat.template and core.chat.messages: rendering equal to transformers'
apply_chat_template on the shared templates, and the typed errors."""

from __future__ import annotations

import os

import pytest

from core.chat import (MessagesError, NoChatTemplateError, TemplateError, load_chat_template,
                       messages_json, parse_messages)
from core.chat.template import ChatTemplate
from tests.core.chat.conftest import MESSAGE_LISTS, TEMPLATED


@pytest.mark.parametrize("name", TEMPLATED)
@pytest.mark.parametrize("case", list(MESSAGE_LISTS))
@pytest.mark.parametrize("gen", [False, True])
def test_rendered_prompt_equals_transformers(data_dir, oracle, name, case, gen):
    messages = MESSAGE_LISTS[case]
    template = load_chat_template(data_dir / "tokenizers" / name / "tokenizer.json")
    ref = oracle(name)
    expected = ref.apply_chat_template(messages, tokenize=False, add_generation_prompt=gen)
    assert template.render(messages, add_generation_prompt=gen).text == expected


def test_qwen3_extra_variables_and_tools_reach_the_template(data_dir, oracle):
    template = load_chat_template(data_dir / "tokenizers" / "qwen3")
    messages = MESSAGE_LISTS["no system"]
    tools = [{"type": "function", "function": {"name": "clock", "description": "Heure à Paris",
                                               "parameters": {"type": "object", "properties": {}}}}]
    expected = oracle("qwen3").apply_chat_template(messages, tools=tools, tokenize=False,
                                                   add_generation_prompt=True, enable_thinking=False)
    got = template.render(messages, tools=tools, add_generation_prompt=True, enable_thinking=False).text
    assert got == expected and '"Heure à Paris"' in got and "<think>\n\n</think>" in got


def test_gemma3_refuses_roles_that_do_not_alternate_with_its_line(data_dir):
    template = load_chat_template(data_dir / "tokenizers" / "gemma-3")
    with pytest.raises(TemplateError) as info:
        template.render([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}])
    assert info.value.reason == "Conversation roles must alternate user/assistant/user/assistant/..."
    assert "raise_exception" in template.source.splitlines()[info.value.line - 1]
    assert info.value.line == 19 and isinstance(info.value, ValueError)


def test_globals_and_filters_match_transformers():
    t = ChatTemplate("{{ messages[0].content | tojson }}|{{ {'b': 1, 'a': [1, 2]} | tojson(indent=2, sort_keys=True) }}"
                     "|{{ strftime_now('%Y') | length }}|{% set ns = namespace(n=0) %}{% for m in messages %}"
                     "{% set ns.n = ns.n + 1 %}{% if loop.index > 5 %}{% break %}{% endif %}{% endfor %}{{ ns.n }}"
                     "|{{ dict(x=1) }}|{{ bos_token }}\n  {% if true %}\n  kept\n  {% endif %}\n",
                     {"bos_token": "<s>"})
    text = t.render([{"role": "user", "content": "<é>"}]).text
    assert text == '"<é>"|{\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}|4|1|{\'x\': 1}|<s>\n  kept\n'


def test_sandbox_refuses_python_internals_and_mutation():
    for source, match in (("{{ messages.__class__.__mro__ }}", "'__class__' of 'list' object is unsafe"),
                          ("{% set ns = namespace(_x=1) %}", "underscore names are refused"),
                          ("{% set x = messages.append(1) %}", "'append' of 'list' object is unsafe")):
        with pytest.raises(TemplateError, match=match):
            ChatTemplate(source).render([{"role": "user", "content": "x"}])
    assert ChatTemplate("{{ ''.format.__globals__ }}").render([{"role": "user", "content": "x"}]).text == ""


def test_template_errors_carry_the_line():
    with pytest.raises(TemplateError) as info:
        ChatTemplate("line one\n{% for m in messages %}\n{{ m.content }\n{% endfor %}").render(
            [{"role": "user", "content": "x"}])
    assert info.value.line == 3 and "syntax error" in str(info.value)
    with pytest.raises(TemplateError) as info:
        ChatTemplate("a\nb\n{{ messages[0].content + 1 }}").render([{"role": "user", "content": "x"}])
    assert info.value.line == 3 and "TypeError" in info.value.reason


def test_no_chat_template_is_a_typed_error(data_dir, tmp_path):
    for folder in ("gpt-4o", "bert-base-uncased", "gpt2"):
        with pytest.raises(NoChatTemplateError, match="chat template"):
            load_chat_template(data_dir / "tokenizers" / folder)
    (tmp_path / "tokenizer_config.json").write_text("{oops", encoding="utf-8")
    with pytest.raises(TemplateError, match="not JSON"):
        load_chat_template(tmp_path)


def test_jinja_file_wins_and_named_templates(tmp_path):
    (tmp_path / "tokenizer_config.json").write_text(
        '{"bos_token": {"content": "<s>"}, "chat_template": [{"name": "default", "template": "D{{ bos_token }}"},'
        ' {"name": "tool_use", "template": "T"}]}', encoding="utf-8")
    assert load_chat_template(tmp_path).render([{"role": "user", "content": "x"}]).text == "D<s>"
    assert load_chat_template(tmp_path, "tool_use").source == "T"
    with pytest.raises(NoChatTemplateError, match="rag"):
        load_chat_template(tmp_path, "rag")
    (tmp_path / "chat_template.jinja").write_text("J{{ messages | length }}", encoding="utf-8")
    assert load_chat_template(tmp_path / "tokenizer_config.json").render([{"role": "user", "content": "x"}]).text == "J1"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_template_files_are_read_only_when_regular_and_not_too_big(tmp_path, monkeypatch):
    """A FIFO as chat_template.jinja would block a read: it is passed over (the config's
    template is used); a config over the size cap is a typed error, not read whole."""
    config = tmp_path / "tokenizer_config.json"
    config.write_text('{"chat_template": "C{{ messages | length }}"}', encoding="utf-8")
    os.mkfifo(tmp_path / "chat_template.jinja")
    assert load_chat_template(tmp_path).render([{"role": "user", "content": "x"}]).text == "C1"
    monkeypatch.setattr("core.text.files.MAX_TEXT_FILE_BYTES", 16)
    with pytest.raises(NoChatTemplateError, match="limit|larger|bytes"):
        load_chat_template(tmp_path)


@pytest.mark.parametrize("text, match", [
    ("[", "not JSON: Expecting value at line 1, column 2"),
    ("{}", "expected a list of messages"),
    ("[]", "empty"),
    ('["hi"]', "message 0: expected an object"),
    ('[{"content": "x"}]', 'message 0: needs a "role"'),
    ('[{"role": "user", "content": "a"}, {"role": "user"}]', 'message 1: needs a "content"'),
    ('[{"role": "user", "content": 3}]', "must be a string or a list of content blocks"),
])
def test_malformed_messages(text, match):
    with pytest.raises(MessagesError, match=match) as info:
        parse_messages(text)
    assert isinstance(info.value, ValueError)


def test_messages_json_round_trips():
    messages = [{"role": "user", "content": "é 👍", "name": None},
                {"role": "assistant", "content": None, "tool_calls": [{"function": {"name": "f"}}]}]
    parsed = parse_messages(messages_json(messages))
    assert parsed == [{"role": "user", "content": "é 👍"},
                      {"role": "assistant", "tool_calls": [{"function": {"name": "f"}}]}]
    assert parse_messages(messages_json(parsed)) == parsed and "é 👍" in messages_json(parsed)
    assert parse_messages('{"messages": [{"role": "user", "content": "x"}]}')[0]["content"] == "x"
