"""The alignment pane's Qt-free state: the grapheme bounds kept per pane, what the worker
prepares for drawing (the computation itself, core.align.view, is tested in
tests/core/align/test_view.py)."""

from __future__ import annotations

from app.panes.alignment.state import CHARS_AHEAD, AlignmentState, Request, compute, prepare
from core.text.graphemes import GraphemeBounds, grapheme_bounds
from core.tokenizers import demo_tokenizer
from tests.app.panes.alignment.support import FULL


def test_requests_carry_the_pane_s_grapheme_bounds():
    """The pane hands its own bounds to every request (no module-level cache): reusing them
    across edits gives what fresh bounds give."""
    tok, bounds = demo_tokenizer(), GraphemeBounds()
    texts = [FULL, FULL + " e\u0301", "\U0001F469\u200d\U0001F469\u200d\U0001F467 " + FULL, FULL[5:]]
    for text in texts:
        state = AlignmentState(text=text, mode="tokenize")
        reused, fresh = compute(Request(state, tok, True, bounds)), compute(Request(state, tok, True))
        assert reused.tables.grapheme_start.tolist() == fresh.tables.grapheme_start.tolist()
        assert reused.audit.cuts_grapheme.tolist() == fresh.audit.cuts_grapheme.tolist()
    assert bounds.bounds(texts[-1]).tolist() == grapheme_bounds(texts[-1])
    assert Request(AlignmentState(), tok).graphemes is not Request(AlignmentState(), tok).graphemes


def test_the_worker_finds_the_distinct_characters_only_of_a_long_text():
    """A span view reads them only when it resets its document; a keystroke's worker skips
    them for a short text (the view finds them itself), a long one gets them ahead."""
    tok = demo_tokenizer()
    short = prepare(Request(AlignmentState(text="Zoe\u0301 flew", mode="tokenize"), tok))
    assert short.chars is None and short.norm_chars is None
    text = "Zoe\u0301 flew \u0130stanbul " * (CHARS_AHEAD // 10)
    long = prepare(Request(AlignmentState(text=text, mode="tokenize"), tok))
    assert len(long.view.text) >= CHARS_AHEAD
    assert long.chars == frozenset(long.view.text) and long.norm_chars == frozenset(long.view.normalized.text)
