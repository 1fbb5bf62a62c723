"""Which tokens of a hit also occur in the query: the spans a result list highlights.

A token matches when its exact string (``"education"``, ``"##tion"``) is one of the query's
tokens. Tokens without a letter or digit (punctuation) and the unknown token never match:
``[UNK]`` in a Thai query says nothing about a Thai hit's ``[UNK]``.
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

from core.errors import OffsetError

_HAS_WORD = regex.compile(r"[\p{L}\p{N}]")


def _matchable(token: str, unk_token: str | None) -> bool:
    return token != unk_token and _HAS_WORD.search(token) is not None


def matched_spans(query_tokens: Sequence[str], tokens: Sequence[str],
                  offsets: Sequence[tuple[int, int]], *, unk_token: str | None = "[UNK]",
                  text_length: int | None = None) -> tuple[tuple[int, int], ...]:
    """Spans (code points of the hit's text) of the hit's tokens that occur in the query.

    Cost: O(Q + T) for Q query tokens and T hit tokens (one set, one pass).

    Parameters
    ----------
    query_tokens : sequence of str — the query's content tokens (no special tokens).
    tokens : sequence of str — the hit's content tokens.
    offsets : sequence of (start, end) — each hit token's half-open code-point span.
    unk_token : str or None — the tokenizer's unknown token (never matched).
    text_length : int, optional — the hit text's length in code points; when given, every
        span must lie within it.

    Returns
    -------
    tuple of (start, end) — one per matching token, in token order (empty spans left out).

    Raises
    ------
    OffsetError
        ``tokens`` and ``offsets`` differ in length, or a span is reversed, negative or
        beyond ``text_length``.
    """
    if len(tokens) != len(offsets):
        raise OffsetError(f"{len(tokens)} tokens but {len(offsets)} offsets")
    wanted = {t for t in query_tokens if _matchable(t, unk_token)}
    out = []
    for token, (start, end) in zip(tokens, offsets):
        if start < 0 or end < start or (text_length is not None and end > text_length):
            raise OffsetError(f"token {token!r} has span ({start}, {end}) outside the text")
        if end > start and token in wanted:
            out.append((int(start), int(end)))
    return tuple(out)
