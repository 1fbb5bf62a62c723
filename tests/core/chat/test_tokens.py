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


# -- properties ---------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from core.chat import assistant_mask  # noqa: E402

_content = st.lists(st.sampled_from(list("ab é\n👍") + ["<|im_end|>", "<end_of_turn>", "<|eot_id|>", "  "]),
                   max_size=12).map("".join)


@st.composite
def conversations(draw):
    turns = draw(st.integers(1, 5))
    out = [{"role": "system", "content": draw(_content)}] if draw(st.booleans()) else []
    out += [{"role": ("user", "assistant")[k % 2], "content": draw(_content)} for k in range(turns)]
    return out


@pytest.fixture(scope="module")
def templates(data_dir):
    return {n: load_chat_template(data_dir / "tokenizers" / n) for n in TEMPLATED}


@settings(max_examples=60, deadline=None)
@given(messages=conversations(), gen=st.booleans())
def test_spans_partition_every_prompt(templates, messages, gen):
    for name, template in templates.items():
        prompt = render_chat(template, messages, add_generation_prompt=gen)
        spans = prompt.spans
        assert spans[0].start == 0 and spans[-1].end == len(prompt.text), name
        assert all(a.end == b.start for a, b in zip(spans, spans[1:])), name
        assert [s.index for s in prompt.message_spans()] == list(range(len(messages))), name
        for s in prompt.message_spans():
            if s.content is not None:
                assert s.start <= s.content[0] <= s.content[1] <= s.end, name
        for k in range(len(prompt.text)):
            assert prompt.span_at(k) is not None and prompt.span_at(k).start <= k < prompt.span_at(k).end


@settings(max_examples=200, deadline=None)
@given(cuts=st.lists(st.integers(0, 40), min_size=1, max_size=20),
       spans=st.lists(st.tuples(st.integers(0, 40), st.integers(1, 6)), max_size=5))
def test_assistant_mask_is_overlap(cuts, spans):
    cuts = sorted(cuts)
    offsets = list(zip(cuts, cuts[1:])) + [(cuts[-1], cuts[-1])]
    offsets.sort()
    merged = []
    for s, n in sorted(spans):  # transformers' generation spans: sorted, disjoint, non-empty
        if not merged or s >= merged[-1][1]:
            merged.append((s, s + n))
    expected = [int(any(s < e2 and e > s2 for s2, e2 in merged)) for s, e in offsets]
    assert assistant_mask(offsets, merged) == expected


def test_a_turn_starts_at_the_special_token_after_a_newline_or_another_token(data_dir):
    """The closing token that follows a message's text ("….<|im_end|>") is not a turn start."""
    source = ("{% for m in messages %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '.<|im_end|>\\n' }}"
              "{% endfor %}{{ 'end' }}")
    template = replace(load_chat_template(data_dir / "tokenizers" / "qwen3"), source=source)
    prompt = render_chat(template, MESSAGE_LISTS["no system"])
    assert [prompt.text[s.start:s.end] for s in prompt.spans] == [
        "<|im_start|>user\nQ1.<|im_end|>\n", "<|im_start|>assistant\nA1.<|im_end|>\n",
        "<|im_start|>user\nQ2.<|im_end|>\n", "end"]  # the text after the last turn: the tail
