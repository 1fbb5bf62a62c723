"""core.chat.prompt and core.chat.tokens: message spans, token ranges, the assistant mask
against transformers' return_assistant_tokens_mask, and the warnings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.chat import chat_tokens, load_chat_template, render_chat, template_strings
from core.align.round_trip import round_trip_of
from tests.core.chat.conftest import MESSAGE_LISTS, TEMPLATED

GENERATION = {  # the shared templates have no {% generation %}: two built on their tokens
    "qwen3": ("{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' }}{% if m.role == 'assistant' %}"
              "{% generation %}{{ m.content + '<|im_end|>' }}{% endgeneration %}{% else %}"
              "{{ m.content + '<|im_end|>' }}{% endif %}{{ '\\n' }}{% endfor %}"
              "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"),
    "llama-3": ("{{ bos_token }}{% for m in messages %}{{ '<|start_header_id|>' + m.role + '<|end_header_id|>\\n\\n' }}"
                "{% if m.role == 'assistant' %}{% generation %}{{ m.content | trim }}{{ '<|eot_id|>' }}"
                "{% endgeneration %}{% else %}{{ m.content | trim + '<|eot_id|>' }}{% endif %}{% endfor %}"
                "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{% endif %}"),
}


def analyse(data_dir, ours, name, messages, gen=False, tokenizer=None, source=None):
    template = load_chat_template(data_dir / "tokenizers" / name)
    if source is not None:
        template = replace(template, source=source)
    prompt = render_chat(template, messages, add_generation_prompt=gen)
    return chat_tokens(prompt, ours(tokenizer or name), special_tokens=template_strings(template),
                       bos_token=template.bos_token)


@pytest.mark.parametrize("name", list(GENERATION))
@pytest.mark.parametrize("case", ["multi-turn", "no system", "system+user"])
@pytest.mark.parametrize("gen", [False, True])
def test_assistant_mask_equals_transformers(data_dir, oracle, ours, name, case, gen):
    messages = MESSAGE_LISTS[case]
    out = oracle(name).apply_chat_template(messages, chat_template=GENERATION[name], tokenize=True,
                                           return_dict=True, return_assistant_tokens_mask=True,
                                           add_generation_prompt=gen)
    result = analyse(data_dir, ours, name, messages, gen, source=GENERATION[name])
    assert list(result.encoding.ids) == list(out["input_ids"])
    assert list(result.assistant_mask) == list(out["assistant_masks"])
    assert result.prompt.has_generation and result.mask_note == ""
    if any(m["role"] == "assistant" for m in messages):
        on = [result.encoding.tokens[i] for i, v in enumerate(result.assistant_mask) if v]
        assert on and on[-1] in ("<|im_end|>", "<|eot_id|>")
        assert all(result.message_of_token(i) is not None and
                   messages[result.message_of_token(i)]["role"] == "assistant"
                   for i, v in enumerate(result.assistant_mask) if v)


@pytest.mark.parametrize("name", TEMPLATED)
@pytest.mark.parametrize("case", list(MESSAGE_LISTS))
def test_spans_cover_the_prompt_and_hold_their_messages(data_dir, ours, name, case):
    messages = MESSAGE_LISTS[case]
    result = analyse(data_dir, ours, name, messages, gen=True)
    prompt, enc = result.prompt, result.encoding
    assert prompt.spans[0].start == 0 and prompt.spans[-1].end == len(prompt.text)
    assert all(a.end == b.start for a, b in zip(prompt.spans, prompt.spans[1:]))
    assert [s.index for s in prompt.message_spans()] == list(range(len(messages)))
    for span in prompt.message_spans():
        m = messages[span.index]
        if span.content is not None:
            assert span.start <= span.content[0] <= span.content[1] <= span.end
            assert prompt.text[slice(*span.content)] in (m["content"], m["content"].strip())
        if not (name == "gemma-3" and m["role"] == "system"):  # Gemma folds it into the first user turn
            assert span.content is not None or m["role"] == "assistant"
    ranges = result.token_ranges
    assert ranges[0][0] == 0 and ranges[-1][1] == len(enc)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    for k, (first, stop) in enumerate(ranges):
        assert all(result.span_of_token[i] == k for i in range(first, stop))
    assert result.assistant_mask is None and "no {% generation %}" in result.mask_note
    assert prompt.spans[-1].index is None  # the generation prompt


def test_llama3_turns_start_at_their_header(data_dir, ours):
    result = analyse(data_dir, ours, "llama-3", MESSAGE_LISTS["multi-turn"], gen=True)
    texts = [result.prompt.text[s.start:s.end] for s in result.prompt.spans]
    assert texts[0] == "<|begin_of_text|>"
    assert texts[1] == "<|start_header_id|>system<|end_header_id|>\n\nS<|eot_id|>"
    assert texts[3] == "<|start_header_id|>assistant<|end_header_id|>\n\nA1<|eot_id|>"
    assert texts[-1] == "<|start_header_id|>assistant<|end_header_id|>\n\n"
    first, stop = result.message_tokens(2)  # spans[3]: the prelude comes first
    assert result.encoding.tokens[first:stop] == ["<|start_header_id|>", "assistant", "<|end_header_id|>",
                                                  "ĊĊ", "A", "1", "<|eot_id|>"]
    assert result.warnings == ()


def test_warnings(data_dir, ours):
    gemma = analyse(data_dir, ours, "gemma-3", MESSAGE_LISTS["user only"])
    assert [w.kind for w in gemma.warnings] == ["doubled-bos"]
    qwen_on_gpt2 = analyse(data_dir, ours, "qwen3", MESSAGE_LISTS["no system"], tokenizer="gpt2")
    split = {w.message.split(" is not")[0] for w in qwen_on_gpt2.warnings if w.kind == "split-special"}
    assert split == {"'<|im_start|>'", "'<|im_end|>'"}
    bert = analyse(data_dir, ours, "qwen3", MESSAGE_LISTS["no system"], tokenizer="bert-base-uncased")
    assert "lossy-decode" in [w.kind for w in bert.warnings]


@pytest.mark.parametrize("name", ["llama-3", "qwen3", "gemma-3", "gpt-4o", "gpt2"])
def test_round_trip_keeps_special_tokens_on_a_chat_prompt(data_dir, ours, name):
    """Issue 26 item 4: the lossless shared tokenizer.json files give a chat prompt back
    100 % (the special tokens of the text decoded back). BERT and Pegasus are lossy."""
    source = name if name in TEMPLATED else "qwen3"
    template = load_chat_template(data_dir / "tokenizers" / source)
    prompt = render_chat(template, MESSAGE_LISTS["multi-turn"], add_generation_prompt=True)
    rt = round_trip_of(ours(name), prompt.text)
    assert rt.exact and rt.unchanged_share == 1.0, rt.summary()
    specials = sum(prompt.text.count(t) for t in ours(name).special_tokens)
    assert rt.special_tokens_kept == specials
    assert (name in TEMPLATED) == (specials > 0)
    if specials:
        assert rt.summary().endswith(f", {specials} special tokens kept")
