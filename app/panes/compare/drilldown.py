"""Drill-down: one corpus line, every tokenizer's tokens aligned on the original text.

Each tokenizer gets one row of the original line, cut at the union of all tokenizers' token
boundaries (original code-point offsets) so columns line up in a monospace font: ``│`` marks
a boundary the row has (red where not every tokenizer has it — computed by
:func:`core.align.span_diff.differing_boundaries`), a blank keeps the column when it has none.
Tokens alternate two background colours; a character claimed by several tokens (byte-level
pieces) is orange; a character in no token (dropped whitespace, a stripped accent) is grey.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QSignalBlocker, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QTextBrowser, QVBoxLayout, QWidget

from app.widgets.text_format import plural
from core.metrics.per_encoding import content_tokens, coverage
from core.align.span_diff import boundaries, differing_boundaries

SHADES = ("#dbe9f6", "#fde7c7")
SHARED, OUTSIDE, DIFF, SAME = "#ffb74d", "#9e9e9e", "#d62728", "#9e9e9e"


@dataclass(frozen=True)
class DrillRow:
    """One tokenizer's encoding of the line (content tokens only)."""

    label: str
    tokens: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]
    boundaries: frozenset[int]
    error: str = ""


def drill_rows(line: str, labelled: list[tuple[str, Any]]) -> tuple[list[DrillRow], frozenset[int]]:
    """Encode ``line`` with every ``(label, tokenizer)``; rows and the differing boundaries.

    A tokenizer that raises gets a row with ``error`` set (and takes no part in the diff).
    """
    rows = []
    for label, tok in labelled:
        try:
            tokens, offsets = content_tokens(tok.encode(line))
        except ValueError as exc:
            rows.append(DrillRow(label, (), (), frozenset(), str(exc)))
            continue
        spans = tuple((int(s), int(e)) for s, e in offsets)
        rows.append(DrillRow(label, tuple(tokens), spans, boundaries(spans)))
    ok = [r.offsets for r in rows if not r.error]
    return rows, differing_boundaries(ok)


def _char_colours(row: DrillRow, n: int) -> list[str]:
    colours = [OUTSIDE] * n
    for k, (s, e) in enumerate(row.offsets):
        for i in range(s, e):
            colours[i] = SHADES[k % 2]
    cover = coverage(np.asarray(row.offsets, dtype=np.int64).reshape(-1, 2), n)
    return [SHARED if c > 1 else col for c, col in zip(cover, colours)]


def render_row(line: str, row: DrillRow, cuts: list[int], differing: frozenset[int]) -> str:
    """HTML of one aligned row (``cuts`` = sorted union of all boundaries, 0 and len(line))."""
    colours = _char_colours(row, len(line))
    out = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        out.append(_marker(a, row, differing))
        for i in range(a, b):
            ch = line[i]
            shown = "\u00b7" if ch == " " else html.escape(ch)
            style = f"color:{OUTSIDE}" if colours[i] == OUTSIDE else f"background:{colours[i]}"
            out.append(f'<span style="{style}">{shown}</span>')
    out.append(_marker(cuts[-1], row, differing) if cuts else "")
    return "".join(out)


def _marker(pos: int, row: DrillRow, differing: frozenset[int]) -> str:
    if pos not in row.boundaries:
        return "&nbsp;"
    colour = DIFF if pos in differing else SAME
    return f'<b style="color:{colour}">\u2502</b>'


def render_html(line: str, rows: list[DrillRow], differing: frozenset[int]) -> str:
    """The whole drill-down as HTML: aligned rows, then each tokenizer's token list."""
    cuts = sorted(set().union(*(r.boundaries for r in rows), {0, len(line)}))
    width = max((len(r.label) for r in rows), default=0) + 2
    lines = []
    for r in rows:
        name = html.escape(r.label.ljust(width)).replace(" ", "&nbsp;")
        body = f'<span style="color:{DIFF}">{html.escape(r.error)}</span>' if r.error else render_row(line, r, cuts, differing)
        lines.append(f"<b>{name}</b>{body}")
    differ = plural(len(differing), "boundary differs", "boundaries differ")
    legend = (f'<p style="font-family:sans-serif">{differ} between tokenizers '
              f'(<b style="color:{DIFF}">\u2502</b>); <b style="color:{SAME}">\u2502</b> shared; '
              f'<span style="background:{SHARED}">orange</span> = a character split over several tokens; '
              f'<span style="color:{OUTSIDE}">grey</span> = in no token.</p>')
    tokens = "".join(
        f"<p><b>{html.escape(r.label)}</b> ({plural(len(r.tokens), 'token')}): "
        + " ".join(f'<span style="background:{SHADES[k % 2]}">{html.escape(t)}</span>' for k, t in enumerate(r.tokens))
        + "</p>"
        for r in rows if not r.error
    )
    return f'{legend}<pre style="white-space:pre">{"<br>".join(lines)}</pre>{tokens}'


class DrillDownView(QTextBrowser):
    """Shows :func:`render_html`; keeps the rows it shows in :attr:`rows`/:attr:`differing`."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
        self.setToolTip("Every tokenizer's tokens of this line, aligned on the original text; "
                        "red bars are boundaries that not all tokenizers have")
        self.rows: list[DrillRow] = []
        self.differing: frozenset[int] = frozenset()
        self.line = ""

    def show_line(self, line: str, labelled: list[tuple[str, Any]]) -> None:
        self.line = line
        self.rows, self.differing = drill_rows(line, labelled)
        self.setHtml(render_html(line, self.rows, self.differing))

    def clear_rows(self, message: str) -> None:
        self.rows, self.differing, self.line = [], frozenset(), ""
        self.setHtml(f"<p>{html.escape(message)}</p>")


class DrillTab(QWidget):
    """Language and line pickers above a :class:`DrillDownView` (encodes after a debounce).

    Encoding one line with each tokenizer takes milliseconds, so it runs on the GUI thread
    after a short restarting single-shot timer rather than in the pane's worker (whose one
    task is the corpus-wide table).
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.corpus: dict[str, Any] = {}
        self.labelled: list[tuple[str, Any]] = []
        self.language = QComboBox()
        self.language.setToolTip("Language of the line to inspect")
        self.line = QSpinBox(minimum=1, maximum=1)
        self.line.setToolTip("Line (paragraph) of the corpus file")
        self.view = DrillDownView()
        self._timer = QTimer(self, singleShot=True, interval=120)
        self._timer.timeout.connect(self.render_now)
        self.language.currentIndexChanged.connect(self._on_language_changed)
        self.line.valueChanged.connect(lambda _v: self._timer.start())
        row = QHBoxLayout()
        row.addWidget(QLabel("Language"))
        row.addWidget(self.language, 1)
        row.addWidget(QLabel("Line"))
        row.addWidget(self.line)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.view, 1)

    def set_result(self, corpus, labelled: list[tuple[str, Any]], items: list[tuple[str, str]], current: str) -> None:
        """New corpus files (``CorpusFile``), ``(label, tokenizer)`` pairs and language items."""
        self.corpus = {f.code: f for f in corpus}
        self.labelled = list(labelled)
        keep = self.language.currentData() or current
        with QSignalBlocker(self.language):
            self.language.clear()
            for text, data in items:
                self.language.addItem(text, data)
            self.language.setCurrentIndex(max(0, self.language.findData(keep)))
        self._update_line_range()
        self._timer.start(0)

    def select(self, code: str, line: int | None = None) -> None:
        """Show language ``code`` (and 1-based ``line`` when given)."""
        i = self.language.findData(code)
        if i >= 0:
            with QSignalBlocker(self.language):
                self.language.setCurrentIndex(i)
            self._update_line_range()
        if line is not None:
            with QSignalBlocker(self.line):
                self.line.setValue(line)
        self._timer.start()

    def _update_line_range(self) -> None:
        f = self.corpus.get(self.language.currentData())
        with QSignalBlocker(self.line):
            self.line.setMaximum(max(1, len(f.lines) if f else 1))

    def _on_language_changed(self, _index: int) -> None:
        self._update_line_range()
        with QSignalBlocker(self.line):
            self.line.setValue(1)
        self._timer.start()

    def render_now(self) -> None:
        f = self.corpus.get(self.language.currentData())
        if f is None or not f.lines:
            self.view.clear_rows("Choose a language with text.")
            return
        self.view.show_line(f.lines[min(self.line.value(), len(f.lines)) - 1], self.labelled)
