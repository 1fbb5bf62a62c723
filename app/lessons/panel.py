"""The lesson panel (a dock beside the panes): the lesson and step pickers, why, the
question, the figure to look at (outlined where the pane shows it), Back / Next.

Page Down / Page Up (what a presenter's clicker sends) go to the next / previous step from
anywhere in the window while a lesson is open, even when a text box has the focus. Opening a
lesson remembers the state of every pane it drives; **End lesson** puts them back, so the
user's own text and settings come back.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.lessons.figures import Highlighter, figure_shown, resolve
from app.lessons.model import Lesson, LessonError, Step
from app.lessons.runner import apply_step, figure_text
from app.panes.stored import StateValueError

POLL_MS = 250  # how often the figure is read until the pane shows it
POLL_TRIES = 240  # … for at most a minute


class LessonPanel(QWidget):
    """Walks one lesson's steps on ``window`` (kept as :attr:`host`; see
    :mod:`app.lessons.runner`).

    Signals
    -------
    sig_step_shown(str, int) : the lesson's name and the 0-based step now applied.
    sig_closed() : End lesson was pressed (the panes are back as they were).
    """

    sig_step_shown = Signal(str, int)
    sig_closed = Signal()

    def __init__(self, window: Any, lessons: dict[str, Lesson], parent: QWidget | None = None):
        super().__init__(parent)
        self.host, self.lessons = window, lessons
        self.lesson: Lesson | None = None
        self.index = -1
        self._saved: dict[str, dict] = {}  # pane name -> its state before the lesson
        self.highlighter = Highlighter(self)
        self._poll = QTimer(self, interval=POLL_MS)
        self._poll.timeout.connect(self._on_poll)
        self._tries = 0
        self._build()
        self._keys = _PageKeys(self)

    def _build(self) -> None:
        self.lesson_box = QComboBox()
        for lesson in self.lessons.values():
            self.lesson_box.addItem(lesson.title, lesson.name)
        self.lesson_box.setToolTip("Lessons ▸ Open Lesson: one per chapter of the course material")
        self.lesson_box.activated.connect(lambda i: self.open_lesson(self.lesson_box.itemData(i)))
        self.step_box = QComboBox()
        self.step_box.setToolTip("Jump to a step")
        self.step_box.activated.connect(self.go_to)
        self.chapter = QLabel()
        self.chapter.setObjectName("lessonChapter")
        self.title = QLabel()
        self.title.setObjectName("lessonTitle")
        self.badge = QLabel("Try it yourself: the controls are yours")
        self.badge.setObjectName("lessonTry")
        self.badge.setStyleSheet("background: #fef3c7; color: #78350f; padding: 3px; border-radius: 3px;")
        self.why = QLabel()
        self.question = QLabel()
        self.question.setObjectName("lessonQuestion")
        self.figure = QLabel()
        self.figure.setObjectName("lessonFigureText")
        self.shown = QLabel()
        self.shown.setObjectName("lessonShown")
        self.items = QLabel()
        self.items.setObjectName("lessonItems")
        self.items.setStyleSheet("color: #555555;")
        for label in (self.chapter, self.title, self.why, self.question, self.figure, self.shown, self.items):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        for label in (self.chapter, self.why):  # plain text: "<2ar>" or "est</w>" show as written
            label.setTextFormat(Qt.TextFormat.PlainText)
        self.reveal_button = QPushButton("Reveal the figure")
        self.reveal_button.setToolTip("A try-it-yourself step hides its answer until you ask")
        self.reveal_button.clicked.connect(self.reveal)
        self.again_button = QPushButton("Set up again")
        self.again_button.setToolTip("Put the pane back in this step's state")
        self.again_button.clicked.connect(lambda: self.go_to(self.index))
        self.back_button = QPushButton("◀ Back")
        self.back_button.setToolTip("Previous step (Page Up)")
        self.back_button.clicked.connect(self.back)
        self.next_button = QPushButton("Next ▶")
        self.next_button.setToolTip("Next step (Page Down, a presenter's clicker)")
        self.next_button.clicked.connect(self.next)
        self.end_button = QPushButton("End lesson")
        self.end_button.setToolTip("Close the lesson; every pane it changed is put back as it was")
        self.end_button.clicked.connect(self.end_lesson)

        body = QWidget()
        text = QVBoxLayout(body)
        for w in (self.chapter, self.title, self.badge, self.why, self.question, self.figure, self.shown,
                  self.reveal_button, self.items):
            text.addWidget(w)
        text.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(body)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        nav = QHBoxLayout()
        nav.addWidget(self.back_button)
        nav.addWidget(self.next_button)
        tools = QHBoxLayout()
        tools.addWidget(self.again_button)
        tools.addWidget(self.end_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.lesson_box)
        layout.addWidget(self.step_box)
        layout.addWidget(scroll, 1)
        layout.addLayout(tools)
        layout.addLayout(nav)
        self.setMinimumWidth(260)

    # -- navigation ----------------------------------------------------------------------
    @property
    def step(self) -> Step | None:
        """The step shown (None before a lesson is opened)."""
        return self.lesson.steps[self.index] if self.lesson and 0 <= self.index < len(self.lesson.steps) else None

    def open_lesson(self, name: str, step: int = 0, *, wait: bool = False) -> None:
        """Open lesson ``name`` at 0-based ``step``. Raises :class:`LessonError` for an
        unknown lesson or step."""
        if name not in self.lessons:
            raise LessonError(f"no lesson called {name!r}; lessons: {', '.join(self.lessons)}")
        lesson = self.lessons[name]
        if not 0 <= step < len(lesson.steps):
            raise LessonError(f"lesson {name!r} has steps 1 to {len(lesson.steps)}")
        self.lesson = lesson
        self.lesson_box.setCurrentIndex(self.lesson_box.findData(name))
        self.step_box.clear()
        for i, s in enumerate(lesson.steps):
            self.step_box.addItem(f"{i + 1}/{len(lesson.steps)} · {s.title}")
        self._keys.install()
        self.go_to(step, wait=wait)

    def go_to(self, index: int, *, wait: bool = False) -> None:
        """Apply step ``index`` (0-based; clamped to the lesson)."""
        if self.lesson is None:
            return
        self.index = max(0, min(index, len(self.lesson.steps) - 1))
        step = self.lesson.steps[self.index]
        pane = self.host.panes[step.pane]
        if step.pane not in self._saved and pane.state_class is not None:
            self._saved[step.pane] = pane.state.to_dict()
        self._show_text(step)
        try:
            apply_step(self.host, step, wait=wait)
        except (LessonError, StateValueError) as exc:
            self.shown.setText(f"This step cannot be set up: {exc}")
            return
        self._tries = 0
        self._on_poll()
        if self.step is step and self._poll_needed():
            self._poll.start()
        self.sig_step_shown.emit(self.lesson.name, self.index)

    def next(self) -> None:
        """The next step (Page Down)."""
        if self.lesson is not None and self.index + 1 < len(self.lesson.steps):
            self.go_to(self.index + 1)

    def back(self) -> None:
        """The previous step (Page Up)."""
        if self.lesson is not None and self.index > 0:
            self.go_to(self.index - 1)

    def end_lesson(self) -> None:
        """Put back every pane the lesson changed; close the lesson."""
        self._poll.stop()
        self.highlighter.clear()
        self._keys.remove()
        for name, state in self._saved.items():
            try:
                self.host.panes[name].apply_lesson_state(state)
            except StateValueError:
                pass  # a state the pane itself produced is always accepted
        self._saved.clear()
        self.lesson, self.index = None, -1
        self.sig_closed.emit()

    # -- what is shown -------------------------------------------------------------------
    def _show_text(self, step: Step) -> None:
        self.step_box.setCurrentIndex(self.index)
        self.chapter.setText(f"{self.lesson.title} — {self.lesson.chapter}")
        self.title.setText(f"<b>{self.index + 1}. {escape(step.title)}</b>")
        self.badge.setVisible(step.try_it)
        self.why.setText(step.why)
        self.question.setText(f"<b>Question:</b> {escape(step.question)}")
        self.figure.setText(f"<b>Look at:</b> {escape(step.figure.label)}")
        self.shown.setText("")
        self.reveal_button.setVisible(step.try_it)
        self.items.setText("Material items: " + ", ".join(step.items) if step.items else "")
        self.back_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index + 1 < len(self.lesson.steps))
        self.highlighter.clear()

    def _poll_needed(self) -> bool:
        return self._tries < POLL_TRIES

    def _on_poll(self) -> None:
        """Read the figure; once the pane shows it, outline it and stop polling."""
        step = self.step
        if step is None:
            self._poll.stop()
            return
        self._tries += 1
        pane = self.host.panes[step.pane]
        try:
            text = figure_text(pane, step)
        except LessonError as exc:
            self.shown.setText(f"The figure cannot be read: {exc}")
            self._poll.stop()
            return
        if figure_shown(step.figure, text):
            self._poll.stop()
            if not step.try_it:
                self.reveal()
        elif self._tries >= POLL_TRIES:
            self._poll.stop()
            self.shown.setText(f"The pane shows {text!r}; the lesson expects {step.figure.expect!r}.")

    def reveal(self) -> None:
        """Outline the figure where the pane shows it and write its value under the question."""
        step = self.step
        if step is None:
            return
        pane = self.host.panes[step.pane]
        try:
            widget, text = resolve(pane, step.figure.widget), figure_text(pane, step)
        except LessonError as exc:
            self.shown.setText(f"The figure cannot be read: {exc}")
            return
        self.shown.setText(f"<b>{escape(step.figure.expect)}</b>")  # "est</w>", "<2ar>" as typed
        self.highlighter.show(widget, step.figure.cell, text, pane)
        self.reveal_button.hide()


class _PageKeys(QObject):
    """While a lesson is open, Page Down / Page Up anywhere in the app step the lesson (a
    text box with the focus would otherwise take them as scrolling)."""

    def __init__(self, panel: LessonPanel):
        super().__init__(QApplication.instance())  # outlives the panel: removed when it goes
        self.panel = panel
        self._on = False
        panel.destroyed.connect(self._on_panel_destroyed)

    def _on_panel_destroyed(self, *_: Any) -> None:
        self.remove()
        self.panel = None
        self.deleteLater()

    def install(self) -> None:
        if not self._on:
            QApplication.instance().installEventFilter(self)
            self._on = True

    def remove(self) -> None:
        if self._on:
            QApplication.instance().removeEventFilter(self)
            self._on = False

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride) or self.panel is None:
            return False
        key = event.key()
        if key not in (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp) or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if not isinstance(obj, QWidget) or obj.window() not in (self.panel.host, self.panel.window()):
            return False
        if kind == QEvent.Type.KeyPress:
            self.panel.next() if key == Qt.Key.Key_PageDown else self.panel.back()
        event.accept()
        return True
