"""Every pane at 1280×720 (a projector, a small laptop): it fits without a scrollbar, no
visible widget lies over a sibling, and no label or button text is cut short (issue 26 §8).

One window is made for the module; each pane, each Alignment mode (Chat mode included) and
each tab of a pane's tab widgets is shown in turn and its widget tree walked.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QRect
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QWidget,
)

from app.main_window import MainWindow
from app.workers import wait_until_settled

SIZE = (1280, 720)
ALIGNMENT_MODES = ("tokenize", "tokens", "labels")
SETTLE_MS = 400  # per view: its layout is checked, not its figures (Compare computes for long)

# Children that overlap their siblings by design, by class name (their parents' own parts):
OVERLAPPING = {
    "QScrollBar",  # a scroll area's bars sit over its viewport's edge in some styles
    "QSplitterHandle",  # a splitter's handles are laid between its children, over their margins
    "QFocusFrame",
    "QRubberBand",
}
# Children by object name that are a scroll area's own parts (viewport, bar containers, corner):
OVERLAPPING_NAMES = {"qt_scrollarea_viewport", "qt_scrollarea_hcontainer", "qt_scrollarea_vcontainer",
                     "qt_scrollarea_corner"}


def _designed_to_overlap(widget: QWidget) -> bool:
    return type(widget).__name__ in OVERLAPPING or widget.objectName() in OVERLAPPING_NAMES


def overlaps(root: QWidget) -> list[str]:
    """Pairs of visible sibling widgets under ``root`` whose geometries intersect. O(n²) per
    parent over its few direct children."""
    found = []
    stack = [root]
    while stack:
        parent = stack.pop()
        kids = [c for c in parent.children() if isinstance(c, QWidget) and not c.isWindow() and c.isVisible()]
        stack.extend(kids)
        if isinstance(parent, QAbstractScrollArea) and not isinstance(parent, QScrollArea):
            continue  # an item view's or text view's own parts (header, viewport, bars)
        boxes = [c for c in kids if not _designed_to_overlap(c) and c.width() > 0 and c.height() > 0]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                common = a.geometry().intersected(b.geometry())
                if not common.isEmpty():
                    found.append(f"{_name(a)} {_rect(a.geometry())} overlaps {_name(b)} {_rect(b.geometry())} "
                                 f"in {_name(parent)}")
    return found


def cut_texts(root: QWidget) -> list[str]:
    """Visible labels (without word wrap) and buttons whose text needs more width than they
    have: their text is cut or elided. A label whose size policy ignores its hint (a status
    line that elides on purpose, see the pane) is left out."""
    found = []
    for w in root.findChildren(QWidget):
        if not w.isVisible() or w.width() <= 0:
            continue
        if isinstance(w, QLabel):
            if w.wordWrap() or not w.text() or w.pixmap() is not None and not w.pixmap().isNull():
                continue
            if w.sizePolicy().horizontalPolicy() == QSizePolicy.Policy.Ignored:
                continue  # the label elides or clips by design (it says so where it is made)
            need = w.sizeHint().width()
        elif isinstance(w, QAbstractButton) and w.text():
            need = w.minimumSizeHint().width() if w.minimumSizeHint().isValid() else w.sizeHint().width()
            need = min(need, w.sizeHint().width())
        else:
            continue
        if need > w.width() + 1:
            found.append(f"{_name(w)} {w.text()[:60]!r}: needs {need} px, has {w.width()}")
    return found


def _name(w: QWidget) -> str:
    return f"{type(w).__name__}({w.objectName() or (w.text()[:24] if hasattr(w, 'text') and isinstance(w.text(), str) else '')})"


def _rect(r: QRect) -> str:
    return f"[{r.x()},{r.y()} {r.width()}×{r.height()}]"


def scrollbars(window: MainWindow) -> list[str]:
    """The panes' scroll area (the window's central widget) scrolls: the pane does not fit."""
    scroll = window.centralWidget()
    assert isinstance(scroll, QScrollArea)
    return [name for name, bar in (("vertical", scroll.verticalScrollBar()), ("horizontal", scroll.horizontalScrollBar()))
            if bar.isVisible() and bar.maximum() > 0]


@pytest.fixture
def window(qtbot):
    """The window on the platform's own font (an earlier test in the process may have left the
    application's font enlarged, as presentation mode does), put back afterwards."""
    app = QApplication.instance()
    font = app.font()
    app.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont))
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(*SIZE)
    w.show()
    wait_until_settled(w, 60_000)
    yield w
    w.shutdown()
    app.setFont(font)


def _views(window: MainWindow):
    """(label, pane widget) for every view to check: the current tab of each tab widget in a
    pane is switched through in turn."""
    for name, pane in window.panes.items():
        window.show_pane(name)
        if name == "alignment":
            for mode in ALIGNMENT_MODES:
                index = pane.w.mode.findData(mode)
                pane.w.mode.setCurrentIndex(index)
                pane.w.mode.activated.emit(index)
                yield f"alignment/{mode}", pane
            pane.w.mode.setCurrentIndex(pane.w.mode.findData("tokenize"))
            pane.w.mode.activated.emit(pane.w.mode.findData("tokenize"))
            pane.w.chat_toggle.setChecked(True)
            yield "alignment/chat", pane
            pane.w.chat_toggle.setChecked(False)
            continue
        tabs = [t for t in pane.findChildren(QTabWidget)]
        yield name, pane
        for tab in tabs:
            for i in range(tab.count()):
                if tab.isTabEnabled(i):
                    tab.setCurrentIndex(i)
                    yield f"{name}/{tab.tabText(i)}", pane


def test_every_pane_fits_1280x720_with_nothing_overlapping_or_cut(window):
    least = window.minimumSizeHint().expandedTo(window.minimumSize())
    assert least.width() <= 1024 and least.height() <= 640  # smaller still: the panes scroll
    problems = []
    for label, pane in _views(window):
        wait_until_settled(window, SETTLE_MS)
        for _ in range(3):  # a result that came at the end changed a text: its relayout is posted
            QApplication.processEvents()
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        problems += [f"{label}: scrolls {s}" for s in scrollbars(window)]
        problems += [f"{label}: {p}" for p in overlaps(pane)]
        problems += [f"{label}: {p}" for p in cut_texts(pane)]
    assert not problems, "\n".join(problems)


def test_the_checks_see_an_overlap_and_a_cut_label(qtbot):
    """The walk itself: two siblings laid over each other and a label narrower than its text
    are reported; a scroll area's own parts are not."""
    root = QWidget()
    qtbot.addWidget(root)
    root.resize(400, 200)
    a, b = QLabel("first", root), QLabel("a label far too long for twenty pixels", root)
    a.setGeometry(0, 0, 100, 30)
    b.setGeometry(50, 10, 20, 30)
    scroll = QScrollArea(root)
    scroll.setGeometry(200, 0, 150, 150)
    scroll.setWidget(QLabel("inside"))
    root.show()
    found = overlaps(root)
    assert len(found) == 1 and "first" in found[0] and "a label far" in found[0]
    assert [p for p in cut_texts(root) if "needs" in p and "a label far" in p]
    b.setGeometry(0, 160, 300, 30)
    b.adjustSize()
    assert overlaps(root) == [] and cut_texts(root) == []
