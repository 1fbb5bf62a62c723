"""Characters a tokenizer drops (in no token) count as not encoded, as unknown ones do: a
model without an unknown token must not look cheap by losing text."""

from __future__ import annotations

import json
import unicodedata
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.metrics import encoding_metrics
from core.metrics.ranking import unreliable
from core.metrics.table import CompareTable
from core.metrics.unknown_cost import dropped_characters_and_bytes
from core.tokenizers import load
from tests.core.strategies import tricky_text


def enc(tokens, offsets):
    return SimpleNamespace(tokens=list(tokens), offsets=list(offsets))


def naive_dropped(text: str, offsets) -> tuple[int, int]:
    """The definition, position by position."""
    covered = [False] * len(text)
    for a, b in offsets:
        for i in range(a, b):
            covered[i] = True
    count = n_bytes = 0
    last = -2
    for i, ch in enumerate(text):
        kind = unicodedata.category(ch)[0]
        if covered[i]:
            continue
        if kind in "LNPS" or (kind == "M" and last == i - 1):
            count += 1
            n_bytes += len(ch.encode("utf-8", "surrogatepass"))
            last = i
    return count, n_bytes


def test_dropped_by_hand():
    text = "Zo\u00e9 e\u0301x \U0001F44D\u200d!\t"
    # "Zoé" kept; "e" + U+0301 dropped together, "x" kept; 👍 dropped, ZWJ (format) and
    # tab (control) not counted; "!" dropped
    offsets = [(0, 3), (6, 7)]
    assert dropped_characters_and_bytes(np.array(offsets), text) == (4, 1 + 2 + 4 + 1)
    # a stripped accent on a kept base is a spelling change, not missing text
    assert dropped_characters_and_bytes(np.array([(4, 5), (6, 7)]), "Zoé e\u0301x") == (3, 4)
    assert dropped_characters_and_bytes(np.zeros((0, 2), np.int64), "") == (0, 0)
    assert dropped_characters_and_bytes(np.zeros((0, 2), np.int64), " \n\t") == (0, 0)


def test_a_model_without_unknown_token_that_drops_everything_is_not_cheap(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps({"model": {"type": "BPE", "vocab": {}, "merges": []}}))
    tok = load(path)
    text = "Zoé saw नमस्ते 👍🏽"
    got = tok.encode(text)
    assert list(got.tokens) == []  # the reference drops what it cannot encode, too
    m = encoding_metrics(got, text)
    non_space = [ch for ch in text if not ch.isspace()]
    assert m.tokens == 0 and m.unknown == 0
    assert m.dropped_characters == len(non_space)
    assert m.unknown_share == pytest.approx(len(non_space) / len(text))
    assert m.adjusted_tokens == len("".join(non_space).encode("utf-8"))
    table = CompareTable(("eng",), ("empty",), ((m,),), None)
    assert unreliable(table).all()  # marked, never ranked cheapest


def test_sums_keep_the_dropped_counts():
    a = encoding_metrics(enc(["a"], [(0, 1)]), "ab")
    b = encoding_metrics(enc([], []), "cd")
    total = a + b
    assert (total.dropped_characters, total.dropped_bytes) == (3, 3)
    assert total.unknown_share == pytest.approx(3 / 4)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), text=tricky_text)
def test_dropped_equals_the_definition(data, text):
    n = len(text)
    spans = data.draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), max_size=8))
    offsets = [(min(a, b), max(a, b)) for a, b in spans]
    arr = np.array(offsets, np.int64).reshape(-1, 2)
    assert dropped_characters_and_bytes(arr, text) == naive_dropped(text, offsets)
    m = encoding_metrics(enc(["t"] * len(offsets), offsets), text)
    assert m.dropped_characters == naive_dropped(text, offsets)[0]
    # everything covered: nothing dropped
    assert dropped_characters_and_bytes(np.array([(0, n)]), text) == (0, 0)
