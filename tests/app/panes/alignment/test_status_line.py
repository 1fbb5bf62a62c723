"""What the Alignment pane's status line (and banner) say about the text shown:

- a tokenizer that drops every character (no unknown token) says so;
- a script no installed font draws is named once;
- a lone surrogate the tokenizer's format refuses shows why in the banner, and the status
  line does not claim characters were dropped.
"""

from __future__ import annotations

import json

import pytest

from app.panes.alignment import AlignmentPane
from core.data import builtin_tokenizer
from core.tokenizers import load
from tests.app.panes.alignment.support import tokenize_with
from tests.core.tokenizers.loaded import shared_tokenizer


def test_a_tokenizer_that_drops_everything_is_named_in_the_status(new_pane, qtbot, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps({"model": {"type": "BPE", "vocab": {}, "merges": []}}))
    pane = new_pane(AlignmentPane)
    pane.set_tokenizer(load(path), "empty")
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=10_000):
        pane.set_text("Zoé नमस्ते 👍")
    assert "dropped every character" in pane.w.status.text()
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=10_000):
        pane.set_text("   ")
    assert "dropped" not in pane.w.status.text()  # blank text: nothing to drop


@pytest.mark.parametrize("mode", ["tokenize", "labels", "align"])
def test_a_text_too_long_to_tokenize_is_not_said_to_be_dropped(new_pane, qtbot, monkeypatch, mode):
    import core.align.view

    monkeypatch.setattr(core.align.view, "MAX_CHARS", 5000)  # the 1,000,000 cap, scaled down
    pane = new_pane(AlignmentPane)
    pane.set_tokenizer(load(builtin_tokenizer()), "BERT")
    pane.w.mode.setCurrentIndex(pane.w.mode.findData(mode))
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=10_000):
        pane.set_text("word " * 2000)
    assert pane.result.mode == mode and pane.result.tokens == []
    status = pane.w.status.text()
    assert "dropped" not in status and "no token at all" not in status
    done = "not aligned" if mode == "align" else "not tokenized"
    assert f"{done}: The text has 10,000 characters" in status, status
    assert "at most 5,000" in pane.w.banner.text()


def test_a_line_too_long_to_tokenize_gives_the_notice_not_an_error(new_pane, qtbot, monkeypatch):
    """One unbroken line over the cap (a 1,000,001-character hex line, scaled down): the
    span views' long-run breaks are not laid over the empty tables of a text nothing ran on
    (it raised IndexError in the worker: "Could not tokenize this text")."""
    import core.align.view

    monkeypatch.setattr(core.align.view, "MAX_CHARS", 5000)
    pane = new_pane(AlignmentPane)
    pane.set_tokenizer(load(builtin_tokenizer()), "BERT")
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=10_000):
        pane.set_text("0123456789abcdef" * 700)
    assert pane.result.tokens == [] and pane.result.text == "0123456789abcdef" * 700
    assert "at most 5,000" in pane.w.banner.text(), pane.w.banner.text()
    assert "not tokenized: The text has 11,200 characters; at most 5,000 are tokenized here ·" \
        in pane.w.status.text()  # the whole sentence, with the limit


def test_a_tokenizer_that_fails_is_not_said_to_drop_everything(new_pane, qtbot):
    from core.errors import SubwordScopeError

    class Failing:
        def encode(self, text, **options):
            raise SubwordScopeError("this tokenizer cannot encode anything")

    pane = new_pane(AlignmentPane)
    pane.set_tokenizer(Failing(), "failing")
    pane.w.mode.setCurrentIndex(pane.w.mode.findData("tokenize"))
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=10_000):
        pane.set_text("Zoé")
    assert "dropped" not in pane.w.status.text()
    assert "not tokenized: the banner above says why" in pane.w.status.text()
    assert "cannot encode anything" in pane.w.banner.text()


pytestmark = pytest.mark.fonts  # also run with the Noto fonts hidden (.ci/run)


def test_status_names_characters_without_a_font_once(new_pane, qtbot):
    pane = new_pane(AlignmentPane)
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("zoe \U0010FFFD and \U0010FFFD again")
    status = pane.w.status.text()
    assert status.count("no font for U+10FFFD: shown as boxes") == 1
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("zoe flew")
    assert "no font" not in pane.w.status.text()


def test_a_refused_surrogate_is_explained_and_the_pane_recovers(qtbot, pane, data_dir):
    tok = shared_tokenizer(data_dir, "gpt2/tokenizer.json")
    tokenize_with(qtbot, pane, tok, "gpt2", "a\ud800b")
    assert pane.result.tokens == [] and pane.result.text == "a\ud800b"
    banner = pane.w.banner
    assert banner.isVisible() and "lone surrogate U+D800 at code point 1" in banner.text()
    status = pane.w.status.text()
    assert status.startswith("3 code points · 0 tokens") and "dropped" not in status
    with qtbot.waitSignal(pane.sig_encoding_changed):
        pane.set_text("ab")
    assert pane.result.tokens == ["ab"] and not banner.isVisible()
