"""Several tokenizers over one text: counts per tokenizer and where their boundaries differ.

What the Alignment pane's side-by-side rows show: each tokenizer's token count, code points
per token, unknown-token count, its token spans, and which of its boundaries the other
tokenizers do not share (from :mod:`core.align.span_diff`). Positions are code points of
the original text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from core.align.span_diff import boundaries, differing_boundaries
from core.align.specials import IN_TEXT, special_ids, special_sources
from core.errors import Cancelled


@dataclass(frozen=True)
class TokenizerRow:
    """One tokenizer's encoding of the shared text.

    Attributes
    ----------
    name : str
    tokens : int
        Tokens that are not special tokens.
    chars_per_token : float
        Code points of the text per (non-special) token; 0.0 for no tokens.
    unknown : int
        Tokens that are the model's unknown token.
    spans : tuple of (int, int)
        Non-empty spans of the non-special tokens, in token order.
    unknown_spans : tuple of (int, int)
        The spans of the unknown tokens.
    boundaries : tuple of int
        Sorted positions where a token starts or ends.
    differing : tuple of int
        Those of :attr:`boundaries` some other row lacks (sorted).
    special_spans : tuple of (int, int)
        The spans of the special tokens written in the text (``<|im_start|>`` parsed as one
        special id, :data:`core.align.specials.IN_TEXT`), drawn as chips.
    """

    name: str
    tokens: int
    chars_per_token: float
    unknown: int
    spans: tuple[tuple[int, int], ...]
    unknown_spans: tuple[tuple[int, int], ...]
    boundaries: tuple[int, ...]
    differing: tuple[int, ...]
    special_spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class SideBySide:
    """Rows of :class:`TokenizerRow` over ``text``; ``differing`` are the boundaries some
    but not all rows have (sorted code points)."""

    text: str
    rows: tuple[TokenizerRow, ...]
    differing: tuple[int, ...]


def side_by_side(text: str, tokenizers: Sequence[tuple[str, Any]], *,
                 should_stop: Callable[[], bool] | None = None) -> SideBySide:
    """Encode ``text`` with each ``(name, tokenizer)`` and compare their boundaries.

    Cost: one encode per tokenizer plus O(tokens) per row for the sets.

    Raises
    ------
    Cancelled
        When ``should_stop()`` turns true between two tokenizers.
    TypeError
        If ``text`` is not a ``str`` (from ``Tokenizer.encode``).
    """
    encodings = []
    for _name, tokenizer in tokenizers:
        if should_stop is not None and should_stop():
            raise Cancelled()
        encodings.append(tokenizer.encode(text))
    differ = differing_boundaries(encodings)
    rows = tuple(_row(name, enc, text, differ, special_ids(tok))
                 for (name, tok), enc in zip(tokenizers, encodings))
    return SideBySide(text, rows, tuple(sorted(differ)))


def _row(name: str, enc: Any, text: str, differ: frozenset[int], specials: dict[int, str]) -> TokenizerRow:
    """One row from an encoding (``specials``: :func:`core.align.specials.special_ids`). O(tokens)."""
    n_chars = len(text)
    mask = enc.special_tokens_mask
    sources = special_sources(text, enc.tokens, enc.ids, enc.offsets, None, specials)
    in_text = tuple((int(enc.offsets[i][0]), int(enc.offsets[i][1])) for i in np.flatnonzero(sources == IN_TEXT).tolist())
    real = [i for i in range(len(enc.ids)) if not mask[i]]
    unknown = enc.unknown_mask
    spans = tuple((int(s), int(e)) for s, e in (enc.offsets[i] for i in real) if s < e)
    unk_spans = tuple((int(enc.offsets[i][0]), int(enc.offsets[i][1])) for i in real
                      if unknown[i] and enc.offsets[i][0] < enc.offsets[i][1])
    bounds = boundaries(enc)
    return TokenizerRow(name, len(real), n_chars / len(real) if real else 0.0,
                        sum(1 for i in real if unknown[i]), spans, unk_spans,
                        tuple(sorted(bounds)), tuple(sorted(bounds & differ)), in_text)
