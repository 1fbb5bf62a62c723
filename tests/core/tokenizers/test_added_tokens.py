"""Added tokens (``single_word``, ``lstrip``, ``rstrip``, ``normalized``) are found and split
out exactly as the reference library does, in BERT's pipeline."""

from __future__ import annotations

import json
import random

import pytest

from tests.core.tokenizers.reference_pairs import assert_same, load_pair

tokenizers = pytest.importorskip("tokenizers")

ADDED_TEXTS = ["hello <x> world", "a<x>b", "  <x>  ", "<x>", "x<X>y", "hello<x>", "<x>hello",
               "he <x>llo", "<x><x>", "a <x>\tb", "wor<x>ld <x>!", "\u00dcn\u00efcode <x> \u00e9",
               "<xy>", " <X> ", "<x>\u3000<x>"]


@pytest.mark.parametrize("single_word", [False, True])
@pytest.mark.parametrize("lstrip", [False, True])
@pytest.mark.parametrize("rstrip", [False, True])
@pytest.mark.parametrize("normalized", [False, True])
def test_added_token_flags(docs, tmp_path_factory, single_word, lstrip, rstrip, normalized):
    bert = docs["bert"]
    extra = {"id": 30522, "content": "<x>", "single_word": single_word, "lstrip": lstrip,
             "rstrip": rstrip, "normalized": normalized, "special": not normalized}
    ours, ref = load_pair(dict(bert, added_tokens=bert["added_tokens"] + [extra]),
                          tmp_path_factory, "added")
    for text in ADDED_TEXTS:
        assert_same(ours, ref, text, True)


# -- modern files: thousands of added tokens, chat prompts, encode_special_tokens -------------

MODERN = ["gemma-3", "llama-3", "qwen3"]
CHAT = {
    "gemma-3": "<bos><start_of_turn>user\nWhat is <mask>?<end_of_turn>\n<start_of_turn>model\n",
    "llama-3": "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>"
               "<|start_header_id|>assistant<|end_header_id|>\n\n",
    "qwen3": "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\n<think>hm</think>"
             "<|im_end|>\n<|im_start|>assistant\n",
}
_REFERENCES: dict[str, object] = {}


def _modern_pair(data_dir, name):
    from tests.core.tokenizers.loaded import shared_tokenizer

    ours = shared_tokenizer(data_dir, f"{name}/tokenizer.json")
    if name not in _REFERENCES:
        _REFERENCES[name] = tokenizers.Tokenizer.from_file(
            str(data_dir / "tokenizers" / name / "tokenizer.json"))
    return ours, _REFERENCES[name]


def woven_texts(contents, snippets, seed, count=25):
    """Texts of added-token contents (whole, cut short, doubled, run into each other) woven
    with UDHR snippets, whitespace and word characters."""
    rng = random.Random(seed)
    glue = ["", " ", "  ", "\n", "\t", "\u3000", "x", "\u00e9", "_", "-", "<", "|"]
    out = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(1, 10)):
            c = rng.choice(contents)
            kind = rng.random()
            if kind < 0.45:
                parts.append(c)
            elif kind < 0.6:
                parts.append(c[:rng.randrange(1, len(c) + 1)])
            elif kind < 0.7:
                parts.append(c + c[-1])
            else:
                s = rng.choice(snippets)
                a = rng.randrange(len(s))
                parts.append(s[a:a + rng.randrange(1, 40)])
            parts.append(rng.choice(glue))
        out.append("".join(parts))
    return out


def _snippets(udhr_texts):
    return [t[:2000] for t in udhr_texts.values()]


def _assert_same(ours, ref, text, special, parse_special=True):
    o = ours.encode(text, add_special_tokens=special, parse_special_tokens=parse_special)
    r = ref.encode(text, add_special_tokens=special)
    assert list(zip(o.tokens, o.ids, o.offsets)) == list(zip(r.tokens, r.ids, r.offsets)), text


@pytest.mark.parametrize("name", MODERN)
def test_modern_files_split_added_tokens_as_the_reference(name, data_dir, udhr_texts):
    ours, ref = _modern_pair(data_dir, name)
    contents = [t.content for t in ours.added.tokens]
    texts = [CHAT[name]] + woven_texts(contents, _snippets(udhr_texts), MODERN.index(name))
    for k, text in enumerate(texts):
        _assert_same(ours, ref, text, k % 2 == 0)


TURNS = {
    "gemma-3": "<start_of_turn>{role}\n{text}<end_of_turn>\n",
    "llama-3": "<|start_header_id|>{role}<|end_header_id|>\n\n{text}<|eot_id|>",
    "qwen3": "<|im_start|>{role}\n{text}<|im_end|>\n",
}


@pytest.mark.parametrize("name", MODERN)
def test_long_chat_prompts_over_every_language_equal_the_reference(name, data_dir, udhr_texts):
    """Hundreds of short turns (the pieces between special tokens pre-tokenized and
    tokenized together, ASCII and other scripts mixed), one prompt per ten languages."""
    ours, ref = _modern_pair(data_dir, name)
    lines = [ln for text in udhr_texts.values() for ln in text.splitlines()[:12] if ln.strip()]
    lines += ["👨\u200d👩\u200d👧 e\u0301 ok", " ", "x\n\n", "'s 123456 ..."]
    for start in range(0, len(lines), 120):
        prompt = "".join(TURNS[name].format(role=("user", "model")[k % 2], text=line[:90])
                         for k, line in enumerate(lines[start:start + 120]))
        for special in (False, True):
            _assert_same(ours, ref, prompt, special)


@pytest.mark.parametrize("name", MODERN)
def test_special_tokens_left_unparsed_are_text_as_with_encode_special_tokens(name, data_dir,
                                                                            udhr_texts):
    ours, ref = _modern_pair(data_dir, name)
    contents = [t.content for t in ours.added.tokens]
    texts = [CHAT[name]] + woven_texts(contents, _snippets(udhr_texts), 10 + MODERN.index(name),
                                       count=12)
    ref.encode_special_tokens = True
    try:
        for k, text in enumerate(texts):
            _assert_same(ours, ref, text, k % 2 == 0, parse_special=False)
        batch = ours.encode_batch(texts, parse_special_tokens=False)
        assert [e.ids for e in batch] == [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    finally:
        ref.encode_special_tokens = False
    assert ours.encode(CHAT[name], parse_special_tokens=False).ids != ours.encode(CHAT[name]).ids


def test_flags_and_nested_contents_on_a_modern_file(data_dir, tmp_path_factory, udhr_texts):
    """Qwen3's file (NFC, byte-level) with every flag set on some of its added tokens, and
    extra tokens nested in and overlapping them, some ``normalized`` (one written
    decomposed, so it only matches as NFC makes it)."""
    path = data_dir / "tokenizers" / "qwen3" / "tokenizer.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    doc = json.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(26)
    added = []
    for t in doc["added_tokens"]:
        lstrip, rstrip, single_word = (rng.random() < 0.4 for _ in range(3))
        added.append(dict(t, lstrip=lstrip, rstrip=rstrip, single_word=single_word))
    extra = ["<|im", "<|im_start|>user", "im_end|", "think>", "caf\u0065\u0301", "h\u00e9llo",
             " rights of", "<|", "|>\n"]
    # (contents the model's vocabulary holds would take the model's id in the reference)
    assert not set(extra) & set(doc["model"]["vocab"])
    next_id = max(t["id"] for t in added) + 1
    for k, content in enumerate(extra):
        added.append({"id": next_id + k, "content": content, "special": k % 3 == 0,
                      "single_word": k % 2 == 1, "lstrip": k % 4 == 1, "rstrip": k % 4 == 2,
                      "normalized": k % 3 != 0})
    ours, ref = load_pair(dict(doc, added_tokens=added), tmp_path_factory, "qwen3-flags")
    contents = [t["content"] for t in added] + ["caf\u00e9", "he\u0301llo"]
    texts = [CHAT["qwen3"], "caf\u00e9 cafe\u0301 h\u00e9llo-he\u0301llo  <|im_end|>\t x<think>y"]
    texts += woven_texts(contents, _snippets(udhr_texts), 26, count=40)
    for k, text in enumerate(texts):
        assert_same(ours, ref, text, k % 2 == 0)


def _added(id_, content, special=False, **flags):
    return {"id": id_, "content": content, "special": special, "normalized": not special,
            "single_word": False, "lstrip": False, "rstrip": False, **flags}


def test_repeated_contents_and_overlapping_strips_as_the_reference(bert_doc, tmp_path_factory):
    """A content listed twice (the reference matches it with the first id and the last
    flags, special if either is); rstrip running into a token that starts with a space."""
    # (the repeated entry last: the reference gives every later entry a new id)
    extra = [_added(30522, "yy", special=True, rstrip=True), _added(30523, " qq", special=True),
             _added(30524, "zz"), _added(30525, "zz", special=True, rstrip=True)]
    ours, ref = load_pair(dict(bert_doc, added_tokens=bert_doc["added_tokens"] + extra),
                          tmp_path_factory, "repeated")
    texts = ["a zz  b", "zz", "yy  qq x", "yy qq", "zzyy  qq"]
    for text in texts:
        assert_same(ours, ref, text, False)
    ref.encode_special_tokens = True
    for text in texts:
        assert ours.encode(text, parse_special_tokens=False).ids == ref.encode(
            text, add_special_tokens=False).ids, text
