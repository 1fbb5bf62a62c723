"""A pixmap of an item view's viewport, painted again while nothing it shows changed.

Qt repaints the whole viewport of a table whenever its row count changes, even when the
new or removed rows are far below the visible ones: a keystroke that adds a token to a
10,000-character text re-rendered every visible cell of the token table (~5 ms of Python
delegate and ``data()`` calls). :class:`ViewportCache` keeps the last full paint and draws
it again when a full repaint comes while the view's state (size, scroll positions,
columns, current and selected cells, focus, palette, font, style) is the same and no
model change touched a drawn row. Any mouse, keyboard, focus or style event on the view
drops it, as does a paint of part of the viewport (Qt asks for one when something in that
part changed), so hover and selection feedback are never stale.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QTimer
from PySide6.QtGui import QPainter, QPixmap, QRegion
from PySide6.QtWidgets import QAbstractItemView, QWidget

_KEEP = frozenset({QEvent.Type.Paint, QEvent.Type.UpdateRequest, QEvent.Type.ToolTip, QEvent.Type.Timer,
                   QEvent.Type.LayoutRequest,
                   QEvent.Type.Polish, QEvent.Type.PolishRequest, QEvent.Type.MetaCall,
                   QEvent.Type.ChildAdded, QEvent.Type.ChildRemoved, QEvent.Type.ChildPolished,
                   QEvent.Type.UpdateLater, QEvent.Type.DeferredDelete})
_ALL_ROWS = 1 << 62
RENDER_DELAY_MS = 40


class ViewportCache(QObject):
    """Full paints of ``view``'s viewport (a ``QAbstractItemView`` whose model is set),
    served from a pixmap by :meth:`paint` once one repeated an unchanged view: the pixmap
    is rendered then, :data:`RENDER_DELAY_MS` later (never inside a paint event). ``hits``
    counts the paints it served."""

    def __init__(self, view: QAbstractItemView):
        super().__init__(view)
        self.view = view
        self.hits = 0
        self._pixmap: QPixmap | None = None
        self._key: tuple | None = None  # the state of the last full paint
        self._clean = False  # nothing changed in the viewport since that paint
        self._last_row = -1  # the last row it showed (_ALL_ROWS: it had room for more)
        self._rendering = False
        # the pixmap is rendered a moment after the paint that asked for it, so the two
        # never freeze the GUI together (rendering costs as much as one paint)
        self._timer = QTimer(self, singleShot=True, interval=RENDER_DELAY_MS)
        self._timer.timeout.connect(self._render)
        model = view.model()
        model.dataChanged.connect(lambda top, _bottom, _roles=(): self._rows_changed(top.row()))
        model.rowsInserted.connect(lambda _parent, first, _last: self._rows_changed(first))
        model.rowsRemoved.connect(lambda _parent, first, _last: self._rows_changed(first))
        for signal in (model.modelReset, model.layoutChanged, model.headerDataChanged, model.rowsMoved,
                       model.columnsInserted, model.columnsRemoved, model.columnsMoved):
            signal.connect(self.drop)
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)

    def drop(self, *_: object) -> None:
        """Forget the last paint: the next one renders the view."""
        self._pixmap, self._clean = None, False

    def _rows_changed(self, first: int) -> None:
        if first <= self._last_row:
            self.drop()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() not in _KEEP:
            self.drop()
        return False

    def _state(self) -> tuple:
        """Everything besides the model's rows that the viewport's pixels depend on."""
        view, vp = self.view, self.view.viewport()
        header = getattr(view, "horizontalHeader", None)
        cols = ()
        if header is not None:
            hh = header()
            cols = tuple((hh.sectionViewportPosition(c), hh.sectionSize(c), hh.isSectionHidden(c))
                         for c in range(hh.count()))
        vheader = getattr(view, "verticalHeader", None)
        rows = vheader().defaultSectionSize() if vheader is not None else 0
        current = view.currentIndex()
        selected = tuple(sorted((i.row(), i.column()) for i in view.selectionModel().selectedIndexes()))
        return (vp.width(), vp.height(), vp.devicePixelRatioF(), view.horizontalScrollBar().value(),
                view.verticalScrollBar().value(), cols, rows, (current.row(), current.column()), selected,
                view.hasFocus(), view.isActiveWindow(), view.isEnabled(), view.palette().cacheKey(),
                view.font().key(), id(view.style()), view.model().columnCount())

    def paint(self, event) -> bool:
        """Paint ``event`` (the viewport's paint event) from the pixmap when it shows the
        view as it is; False when the caller must paint (then, if this full paint repeats
        the last one unchanged, the pixmap is rendered once the event loop is idle)."""
        if self._rendering:
            return False
        vp = self.view.viewport()
        if event.rect() != vp.rect():  # part of the viewport changed
            self.drop()
            return False
        key = self._state()
        if self._clean and key == self._key:
            if self._pixmap is not None:
                self.hits += 1
                painter = QPainter(vp)
                painter.drawPixmap(0, 0, self._pixmap)
                painter.end()
                return True
            self._timer.start()
            return False
        last = self.view.rowAt(vp.height() - 1) if hasattr(self.view, "rowAt") else -1
        self._key, self._clean, self._pixmap = key, True, None
        self._last_row = _ALL_ROWS if last < 0 else last
        return False

    def _render(self) -> None:
        """Render the pixmap, if the view still shows what its last full paint did."""
        if not self._clean or self._pixmap is not None or self._state() != self._key:
            return
        vp = self.view.viewport()
        ratio = vp.devicePixelRatioF()
        pixmap = QPixmap(round(vp.width() * ratio), round(vp.height() * ratio))
        pixmap.setDevicePixelRatio(ratio)
        self._rendering = True
        try:
            vp.render(pixmap, QPoint(), QRegion(), QWidget.RenderFlag.DrawWindowBackground)
        finally:
            self._rendering = False
        if self._clean:
            self._pixmap = pixmap
