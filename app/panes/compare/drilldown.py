"""Drill-down: one corpus line, every tokenizer's tokens aligned on the original text.

Each tokenizer gets one row holding the original line as plain text — the same text in the
same font, so every row has the same layout and the columns line up in any script — with its
tokens painted behind it (:class:`~app.widgets.span_line_view.SpanLineView`; the glyphs are
those of the plain line, so Hindi, Arabic and emoji sequences stay shaped). A tick above and
below the text marks every boundary the row has, red where not every tokenizer has it
(computed by :func:`core.align.span_diff.differing_boundaries`), grey where all do; magenta
carets mark a boundary inside a grapheme cluster. Tokens alternate two background colours; a character
claimed by several tokens (byte-level pieces) is orange; a character in no token (dropped
whitespace, a stripped accent) is grey; the model's unknown tokens and byte-fallback pieces
are framed in red and hatched.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QSignalBlocker, QTimer
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QTextBrowser, QVBoxLayout, QWidget

from app.widgets.font_coverage import font_notes
from app.widgets.span_line_view import SpanLine, SpanLineView
from app.widgets.span_painter import CUT_COLOUR
from app.widgets.span_segments import SegmentStyle, special_chip
from app.widgets.text_format import plural
from core.align.span_diff import boundaries, differing_boundaries
from core.align.specials import special_ids
from core.metrics.per_encoding import content_tokens, coverage
from core.tokenizers import TokenizerLike

SHADES = ("#dbe9f6", "#fde7c7")
SHARED, OUTSIDE, DIFF, SAME = "#ffb74d", "#e5e7eb", "#d62728", "#9e9e9e"
UNKNOWN = "#dc2626"


@dataclass(frozen=True)
class DrillRow:
    """One tokenizer's encoding of the line (content tokens only); ``unknown[k]``: token k
    is the model's unknown token or a byte-fallback piece."""

    label: str
    tokens: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]
    boundaries: frozenset[int]
    error: str = ""
    unknown: tuple[bool, ...] = ()
    special: tuple[bool, ...] = ()  # token k is a special token written in the line (a chip)


def unknown_mask(encoding: Any, tokenizer: TokenizerLike) -> list[bool]:
    """One bool per token of ``encoding`` (special tokens included): the encoding's own
    ``unknown_mask`` / ``byte_fallback_mask`` when it has them, else ``id == unk id``
    (no ids or no unknown token: all False). O(tokens)."""
    n = len(encoding.tokens)
    masks = [m for m in (getattr(encoding, "unknown_mask", None), getattr(encoding, "byte_fallback_mask", None))
             if m is not None and len(m) == n]
    if masks:
        return [any(bool(v) for v in flags) for flags in zip(*masks)]
    ids, unk = getattr(encoding, "ids", None), getattr(tokenizer, "unk_token", None)
    to_id = getattr(tokenizer, "token_to_id", None)
    unk_id = to_id(unk) if unk and callable(to_id) else None
    if unk_id is None or ids is None or len(ids) != n:
        return [False] * n
    return [i == unk_id for i in ids]


def _content_mask(encoding: Any, mask: list[bool]) -> tuple[bool, ...]:
    """``mask`` without the special tokens (as :func:`content_tokens` drops them)."""
    special = getattr(encoding, "special_tokens_mask", None)
    if special is None or len(special) != len(mask) or not any(special):
        return tuple(mask)
    return tuple(m for m, sp in zip(mask, special) if not sp)


def drill_rows(line: str, labelled: list[tuple[str, Any]]) -> tuple[list[DrillRow], frozenset[int]]:
    """Encode ``line`` with every ``(label, tokenizer)``; rows and the differing boundaries.

    A tokenizer that raises gets a row with ``error`` set (and takes no part in the diff).
    """
    rows = []
    for label, tok in labelled:
        try:
            encoding = tok.encode(line)
            tokens, offsets = content_tokens(encoding)
        except ValueError as exc:
            rows.append(DrillRow(label, (), (), frozenset(), str(exc)))
            continue
        spans = tuple((int(s), int(e)) for s, e in offsets)
        unknown = _content_mask(encoding, unknown_mask(encoding, tok))
        specials = set(special_ids(tok).values())
        special = tuple(t in specials and t in line[a:b] for t, (a, b) in zip(tokens, spans)) if specials else ()
        rows.append(DrillRow(label, tuple(tokens), spans, boundaries(spans), unknown=unknown, special=special))
    ok = [r.offsets for r in rows if not r.error]
    return rows, differing_boundaries(ok)


def char_colours(row: DrillRow, n: int) -> list[str]:
    """The background of each of the line's ``n`` code points in ``row``. O(n + tokens)."""
    colours = [OUTSIDE] * n
    for k, (s, e) in enumerate(row.offsets):
        colours[s:e] = [SHADES[k % 2]] * (e - s)
    cover = coverage(np.asarray(row.offsets, dtype=np.int64).reshape(-1, 2), n)
    return [SHARED if c > 1 else col for c, col in zip(cover, colours)]


def row_line(line: str, row: DrillRow, width: int, differing: frozenset[int]) -> SpanLine:
    """The :class:`SpanLine` of one row: ``line`` with the row's tokens painted behind it.
    O(len(line) + tokens)."""
    head = row.label.ljust(width)
    if row.error:
        return SpanLine("", head=head, tail=row.error, tail_colour=DIFF)
    segments, start = [], 0
    colours = char_colours(row, len(line))
    cuts = sorted(row.boundaries)
    chip = [False] * len(line)
    for (s, e), sp in zip(row.offsets, row.special):
        if sp:
            chip[s:e] = [True] * (e - s)
    for i in range(1, len(line) + 1):  # runs of one colour, cut at every token boundary
        if i == len(line) or colours[i] != colours[start] or i in row.boundaries:
            style = special_chip() if chip[start] else SegmentStyle(background=colours[start])
            segments.append((start, i, style))  # a special token: a chip, as in the span views
            start = i
    frames = tuple((s, e, "unk") for (s, e), unk in zip(row.offsets, row.unknown) if unk and e > s)
    bars = tuple((p, DIFF, 2.0) if p in differing else (p, SAME, 1.0) for p in cuts)
    tail = plural(sum(row.unknown), "unknown token") if any(row.unknown) else ""
    return SpanLine(line, head=head, tail=tail, segments=tuple(segments), frames=frames,
                    cuts=tuple(cuts), bars=bars, tail_colour=UNKNOWN)


def legend_html(differing: frozenset[int], notes: list[str] = ()) -> str:
    """The legend above the rows (and any missing-font notes)."""
    differ = plural(len(differing), "boundary differs", "boundaries differ")
    out = (f'{differ} between tokenizers (<b style="color:{DIFF}">\u2502</b>); '
           f'<b style="color:{SAME}">\u2502</b> shared; '
           f'<span style="background:{SHARED}">&nbsp;orange&nbsp;</span> = a character split over several tokens; '
           f'<span style="background:{OUTSIDE}">&nbsp;grey&nbsp;</span> = in no token; '
           f'<span style="background:#fee2e2; color:{UNKNOWN}">&nbsp;\u25a8 red frame&nbsp;</span> = unknown '
           f'token or byte-fallback piece; <span style="color:{CUT_COLOUR}">\u25be</span> = a boundary '
           'inside a grapheme cluster.')
    return out + "".join(f'<br><span style="color:{DIFF}">{html.escape(n)}</span>' for n in notes)


def tokens_html(rows: list[DrillRow]) -> str:
    """Each tokenizer's token list (each token shown on its own, as the model holds it)."""
    return "".join(
        f"<p><b>{html.escape(r.label)}</b> ({plural(len(r.tokens), 'token')}): "
        + " ".join(f'<span style="background:{SHADES[k % 2]}">{html.escape(t)}</span>'
                   for k, t in enumerate(r.tokens))
        + "</p>"
        for r in rows if not r.error
    )


class DrillDownView(QWidget):
    """The legend, one :class:`SpanLineView` row per tokenizer and the token lists; keeps
    the rows it shows in :attr:`rows` / :attr:`differing`."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setToolTip("Every tokenizer's tokens of this line, aligned on the original text; "
                        "red ticks are boundaries that not all tokenizers have")
        self.legend = QLabel()
        self.legend.setWordWrap(True)
        self.lines = SpanLineView()
        font = self.lines.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.lines.setFont(font)
        self.tokens = QTextBrowser()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.legend)
        layout.addWidget(self.lines, 2)
        layout.addWidget(self.tokens, 3)
        self.rows: list[DrillRow] = []
        self.differing: frozenset[int] = frozenset()
        self.line = ""
        self.font_notes: list[str] = []

    def show_line(self, line: str, labelled: list[tuple[str, Any]]) -> None:
        self.line = line
        self.rows, self.differing = drill_rows(line, labelled)
        width = max((len(r.label) for r in self.rows), default=0)
        self.lines.set_lines([row_line(line, r, width, self.differing) for r in self.rows])
        self.font_notes = font_notes(line, self.lines.font())
        self.legend.setText(legend_html(self.differing, self.font_notes))
        self.tokens.setHtml(tokens_html(self.rows))

    def clear_rows(self, message: str) -> None:
        self.rows, self.differing, self.line, self.font_notes = [], frozenset(), "", []
        self.legend.setText("")
        self.lines.set_lines([], message)
        self.tokens.setHtml("")


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
        self.waiting = ""  # shown instead of the rows while the tokenizers are not loaded
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

    def set_result(self, corpus, labelled: list[tuple[str, Any]], items: list[tuple[str, str]], current: str,
                   *, waiting: str = "") -> None:
        """New corpus files (``CorpusFile``), ``(label, tokenizer)`` pairs and language items;
        ``waiting``: the tokenizers are not loaded yet, say this instead of the rows."""
        self.corpus = {f.code: f for f in corpus}
        self.labelled = list(labelled)
        self.waiting = waiting
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

    def set_waiting(self, message: str) -> None:
        """Show ``message`` instead of the rows (the tokenizers are loading, or failed to)."""
        self.waiting = message
        self.render_now()

    def render_now(self) -> None:
        if self.waiting:
            self.view.clear_rows(self.waiting)
            return
        f = self.corpus.get(self.language.currentData())
        if f is None or not f.lines:
            self.view.clear_rows("Choose a language with text.")
            return
        self.view.show_line(f.lines[min(self.line.value(), len(f.lines)) - 1], self.labelled)
