"""What the shaping tests compare: glyph runs of a layout, the plain text laid out alike,
sample texts in many scripts, and which of them this machine has fonts for.

A machine without the Noto fonts draws Devanagari, Arabic, Thai … with Qt's box engine.
Comparing box glyphs still checks that highlighting changes nothing, but a test that needs
real shaping (a format run that changes the glyphs) skips there, naming the missing font.
The font check runs in a child process, so nothing Qt does without fonts can end the run.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys

from PySide6.QtGui import QTextLayout

from app.widgets.font_coverage import has_font_file

SAMPLES = {
    "devanagari": "क्षत्रिय मानव अधिकारों",
    "arabic": "(د-3) الإعلان العالمي",
    "thai": "ปฏิญญาสากล",
    "hebrew": "כל בני האדם נולדו בני חורין 12",
    "jamo": "\u1100\u1161\u11a8 \u1102\u1165\u11ab",
    "zwj": "👩\u200d👩\u200d👧 family",
    "skin": "👍🏽 ok 👍🏽",
}


def glyph_signature(layout: QTextLayout) -> list:
    """Per line: its text range and every glyph run's font, glyph indexes and positions
    (a run Qt draws as boxes, for want of a font, is named ``"<boxes>"``)."""
    out = []
    for i in range(layout.lineCount()):
        line = layout.lineAt(i)
        runs = [(r.rawFont().familyName() if has_font_file(r) else "<boxes>",
                 list(r.glyphIndexes()),
                 [(round(p.x(), 3), round(p.y(), 3)) for p in r.positions()])
                for r in line.glyphRuns()]
        out.append((line.textStart(), line.textLength(), runs))
    return out


def plain_layout(text: str, like: QTextLayout, formats=()) -> QTextLayout:
    """``text`` laid out on its own with ``like``'s font, options and line geometry (and
    ``formats``: none for the plain text)."""
    layout = QTextLayout(text, like.font())
    layout.setTextOption(like.textOption())
    layout.setFormats(list(formats))
    layout.beginLayout()
    for i in range(like.lineCount()):
        model, line = like.lineAt(i), layout.createLine()
        line.setLeadingIncluded(True)
        line.setLineWidth(model.width())
        line.setPosition(model.position())
    layout.endLayout()
    return layout


def cutting_spans(text: str, step: int) -> list[tuple[int, int]]:
    """Spans of ``step`` code points: most of them cut inside grapheme clusters."""
    return [(i, min(i + step, len(text))) for i in range(0, len(text), step)]


_PROBE = """
import json, sys
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication
from app.widgets.font_coverage import font_notes
app = QApplication([])
texts = json.loads(sys.stdin.read())
print(json.dumps({t: font_notes(t, QFont()) for t in texts}))
"""


@functools.cache
def _notes(texts: tuple[str, ...]) -> dict[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", _PROBE], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    if done.returncode != 0:
        return {t: [f"the font probe failed (exit {done.returncode})"] for t in texts}
    return json.loads(done.stdout.strip().splitlines()[-1])


def missing_fonts(*texts: str) -> str:
    """Why this machine cannot shape ``texts`` ("no font for Devanagari: … install a Noto
    font (fonts-noto-core)"; several joined with "; "), or "" when every character has a
    font. Asked of a child process once per set of texts."""
    notes = _notes(tuple(sorted(set(SAMPLES.values()) | set(texts))))
    return "; ".join(dict.fromkeys(n for t in texts for n in notes[t]))
