"""Character-class pre-tokenizers: Punctuation and Digits, with the reference's behaviours.

Spans are code points of the normalized text.
"""

from __future__ import annotations

from typing import Any

import regex

from core.errors import TokenizerLoadError
from core.tokenizers import chars
from core.tokenizers.pre_tokenizers.base import BEHAVIORS, PreTokenizer, Words


class ClassSplit(PreTokenizer):
    """Split around characters of one class, with one of the reference's behaviours.

    Raises
    ------
    TokenizerLoadError
        For an unknown behaviour.
    """

    def __init__(self, char_class: str, behavior: str, type_name: str, **shown: Any):
        if behavior not in BEHAVIORS:
            raise TokenizerLoadError(f"unknown split behavior {behavior!r}; use one of {BEHAVIORS}")
        self.type_name, self.behavior, self._shown = type_name, behavior, shown
        plus = "+" if behavior == "Contiguous" else ""
        self._delims = regex.compile(f"[{char_class}]{plus}").finditer

    def settings(self) -> dict[str, Any]:
        return {"behavior": self.behavior, **self._shown}

    def split(self, text: str) -> Words:
        spans = split_spans(text, [m.span() for m in self._delims(text)], self.behavior)
        return [text[a:b] for a, b in spans], [a for a, _ in spans]


def split_spans(text: str, delims: list[tuple[int, int]], behavior: str) -> list[tuple[int, int]]:
    """Pieces of ``text`` around the sorted delimiter spans, per ``behavior``; no empties."""
    out: list[tuple[int, int]] = []
    pos = 0
    pending = None  # start of a delimiter waiting to merge with the next piece
    for a, b in delims:
        if behavior == "MergedWithPrevious":
            out.append((pos, b))
        elif behavior == "MergedWithNext":
            out.append((pending if pending is not None else pos, a))
            pending = a
            continue
        else:
            out.append((pos, a))
            if behavior != "Removed":
                out.append((a, b))
        pos = b
    if behavior == "MergedWithNext":
        out.append((pending if pending is not None else pos, len(text)))
    else:
        out.append((pos, len(text)))
    return [(a, b) for a, b in out if b > a]


def punctuation(behavior: str = "Isolated") -> ClassSplit:
    """Punctuation: split around BERT's punctuation characters."""
    return ClassSplit(chars.BERT_PUNCTUATION_CLASS, behavior, "Punctuation")


def digits(individual_digits: bool = False) -> ClassSplit:
    """Digits: each digit alone (``individual_digits``) or runs of digits kept together."""
    behavior = "Isolated" if individual_digits else "Contiguous"
    return ClassSplit(r"\p{Nd}\p{Nl}\p{No}", behavior, "Digits",
                      individual_digits=individual_digits)
