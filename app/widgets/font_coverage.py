"""Which characters of a text no installed font can draw (Qt would show a box), by script.

The check asks Qt what it would draw: the characters are laid out with the view's font and
Qt's font fallback, and a character whose glyph is glyph 0 (the font's "missing glyph"), or
that Qt draws with its box engine (no installed font has the script at all), has no font. Characters the primary font has (``QFontMetrics.inFontUcs4``) are skipped
first; answers are cached per font, so a text is checked once per new character.

:func:`font_notes` turns the missing characters into one status-line note per script
("no font for Ethiopic: characters show as boxes — install a Noto font (fonts-noto-core)").
Script names come from :func:`core.text.scripts.group_by_script`.
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

from PySide6.QtGui import QFont, QFontMetrics, QGlyphRun, QTextLayout

from core.text.scripts import group_by_script, script_label

_RUN_FLAGS = (QTextLayout.GlyphRunRetrievalFlag.RetrieveGlyphIndexes
              | QTextLayout.GlyphRunRetrievalFlag.RetrieveStringIndexes)
_NO_GLYPH = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Cs"})  # drawn as nothing, never as a box
_VAGUE_SCRIPTS = frozenset({"Common", "Inherited", "Unknown"})  # named by code point instead
CJK_SCRIPTS = frozenset({"Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"})
_cache: dict[tuple[str, str], bool] = {}  # (font key, character) -> a font draws it


def missing_characters(chars: Iterable[str], font: QFont) -> list[str]:
    """The characters among ``chars`` (single code points) that no installed font draws
    with ``font`` and Qt's fallback, sorted. O(len(chars)); cached per font and character.
    """
    key = font.key()
    todo = [c for c in dict.fromkeys(chars)
            if (key, c) not in _cache and unicodedata.category(c) not in _NO_GLYPH]
    metrics = QFontMetrics(font)
    unsure = []
    for ch in todo:
        if metrics.inFontUcs4(ord(ch)):
            _cache[key, ch] = True
        else:
            unsure.append(ch)
    if unsure:
        boxes = _drawn_as_boxes(unsure, font)
        _cache.update(((key, ch), ch not in boxes) for ch in unsure)
    return sorted(c for c in dict.fromkeys(chars) if not _cache.get((key, c), True))


def _drawn_as_boxes(chars: list[str], font: QFont) -> set[str]:
    """Which of ``chars`` Qt draws with glyph 0: each laid out after a space, so a lone
    combining mark is measured as such (O(len(chars)))."""
    at, text = {}, []  # UTF-16 position (what glyph runs report) -> character
    units = 0
    for ch in chars:
        at[units + 1] = ch
        text.append(" " + ch)
        units += 1 + (2 if ord(ch) > 0xFFFF else 1)
    layout = QTextLayout("".join(text), font)
    layout.beginLayout()
    line = layout.createLine()
    line.setLineWidth(1e7)
    layout.endLayout()
    boxes = set()
    for run in layout.glyphRuns(-1, -1, _RUN_FLAGS):
        no_font = not has_font_file(run)  # Qt's box engine: every glyph of the run is a box
        for glyph, index in zip(run.glyphIndexes(), run.stringIndexes()):
            if (no_font or glyph == 0) and index in at:
                boxes.add(at[index])
    return boxes


def has_font_file(run: QGlyphRun) -> bool:
    """True if ``run`` is drawn with a real font, False where no installed font has its
    script and Qt draws boxes with its fallback "box" engine. That engine gives glyph
    indexes that are not 0 (so a glyph-0 test misses it) and a raw font with no font
    tables; asking it for its family name crashes Qt 6, so the ``head`` table (every
    TrueType/OpenType font has one) is what is checked."""
    return bool(run.rawFont().fontTable("head"))


def font_package(script: str) -> str:
    """The Debian/Ubuntu package with a Noto font for ``script``."""
    return "fonts-noto-cjk" if script in CJK_SCRIPTS else "fonts-noto-core"


def font_notes(text: str, font: QFont, chars: Iterable[str] | None = None) -> list[str]:
    """One note per script of ``text`` that no installed font covers (empty when all are
    drawn), e.g. ``"no font for Ethiopic: characters show as boxes — install a Noto font
    (fonts-noto-core)"``; characters of no particular script are named by code point.
    ``chars``: the distinct characters when the caller already has them (else
    ``set(text)``). O(len(text)) for the set, then cached per character."""
    missing = missing_characters(set(text) if chars is None else chars, font)
    return notes_for(missing)


def notes_for(missing: Iterable[str]) -> list[str]:
    """The notes of :func:`font_notes` for characters already known to have no font."""
    notes = []
    for script, chars in group_by_script(missing).items():
        if script in _VAGUE_SCRIPTS:
            shown = ", ".join(f"U+{ord(c):04X}" for c in chars[:5]) + (" …" if len(chars) > 5 else "")
            notes.append(f"no font for {shown}: shown as boxes")
        else:
            notes.append(f"no font for {script_label(script)}: characters show as boxes — "
                         f"install a Noto font ({font_package(script)})")
    return notes
