"""What every pane offers the main window: the :class:`Pane` base class and :func:`run_alone`."""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QApplication, QWidget

from app.panes.stored import StoredState, merged_state
from app.settings import Check, open_settings, read_state, write_state
from app.widgets.qt_messages import quiet_qt_messages
from app.workers import favour_the_gui_thread
from core.tokenizers import TokenizerLike


class Pane(QWidget):
    """Base class of the app's panes (tabs of the main window).

    A pane keeps its own state as a :attr:`state_class` (a
    :class:`~app.panes.stored.StoredState`) in the app's one store, ``state.json``, under
    ``"<key>/state"`` (:meth:`restored_state`, :meth:`store_state`), renders from ``core``
    results, and reports short messages through :attr:`sig_status_requested`. It never
    imports another pane.
    """

    title: str = "Pane"
    key: str = "pane"
    state_class: type[StoredState] | None = None  # None: the pane keeps no state object
    #: ``settings.ini`` keys an older version of the pane kept (the pane moves them into its
    #: state once) and what a readable value looks like (``app.settings.CHECKS``'s form)
    legacy_checks: dict[str, Check] = {}

    sig_status_requested = Signal(str)  # a short message for the status bar

    def __init__(self, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings

    @property
    def state_key(self) -> str:
        """Where the pane's state object is stored: ``"<key>/state"``."""
        return f"{self.key}/state"

    def restored_state(self) -> Any:
        """The :attr:`state_class` stored by the last run (each field checked; defaults
        for what is missing or bad)."""
        return self.state_class.from_dict(read_state(self.settings, self.state_key, None))

    def store_state(self, state: StoredState, delay: float = 0.0) -> None:
        """Save ``state`` to ``state.json`` (atomically, off the GUI thread), ``delay``
        seconds from now unless stored again before (:func:`app.settings.write_state`)."""
        write_state(self.settings, self.state_key, state.to_dict(), delay)

    def save_state(self) -> None:
        """Write what should survive a restart (default: nothing)."""

    def set_tokenizer(self, tokenizer: TokenizerLike, label: str) -> None:
        """The user chose a tokenizer (a ``core.tokenizers`` object) named ``label``."""

    def apply_lesson_state(self, values: dict[str, Any]) -> None:
        """Put the pane in the state a lesson step names: ``values`` (fields of
        :attr:`state_class`) replace those of the current state, checked by the stored-state
        protocol (:func:`app.panes.stored.merged_state`); the widgets then show it and the pane
        recomputes (on its workers, as after a user's edit).

        Raises
        ------
        app.panes.stored.StateValueError
            If a field is unknown or a value refused.
        NotImplementedError
            If the pane keeps no state object.
        """
        if self.state_class is None:
            raise NotImplementedError(f"the {self.title} pane keeps no state object")
        self.state = merged_state(self.state, values)
        self.show_state()

    def show_state(self) -> None:
        """Write :attr:`state` into the widgets and recompute (each pane with a state class)."""
        raise NotImplementedError


def run_alone(pane_cls: type[Pane], width: int = 1400, height: int = 900) -> int:
    """Show one pane in its own window (``python -m app.panes.<name>``); return the
    exit code. The pane reads and writes the app's usual settings."""
    quiet_qt_messages()
    favour_the_gui_thread()
    app = QApplication.instance() or QApplication(sys.argv)
    pane = pane_cls(open_settings())
    pane.setWindowTitle(f"Subword Scope — {pane.title}")
    pane.resize(width, height)
    pane.show()
    code = app.exec()
    pane.save_state()
    return code
