"""How tokens are shown: whitespace and invisible characters as badges, and the delegate
that draws the badges in colour.

Space ␣, newline ↵, tab ⇥, ZWJ and ZWNJ by name (⟨ZWJ⟩), bytes of a split character as
⟨E0 A4⟩, so a token made of a space or a joiner is never a blank cell. Pure string helpers
(:func:`visible`, :func:`readable`, :func:`visible_runs`) plus :class:`BadgeDelegate`.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from core.text.byte_alphabet import readable_shown, shown_char

_BYTE_MARKERS = {"\u0120": "␣", "\u010a": "↵", "\u0109": "⇥", "\u010d": "␍"}  # GPT-2 Ġ Ċ ĉ č
METASPACE = "\u2581"
BADGE_COLOUR = "#2563eb"
_BADGE = re.compile("⟨[^⟩]*⟩|[␣↵⇥␍]")


def visible(text: str, limit: int = 80, *, byte_level: bool = False, metaspace: bool = False) -> str:
    """``text`` with whitespace and control/format characters made visible, cut to ``limit``.

    ``byte_level``: also show GPT-2 byte-alphabet stand-ins for space, newline, tab and CR
    (``Ġ Ċ ĉ č``) as ␣ ↵ ⇥ ␍; ``metaspace``: show SentencePiece's ``▁`` as ␣. Use them for
    token strings only (``Ġ`` is a real Maltese letter in running text).
    """
    cut = len(text) > limit
    out = []
    for ch in text[:limit]:
        if byte_level and ch in _BYTE_MARKERS:
            out.append(_BYTE_MARKERS[ch])
        elif metaspace and ch == METASPACE:
            out.append("␣")
        else:
            out.append(shown_char(ch))  # core's display form: ␣ ↵ ⇥ ⟨ZWJ⟩ ⟨U+0085⟩
    return "".join(out) + ("…" if cut else "")


def visible_runs(shown: str) -> list[tuple[str, bool]]:
    """Split a :func:`visible` / :func:`readable` result into ``(piece, is_badge)`` runs,
    so a view can draw the badges (␣ ↵ ⇥ ⟨ZWJ⟩ ⟨E0 A4⟩ …) in :data:`BADGE_COLOUR`."""
    runs, at = [], 0
    for m in _BADGE.finditer(shown):
        if m.start() > at:
            runs.append((shown[at : m.start()], False))
        runs.append((m.group(), True))
        at = m.end()
    if at < len(shown):
        runs.append((shown[at:], False))
    return runs


def readable(data: bytes, limit: int = 80, *, dotted_circle: bool = True) -> str:
    """A byte-level token's bytes as the Readable column shows them
    (:func:`core.text.byte_alphabet.readable_shown`, also behind the command line's readable
    table): decoded as UTF-8, invisible characters shown as by :func:`visible`, bytes that are
    not a whole character here as ``⟨E0 A4⟩`` badges, a leading combining mark after ``◌``
    (``dotted_circle=False`` for exports)."""
    return readable_shown(data, limit, dotted_circle=dotted_circle)


class BadgeDelegate(QStyledItemDelegate):
    """Draws a cell's badges (␣ ↵ ⇥ ⟨ZWJ⟩ ⟨E0 A4⟩, see :func:`visible_runs`) in
    :data:`BADGE_COLOUR`, so a marker space or a joiner stands out from the token's letters."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        text = index.data()
        if not isinstance(text, str) or not _BADGE.search(text):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        plain = opt.palette.highlightedText().color() if selected else opt.palette.text().color()
        rect = opt.rect.adjusted(4, 0, -2, 0)
        metrics = opt.fontMetrics
        painter.save()
        painter.setClipRect(opt.rect)
        x = rect.left()
        for piece, badge in visible_runs(text):
            painter.setPen(QColor(BADGE_COLOUR) if badge and not selected else plain)
            painter.drawText(QRect(x, rect.top(), rect.right() - x, rect.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), piece)
            x += metrics.horizontalAdvance(piece)
            if x > rect.right():
                break
        painter.restore()
