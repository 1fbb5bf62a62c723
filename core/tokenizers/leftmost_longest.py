"""Leftmost-longest, non-overlapping search for a set of strings in one pass.

This is how the reference library finds added tokens (an Aho–Corasick automaton in
``MatchKind::LeftmostLongest``): the match that starts first wins, among those starting at
the same place the longest, and the search goes on after it. Here a compiled character
class jumps to the next character a string can start with (text holding none of them is
skipped at C speed); there, the strings are looked up in a hash table, longest first,
among the lengths of the strings that begin with the same two characters (the same three,
where those come in many lengths: ``<|s`` narrows Llama 3's 256 strings to a few). That
costs a few C-level slices per place where a string could start instead of one Python step
per character read (a chat prompt's ``<|start_header_id|>`` is one lookup, not nineteen
steps).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from core.errors import check_stop

#: Code points scanned between two ``should_stop`` checks (a fraction of a millisecond).
STOP_CHECK_CHARS = 8192
#: Strings that begin with the same two characters and come in more than this many lengths
#: are told apart by their third character too.
NARROW = 4


class LeftmostLongest:
    """A matcher over ``patterns`` (code-point strings; empty ones never match; a string
    listed twice is reported as its first index).

    Building is O(total length of the patterns). :meth:`find` is O(n) for n code points of
    text, plus at each place where a pattern could start (its first character is one a
    pattern starts with) one hash lookup for each distinct length of the patterns that
    begin with the two characters there (or three, :data:`NARROW`): O(n·H) in the worst
    case for H such lengths (at most the longest pattern's length; 30 for Gemma 3's runs of
    ``▁``), independent of how many patterns there are.
    """

    def __init__(self, patterns: Sequence[str]):
        index: dict[str, int] = {}
        for k, p in enumerate(patterns):
            if p and p not in index:
                index[p] = k
        by_head: dict[str, list[str]] = {}
        for p in index:
            if len(p) > 1:
                by_head.setdefault(p[:2], []).append(p)
        self._index = index
        self._singles = {p: k for p, k in index.items() if len(p) == 1}
        self._lengths: dict[str, Any] = {}
        for head, group in by_head.items():
            lengths = set(map(len, group))
            if len(lengths) <= NARROW:
                self._lengths[head] = sorted(lengths, reverse=True)
                continue
            # many lengths (Llama 3's 256 strings all begin "<|"): narrowed by the third
            # character; "" for a third character no string has (or none)
            by_third: dict[str, set[int]] = {"": set()}
            for p in group:
                by_third.setdefault(p[2:3], set()).add(len(p))
            two = {2} if head in index else set()  # the two characters alone, last
            self._lengths[head] = {c: sorted(ls | two, reverse=True)
                                   for c, ls in by_third.items()}
        lead = "".join(sorted({p[0] for p in index}))
        self._lead = re.compile(f"[{re.escape(lead)}]") if lead else None

    def find(self, text: str,
             should_stop: Callable[[], bool] | None = None) -> list[tuple[int, int, int]]:
        """Every leftmost-longest, non-overlapping match in ``text``: ``(start, end, k)`` in
        code points, ``k`` the index of the pattern, in text order.

        ``should_stop`` is asked every :data:`STOP_CHECK_CHARS` code points scanned; True
        raises :class:`core.errors.Cancelled`. Cost: see the class docstring.
        """
        found: list[tuple[int, int, int]] = []
        if self._lead is None:
            return found
        search, index, singles, lengths = (self._lead.search, self._index, self._singles,
                                           self._lengths)
        n = len(text)
        pos = 0
        check_at = STOP_CHECK_CHARS if should_stop is not None else n + 1
        while True:
            m = search(text, pos)
            if m is None:
                return found
            j = m.start()
            if j >= check_at:
                check_stop(should_stop)
                check_at = j + STOP_CHECK_CHARS
            pos = j + 1
            sizes = lengths.get(text[j:j + 2], ())
            if type(sizes) is dict:  # narrowed by the third character
                sizes = sizes.get(text[j + 2:j + 3]) or sizes[""]
            for size in sizes:  # longest first
                if j + size <= n:
                    k = index.get(text[j:j + size])
                    if k is not None:
                        found.append((j, j + size, k))
                        pos = j + size
                        break
            else:
                k = singles.get(text[j])
                if k is not None:
                    found.append((j, pos, k))
