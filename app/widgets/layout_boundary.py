"""A container that stops layout requests whose size hints did not change.

Qt re-lays out every ancestor when a label's text changes (``QLayout::activate`` ends in an
unconditional ``updateGeometry()``), and a ``QTabWidget`` answers that layout request with
an ``update()`` of itself: each status-line or counter update repainted the whole main
window (~8 ms a time, twice per keystroke in the Alignment pane). :class:`LayoutBoundary`
holds one widget without a layout of its own, so the widget's layout requests end here;
it passes one on to its parent only when the widget's size hints, size policy or
visibility did change.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QSizePolicy, QWidget


class LayoutBoundary(QWidget):
    """``child`` (re-parented here) filling this widget; size hints, size policy and
    visibility are the child's. Use it in a layout in place of the child."""

    def __init__(self, child: QWidget, parent: QWidget | None = None):
        super().__init__(parent)
        self.child = child
        child.setParent(self)
        self.setSizePolicy(child.sizePolicy())
        self._hints = self._read_hints()
        self.setVisible(not child.isHidden())
        child.installEventFilter(self)  # shown or hidden: so is this (also while this is hidden)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if obj is self.child and kind in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.setVisible(kind == QEvent.Type.ShowToParent)
        return False

    def _read_hints(self) -> tuple:
        """What the enclosing layout reads of the child (a hint's width or height that an
        ``Ignored`` size policy makes the layout ignore left out)."""
        c = self.child
        policy = c.sizePolicy()
        wide = policy.horizontalPolicy() != QSizePolicy.Policy.Ignored
        tall = policy.verticalPolicy() != QSizePolicy.Policy.Ignored
        hints = tuple((h.width() if wide else 0, h.height() if tall else 0) for h in (c.sizeHint(), c.minimumSizeHint()))
        return (hints, c.minimumSize(), c.maximumSize(), policy, c.isHidden(), c.hasHeightForWidth())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.child.sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self.child.minimumSizeHint()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt override
        return self.child.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        return self.child.heightForWidth(width)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.child.setGeometry(self.rect())

    def event(self, event) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.LayoutRequest, QEvent.Type.Show):  # the child asks nothing while hidden
            hints = self._read_hints()
            if hints != self._hints:
                self._hints = hints
                self.setSizePolicy(self.child.sizePolicy())
                self.updateGeometry()
                parent = self.parentWidget()
                if parent is not None and parent.layout() is not None:
                    parent.layout().invalidate()  # its cached hint of this one is stale:
                    parent.layout().activate()  # lay it out now (as a layout request would)
            self.child.setGeometry(self.rect())
            if kind == QEvent.Type.LayoutRequest:
                return True
        return super().event(event)

