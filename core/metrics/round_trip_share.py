"""The round-trip metric: the share of a text's characters that ``decode(encode(text))`` gives back.

Each line is encoded (no special tokens), decoded (special tokens skipped) and compared with
the original by :func:`core.align.round_trip.round_trip_of`; a line's unchanged characters
are the code points of the original inside no difference (text the decoder adds costs
nothing, text it drops or changes costs its original code points). Counts add up over lines
and files; the share is unchanged / characters.

Public names: :class:`RoundTripCount`, :func:`round_trip_count`, :func:`lines_round_trip`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable

from core.align.round_trip import round_trip_of


@dataclass(frozen=True)
class RoundTripCount:
    """Code points that came back unchanged out of all, and lines that came back exactly."""

    unchanged: int = 0
    characters: int = 0
    lines: int = 0
    exact_lines: int = 0

    def __add__(self, other: "RoundTripCount") -> "RoundTripCount":
        return RoundTripCount(self.unchanged + other.unchanged, self.characters + other.characters,
                              self.lines + other.lines, self.exact_lines + other.exact_lines)

    @property
    def share(self) -> float:
        """Unchanged code points / code points; ``nan`` without characters."""
        return self.unchanged / self.characters if self.characters else math.nan


def can_decode(tokenizer: Any) -> bool:
    """Whether ``tokenizer`` has a ``decode`` (objects without one get no round-trip metric)."""
    return callable(getattr(tokenizer, "decode", None))


def round_trip_count(tokenizer: Any, text: str, encoding: Any = None) -> RoundTripCount:
    """The count of one text (one line); ``encoding`` is ``tokenizer.encode(text)`` when
    the caller has it already.

    Raises
    ------
    core.align.round_trip.RoundTripError
        If ``tokenizer`` cannot decode.
    """
    rt = round_trip_of(tokenizer, text, encoding=encoding)
    return RoundTripCount(rt.unchanged_characters, len(text), 1, int(rt.exact))


def lines_round_trip(tokenizer: Any, lines: Iterable[str]) -> RoundTripCount | None:
    """The sum over ``lines`` (each encoded on its own), or None when ``tokenizer`` cannot
    decode. O(total length) plus the tokenizer's encode and decode."""
    if not can_decode(tokenizer):
        return None
    total = RoundTripCount()
    for line in lines:
        total = total + round_trip_count(tokenizer, line)
    return total
