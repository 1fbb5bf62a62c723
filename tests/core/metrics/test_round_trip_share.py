"""The round-trip metric of the languages × tokenizers table (share of characters back unchanged)."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import numpy as np
import pytest

from core.metrics import METRICS, compare_table, load_corpus
from core.metrics.round_trip_share import RoundTripCount, lines_round_trip, round_trip_count
from core.tokenizers import load
from tests.core.align.test_round_trip import SHARED


class Lower:
    """Words split on spaces; decoding gives the words lowercased, joined by one space."""

    name, unk_token = "lower", None

    def encode(self, text):
        self.last_text = " ".join(text.split())
        words = [m for m in re.finditer(r"\S+", text)]
        return SimpleNamespace(tokens=[m.group() for m in words], ids=list(range(len(words))),
                               offsets=[m.span() for m in words])

    def decode(self, ids, *, skip_special_tokens=True):
        return self.last_text.lower()


def test_counts_add_and_share():
    assert (RoundTripCount(3, 4, 1, 0) + RoundTripCount(5, 6, 1, 1)) == RoundTripCount(8, 10, 2, 1)
    assert RoundTripCount(8, 10).share == 0.8 and math.isnan(RoundTripCount().share)


def test_line_counts_with_a_lowercasing_decoder():
    tok = Lower()
    assert round_trip_count(tok, "Ab  cd") == RoundTripCount(4, 6, 1, 0)  # "A" lost case, one space collapsed
    assert lines_round_trip(tok, ["ab", "Ab"]) == RoundTripCount(3, 4, 2, 1)
    assert lines_round_trip(SimpleNamespace(encode=len), ["ab"]) is None  # no decode: no metric


def test_table_column_is_nan_without_decode_and_exact_otherwise(tmp_path):
    (tmp_path / "eng.txt").write_text("All human beings\nare born free\n", encoding="utf-8")
    corpus = load_corpus(tmp_path)
    no_decode = SimpleNamespace(name="enc", unk_token=None,
                                encode=lambda t: SimpleNamespace(tokens=[t], offsets=[(0, len(t))]))
    t = compare_table([no_decode, Lower()], corpus)
    values = t.values("round_trip_share")
    assert "round_trip_share" in METRICS and values.shape == (1, 2)
    assert math.isnan(values[0, 0]) and values[0, 1] == 28 / 29  # only the "A" lost its case
    header, rows = t.long_rows()
    assert rows[1][header.index("round_trip_share")] == 28 / 29


@pytest.fixture(scope="module")
def udhr_table(data_dir):
    toks = [load(data_dir / "tokenizers" / p) for p in SHARED.values()]
    return compare_table(toks, load_corpus(data_dir / "udhr"), names=list(SHARED))


def test_every_shared_tokenizer_on_all_29_languages(udhr_table):
    t = udhr_table
    values = t.values("round_trip_share")
    assert values.shape == (29, 4) and np.isfinite(values).all()
    col = {name: values[:, j] for j, name in enumerate(t.tokenizers)}
    assert (col["gpt2"] == 1.0).all() and (col["cl100k"] == 1.0).all()
    row = {code: values[i] for i, code in enumerate(t.languages)}
    bert, pegasus = t.tokenizers.index("bert"), t.tokenizers.index("pegasus")
    assert row["fra"][bert] < 0.99 and row["vie"][bert] < 0.8  # lowercase + accents stripped
    assert row["tha"][bert] < 0.1 and row["amh"][pegasus] < 0.1  # unknown scripts
    assert row["eng"][pegasus] > 0.98
    exact = [[c.exact_lines for c in r] for r in t.round_trips]
    lines = [[c.lines for c in r] for r in t.round_trips]
    assert [e[1] for e in exact] == [n[1] for n in lines]  # GPT-2 gives back every line exactly
