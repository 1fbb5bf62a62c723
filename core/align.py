"""Align a token list from any system back to spans of the original text (SPEC §2).

A cursor walks over the normalized text; each token must match at the cursor (after
skipping spaces where the scheme allows it), so a repeated word always maps to its own
occurrence. There is never a fallback to searching. Spans are half-open code-point offsets
into the *original* text, mapped through the normalizer's offset map.

Public names: :func:`align`, :class:`AlignmentError`, :data:`UNK_TOKENS`.
"""

from __future__ import annotations

from typing import Callable, Sequence

import regex

from core.errors import SubwordScopeError
from core.normalize import NormalizedText, normalize

UNK_TOKENS = frozenset({"[UNK]", "<unk>", "<UNK>", "[unk]"})
"""Token strings that stand for "whatever pre-tokenized unit is at the cursor"."""

_SPECIAL = regex.compile(r"\[[A-Z_]+\]|<\|[^|\s]+\|>|</?s>|<(?:pad|mask|bos|eos|cls|sep)>")
_UNIT = regex.compile(r"\w+|[^\w\s]")
_CONTEXT = 12  # characters of normalized text quoted in an error


class AlignmentError(SubwordScopeError):
    """A token does not fit the text at the cursor.

    Attributes
    ----------
    token_index : int
        Index of the offending token in the token list.
    token : str
        The offending token.
    cursor : int
        Position in the normalized text (code points) where it was expected.
    original_cursor : int
        The same position in the original text (code points), for highlighting.
    found : str
        Normalized text at the cursor (up to a dozen characters).
    """

    def __init__(self, token_index: int, token: str, cursor: int, original_cursor: int, found: str):
        self.token_index = token_index
        self.token = token
        self.cursor = cursor
        self.original_cursor = original_cursor
        self.found = found
        shown = found if found else "the end of the text"
        super().__init__(
            f"token {token_index} {token!r} does not match the text at position "
            f"{original_cursor} (normalized position {cursor}): found {shown!r}"
        )


def _skip_spaces(text: str, cur: int) -> int:
    while cur < len(text) and text[cur].isspace():
        cur += 1
    return cur


def _is_special(token: str) -> bool:
    return token not in UNK_TOKENS and _SPECIAL.fullmatch(token) is not None


def _match(text: str, cur: int, token: str, scheme: str) -> tuple[int, int] | None:
    """Return the normalized span ``token`` covers at ``cur``, or None when it does not fit."""
    if token in UNK_TOKENS:
        start = _skip_spaces(text, cur)
        m = _UNIT.match(text, start)
        return (start, m.end()) if m else None
    if scheme == "wordpiece" and token.startswith("##") and len(token) > 2:
        piece = token[2:]
        return (cur, cur + len(piece)) if text.startswith(piece, cur) else None
    start = _skip_spaces(text, cur)
    return (start, start + len(token)) if token and text.startswith(token, start) else None


def align(
    original: str,
    tokens: Sequence[str],
    *,
    scheme: str | None = "wordpiece",
    normalizer: Callable[[str], NormalizedText] | None = None,
) -> list[tuple[int, int]]:
    """Map each token to its half-open code-point span in ``original`` (SPEC §2).

    Parameters
    ----------
    original : str
        The text the tokens came from.
    tokens : sequence of str
        The token list, e.g. BERT's ``["zoe", "fi", "##x"]``.
    scheme : {"wordpiece", "surface"} or None
        ``"wordpiece"``: a ``##`` piece must match exactly at the cursor, any other token
        after skipping spaces. ``"surface"``: tokens are plain substrings matched after
        skipping spaces. None means ``"wordpiece"``.
    normalizer : callable, optional
        ``text -> NormalizedText``; default the teaching normalizer (:func:`normalize`) for
        ``"wordpiece"`` and no normalization for ``"surface"``.

    Returns
    -------
    list of (int, int)
        One original span per token. ``[UNK]``/``<unk>`` takes the whole pre-tokenized
        unit at the cursor (a run of word characters, or one other non-space character).
        A special token such as ``[CLS]`` or ``</s>`` that does not occur in the text gets
        an empty span at the cursor. Text left after the last token is allowed (a
        truncated encoding); :func:`uncovered` style checks belong to the audit layer.

    Raises
    ------
    AlignmentError
        At the first token that does not fit, with its index, the cursor and the text there.
    """
    scheme = scheme or "wordpiece"
    if scheme not in ("wordpiece", "surface"):
        raise SubwordScopeError(f"unknown alignment scheme {scheme!r}; use 'wordpiece' or 'surface'")
    if normalizer is None:
        nt = normalize(original) if scheme == "wordpiece" else NormalizedText.identity(original)
    else:
        nt = normalizer(original)
    text = nt.text
    spans: list[tuple[int, int]] = []
    cur = 0
    for i, token in enumerate(tokens):
        if not isinstance(token, str):
            raise AlignmentError(i, repr(token), cur, nt.to_original(cur, cur)[0], text[cur : cur + _CONTEXT])
        span = _match(text, cur, token, scheme)
        if span is None and _is_special(token):
            span = (cur, cur)
        if span is None:
            at = cur if token.startswith("##") and scheme == "wordpiece" else _skip_spaces(text, cur)
            pos = nt.to_original(at, at)[0]
            raise AlignmentError(i, token, at, pos, text[at : at + _CONTEXT])
        spans.append(nt.to_original(*span))
        cur = span[1]
    return spans
