"""Digit grouping schemes: how a tokenizer may cut a run of digits before any merge.

Frequency-learned merges group digits arbitrarily (one number is one token, the next splits
into odd pieces); two fixes give every number the same place-value layout:

- ``"per-digit"`` — every digit its own piece (Llama 1/2, Gemma and others);
- ``"right-to-left"`` — groups of three counted from the units end, so the units, thousands,
  millions … always fall in the same slot (``12345 → 12 · 345``);

and ``"left-to-right"`` — groups of three from the left, what the GPT-4 / Llama 3 pre-tokenizer
pattern ``\\p{N}{1,3}`` does (``12345 → 123 · 45``), shown for contrast. A *number* is a maximal
run of decimal digits (``str.isdecimal`` per code point: any script's digits). Positions are
code-point offsets; spans are half-open.
"""

from __future__ import annotations

import re

from core.errors import SubwordScopeError

SCHEMES = ("per-digit", "right-to-left", "left-to-right")
_NUMBER = re.compile(r"\d+")  # str patterns: \d is any Unicode decimal digit


class DigitSchemeError(SubwordScopeError):
    """An unknown digit-grouping scheme."""


def number_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every maximal run of decimal digits in ``text``. O(len(text))."""
    return [m.span() for m in _NUMBER.finditer(text)]


def group_digits(number: str, scheme: str) -> list[str]:
    """The pieces ``number`` (a run of digits) is cut into under ``scheme`` (their
    concatenation is ``number``). O(len(number)).

    Raises :class:`DigitSchemeError` for a scheme not in :data:`SCHEMES`.
    """
    if scheme == "per-digit":
        return list(number)
    if scheme == "left-to-right":
        return [number[i:i + 3] for i in range(0, len(number), 3)]
    if scheme == "right-to-left":
        head = len(number) % 3
        return ([number[:head]] if head else []) + [number[i:i + 3] for i in range(head, len(number), 3)]
    raise DigitSchemeError(f"unknown digit grouping {scheme!r}: choose one of {', '.join(SCHEMES)}")
