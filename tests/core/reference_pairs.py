"""Build a tokenizer from one tokenizer.json document both in core and in the reference
library, and compare their encodings (shared by the component tests)."""

from __future__ import annotations

import json

from core.tokenizers import load


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
