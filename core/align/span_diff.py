"""Where two tokenizations of one text disagree: token boundaries as original offsets.

A boundary is a code-point position where some token of the encoding starts or ends
(non-empty spans only). Two encodings of the same original text are compared by their
boundary sets, and by the token spans one has and the other lacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from core.errors import OffsetError


@dataclass(frozen=True)
class SpanDiff:
    """Boundaries and spans (code points of the original text) present in one side only.

    ``only_a``/``only_b``/``shared`` are sorted positions; ``spans_only_a``/``spans_only_b``
    sorted distinct ``(start, end)`` spans. ``diff(a, b)`` mirrors ``diff(b, a)``.
    """

    only_a: tuple[int, ...]
    only_b: tuple[int, ...]
    shared: tuple[int, ...]
    spans_only_a: tuple[tuple[int, int], ...]
    spans_only_b: tuple[tuple[int, int], ...]

    @property
    def empty(self) -> bool:
        return not (self.only_a or self.only_b or self.spans_only_a or self.spans_only_b)


def _spans(x: Any) -> list[tuple[int, int]]:
    offsets = x.offsets if hasattr(x, "offsets") else x
    mask = getattr(x, "special_tokens_mask", None)
    spans = []
    for i, (s, e) in enumerate(offsets):
        if s > e or s < 0:
            raise OffsetError(f"token {i} has an invalid span ({s}, {e})")
        if s < e and not (mask is not None and i < len(mask) and mask[i]):
            spans.append((int(s), int(e)))
    return spans


def boundaries(encoding_or_offsets: Any) -> frozenset[int]:
    """Positions where a non-empty, non-special token span starts or ends.

    Parameters
    ----------
    encoding_or_offsets : EncodingLike or sequence of (int, int)
        Code-point spans into the original text.

    Raises
    ------
    OffsetError
        If a span has ``start > end`` or a negative start.
    """
    return frozenset(p for s, e in _spans(encoding_or_offsets) for p in (s, e))


def span_diff(a: Any, b: Any) -> SpanDiff:
    """Compare two encodings (or offset lists) of the same text; see :class:`SpanDiff`."""
    ba, bb = boundaries(a), boundaries(b)
    sa, sb = set(_spans(a)), set(_spans(b))
    return SpanDiff(
        only_a=tuple(sorted(ba - bb)),
        only_b=tuple(sorted(bb - ba)),
        shared=tuple(sorted(ba & bb)),
        spans_only_a=tuple(sorted(sa - sb)),
        spans_only_b=tuple(sorted(sb - sa)),
    )


def differing_boundaries(encodings: Sequence[Any] | Iterable[Any]) -> frozenset[int]:
    """Boundaries that some but not all of ``encodings`` have (empty for fewer than two)."""
    sets = [boundaries(e) for e in encodings]
    if len(sets) < 2:
        return frozenset()
    return frozenset(set().union(*sets) - set.intersection(*map(set, sets)))
