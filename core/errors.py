"""Typed errors raised by ``core``. Each is a ``ValueError`` with a message a user can act on."""

from __future__ import annotations


class SubwordScopeError(ValueError):
    """Base class of every error ``core`` raises on bad input."""


class TokenizerLoadError(SubwordScopeError):
    """A tokenizer file is missing, unreadable, malformed or uses an unsupported component.

    Attributes
    ----------
    path : str | None
        The file the error is about, when there is one.
    """

    def __init__(self, message: str, path: str | None = None):
        self.path = None if path is None else str(path)
        super().__init__(f"{self.path}: {message}" if self.path else message)


class OffsetError(SubwordScopeError):
    """An offset is out of range or falls inside a character's encoding."""


class Cancelled(Exception):
    """Long work stopped because its ``should_stop`` callback said so.

    The one cancellation exception of the project: ``core`` functions that take
    ``should_stop: Callable[[], bool] | None`` raise it, and the app's worker treats it as a
    cancelled (not a failed) task. Not a :class:`SubwordScopeError`: it is not about bad input.
    """
