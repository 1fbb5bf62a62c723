"""The memory-saving paths of core.align.view / core.align.audit / core.tokenizers.derived /
core.text.graphemes (issue 12: a 1,000,000-character paste within 500 MB) give exactly what
the plain paths give."""

from __future__ import annotations

import numpy as np
import pytest

import core.tokenizers.derived as derived
from core.align.audit import audit
import core.align.view as view_module
from core.align.view import AlignmentView, TokenRows, _normalized_spans, _span_arrays, alignment_view, audit_spans
from core.errors import OffsetError
from core.text.graphemes import GraphemeBounds, grapheme_bounds
from core.text.offsets import int_table, offset_arrays
from core.tokenizers import load

TEXTS = ["Zoe\u0301 flew to 東京 👩\u200d👩\u200d👧 today", "नमस्ते दुनिया  and  مرحبا\n\tx", "plain ascii text"]
FIELDS = ("starts", "ends", "special", "cuts_grapheme", "empty", "shares_chars", "partial", "cover",
          "byte_starts", "byte_ends", "derived_starts", "derived_ends", "misleading")


@pytest.fixture(scope="module")
def gpt2(data_dir):
    return load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")


@pytest.fixture(scope="module")
def bert(data_dir):
    return load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")


def _same_audit(a, b) -> None:
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert np.array_equal(x, y) and x.dtype == y.dtype, name
    assert a.tokens == b.tokens


@pytest.mark.parametrize("text", TEXTS)
def test_audit_with_the_callers_utf8_table_equals_its_own(gpt2, text):
    enc = gpt2.encode(text)
    offsets, lengths = list(enc.offsets), [len(b) for b in enc.token_bytes]
    mask = list(enc.special_tokens_mask)
    own = audit(text, offsets, byte_lengths=lengths, special_tokens_mask=mask)
    for table in (int_table(offset_arrays(text)[1]), offset_arrays(text)[1]):
        _same_audit(audit(text, offsets, byte_lengths=lengths, special_tokens_mask=mask, utf8=table), own)
    assert own.byte_starts.dtype == np.int64


@pytest.mark.parametrize("text", TEXTS)
def test_audit_spans_hands_over_arrays_with_the_same_result(gpt2, text):
    enc = gpt2.encode(text, add_special_tokens=False)
    spans, data, mask = list(enc.offsets), enc.token_bytes, list(enc.special_tokens_mask)
    listed = audit(text, spans, byte_lengths=[len(b) for b in data], special_tokens_mask=mask,
                   derived_offsets=list(enc.derived_offsets))
    _same_audit(audit_spans(text, spans, data, mask, derived=enc.derived_offsets), listed)
    _same_audit(audit_spans(text, spans, data, np.array(mask, bool), derived=enc.derived_offsets,
                            utf8=int_table(offset_arrays(text)[1])), listed)
    # a list that stops having spans: the leading tokens only
    cut = spans[:2] + [None] * (len(spans) - 2)
    _same_audit(audit_spans(text, cut, data, mask), audit(text, spans[:2], byte_lengths=[len(b) for b in data[:2]],
                                                           special_tokens_mask=mask[:2]))


def test_audit_spans_still_reports_short_lists():
    with pytest.raises(OffsetError):
        audit_spans("abc", [(0, 1), (1, 3)], [b"a"], None)
    with pytest.raises(OffsetError):
        audit_spans("abc", [(0, 1), (1, 3)], None, [0])
    with pytest.raises(OffsetError):
        audit("abc", [(0, 1)], special_tokens_mask=np.zeros(2, bool))


def test_an_identity_map_shares_the_spans_and_another_map_does_not(gpt2, bert):
    text = TEXTS[0] * 3
    view = alignment_view(text, gpt2)
    assert view.layer.norm_spans is view.spans
    assert view.layer.norm_spans == _normalized_spans(view.normalized, _span_arrays(view.spans))
    lowered = alignment_view("ZOE\u0301 Flew " + text, bert)
    assert lowered.layer.norm_spans is not lowered.spans
    nt = lowered.normalized
    assert lowered.layer.norm_spans == [nt.to_normalized(*sp) for sp in lowered.spans]


def test_the_spelled_out_check_compares_every_chunk(gpt2, monkeypatch):
    monkeypatch.setattr(derived, "_JOIN_CHUNK", 3)
    # private: the chunked byte comparison behind derived spans, on hand-made chunks
    assert derived._spells([b"ab", b"c", b"d", b"ef", b"g"], b"abcdefg")
    assert not derived._spells([b"ab", b"c", b"d", b"ef", b"g"], b"abcdefx")  # the last chunk differs
    assert not derived._spells([b"ab", b"c", b"d", b"ef", b"g"], b"abcdefgh")  # the text goes on
    assert not derived._spells([b"ab", b"c", b"d", b"ef", b"g", b"h"], b"abcdefg")
    for text in TEXTS:
        enc = gpt2.encode(text, add_special_tokens=False)
        assert derived.derived_offsets(enc, enc.rules) == derived.derived_offsets(enc, enc.rules, shortcut=False)


def test_marked_without_marks_is_all_false_with_the_old_length():
    def marked(unknown, byte_fallback=()):
        return AlignmentView("abc", "tokenize", rows=TokenRows(unknown=unknown, byte_fallback=list(byte_fallback))).marked

    assert marked([0, 0, 0]) == [False] * 3
    assert marked([False] * 3, [False] * 2) == [False] * 2
    assert marked([False, 1, 0], [False, False, True]) == [False, True, True]


def test_grapheme_bounds_are_int64_whether_fresh_or_reused():
    cache = GraphemeBounds()
    for text in ("", "e\u0301x", "e\u0301x👍🏽", "ae\u0301x👍🏽", "a", ""):
        got = cache.bounds(text)
        assert got.dtype == np.int64 and got.tolist() == grapheme_bounds(text)


def test_a_long_text_gives_its_freed_memory_back_and_a_short_one_does_not(gpt2, monkeypatch):
    calls = []
    monkeypatch.setattr(view_module, "release_freed_memory", lambda: calls.append(1))
    monkeypatch.setattr(view_module, "TRIM_CHARS", 40)
    alignment_view("short text", gpt2)
    assert calls == []
    alignment_view("a text of more than forty code points, long enough", gpt2)
    assert calls == [1]
