"""Lessons as data (no Qt here): :class:`Lesson`, :class:`Step`, :class:`Figure` and
:func:`load_lessons`, which reads one JSON file per lesson from ``app/lessons/data/``.

A lesson file holds ``{"name", "title", "chapter", "steps": [...]}``; each step names the
pane it drives and the state it puts that pane in:

- ``pane``: a pane's short name (``alignment``, ``merges``, ``positions``, ``pooling``,
  ``compare``, ``retrieval``); ``tokenizer``: ``"teaching"`` (the 15-entry vocabulary), a
  built-in tokenizer's name, or absent (the tokenizer stays);
- ``state``: fields of the pane's stored state (:class:`app.panes.stored.StoredState`),
  applied by the pane's ``apply_lesson_state``; ``inputs``: further controls set as a user
  would (``{"dotted.path.from.the.pane": value}``: text, a number, a check, a combo box's
  item or a tab's index), in the order written;
- ``why`` (two or three sentences), ``question`` (for the class), ``items`` (the material's
  item ids the step shows, e.g. ``"003-08"``), ``try`` (true: a "try it yourself" step, the
  controls are the class's);
- ``figure``: the value to look at, ``{"label", "widget", "cell"?, "expect"}``: ``widget``
  is the dotted path of the widget showing it, ``cell`` a ``[row, column]`` of a table or
  heatmap, ``expect`` the text the pane shows there (a table cell or heatmap readout equals
  it; a label's text contains it).

Every text is written in the project's own words. Loading is O(size of the files).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import SubwordScopeError

DATA_DIR = Path(__file__).with_name("data")
PANE_NAMES = ("alignment", "merges", "positions", "pooling", "compare", "retrieval")
STEP_KEYS = {"title", "pane", "tokenizer", "state", "inputs", "why", "question", "figure", "items", "try"}


class LessonError(SubwordScopeError):
    """A lesson file that cannot be read or is not a lesson (the message names the file and
    the step)."""


@dataclass(frozen=True)
class Figure:
    """The value a step points the class at: shown by the widget at dotted path ``widget``
    (in a table or heatmap, at ``cell = (row, column)``); ``expect`` is that shown text."""

    label: str
    widget: str
    expect: str
    cell: tuple[int, int] | None = None


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a pane in an exact state, why, the question and the figure."""

    title: str
    pane: str
    why: str
    question: str
    figure: Figure
    tokenizer: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, Any] = field(default_factory=dict)
    items: tuple[str, ...] = ()
    try_it: bool = False


@dataclass(frozen=True)
class Lesson:
    """An ordered list of steps; ``name`` (used by ``--lesson``) is the file's stem without
    its ordering prefix (``01_offsets.json`` → ``offsets``)."""

    name: str
    title: str
    chapter: str
    steps: tuple[Step, ...]


def _need(raw: dict, key: str, kind: type, where: str) -> Any:
    value = raw.get(key)
    if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
        raise LessonError(f"{where}: '{key}' must be a non-empty {kind.__name__}")
    return value


def _figure(raw: Any, where: str) -> Figure:
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: 'figure' must be an object with label, widget and expect")
    cell = raw.get("cell")
    if cell is not None and not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(v, int) for v in cell)):
        raise LessonError(f"{where}: figure 'cell' must be [row, column]")
    return Figure(_need(raw, "label", str, where), _need(raw, "widget", str, where),
                  _need(raw, "expect", str, where), tuple(cell) if cell else None)


def _step(raw: Any, where: str) -> Step:
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: a step must be an object")
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise LessonError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    pane = _need(raw, "pane", str, where)
    if pane not in PANE_NAMES:
        raise LessonError(f"{where}: no pane called {pane!r}; panes: {', '.join(PANE_NAMES)}")
    for key in ("state", "inputs"):
        if not isinstance(raw.get(key, {}), dict):
            raise LessonError(f"{where}: '{key}' must be an object")
    items = raw.get("items", [])
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise LessonError(f"{where}: 'items' must be a list of item ids")
    tokenizer = raw.get("tokenizer")
    if tokenizer is not None and not isinstance(tokenizer, str):
        raise LessonError(f"{where}: 'tokenizer' must be a name")
    return Step(_need(raw, "title", str, where), pane, _need(raw, "why", str, where),
                _need(raw, "question", str, where), _figure(raw.get("figure"), where), tokenizer,
                dict(raw.get("state", {})), dict(raw.get("inputs", {})), tuple(items),
                bool(raw.get("try", False)))


def read_lesson(path: str | Path) -> Lesson:
    """The lesson in JSON file ``path``.

    Raises
    ------
    LessonError
        If the file is unreadable, not JSON, or a step misses or mistypes a key.
    """
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LessonError(f"{path.name}: cannot read the lesson: {exc}") from exc
    if not isinstance(raw, dict):
        raise LessonError(f"{path.name}: a lesson is a JSON object")
    steps = raw.get("steps")
    if not isinstance(steps, list) or not steps:
        raise LessonError(f"{path.name}: 'steps' must be a non-empty list")
    name = path.stem.split("_", 1)[1] if path.stem[:2].isdigit() and "_" in path.stem else path.stem
    return Lesson(name, _need(raw, "title", str, path.name), _need(raw, "chapter", str, path.name),
                  tuple(_step(s, f"{path.name} step {i + 1}") for i, s in enumerate(steps)))


def load_lessons(folder: str | Path = DATA_DIR) -> dict[str, Lesson]:
    """Every lesson in ``folder`` (``*.json``), by name, in the order of their file names
    (``01_offsets.json`` … keep the course order).

    Raises
    ------
    LessonError
        If a file is not a lesson (see :func:`read_lesson`).
    """
    lessons = [read_lesson(p) for p in sorted(Path(folder).glob("*.json"))]
    return {lesson.name: lesson for lesson in lessons}
