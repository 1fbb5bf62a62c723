"""core.align.view: everything the alignment pane shows, in one call, checked against the
scalar definitions in core (align, entities, audit, offsets, graphemes)."""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from core.align import align
from core.align.modes import MAX_CHARS
from core.align.view import AlignRequest, Mismatch, alignment_view, audit_spans, normalized_spans
from core.entities import Entity
from core.text.graphemes import GraphemeBounds, grapheme_bounds
from core.text.normalize import normalize
from core.text.offsets import offset_tables
from core.tokenizers import demo_tokenizer
from core.tokenizers.formats.hf_json import build_tokenizer_json
from tests.core.align.test_cursor import FULL, FULL_SPANS, FULL_TOKENS
from tests.core.strategies import any_text
from tests.core.tokenizers.small_docs import unigram_doc

TEACHING = dict(form="NFKD", strip_accents=True, lowercase=True, collapse_whitespace=True)
LABELS = "B-PER O O B-LOC O O B-ORG O O O"
DEMO = AlignRequest(normalizer_options=TEACHING, tokenizer_is_demo=True)  # the teaching tokenizer's request


def aligning(tokens_text: str) -> AlignRequest:
    """Align mode of the pasted ``tokens_text``, with the teaching normalizer."""
    return AlignRequest(mode="align", tokens_text=tokens_text, normalizer_options=TEACHING)


def test_labels_mode_gives_the_spec_3_entities_with_every_table():
    view = alignment_view(FULL, demo_tokenizer(), replace(DEMO, mode="labels", labels_text=LABELS))
    assert view.error is None and view.tokens == FULL_TOKENS and view.spans == FULL_SPANS
    assert view.entities == [Entity("Zo\u0065\u0301", "PER", 0, 4), Entity("\u0130stanbul", "LOC", 14, 22),
                             Entity("Nvidia", "ORG", 30, 36)]
    utf16, utf8 = offset_tables(FULL)
    assert list(view.tables.utf16) == utf16 and list(view.tables.utf8) == utf8
    assert view.tables.grapheme_start.nonzero()[0].tolist() == grapheme_bounds(FULL)
    assert view.layer.norm_spans == [view.normalized.to_normalized(*sp) for sp in view.spans]
    assert view.layer.cover.tolist() == [sum(1 for s, e in FULL_SPANS if s <= i < e) for i in range(len(FULL))]
    assert view.tokens_at(15) == [3] and view.tokens_in(30, 34) == [6, 7]


def test_align_mode_keeps_the_spans_that_fit_and_locates_the_mismatch():
    view = alignment_view(FULL, request=aligning("zoe flew from"))
    assert view.spans == [(0, 4), (5, 9), None]
    assert view.mismatch == Mismatch(position=11, token=2)
    assert "does not fit the text (WordPiece tokens)" in view.error
    ok = alignment_view(FULL, request=aligning(" ".join(FULL_TOKENS)))
    assert ok.error is None and ok.spans == align(FULL, FULL_TOKENS) and ok.aligned.scheme == "wordpiece"


def test_wrong_label_count_and_bad_json_are_messages_not_errors():
    tok = demo_tokenizer()
    few = alignment_view(FULL, tok, replace(DEMO, mode="labels", labels_text="O O"))
    assert few.error == ("2 labels for 10 tokens: give exactly one BIO label per token (B-X, I-X or O).")
    assert few.tokens == FULL_TOKENS  # the tokens are still shown
    bad = alignment_view(FULL, request=aligning('["zoe", 3]'))
    assert bad.error == "Token list: the JSON tokens must be a list of strings"


def test_token_and_label_lists_nested_thousands_deep_are_messages_not_errors():
    deep = "[" * 3000 + "]" * 3000
    tokens = alignment_view(FULL, request=aligning(deep))
    assert tokens.error == ("Token list: the JSON tokens are nested too deep; paste a flat list "
                            "of strings")
    labels = alignment_view(FULL, demo_tokenizer(), replace(DEMO, mode="labels", labels_text=deep))
    assert "nested too deep" in labels.error and labels.tokens == FULL_TOKENS


def test_empty_and_oversized_text_give_a_notice_and_no_tokens():
    assert alignment_view("  \n", demo_tokenizer()).notice.startswith("The text is empty")
    huge = "a" * (MAX_CHARS + 1)
    view = alignment_view(huge, demo_tokenizer())
    assert view.tokens == [] and f"{MAX_CHARS:,}" in view.notice and view.text is huge


def test_a_lone_surrogate_is_tokenized_not_raised():
    view = alignment_view("a\ud800b", demo_tokenizer(), DEMO)
    assert view.error is None and list(view.tables.utf8) == [0, 1, 4, 5] and list(view.tables.utf16) == [0, 1, 2, 3]


def test_a_kept_grapheme_cache_gives_the_same_view_as_a_fresh_one():
    cache = GraphemeBounds()
    for text in ("👩\u200d💻 ok", "👩\u200d💻 okay", "x👩\u200d💻 okay"):
        kept = alignment_view(text, demo_tokenizer(), graphemes=cache)
        fresh = alignment_view(text, demo_tokenizer())
        assert kept.tables.grapheme_start.tolist() == fresh.tables.grapheme_start.tolist()
        assert kept.audit.cuts_grapheme.tolist() == fresh.audit.cuts_grapheme.tolist()


# -- the vectorized helpers against core's scalar definitions ---------------------------
@settings(max_examples=150, deadline=None)
@given(text=any_text, data=st.data())
def test_normalized_spans_equal_to_normalized(text, data):
    nt = normalize(text)
    n = len(text)
    spans = data.draw(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, n), st.integers(0, n)).map(
        lambda t: (min(t), max(t)))), max_size=8))
    assert normalized_spans(nt, spans) == [nt.to_normalized(*sp) if sp else None for sp in spans]
    counted = audit_spans(text, spans, None, None).cover  # the tokens before the first None
    k = spans.index(None) if None in spans else len(spans)
    assert counted.tolist() == [sum(1 for sp in spans[:k] if sp[0] <= i < sp[1]) for i in range(n)]


def test_unknown_tokens_and_derived_spans_reach_the_view():
    tok = build_tokenizer_json(unigram_doc(byte_fallback=False), "unigram", "unigram")
    view = alignment_view("ab \u00e7\u00e9 ba x", tok)
    assert view.tokens == ["\u2581", "ab", "\u2581", "\u00e7\u00e9", "\u2581", "b", "a", "\u2581", "x"]
    assert view.rows.unknown == [False, False, False, True, False, False, False, False, True]
    assert view.marked == view.rows.unknown and view.rows.byte_fallback == [False] * 9
    assert view.unknown_summary == (2, 3, 0, 0)
    assert view.misleading == 1 and view.audit.tokens[0].derived_span == (0, 0)
    shown = view.derived_view
    assert shown.spans[0] == (0, 0) and shown.spans[1:] == view.spans[1:]
    assert shown.layer.norm_spans[0] == (0, 0) and shown.layer.cover.tolist()[0] == 1 and view.layer.cover.tolist()[0] == 2


def test_derived_normalized_spans_read_the_true_map(data_dir):
    """Pegasus' charsmap drops U+0001 and the reference shifts every later character onto
    the one before; the derived spans' normalized spans come from the true map."""
    pegasus = json.loads((data_dir / "tokenizers/pegasus-unigram/tokenizer.json").read_text("utf-8"))
    doc = dict(unigram_doc(byte_fallback=False), normalizer=pegasus["normalizer"]["normalizers"][0])
    view = alignment_view("\x01a b", build_tokenizer_json(doc, "unigram", "unigram"))
    assert view.tokens == ["\u2581", "a", "\u2581", "b"]
    assert view.spans == [(0, 1), (0, 1), (1, 2), (2, 3)]  # the reference's
    assert view.rows.derived_spans == [(0, 1), (0, 2), (2, 3), (2, 4)]
    assert view.derived.spans == view.rows.derived_spans
    assert view.derived.norm_spans == [(0, 0), (0, 1), (1, 2), (1, 3)]


def test_a_pasted_list_marks_unk_like_tokens():
    view = alignment_view(FULL, request=aligning(" ".join(FULL_TOKENS)))
    assert view.rows.unknown == [t == "[UNK]" for t in FULL_TOKENS] and view.unknown_summary[:2] == (1, 1)
    assert view.rows.derived_spans is None and view.derived_view is view


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 30), st.integers(0, 30)).map(sorted).map(tuple)),
                max_size=40),
       st.lists(st.booleans(), max_size=45))
def test_covered_counts_the_same_from_a_span_column_as_from_a_list(spans, mask):
    from core.align.view import _covered
    from core.text.columns import SpanArray

    expected = _covered(30, list(spans), mask)
    assert _covered(30, SpanArray.from_pairs(spans), mask) == expected
    assert expected == len({c for sp, on in zip(spans, mask) if on and sp for c in range(*sp)})
