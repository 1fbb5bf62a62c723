"""The alignment status line says once per script when no installed font draws the text."""

from __future__ import annotations

import pytest

from app.panes.alignment import AlignmentPane

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
