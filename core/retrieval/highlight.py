"""Which tokens of a hit also occur in the query: the spans a result list highlights.

A token matches when its exact string (``"education"``, ``"##tion"``) is one of the query's
tokens. Tokens without a letter or digit (punctuation) and the unknown token never match:
``[UNK]`` in a Thai query says nothing about a Thai hit's ``[UNK]``.
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

from core.errors import OffsetError
from core.retrieval._checks import RetrievalError, whole_number

_HAS_WORD = regex.compile(r"[\p{L}\p{N}]")


def _matchable(token: str, unk_token: str | None) -> bool:
    return token != unk_token and _HAS_WORD.search(token) is not None


def _strings(name: str, values) -> Sequence[str]:
    """``values`` unchanged when it is a sequence of str (O(n) check), else RetrievalError."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") \
            or not all(isinstance(v, str) for v in values):
        raise RetrievalError(f"{name} must be a sequence of str (token strings)")
    return values


def _span(token: str, span) -> tuple[int, int]:
    """``span`` as two ints; OffsetError when it is not a pair of whole numbers."""
    try:
        start, end = span
        if any(isinstance(v, bool) or int(v) != v for v in (start, end)):
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise OffsetError(f"token {token!r} has span {span!r}, not a (start, end) pair of "
                          "whole numbers") from None
    return int(start), int(end)


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
        ``tokens`` and ``offsets`` differ in length, a span is not two whole numbers, or is
        reversed, negative or beyond ``text_length``.
    RetrievalError
        ``query_tokens`` or ``tokens`` not a sequence of str, ``offsets`` not a sequence,
        ``text_length`` not None or a whole number >= 0.
    """
    query_tokens, tokens = _strings("query_tokens", query_tokens), _strings("tokens", tokens)
    if isinstance(offsets, (str, bytes)) or not hasattr(offsets, "__len__"):
        raise RetrievalError(f"offsets must be a sequence of (start, end) pairs, got {offsets!r}")
    if text_length is not None:
        text_length = whole_number("text_length", text_length, 0)
    if len(tokens) != len(offsets):
        raise OffsetError(f"{len(tokens)} tokens but {len(offsets)} offsets")
    wanted = {t for t in query_tokens if _matchable(t, unk_token)}
    out = []
    for token, span in zip(tokens, offsets):
        start, end = _span(token, span)
        if start < 0 or end < start or (text_length is not None and end > text_length):
            raise OffsetError(f"token {token!r} has span ({start}, {end}) outside the text")
        if end > start and token in wanted:
            out.append((int(start), int(end)))
    return tuple(out)
