"""Typed errors raised by ``core``. Each is a ``ValueError`` with a message a user can act on."""

from __future__ import annotations

from typing import Any, Callable


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


def check_stop(should_stop: Callable[[], bool] | None) -> None:
    """Raise :class:`Cancelled` if ``should_stop`` is given and returns True (the check
    long ``core`` loops make between chunks of work)."""
    if should_stop is not None and should_stop():
        raise Cancelled("cancelled")


def map_stoppable(fn: Callable[[Any], Any], items: list, should_stop: Callable[[], bool] | None,
                  every: int = 4096) -> list:
    """``list(map(fn, items))``, asking ``should_stop`` (:func:`check_stop`) before every
    ``every`` items when there are more than that (a C-level ``map`` per chunk)."""
    if should_stop is None or len(items) <= every:
        return list(map(fn, items))
    out: list = []
    for i in range(0, len(items), every):
        check_stop(should_stop)
        out += map(fn, items[i:i + every])
    return out


class TokenizerFieldError(TokenizerLoadError):
    """A field of a tokenizer file holds a value the format does not allow.

    Raised for out-of-range ids, non-finite numbers, a flag that is not ``true``/``false``, a
    value outside its set of choices or JSON nested too deep; the message starts with the
    field's JSON path (``model.vocab["x"]``, ``normalizer.normalizers[1].lowercase``).

    Attributes
    ----------
    field : str
        The JSON path of the field (``""`` for the whole document).
    path : str | None
        The file, when known.
    """

    def __init__(self, field: str, message: str, path: str | None = None):
        self.field = field
        super().__init__(f"{field}: {message}" if field else message, path)


class PatternTimeoutError(SubwordScopeError, TimeoutError):
    """A regex that came from a file ran past its time budget (it backtracks catastrophically).

    Attributes
    ----------
    pattern : str
        The whole pattern (the message shows it truncated).
    budget_s : float
        The budget that was exceeded, in seconds.
    """

    def __init__(self, message: str, pattern: str, budget_s: float):
        self.pattern, self.budget_s = pattern, budget_s
        super().__init__(message)


class LoneSurrogateError(SubwordScopeError):
    """The text holds a lone surrogate (U+D800–U+DFFF: half of a UTF-16 pair, possible in a
    Python ``str`` but not in UTF-8), which the tokenizer format's reference library refuses.

    Attributes
    ----------
    index : int
        Its code-point index in the text.
    code_point : int
        The surrogate (0xD800–0xDFFF).
    """

    def __init__(self, index: int, code_point: int, what: str = "the text"):
        self.index, self.code_point = index, code_point
        super().__init__(
            f"{what} holds a lone surrogate U+{code_point:04X} at code point {index}, which "
            "this tokenizer's format refuses (it is not a Unicode character); remove it or "
            "replace it with U+FFFD")
