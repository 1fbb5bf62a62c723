"""Typed errors of :mod:`core.chat`: each a ``ValueError`` (through
:class:`core.errors.SubwordScopeError`) with a message a user can act on."""

from __future__ import annotations

from core.errors import SubwordScopeError


class ChatError(SubwordScopeError):
    """Base class of the errors of :mod:`core.chat`."""


class NoChatTemplateError(ChatError):
    """A tokenizer's folder has no chat template (no ``chat_template`` in its
    ``tokenizer_config.json``, no ``chat_template.jinja`` beside it), or no config at all.

    Attributes
    ----------
    path : str | None
        The file or folder looked in.
    """

    def __init__(self, message: str, path: str | None = None):
        self.path = None if path is None else str(path)
        super().__init__(f"{self.path}: {message}" if self.path else message)


class TemplateError(ChatError):
    """A chat template that does not parse, fails while rendering (``raise_exception``, an
    undefined name, a sandbox refusal), or a malformed ``tokenizer_config.json``.

    Attributes
    ----------
    reason : str
        The template's own message (``"Conversation roles must alternate …"``).
    line : int | None
        1-based line of the template where it failed, when known.
    """

    def __init__(self, reason: str, line: int | None = None):
        self.reason, self.line = reason, line
        where = f" (template line {line})" if line is not None else ""
        super().__init__(f"the chat template failed{where}: {reason}")


class MessagesError(ChatError):
    """A message list that is not ``[{"role": str, "content": str | list, …}, …]``
    (bad JSON, a message without a role, an empty list…).

    Attributes
    ----------
    index : int | None
        The message at fault (0-based), when one is.
    """

    def __init__(self, message: str, index: int | None = None):
        self.index = index
        super().__init__(f"message {index}: {message}" if index is not None else message)
