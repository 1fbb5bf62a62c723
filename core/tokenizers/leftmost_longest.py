"""Leftmost-longest, non-overlapping search for a set of strings in one pass (Aho–Corasick).

This is how the reference library finds added tokens (an Aho–Corasick automaton in
``MatchKind::LeftmostLongest``): the match that starts first wins, among those starting at
the same place the longest, and the search goes on after it. The automaton here is a trie
of the strings with failure links (Aho & Corasick, "Efficient string matching", CACM 1975);
between matches a compiled character class jumps to the next character a string can start
with, so text holding none of them is skipped at C speed.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Callable, Sequence

from core.errors import check_stop

#: Code points scanned between two ``should_stop`` checks (a fraction of a millisecond).
STOP_CHECK_CHARS = 8192


class LeftmostLongest:
    """An automaton over ``patterns`` (code-point strings; empty ones never match).

    Building is O(total length of the patterns). :meth:`find` is O(n) for n code points of
    text plus, after each match, a rescan of what was read past its end while a longer
    match was still possible: at most L - 1 code points for the longest pattern's length L
    (the reference restarts the same way), so O(n·L) in the worst case and independent of
    how many patterns there are.
    """

    def __init__(self, patterns: Sequence[str]):
        goto: list[dict[str, int]] = [{}]
        depth = [0]
        out = [-1]  # per state: the longest pattern that is a suffix of its string, or -1
        for k, p in enumerate(patterns):
            if not p:
                continue
            s = 0
            for c in p:
                nxt = goto[s].get(c)
                if nxt is None:
                    nxt = goto[s][c] = len(goto)
                    goto.append({})
                    depth.append(depth[s] + 1)
                    out.append(-1)
                s = nxt
            if out[s] < 0:
                out[s] = k
        fail = [0] * len(goto)
        queue = deque(goto[0].values())
        while queue:  # breadth first: a state's failure target is shallower and done
            s = queue.popleft()
            for c, t in goto[s].items():
                f = fail[s]
                while f and c not in goto[f]:
                    f = fail[f]
                ft = goto[f].get(c, 0) if s else 0
                fail[t] = ft
                if out[t] < 0:
                    out[t] = out[ft]
                queue.append(t)
        self._goto, self._fail, self._depth, self._out = goto, fail, depth, out
        self._out_len = [len(patterns[k]) if k >= 0 else 0 for k in out]
        lead = "".join(sorted(goto[0]))
        self._lead = re.compile(f"[{re.escape(lead)}]") if lead else None

    def find(self, text: str,
             should_stop: Callable[[], bool] | None = None) -> list[tuple[int, int, int]]:
        """Every leftmost-longest, non-overlapping match in ``text``: ``(start, end, k)`` in
        code points, ``k`` the index of the pattern, in text order.

        ``should_stop`` is asked every :data:`STOP_CHECK_CHARS` code points scanned; True
        raises :class:`core.errors.Cancelled`. Cost: see the class docstring.
        """
        out_found: list[tuple[int, int, int]] = []
        if self._lead is None:
            return out_found
        goto, fail, depth, out, out_len = (self._goto, self._fail, self._depth, self._out,
                                           self._out_len)
        search = self._lead.search
        n = len(text)
        pos = 0
        check_at = STOP_CHECK_CHARS if should_stop is not None else n + 1
        while True:
            m = search(text, pos)
            if m is None:
                return out_found
            j = m.start()
            state = 0
            cs = ce = ck = -1  # the candidate: leftmost start, then longest
            while j < n:
                if j >= check_at:
                    check_stop(should_stop)
                    check_at = j + STOP_CHECK_CHARS
                c = text[j]
                nxt = goto[state].get(c)
                while nxt is None and state:
                    state = fail[state]
                    nxt = goto[state].get(c)
                j += 1
                if nxt is None:  # back at the root: nothing read so far can still match
                    break
                state = nxt
                # every pattern still possible starts at or after j - depth[state]
                if cs >= 0 and j - depth[state] > cs:
                    break
                k = out[state]
                if k >= 0:
                    s = j - out_len[state]
                    if cs < 0 or s <= cs:
                        cs, ce, ck = s, j, k
            if cs < 0:
                pos = j
                continue
            out_found.append((cs, ce, ck))
            pos = ce
