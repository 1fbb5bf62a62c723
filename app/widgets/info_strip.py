"""A fixed one-line strip under the views that says what the mouse is over.

Replaces tooltips over the text: a tooltip over a token's row covered the very span the
row highlights. :func:`suppress_tooltips` keeps a view's item tooltips from popping up
(their text is shown in the strip instead).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

IDLE = "Hover a token or a character to see it here."


class InfoStrip(QLabel):
    """One elided line of plain text (the full text in :meth:`info`); never grows."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._info = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 8)
        self.setStyleSheet("QLabel { background:#f3f4f6; color:#111827; border:1px solid #e5e7eb;"
                           " border-radius:3px; padding:1px 6px; }")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.show_info("")

    def show_info(self, text: str) -> None:
        """Show ``text`` (newlines become `` · ``); empty shows the idle hint."""
        self._info = " · ".join(part for part in text.splitlines() if part.strip())
        self._refresh()

    def info(self) -> str:
        """What the strip says (unelided; empty when idle)."""
        return self._info

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._refresh()

    def _refresh(self) -> None:
        shown = self._info or IDLE
        width = max(40, self.width() - 16)
        self.setText(self.fontMetrics().elidedText(shown, Qt.TextElideMode.ElideRight, width))
        self.setToolTip("")


class _NoToolTips(QObject):
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        return event.type() == QEvent.Type.ToolTip


def suppress_tooltips(widget: QWidget) -> QObject:
    """Stop tooltip events on ``widget`` (e.g. a table's viewport); returns the filter."""
    f = _NoToolTips(widget)
    widget.installEventFilter(f)
    return f
