"""Chat message lists: JSON in and out, checked.

A message list is ``[{"role": "system" | "user" | "assistant" | …, "content": str, …}, …]``
as ``transformers.apply_chat_template`` takes it: ``content`` may also be a list of content
blocks (``{"type": "text", "text": …}``), other keys (``tool_calls``, ``reasoning_content``,
``name``) are kept and passed to the template. Any role is accepted (templates know ``tool``,
``developer``, ``ipython``…); :data:`ROLES` are the ones an editor offers.

Public names: :func:`parse_messages`, :func:`check_messages`, :func:`messages_json`,
:data:`ROLES`.
"""

from __future__ import annotations

import json
from typing import Any

from core.chat.errors import MessagesError

__all__ = ["ROLES", "check_messages", "messages_json", "parse_messages"]

ROLES = ("system", "user", "assistant")
"""The roles a messages editor offers (any other string role is accepted too)."""


def parse_messages(text: str) -> list[dict[str, Any]]:
    """The message list held by a JSON text (a list of messages, or an object with a
    ``"messages"`` list as chat datasets store them), checked by :func:`check_messages`.

    Raises
    ------
    MessagesError
        Invalid JSON (with its line and column) or a malformed list.
    """
    if not isinstance(text, str):
        raise TypeError(f"messages must be JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise MessagesError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except (ValueError, RecursionError):  # a whole number of more than 4,300 digits; deep nesting
        raise MessagesError("not JSON this app reads: a number too long or nesting too deep") from None
    if isinstance(data, dict) and "messages" in data:
        data = data["messages"]
    return check_messages(data)


def check_messages(messages: Any) -> list[dict[str, Any]]:
    """``messages`` as a new list of new dicts, keys whose value is None dropped (as
    ``transformers`` does before rendering). O(messages).

    Raises
    ------
    MessagesError
        Not a non-empty list of objects, each with a string ``role`` and a ``content`` that
        is a string or a list of objects (or absent / null on an assistant message that
        carries ``tool_calls``).
    """
    if not isinstance(messages, (list, tuple)):
        raise MessagesError(f'expected a list of messages [{{"role": …, "content": …}}], '
                            f"not {_kind(messages)}")
    if not messages:
        raise MessagesError("the message list is empty; give at least one message")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            raise MessagesError(f'expected an object {{"role": …, "content": …}}, not {_kind(m)}', i)
        m = {k: v for k, v in m.items() if v is not None}
        role = m.get("role")
        if not isinstance(role, str) or not role.strip():
            raise MessagesError('needs a "role" (a non-empty string such as "user")', i)
        content = m.get("content")
        if content is None and "tool_calls" not in m:
            raise MessagesError('needs a "content"', i)
        if content is not None and not isinstance(content, str):
            if not isinstance(content, list) or not all(isinstance(b, dict) for b in content):
                raise MessagesError('"content" must be a string or a list of content blocks '
                                    f'({{"type": "text", "text": …}}), not {_kind(content)}', i)
        out.append(m)
    return out


def messages_json(messages: list[dict[str, Any]], *, indent: int | None = 2) -> str:
    """``messages`` as JSON text (UTF-8 characters kept, not escaped), which
    :func:`parse_messages` reads back to the same list."""
    return json.dumps(list(messages), ensure_ascii=False, indent=indent)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number" if isinstance(value, (int, float))
                                     else type(value).__name__)
