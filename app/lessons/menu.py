"""The Lessons menu and the dock that holds the lesson panel (:func:`install_lessons`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QFrame, QScrollArea, QSizePolicy, QTabWidget

from app.lessons.model import load_lessons
from app.lessons.panel import LessonPanel


def install_lessons(window: Any) -> LessonPanel:
    """Add a Lessons menu (one entry per lesson, Next / Back / End) and a hidden dock on the
    right holding the :class:`LessonPanel`; return the panel (its dock is ``panel.dock``).
    The window's central widget (the panes' tabs) is put in a scroll area, so a window of
    1280×720 with the dock open (or larger text) scrolls instead of growing past the screen."""
    panel = LessonPanel(window, load_lessons())
    central = window.takeCentralWidget()  # the panes scroll when the dock leaves them too little room
    scroll = QScrollArea()
    scroll.setObjectName("paneScroll")
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(central)
    window.setCentralWidget(scroll)
    tabs = getattr(window, "tabs", None)
    if isinstance(tabs, QTabWidget):  # the shown pane alone sets the minimum width
        tabs.currentChanged.connect(lambda _i: _size_by_current(tabs))
        _size_by_current(tabs)
    dock = QDockWidget("Lesson", window)
    dock.setObjectName("lessonDock")
    dock.setWidget(panel)
    dock.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    panel.dock = dock
    panel.sig_closed.connect(dock.hide)
    menu = window.menuBar().addMenu("&Lessons")
    menu.setToolTipsVisible(True)
    for lesson in panel.lessons.values():
        act = QAction(lesson.title, window)
        act.setToolTip(f"{lesson.chapter} · {len(lesson.steps)} steps")
        act.triggered.connect(lambda _=False, n=lesson.name: _open(panel, n))
        menu.addAction(act)
    menu.addSeparator()
    for text, slot, tip in (("&Next Step", panel.next, "Page Down (or a presenter's clicker) while a lesson is open"),
                            ("&Previous Step", panel.back, "Page Up while a lesson is open"),
                            ("&End Lesson", panel.end_lesson, "Close the lesson; the panes come back as they were")):
        act = QAction(text, window)
        act.setToolTip(tip)
        act.triggered.connect(slot)
        menu.addAction(act)
    return panel


def _size_by_current(tabs: QTabWidget) -> None:
    """Hidden pages get an ignored size policy, so a wide pane (Alignment) does not make the
    scroll area scroll sideways on a narrow one (Positions)."""
    current = tabs.currentWidget()
    for i in range(tabs.count()):
        page = tabs.widget(i)
        policy = QSizePolicy.Policy.Preferred if page is current else QSizePolicy.Policy.Ignored
        page.setSizePolicy(policy, policy)
    tabs.updateGeometry()


DOCK_SHARE = 0.27  # of the window's width, when the dock opens


def show_dock(panel: LessonPanel) -> None:
    """Show the lesson dock at about a quarter of the window's width."""
    window = panel.host
    panel.dock.show()
    window.resizeDocks([panel.dock], [max(panel.minimumWidth(), int(window.width() * DOCK_SHARE))],
                       Qt.Orientation.Horizontal)


def _open(panel: LessonPanel, name: str) -> None:
    show_dock(panel)
    panel.open_lesson(name)
