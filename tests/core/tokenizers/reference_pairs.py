"""Build a tokenizer from one tokenizer.json document both in core and in the reference
library, and compare their encodings (shared by the component tests).

Two sets of texts are used: :data:`PLAIN_TEXTS` / :data:`PLAIN_GENERATED` for the
components swapped into BERT's file (normalizers, basic pre-tokenizers, BertProcessing), and
:data:`QUIRK_TEXTS` / :data:`QUIRK_GENERATED` — adding control characters, added-token
strings, Japanese and the texts whose normalization splits at original offset 0 — for the
byte-level, SentencePiece-style and pattern components. Generated text is limited to code
points assigned in Python's Unicode version (14.0): for later additions the reference
(newer tables) and ``unicodedata`` can legitimately disagree.
"""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from core.tokenizers import load
from tests.core.strategies import TRICKY, tricky_text

_ASSIGNED = st.characters(codec="utf-8").filter(lambda c: unicodedata.category(c) != "Cn")

PLAIN_TEXTS = TRICKY + [
    "".join(TRICKY), "  Hello,  World!! 123 4.5 ee--x  ", "a...b,,c 12ab34",
    "\u01c4emal \ufb01x \u0130i \u1e9e \u01c5 \u03a3\u03c3\u03c2 \u03a3\u0391\u03a3",
    "e\u0301\u0301 \u1e9b\u0323", " x ", ""]
PLAIN_GENERATED = st.one_of(tricky_text, st.text(_ASSIGNED, max_size=20))

QUIRK_TEXTS = TRICKY + [
    "".join(TRICKY), "  Hello,  World!! 123 4.5 ee--x  ", " x ", "", "   ",
    "\x01abc", "a\x01b \x01", "Hello world  x", "\u2581x \u2581\u2581y",
    "<|endoftext|> hi<|endoftext|>", "</s> hello", "hi</s>there  you", "a <pad> b</s>",
    "日本語のテキスト。カタカナーとひらがな", "12345 ab12cd",
    "\u00af", "\u00afa", " \u00af"]  # NFKC gives " \u0304": a split at original offset 0
QUIRK_GENERATED = st.one_of(
    tricky_text.filter(lambda s: all(unicodedata.category(c) != "Cn" for c in s)),
    st.text(_ASSIGNED, max_size=20))


def load_pair(doc, tmp_path_factory, name):
    """Write ``doc`` to a temporary file; return (core tokenizer, reference tokenizer)."""
    import tokenizers

    path = tmp_path_factory.mktemp("tok") / f"{name}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ref = tokenizers.Tokenizer.from_file(str(path))
    ref.no_truncation()
    ref.no_padding()
    return load(path), ref


def assert_same(ours, ref, text, special):
    """Tokens, ids and offsets of both encodings of ``text`` are equal."""
    o = ours.encode(text, add_special_tokens=special)
    r = ref.encode(text, add_special_tokens=special)
    assert list(zip(o.tokens, o.ids, o.offsets)) == list(zip(r.tokens, r.ids, r.offsets)), text


def assert_component_matches(doc, tmp_path_factory, name, texts, generated_text):
    """Both libraries built from ``doc`` agree on every one of ``texts`` (with and without
    special tokens) and on 15 examples of ``generated_text`` (without)."""
    ours, ref = load_pair(doc, tmp_path_factory, name)
    for text in texts:
        for special in (False, True):
            assert_same(ours, ref, text, special)

    @settings(max_examples=15, deadline=None)
    @given(text=generated_text)
    def generated(text):
        assert_same(ours, ref, text, False)

    generated()
