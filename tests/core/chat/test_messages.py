"""Messages JSON that the reader cannot hold is a typed error, not a ValueError."""

from __future__ import annotations

import pytest

from core.chat.errors import MessagesError
from core.chat.messages import parse_messages


@pytest.mark.parametrize("text", ["[" + "9" * 5000 + "]", "[" * 100_000 + "]" * 100_000],
                         ids=["a 5,000-digit number", "nested 100,000 deep"])
def test_json_a_reader_cannot_hold_is_a_messages_error(text):
    with pytest.raises(MessagesError, match="number too long or nesting too deep"):
        parse_messages(text)
