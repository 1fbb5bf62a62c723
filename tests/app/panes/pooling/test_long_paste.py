"""A pasted text far longer than the model reads: what the pane draws and allocates is bounded
by the encoder's maximum length (and the document limit), and the pane says what it cut."""

from __future__ import annotations

import pytest

from app.panes.pooling import PoolingPane
from tests.app.panes.pooling.test_pane import standin_settings
from app.panes.pooling.state import (MAX_DOCUMENT_TOKENS, MAX_SHOWN_CHARS, WINDOW_IMAGE_MAX,
                                     PoolingState, compute)

UNIT = "hello wörld नमस्ते "


def _final(text):
    return [r for _, r in compute(PoolingState(text=text))][-1]


def test_a_200k_paste_draws_what_the_maximum_length_draws():
    at_max, long = _final(UNIT * 200), _final(UNIT * 11000)  # 1,200 words ≥ 512 tokens already
    assert long.output.last_hidden_state.shape == at_max.output.last_hidden_state.shape
    assert long.output.last_hidden_state.shape[1] == 512
    assert long.window_image.image.shape == _final(UNIT * 1000).window_image.image.shape
    rows, cols = long.window_image.image.shape
    assert rows <= WINDOW_IMAGE_MAX[0] and cols <= WINDOW_IMAGE_MAX[1]
    assert len(long.document.tokens) <= MAX_DOCUMENT_TOKENS
    assert len(long.texts[0]) <= MAX_SHOWN_CHARS and len(long.document.text) <= MAX_SHOWN_CHARS
    assert long.cover.shape == (len(long.document.text),)
    assert any("first 512 tokens of" in n and "the model reads at most 512" in n for n in long.notices)
    assert any(n.startswith("Chunking: first") for n in long.notices)
    assert _final("hello world").notices == ()


def test_one_huge_token_is_cut_to_the_shown_characters():
    r = _final("x" * 300_000)
    assert len(r.texts[0]) == MAX_SHOWN_CHARS and len(r.document.text) <= MAX_SHOWN_CHARS


@pytest.mark.parametrize("repeat", [11000, 55000])
def test_the_pane_shows_the_notice_and_bounded_images(qtbot, new_pane, repeat):
    p = new_pane(PoolingPane, settings=standin_settings())
    with qtbot.waitSignal(p.sig_result_changed, timeout=30000):
        p.show()
    with qtbot.waitSignal(p.sig_result_changed, timeout=60000):
        p.text_edit.setPlainText(UNIT * repeat)
    assert not p.notice.isHidden() and "the model reads at most 512" in p.notice.text()
    assert p.tokens_view.strip.image().shape == (32, 512)
    rows, cols = p.chunk_view.windows.image().shape
    assert rows <= WINDOW_IMAGE_MAX[0] and cols <= WINDOW_IMAGE_MAX[1]
    assert len(p.tokens_view.text_view.text()) <= MAX_SHOWN_CHARS
    assert "First 512 tokens of" in p.tokens_view.summary.text()
    with qtbot.waitSignal(p.sig_result_changed, timeout=30000):
        p.text_edit.setPlainText("hello world")
    assert p.notice.isHidden()
