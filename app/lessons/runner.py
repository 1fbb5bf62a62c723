"""Apply a lesson step to the main window: the tokenizer, the pane, its stored state, the
further inputs; then read the step's figure as the pane shows it.

The window is used through what it offers every caller: ``panes``, ``show_pane(name)``,
``load_tokenizer(path, wait=...)``, ``use_demo_tokenizer()`` and its ``settings``
(``tokenizer/current`` names the tokenizer shown).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QAbstractButton

from app.lessons.figures import input_value, resolve, set_input, shown_text
from app.lessons.model import LessonError, Step
from app.panes.base import Pane
from app.settings import TEACHING_TOKENIZER
from app.workers import wait_until_settled
from core.data import builtin_name, builtin_tokenizer, builtin_tokenizers

TEACHING = "teaching"  # a step's tokenizer: the 15-entry teaching vocabulary


def use_tokenizer(window: Any, name: str, *, wait: bool) -> None:
    """Show tokenizer ``name`` (``"teaching"`` or a built-in name) in every pane, unless it
    is shown already. Raises :class:`LessonError` for another name."""
    current = str(window.settings.value("tokenizer/current") or "")
    if name == TEACHING:
        if current != TEACHING_TOKENIZER:
            window.use_demo_tokenizer()
        return
    if name not in builtin_tokenizers():
        raise LessonError(f"no built-in tokenizer {name!r}; use one of {', '.join(builtin_tokenizers())} or {TEACHING!r}")
    if builtin_name(current) != name:
        window.load_tokenizer(str(builtin_tokenizer(name)), wait=wait)


def settle(pane: Pane, timeout_ms: int = 120_000) -> bool:
    """Wait (running the event loop) until ``pane`` shows the result of its state."""
    wait = getattr(pane, "wait_until_idle", None)
    if wait is not None and not wait(timeout_ms):
        return False
    return wait_until_settled(pane, timeout_ms)


def apply_step(window: Any, step: Step, *, wait: bool = False) -> Any:
    """Put ``step``'s pane in the step's state and bring it to the front; return the pane.
    With ``wait`` the tokenizer loads on the GUI thread and the call returns once the pane
    has computed (screenshots, tests).

    Raises
    ------
    LessonError
        If the step names a tokenizer, widget or item the app does not have.
    app.panes.stored.StateValueError
        If its state names an unknown field or a refused value.
    """
    if step.tokenizer:
        use_tokenizer(window, step.tokenizer, wait=wait)
    window.show_pane(step.pane)
    pane = window.panes[step.pane]
    if step.state:
        pane.apply_lesson_state(step.state)
    for path, value in step.inputs.items():
        set_input(resolve(pane, path), value)
    if wait:
        settle(pane)
    return pane


def state_differences(pane: Pane, step: Step) -> list[str]:
    """What of ``step``'s state and inputs the pane does not hold now ("" parts: none)."""
    out = []
    state = pane.state.to_dict() if step.state else {}
    for key, value in step.state.items():
        held = state.get(key)
        if isinstance(value, dict) and isinstance(held, dict):  # a nested state: the keys named
            held = {k: held.get(k) for k in value}
        if held != value:
            out.append(f"{key} is {held!r}, the step sets {value!r}")
    for path, value in step.inputs.items():
        widget = resolve(pane, path)
        if isinstance(widget, QAbstractButton) and not widget.isCheckable():
            continue  # a button pressed (Step ▶): nothing to hold
        held = input_value(widget)
        if held != value:
            out.append(f"{path} holds {held!r}, the step sets {value!r}")
    return out


def figure_text(pane: Pane, step: Step) -> str:
    """The text the pane shows where ``step``'s figure is."""
    return shown_text(resolve(pane, step.figure.widget), step.figure.cell)
