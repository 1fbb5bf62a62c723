"""The Alignment pane's Decoded view: decode(encode(text)) with the differences marked in both
texts, computed on a worker after the pane's result, only while unfolded."""

from __future__ import annotations

import pytest

from app.panes.alignment import decoded as decoded_module
from app.panes.alignment.decoded import CAUSE_COLOURS, STALE, cause_key, widened
from app.widgets.span_segments import entity_colour
from core.align.round_trip import Cause, round_trip_of
from core.tokenizers import load
from tests.app.panes.alignment.support import hover, set_mode, tokenize_with

TEXT = "Zoé 👍🏽 ok"


@pytest.fixture
def bert(data_dir):
    return load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")


def shown(qtbot, pane, trigger, text=None):
    """The Decoded view's next result (of ``text`` when given) after ``trigger()``."""
    def fits(result):
        return text is None or result.round_trip.original == text
    with qtbot.waitSignal(pane.w.decoded.sig_shown, timeout=20_000, check_params_cb=fits) as blocker:
        trigger()
    return blocker.args[0]


def test_bert_round_trip_is_drawn_in_both_views(qtbot, pane, bert):
    result = shown(qtbot, pane, lambda: tokenize_with(qtbot, pane, bert, "bert", TEXT), TEXT)
    view = pane.w.decoded
    rt = result.round_trip
    assert rt == round_trip_of(bert, TEXT)  # the pane's ids, decoded: what core computes from scratch
    assert rt.decoded == "zoe ok" and view.decoded.text() == rt.decoded and view.original.text() == TEXT
    assert [(d.original_text, d.causes) for d in rt.differences] == [
        ("Z", (Cause.LOST_CASE,)), ("é", (Cause.LOST_ACCENT,)), ("👍🏽", (Cause.UNKNOWN,)),
        (" ", (Cause.COLLAPSED_WHITESPACE,))]
    assert view.summary.text() == rt.summary() == (
        "1 lost accent, 1 lost case, 1 unknown, 1 collapsed whitespace, share 44.4 % unchanged")
    assert view.original.drawn_spans() == [(0, 1), (2, 3), (4, 6), (6, 7)]
    assert view.original.drawn_unknown() == [False, False, True, False]
    assert view.original.unknown_count() == 1
    assert [entity_colour(k) for *_, k in view.original.drawn_entities()] == [
        CAUSE_COLOURS[d.causes[0]] for d in rt.differences]


def test_hovering_a_difference_names_its_cause_and_links_both_views(qtbot, pane, bert):
    shown(qtbot, pane, lambda: tokenize_with(qtbot, pane, bert, "bert", TEXT), TEXT)
    view = pane.w.decoded
    qtbot.waitUntil(lambda: not view.original.filling)
    hover(view.original, 2)  # é
    assert view.detail.text() == "'é' → 'e': lost accent (by the normalizer)"
    assert view.original.linked_spans() == [(2, 3)] and view.decoded.linked_spans() == [(2, 3)]
    assert view.difference_at(1) == -1 and view.difference_at(0, decoded=True) == 0
    hover(view.original, 1)  # "o" came back: nothing linked
    assert view.original.linked_spans() == [] and view.decoded.linked_spans() == []


def test_folded_view_computes_nothing_until_unfolded(qtbot, pane, bert):
    shown(qtbot, pane, lambda: tokenize_with(qtbot, pane, bert, "bert", TEXT), TEXT)
    view = pane.w.decoded
    view.set_expanded(False)
    assert not pane.state.decoded_view and not view.body.isVisible()
    with qtbot.assertNotEmitted(view.sig_shown, wait=600):
        with qtbot.waitSignal(pane.sig_encoding_changed):
            pane.set_text("Éte ok")
    result = shown(qtbot, pane, lambda: view.set_expanded(True), "Éte ok")
    assert result.round_trip.original == "Éte ok" and pane.state.decoded_view


def test_gpt2_comes_back_exactly(qtbot, pane, data_dir):
    gpt2 = load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    text = "नमस्ते 👩\u200d👩\u200d👧 مرحبا"
    result = shown(qtbot, pane, lambda: tokenize_with(qtbot, pane, gpt2, "gpt2", text), text)
    assert result.round_trip.exact and pane.w.decoded.summary.text() == "comes back exactly, share 100 % unchanged"
    assert pane.w.decoded.original.drawn_spans() == []


def test_an_edit_greys_the_round_trip_of_the_old_text_until_the_new_one_is_shown(qtbot, pane, data_dir):
    gpt2 = load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    shown(qtbot, pane, lambda: tokenize_with(qtbot, pane, gpt2, "gpt2", "first text"), "first text")
    view = pane.w.decoded
    assert view.body.isEnabled() and not view.summary.text().startswith(STALE)
    pane.w.editor.setPlainText("a pasted text")  # the old comparison is out of date at once
    assert not view.body.isEnabled() and view.summary.text().startswith(STALE)
    result = shown(qtbot, pane, lambda: None, "a pasted text")
    assert view.body.isEnabled() and view.decoded.text() == result.round_trip.decoded == "a pasted text"
    assert not view.summary.text().startswith(STALE)


def test_a_chat_prompt_keeps_its_special_tokens(qtbot, pane, data_dir):
    """Llama 3 is lossless: a prompt with its own special tokens comes back whole (they
    used to be dropped and the rest misaligned: "3.5 % unchanged")."""
    llama = load(data_dir / "tokenizers" / "llama-3" / "tokenizer.json")
    text = ("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nनमस्ते مرحبا สวัสดี"
            " 👩\u200d👩\u200d👧<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n")
    result = shown(qtbot, pane, lambda: tokenize_with(qtbot, pane, llama, "llama-3", text), text)
    assert result.round_trip.exact and result.round_trip.special_tokens_kept == 6
    assert pane.w.decoded.summary.text() == "comes back exactly, share 100 % unchanged, 6 special tokens kept"


def test_align_mode_has_no_ids_to_decode(qtbot, pane):
    set_mode(qtbot, pane, "align")
    qtbot.waitUntil(lambda: "no ids to decode" in pane.w.decoded.summary.text())
    assert pane.w.decoded.result is None and pane.w.decoded.decoded.text() == ""


def test_long_text_waits_for_compute(qtbot, pane, bert, monkeypatch):
    monkeypatch.setattr(decoded_module, "AUTO_CHARS", 10)
    view = pane.w.decoded
    with qtbot.assertNotEmitted(view.sig_shown, wait=600):
        tokenize_with(qtbot, pane, bert, "bert", "A longer text than ten")
    assert view.compute.isVisibleTo(view) and "press Compute" in view.summary.text()
    result = shown(qtbot, pane, view.compute.click)
    assert result.round_trip.counts() == {Cause.LOST_CASE: 1} and not view.compute.isVisibleTo(view)


def test_widened_spans_cover_whole_clusters():
    text = "सारवभौम e\u0301"
    assert widened([(1, 2), (4, 5), (9, 10), (3, 3)], text) == [(0, 2), (4, 6), (8, 10), (3, 3)]
    assert cause_key(Cause.ADDED_WHITESPACE) == cause_key(Cause.COLLAPSED_WHITESPACE)
    assert len({cause_key(c) for c in Cause}) == 6
