"""Presentation mode and the text size (:func:`install_presentation`).

**View ▸ Presentation Mode** (F11) enlarges the text of every view, thickens the plots'
lines and axes, switches to a high-contrast palette and folds the secondary panels (the status
bar and every widget marked ``setProperty("secondary", True)``). **View ▸ Larger / Smaller /
Default Text** (Ctrl+= or Ctrl++, Ctrl+-, Ctrl+0) scale the text in steps of 10 % between 70 %
and 300 %; the size is remembered in the settings (``view/text_scale``, percent).
"""

from __future__ import annotations

import weakref
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QWidget

SCALE_RANGE = (70, 300)  # percent
SCALE_STEP = 10
PRESENTING_FACTOR = 1.35  # presentation mode's text on top of the chosen scale
PEN_FACTOR = 2.5  # presentation mode's line widths
CONTRAST = {  # the high-contrast palette
    QPalette.ColorRole.Window: "#ffffff", QPalette.ColorRole.WindowText: "#000000",
    QPalette.ColorRole.Base: "#ffffff", QPalette.ColorRole.AlternateBase: "#eeeeee",
    QPalette.ColorRole.Text: "#000000", QPalette.ColorRole.Button: "#f2f2f2",
    QPalette.ColorRole.ButtonText: "#000000", QPalette.ColorRole.Highlight: "#003d99",
    QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#ffffe0",
    QPalette.ColorRole.ToolTipText: "#000000", QPalette.ColorRole.PlaceholderText: "#444444",
}


class Presentation(QObject):
    """The window's text scale and presentation mode (see the module notes)."""

    def __init__(self, window: Any):
        super().__init__(window)
        self.window = window
        app = QApplication.instance()
        self._base_font = QFont(app.font())
        self._base_palette = QPalette(app.palette())
        self.presenting = False
        self.scale = self._stored_scale()
        self._pens: dict[int, tuple[Any, Any]] = {}  # curve id -> (curve, pen before)
        self._folded: list[QWidget] = []
        self._explicit: dict[int, tuple[QWidget, QFont]] = {}  # widgets with their own font
        self._styled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # axis -> factor
        self._apply()

    def _stored_scale(self) -> int:
        try:
            value = int(self.window.settings.value("view/text_scale", 100))
        except (TypeError, ValueError):
            return 100
        lo, hi = SCALE_RANGE
        return value if lo <= value <= hi else 100

    @property
    def factor(self) -> float:
        """The text size now, relative to the system's (scale × presentation)."""
        return self.scale / 100 * (PRESENTING_FACTOR if self.presenting else 1.0)

    def set_scale(self, percent: int) -> None:
        """Text at ``percent`` of the system size (clamped to :data:`SCALE_RANGE`), remembered."""
        lo, hi = SCALE_RANGE
        self.scale = max(lo, min(hi, int(percent)))
        self.window.settings.setValue("view/text_scale", self.scale)
        self._apply()
        self.window.statusBar().showMessage(f"Text size {self.scale} %", 3000)

    def larger(self) -> None:
        self.set_scale(self.scale + SCALE_STEP)

    def smaller(self) -> None:
        self.set_scale(self.scale - SCALE_STEP)

    def reset(self) -> None:
        self.set_scale(100)

    def set_presenting(self, on: bool) -> None:
        """Enter or leave presentation mode."""
        self.presenting = bool(on)
        self.action.setChecked(self.presenting)
        self._apply()

    # -- applying ------------------------------------------------------------------------
    def _apply(self) -> None:
        app = QApplication.instance()
        font = QFont(self._base_font)
        font.setPointSizeF(max(6.0, self._base_font.pointSizeF() * self.factor))
        app.setFont(font)
        self._scale_explicit_fonts()
        if self.presenting:
            palette = QPalette(self._base_palette)
            for role, color in CONTRAST.items():
                palette.setColor(role, QColor(color))
            app.setPalette(palette)
        else:
            app.setPalette(self._base_palette)
        self._style_plots()
        self._fold(self.presenting)

    def style_new_widgets(self) -> None:
        """Scale the fonts and style the plots of widgets built since the last change of
        size or mode (panes build some once the window shows): only those — the
        application's font is not set again (that relays every widget out: ~0.1 s, a stall
        in the first moments after the window shows)."""
        self._scale_explicit_fonts(only_new=True)
        self._style_plots()

    def _scale_explicit_fonts(self, only_new: bool = False) -> None:
        """Widgets that set their own font (fixed-width readouts) scale with the rest
        (``only_new``: those not seen before)."""
        new = []
        for w in self.window.findChildren(QWidget):
            if id(w) not in self._explicit and w.testAttribute(Qt.WidgetAttribute.WA_SetFont):
                self._explicit[id(w)] = (w, QFont(w.font()))
                new.append(id(w))
        for w, base in ([self._explicit[k] for k in new] if only_new
                        else list(self._explicit.values())):
            try:
                f = QFont(base)
                if base.pointSizeF() > 0:
                    f.setPointSizeF(base.pointSizeF() * self.factor)
                w.setFont(f)
            except RuntimeError:  # deleted
                pass

    def _style_plots(self) -> None:
        """Thicker curves and larger axis text in every plot (put back when leaving)."""
        tick = QFont(QApplication.instance().font())
        factor = self.factor
        for view in self.window.findChildren(pg.GraphicsView):
            scene = view.scene()
            if scene is None:
                continue
            for item in scene.items():
                if isinstance(item, pg.AxisItem):
                    if self._styled.get(item) == factor:
                        continue  # (styled at this size already)
                    self._styled[item] = factor
                    item.setStyle(tickFont=tick)
                    item.labelStyle = {**item.labelStyle, "font-size": f"{tick.pointSizeF():.0f}pt"}
                    item._updateLabel()  # noqa: SLF001 - pyqtgraph's only way to re-render the label
                elif isinstance(item, pg.PlotDataItem):
                    self._style_curve(item)

    def _style_curve(self, curve: Any) -> None:
        key = id(curve)
        if self.presenting and key not in self._pens:
            pen = curve.opts.get("pen")
            if pen is None:
                return
            self._pens[key] = (curve, pen)
            wide = pg.mkPen(pen)
            wide.setWidthF(max(1.0, wide.widthF()) * PEN_FACTOR)
            curve.setPen(wide)
        elif not self.presenting and key in self._pens:
            curve, pen = self._pens.pop(key)
            curve.setPen(pen)

    def _fold(self, on: bool) -> None:
        if on:  # not hidden on purpose: those of panes not shown yet too; added to any folded before
            bar = self.window.statusBar()
            folding = [w for w in self.window.findChildren(QWidget)
                       if (w is bar or w.property("secondary")) and not w.isHidden()]
            for w in folding:
                w.hide()
            self._folded += folding
        else:
            for w in self._folded:
                try:
                    w.show()
                except RuntimeError:
                    pass
            self._folded = []


def install_presentation(window: Any, view_menu: Any) -> Presentation:
    """Add Presentation Mode and the text-size entries to ``view_menu``; return the object
    (kept by the window as ``window.presentation``)."""
    p = Presentation(window)
    view_menu.addSeparator()
    act = QAction("&Presentation Mode", window, checkable=True, shortcut=QKeySequence("F11"))
    act.setStatusTip("Larger text and lines, high contrast, secondary panels folded (F11 again leaves)")
    act.toggled.connect(lambda on: on != p.presenting and p.set_presenting(on))
    view_menu.addAction(act)
    p.action = act
    for text, keys, slot in (("&Larger Text", ("Ctrl+=", "Ctrl++"), p.larger),
                             ("&Smaller Text", ("Ctrl+-",), p.smaller),
                             ("&Default Text Size", ("Ctrl+0",), p.reset)):
        a = QAction(text, window)
        a.setShortcuts([QKeySequence(k) for k in keys])
        a.triggered.connect(slot)
        view_menu.addAction(a)
    QTimer.singleShot(0, p, p.style_new_widgets)  # plots built after the window: styled once shown
    return p
