"""Characters no installed font draws are found, and named once per script."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from PySide6.QtGui import QFont

from app.widgets.font_coverage import font_notes, missing_characters, notes_for
from app.widgets.span_text_view import SpanTextView
from tests.app.widgets.glyphs import SAMPLES

pytestmark = pytest.mark.fonts

NO_FONT = "\U0010FFFD"  # plane 16 private use: no font has it


def test_a_code_point_no_font_has_is_missing(qapp):
    font = QFont()
    assert missing_characters("abc" + NO_FONT + "\u0378", font) == ["\u0378", NO_FONT]  # + unassigned
    assert missing_characters("abc ,\u200d\n", font) == []  # spaces and joiners draw no glyph
    assert font_notes("x " + NO_FONT + NO_FONT, font) == ["no font for U+10FFFD: shown as boxes"]


def test_notes_name_the_script_and_the_package_once():
    assert notes_for(["ሀ", "ለ", "ሐ"]) == [
        "no font for Ethiopic: characters show as boxes — install a Noto font (fonts-noto-core)"]
    assert notes_for(["漢", "ᐁ"]) == [
        "no font for Han: characters show as boxes — install a Noto font (fonts-noto-cjk)",
        "no font for Canadian Aboriginal: characters show as boxes — install a Noto font (fonts-noto-core)"]


def test_span_view_keeps_its_font_notes_across_edits(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    view.set_content("hello world", [(0, 5)])
    assert view.font_notes() == []
    view.set_content("hello " + NO_FONT + " world", [(0, 5)])  # a small edit: only it is checked
    assert view.font_notes() == ["no font for U+10FFFD: shown as boxes"]
    view.set_content("hello  world", [(0, 5)])
    assert view.font_notes() == []
    view.set_content(NO_FONT * 3000, [])  # a reset checks everything
    assert view.font_notes() == ["no font for U+10FFFD: shown as boxes"]


def _fontconfig_has(lang: str) -> bool:
    """fontconfig's own answer (an oracle independent of Qt): a font for ``lang`` exists."""
    found = subprocess.run(["fc-list", f":lang={lang}", "family"], capture_output=True, text=True)
    return bool(found.stdout.strip())


@pytest.mark.skipif(shutil.which("fc-list") is None, reason="fontconfig's fc-list is not installed")
def test_a_script_qt_draws_with_its_box_engine_is_reported(qapp):
    """With no font for a script at all, Qt draws it with a box engine whose glyphs are not
    glyph 0: those characters are missing too (they used to go unreported)."""
    expected = [] if _fontconfig_has("hi") else [
        "no font for Devanagari: characters show as boxes — install a Noto font (fonts-noto-core)"]
    assert font_notes(SAMPLES["devanagari"], QFont()) == expected
