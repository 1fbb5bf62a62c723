"""The compact columns (:mod:`core.text.columns`) read like the lists they replace: indexing,
slicing, iterating (across conversion chunks), ``len``, ``==`` with lists, ``None`` spans,
pickling; and the types that hold them (NormalizedText, AlignmentView) use them for long
texts."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.text import columns
from core.text.columns import IntArray, SpanArray, int_array
from core.text.normalize import COMPACT_FROM, NormalizedText, normalize

spans_lists = st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 10**9), st.integers(0, 10**9))),
                       max_size=40)


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=50))
def test_int_array_reads_like_its_list(values):
    a = int_array(values)
    assert type(a) is IntArray and len(a) == len(values) and list(a) == values
    assert a == values and a == tuple(values) and not a != values
    assert all(type(a[i]) is int and a[i] == values[i] for i in range(len(values)))
    assert a[1:3].tolist() == values[1:3]
    assert pickle.loads(pickle.dumps(a)) == values
    assert a.view().tolist() == values and not a.view().flags.writeable
    if values:
        assert a != values[:-1] and a != [*values[:-1], values[-1] ^ 1]


def test_int_array_from_arrays_ranges_and_itself():
    a = int_array(np.arange(5, dtype=np.int32) * 3)
    assert a == [0, 3, 6, 9, 12] and int_array(a) is a
    assert int_array(range(2, 6)) == [2, 3, 4, 5] and int_array(range(10**4, 10**4 + 3)) == [10000, 10001, 10002]
    assert int_array(a[1:]) == [3, 6, 9, 12] and int_array([]) == [] and int_array(np.zeros(0)) == []
    assert np.shares_memory(a.view(), np.asarray(a))


@given(spans_lists)
def test_span_array_reads_like_its_list(spans):
    s = SpanArray.from_pairs(spans)
    assert len(s) == len(spans) and list(s) == spans and s == spans and not s != spans
    assert [s[i] for i in range(len(spans))] == spans and (s[-1] == spans[-1] if spans else True)
    assert s[2:7] == spans[2:7] and isinstance(s[2:7], SpanArray)
    assert (None in s) == (None in spans)
    if None in spans:
        first = spans.index(None)
        assert s.index(None) == first and s.index(None, first) == first and s.index(None, -len(spans)) == first
    else:
        with pytest.raises(ValueError):
            s.index(None)
    assert pickle.loads(pickle.dumps(s)) == spans and SpanArray.from_pairs(s) is s
    other = [(0, 0) if sp is None else None for sp in spans]
    assert not spans or s != other


def test_span_array_iterates_across_chunks():
    n = 2 * columns._CHUNK + 5
    starts = np.arange(n)
    s = SpanArray.from_arrays(starts, starts + 1, missing=[3, columns._CHUNK, n - 1])
    got = list(s)
    assert len(got) == n and got[3] is None and got[columns._CHUNK] is None and got[-1] is None
    assert got[columns._CHUNK + 1] == (columns._CHUNK + 1, columns._CHUNK + 2) and got[4] == (4, 5)
    assert s.index(None) == 3 and s.index(None, 4) == columns._CHUNK and None in s
    assert np.asarray(s).shape == (n, 2)


def test_long_offset_maps_are_compact_and_equal_to_lists():
    text = "Ünïcödé ﬁ text " * (COMPACT_FROM // 8)
    nt = normalize(text)
    assert type(nt.starts) is IntArray and type(nt.ends) is IntArray
    ident = NormalizedText.identity(text)
    assert ident.starts == list(range(len(text))) and type(ident.starts) is IntArray
    assert NormalizedText(text, text, list(range(len(text))), list(range(1, len(text) + 1))) == ident
    short = NormalizedText.identity("abc")
    assert short.starts == [0, 1, 2] and short.arrays()[1].tolist() == [1, 2, 3]


def test_long_encodings_and_views_hold_compact_spans():
    from core.align.view import alignment_view
    from core.tokenizers import demo_tokenizer
    from core.tokenizers.encoding import COMPACT_TOKENS

    tok = demo_tokenizer()
    text = "Élan vital, naïve café. " * (COMPACT_TOKENS // 4)
    enc = tok.encode(text)
    assert len(enc) >= COMPACT_TOKENS and isinstance(enc.offsets, SpanArray)
    pairs = [tuple(o) for o in enc.offsets]
    assert enc.offsets == pairs and pairs == list(enc.offsets) and enc.word_ids == list(enc.word_ids)
    assert all(text[a:b] == enc.token_text(i) for i, (a, b) in enumerate(pairs[:50]))
    view = alignment_view(text, tok)
    assert isinstance(view.spans, SpanArray) and isinstance(view.layer.norm_spans, SpanArray)
    assert view.spans == pairs and view.layer.norm_spans == [view.normalized.to_normalized(*sp) for sp in pairs]
