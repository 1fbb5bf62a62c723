"""A lone surrogate that the tokenizer's format refuses: the pane shows why in its banner,
its status line does not claim characters were dropped, and the next text tokenizes."""

from __future__ import annotations

from tests.app.panes.alignment.support import tokenize_with
from tests.core.tokenizers.loaded import shared_tokenizer


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
