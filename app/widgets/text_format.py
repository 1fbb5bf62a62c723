"""Small text helpers for labels and status messages (no Qt here)."""

from __future__ import annotations


def plural(n: int, word: str, plural_word: str | None = None, *, sep: str = " ") -> str:
    """``n`` and ``word`` with the right number: ``plural(1, "token") == "1 token"``,
    ``plural(3, "token") == "3 tokens"``; ``plural_word`` for irregular plurals.

    ``n`` is shown with thousands separators (``plural(12000, "word") == "12,000 words"``).
    """
    noun = word if n == 1 else (plural_word or word + "s")
    return f"{n:,}{sep}{noun}"
