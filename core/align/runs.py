"""Runs of plain tokens matched in one step: the cursor walk's fast path (no Qt).

Between two unknown or special tokens, every token of a list matches at one place or not at
all, so a run of them can be checked at once: their pieces joined are compared with the text
in one C call and their spans follow from the pieces' lengths (numpy). Where the check
fails, the walk matches the run token by token as before (and finds the token that does not
fit), so the result is the token-by-token walk's, only faster (property-tested).

A token is *plain* when it is a non-empty ``str``, neither unknown nor special, with no
whitespace character. ``"bytelevel"``: plain pieces follow each other with nothing between
them. ``"wordpiece"``: a ``##`` piece follows the previous one directly, any other piece after
the whitespace at the cursor; the pieces are compared with the text's non-space characters,
then each piece's characters must be adjacent in the text and each ``##`` piece must start
where the previous one ends.

Public names: :class:`PlainRuns`, :data:`MIN_RUN`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np

MIN_RUN = 16
"""Shortest run checked at once (shorter runs cost less token by token)."""

Span = tuple[int, int]
_is_str = str.__instancecheck__


@lru_cache(maxsize=1)
def _space_codes() -> np.ndarray:
    """Every code point ``str.isspace`` calls whitespace (all are below U+3001)."""
    return np.array([c for c in range(0x3001) if chr(c).isspace()], dtype=np.uint32)


class PlainRuns:
    """The plain runs of one token list against one normalized text.

    Parameters
    ----------
    text : str
        The normalized text the walk matches tokens in (code points).
    pieces : sequence of str or None
        Per token, what it must match (a ``##`` token's piece without ``##``), or None for a
        token that is not plain.
    continuation : iterable of bool
        Per token: a ``##`` piece (``"wordpiece"`` only).
    scheme : {"bytelevel", "wordpiece"}
    min_run : int
        Shortest run matched at once (tests use 1).

    Building is O(T) for T tokens; the text's index of non-space characters is built on the
    first run checked under ``"wordpiece"``, O(N) numpy for N code points.
    """

    def __init__(self, text: str, pieces: Sequence[str | None], continuation: Iterable[bool],
                 scheme: str, min_run: int = MIN_RUN):
        if scheme not in ("bytelevel", "wordpiece"):
            raise ValueError(f"no plain runs for the {scheme!r} scheme")
        self.text, self.scheme, self.min_run = text, scheme, max(1, min_run)
        n = len(pieces)
        plain = np.fromiter(map(_is_str, pieces), bool, n)
        lens = np.zeros(n, np.int64)
        kept = [p for p in pieces if p is not None]
        lens[plain] = np.fromiter(map(len, kept), np.int64, len(kept))
        self.joined = "".join(kept)
        self.lens = lens
        self.offsets = np.zeros(n + 1, np.int64)  # where each piece starts in ``joined``
        np.cumsum(lens, out=self.offsets[1:])
        # run_end[i]: the first token at or after i that is not plain
        breaks = np.flatnonzero(~plain)
        self.run_end = np.append(breaks, n)[np.searchsorted(breaks, np.arange(n))] if n else breaks
        self.starts_run = plain & np.concatenate(([True], ~plain[:-1])) if n else plain
        self.continuation = np.fromiter(continuation, bool, n)
        self._index: tuple[str, np.ndarray, np.ndarray] | None = None

    def _nonspace(self) -> tuple[str, np.ndarray, np.ndarray]:
        """The text without whitespace, the position of each of its characters, and the
        count of non-space characters before each position (N + 1 entries)."""
        if self._index is None:
            codes = np.frombuffer(self.text.encode("utf-32-le", "surrogatepass"), np.uint32)
            keep = ~np.isin(codes, _space_codes())
            before = np.zeros(len(codes) + 1, np.int64)
            np.cumsum(keep, out=before[1:])
            kept = codes[keep].tobytes().decode("utf-32-le", "surrogatepass")
            self._index = (kept, np.flatnonzero(keep), before)
        return self._index

    def match(self, i: int, cur: int) -> list[Span] | None:
        """The spans of the plain run that starts at token ``i`` when the walk stands at
        ``cur``, when every token of it fits; None when one does not, when the run is shorter
        than ``min_run``, or when ``i`` does not start a run (the walk then matches token
        by token). O(run length) in C and numpy."""
        if not self.starts_run[i]:
            return None
        j = int(self.run_end[i])
        if j - i < self.min_run:
            return None
        a = int(self.offsets[i])
        joined = self.joined[a:int(self.offsets[j])]
        rel = self.offsets[i:j] - a
        lens = self.lens[i:j]
        if self.scheme == "bytelevel":
            if not self.text.startswith(joined, cur):
                return None
            starts = rel + cur
            return list(zip(starts.tolist(), (starts + lens).tolist()))
        kept, position, before = self._nonspace()
        at = int(before[cur])
        if not kept.startswith(joined, at):
            return None
        first = position[rel + at]
        last = position[rel + at + lens - 1]
        if np.any(last - first != lens - 1):  # whitespace inside a piece's stretch
            return None
        previous_end = np.empty_like(first)
        previous_end[0] = cur
        previous_end[1:] = last[:-1] + 1
        if np.any(self.continuation[i:j] & (first != previous_end)):  # a ## piece after a space
            return None
        return list(zip(first.tolist(), (last + 1).tolist()))
