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
