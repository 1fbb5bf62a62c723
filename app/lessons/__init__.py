"""Lessons: a teacher's walk through the course material in the real panes.

A lesson is data (:mod:`app.lessons.model`, one JSON file per lesson in ``data/``); the
runner applies a step to the window (:mod:`app.lessons.runner`); the panel and the Lessons
menu show it (:mod:`app.lessons.panel`, :mod:`app.lessons.menu`).
"""

from app.lessons.menu import install_lessons, show_dock
from app.lessons.model import Figure, Lesson, LessonError, Step, load_lessons
from app.lessons.panel import LessonPanel
from app.lessons.runner import apply_step, figure_text, settle, state_differences

__all__ = ["Figure", "Lesson", "LessonError", "LessonPanel", "Step", "apply_step", "figure_text",
           "install_lessons", "load_lessons", "settle", "show_dock", "state_differences"]
