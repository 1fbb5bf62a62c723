"""Where the main window's tokenizer loading stands (no Qt): one :class:`TokenizerLoad`
with an explicit :class:`LoadPhase`.

A load that fails before anything was chosen (a bad ``--tokenizer`` at start-up) falls back
to the remembered tokenizer, else the bundled one, and the failure stays said while the
fallback is shown; a load that fails later leaves the shown tokenizer in place. The window
runs the loads and shows the messages; this object only decides.

Public names: :class:`LoadPhase`, :class:`TokenizerLoad`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class LoadPhase(Enum):
    """Where the tokenizer loading stands."""

    UNCHOSEN = "nothing chosen"  # the start, or a fallback that failed: the teaching vocabulary stands in
    LOADING_FIRST = "loading the first choice"  # a failure falls back
    FALLING_BACK = "falling back"  # the first choice failed (``error``); the remembered or bundled one next
    LOADING = "loading"  # a tokenizer is shown; a failure keeps it
    CHOSEN = "chosen"  # a tokenizer (or the teaching vocabulary) was chosen and is shown


@dataclass
class TokenizerLoad:
    """The tokenizer loading of one window.

    Attributes
    ----------
    phase : LoadPhase
    path : str | None
        The file being loaded, or the last one asked for (None: none yet, or looking for a
        fallback).
    error : str | None
        ``FALLING_BACK``: why the first choice failed (said again once the fallback is shown).
    first_run_path : str | None
        The default tokenizer of a first run, until it has loaded.
    """

    phase: LoadPhase = LoadPhase.UNCHOSEN
    path: str | None = None
    error: str | None = None
    first_run_path: str | None = None

    @property
    def may_restore(self) -> bool:
        """Whether the remembered (else bundled) tokenizer should be loaded now: nothing was
        asked for since the start, or a fallback is wanted and not yet asked for."""
        return self.path is None and self.phase in (LoadPhase.UNCHOSEN, LoadPhase.FALLING_BACK)

    def start(self, path: str) -> None:
        """Loading ``path`` begins."""
        self.path = path
        if self.phase in (LoadPhase.UNCHOSEN, LoadPhase.LOADING_FIRST):
            self.phase = LoadPhase.LOADING_FIRST
        elif self.phase is not LoadPhase.FALLING_BACK:
            self.phase = LoadPhase.LOADING

    def loaded(self) -> str | None:
        """The tokenizer of :attr:`path` arrived and is shown; returns the first choice's
        failure when this was the fallback (None otherwise)."""
        failure = self.error if self.phase is LoadPhase.FALLING_BACK else None
        self.phase, self.error = LoadPhase.CHOSEN, None
        return failure

    def failed(self, message: str) -> str:
        """Loading failed with ``message``; returns the message to keep showing (the first
        choice's failure before a fallback's). After it, :attr:`may_restore` says whether
        to load a fallback."""
        if self.phase is LoadPhase.FALLING_BACK:  # the fallback failed too: stop on what is shown
            shown = f"{self.error} — {message}" if self.error else message
            self.phase, self.error = LoadPhase.UNCHOSEN, None
            return shown
        if self.phase in (LoadPhase.LOADING_FIRST, LoadPhase.UNCHOSEN):
            self.phase, self.path, self.error = LoadPhase.FALLING_BACK, None, message
        else:
            self.phase = LoadPhase.CHOSEN
        return message

    def choose_teaching(self) -> None:
        """The teaching vocabulary was chosen: nothing loads."""
        self.phase, self.path, self.error, self.first_run_path = LoadPhase.CHOSEN, None, None, None

    def finish_first_run(self, path: str) -> bool:
        """``path`` loaded: return whether it was the first run's default (then forgotten)."""
        if path != self.first_run_path:
            return False
        self.first_run_path = None
        return True
