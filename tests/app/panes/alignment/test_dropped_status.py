"""A tokenizer that drops every character (no unknown token) says so in the status line."""

from __future__ import annotations

import json

from app.panes.alignment import AlignmentPane
from core.tokenizers import load


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
