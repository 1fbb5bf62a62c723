"""The cursor walk with unknown tokens: where does an ``[UNK]`` end? (no Qt).

An unknown token (``[UNK]``, ``<unk>``) stands for text the model had no piece for: for
BERT a whole pre-tokenized word or one CJK ideograph, for a SentencePiece Unigram model a
run of unknown characters inside a word, of any length. So its end is searched: after
skipping spaces it covers one to all characters up to the next whitespace, tried in this
order — the pre-tokenized unit at the cursor first (a single CJK ideograph, one punctuation
character, or a run of other non-space characters, as BERT cuts words), then every shorter or longer
run, shortest first — and the first end that lets the rest of the token list align wins.

A group of m consecutive unknown tokens (BERT on a script it does not know gives one per
word, thousands in a row) is searched as one choice: only where the group ends matters to
the rest of the list, and m unknown tokens can cover a stretch exactly when it holds at least
m non-space characters and at most m runs of them (each token stays inside one run), a test
of two prefix counts. Its ends are tried in the same order — the end where every token takes
its pre-tokenized unit first, then every other end, shortest first — and within the group
each token takes the first end (in the order above) that leaves the rest of the group able
to reach the chosen end.

The search backtracks over the unknown tokens only (every other token matches at one place
or not at all) and remembers dead states, a (token index, cursor) pair from which the rest
cannot align, so none is expanded twice. An end is only tried where the next token fits
(one-token lookahead), so on real token lists each unknown token costs the length of its run
and the walk stays linear. A budget of ``8 (T + N) + 10,000`` token matches (T tokens, N code
points; every match counts, those that test candidate ends too) bounds the adversarial case:
past it the furthest failure is reported.

Public names: :func:`walk`, :class:`Failure`, :func:`unit_end`.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import regex

from core.errors import Cancelled

Span = tuple[int, int]
Match = Callable[[int, int], "Span | None"]
_CJK = r"\p{Unified_Ideograph}\u3400-\u4dbf\uf900-\ufaff\U00020000-\U0003134f"
_PUNCT = r"\p{P}!-/:-@\[-`{-~"  # what BERT's pre-tokenizer splits off: Unicode P*, ASCII symbols
_SPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"  # str.isspace
_UNIT = regex.compile(rf"[{_CJK}]|[^{_SPACE}{_PUNCT}{_CJK}]+|[^{_SPACE}]")
_RUN = re.compile(r"\S+")  # ``re``'s \s is str.isspace
_STOP_EVERY = 1024  # matches between two should_stop() calls


@dataclass(frozen=True)
class Failure:
    """Where the walk got furthest before a token did not fit: ``token_index`` and the
    normalized ``cursor`` (code points) it was expected at."""

    token_index: int
    cursor: int


@dataclass
class _Choice:
    index: int  # the (first) unknown token's index
    count: int  # how many consecutive unknown tokens this choice places
    cursor: int  # where the walk stood before it
    start: int  # where its run starts (after spaces)
    ends: Iterator[int]
    tried: int = -1  # the end being explored


def _skip_spaces(text: str, cur: int) -> int:
    while cur < len(text) and text[cur].isspace():
        cur += 1
    return cur


def unit_end(text: str, start: int) -> int:
    """End of the pre-tokenized unit at ``start``, as BERT's pre-tokenizer cuts words: one
    CJK ideograph, one punctuation character (Unicode P* or an ASCII symbol), or a run of
    other non-space characters (letters, marks, digits, other numbers, symbols, emoji);
    ``start`` at the end of the text or at a space: ``start``. O(length of the unit)."""
    m = _UNIT.match(text, start)
    return m.end() if m else start


def _ends(text: str, start: int, run_end: Callable[[int], int]) -> Iterator[int]:
    """Candidate ends of an unknown token's run at ``start``, in the order tried."""
    first = unit_end(text, start)
    if first == start:
        return
    yield first
    for end in range(start + 1, run_end(start) + 1):
        if end != first:
            yield end


class _Runs:
    """The runs of non-space characters of ``text``, for O(log N) questions about a stretch.
    Built on first use in O(N) (C loops: one regex scan, one running sum)."""

    def __init__(self, text: str):
        self.starts: list[int] = []
        self.ends: list[int] = []
        for m in _RUN.finditer(text):
            self.starts.append(m.start())
            self.ends.append(m.end())
        self.spaces = list(itertools.accumulate(map(str.isspace, text), initial=0))

    def run_end(self, at: int) -> int:
        """End of the run that holds ``at`` (a non-space position)."""
        return self.ends[bisect.bisect_right(self.starts, at) - 1]

    def fits(self, start: int, end: int, count: int) -> bool:
        """Can ``count`` unknown tokens cover ``[start, end)`` exactly? ``start`` is a
        non-space position; each token covers 1+ characters of one run, spaces between
        runs are skipped: at least ``count`` non-space characters and at most ``count``
        runs, and ``end`` right after a non-space character."""
        if end <= start or self.spaces[end] != self.spaces[end - 1]:
            return False
        nonspace = end - start - (self.spaces[end] - self.spaces[start])
        runs = bisect.bisect_left(self.starts, end) - bisect.bisect_right(self.starts, start) + 1
        return runs <= count <= nonspace

    def reach(self, start: int, count: int) -> int:
        """The furthest end ``count`` unknown tokens starting at ``start`` can reach: the
        end of the ``count``-th run from the one holding ``start``."""
        k = bisect.bisect_right(self.starts, start) - 1 + count - 1
        return self.ends[min(k, len(self.ends) - 1)]


class _Walk:
    """One walk's state: the text, the token count, the matcher and the work done so far."""

    def __init__(self, text: str, n: int, match: Match, is_unknown: Sequence[bool],
                 should_stop: Callable[[], bool] | None):
        self.text, self.n, self._match, self.is_unknown = text, n, match, is_unknown
        self.should_stop = should_stop
        self.work = 0
        self.budget = 8 * (n + len(text)) + 10_000
        self.dead: set[tuple[int, int]] = set()
        self._runs: _Runs | None = None
        self.group = [0] * (n + 1)  # consecutive unknown tokens from each index on: O(T)
        for i in range(n - 1, -1, -1):
            self.group[i] = self.group[i + 1] + 1 if is_unknown[i] else 0

    @property
    def runs(self) -> _Runs:
        if self._runs is None:
            self._runs = _Runs(self.text)
        return self._runs

    def tick(self) -> None:
        """Count one unit of work; poll ``should_stop`` every 1,024."""
        self.work += 1
        if not self.work % _STOP_EVERY and self.should_stop is not None and self.should_stop():
            raise Cancelled("alignment cancelled")

    def match(self, i: int, cur: int) -> Span | None:
        self.tick()
        return self._match(i, cur)

    def next_fits(self, i: int, end: int) -> bool:
        """Does the token after the unknown group ending before index ``i`` fit at ``end``?"""
        return i == self.n or self.match(i, end) is not None

    def fitting(self, i: int, start: int) -> Iterator[int]:
        """The candidate ends of the unknown token ``i`` (a group of one) at which the next
        token fits, in the order tried. O(length of the run) matches."""
        for end in _ends(self.text, start, self._run_end):
            self.tick()
            if (i + 1, end) not in self.dead and self.next_fits(i + 1, end):
                yield end

    def _run_end(self, start: int) -> int:
        return self.runs.run_end(start)

    def group_ends(self, i: int, count: int, start: int) -> Iterator[int]:
        """The candidate ends of ``count`` >= 2 consecutive unknown tokens from index ``i``
        at ``start`` where the next token fits: the end when each takes its pre-tokenized
        unit first, then the others, shortest first. O(length of the stretch they can reach)
        matches."""
        if start >= len(self.text):
            return
        runs, after = self.runs, i + count
        natural, s = start, start
        for _ in range(count):
            natural = unit_end(self.text, s) if s < len(self.text) else s
            if natural == s:
                natural = -1
                break
            s = _skip_spaces(self.text, natural)
        if natural > 0 and (after, natural) not in self.dead and self.next_fits(after, natural):
            yield natural
        for end in range(start + 1, runs.reach(start, count) + 1):
            self.tick()
            if end != natural and (after, end) not in self.dead and runs.fits(start, end, count) \
                    and self.next_fits(after, end):
                yield end

    def group_failure(self, i: int, count: int, cur: int, start: int) -> tuple[int, int]:
        """Where a group of ``count`` unknown tokens from index ``i`` that has no end gets
        furthest, as a search of each token in turn would: while the text holds a character
        per token, its last token standing as far as the others reach; otherwise the first
        token the text has no character left for, at the end of the last run."""
        if start >= len(self.text):
            return i, cur
        runs, size = self.runs, len(self.text)
        avail = size - start - (runs.spaces[size] - runs.spaces[start])
        if avail < count:
            return i + avail, runs.ends[-1]
        return i + count - 1, runs.reach(start, count - 1)

    def split(self, start: int, end: int, count: int) -> list[Span]:
        """Spans of ``count`` unknown tokens covering ``[start, end)``: each takes the first
        of its candidate ends that leaves the rest able to reach ``end``. O(stretch)."""
        spans, s = [], start
        for left in range(count - 1, 0, -1):
            for e in _ends(self.text, s, self._run_end):
                self.tick()
                nxt = _skip_spaces(self.text, e)
                if e < end and self.runs.fits(nxt, end, left):
                    spans.append((s, e))
                    s = nxt
                    break
        spans.append((s, end))
        return spans


def walk(text: str, tokens: Sequence[str], match: Match,
         is_unknown: Sequence[bool], *, should_stop: Callable[[], bool] | None = None,
         runs: Callable[[int, int], "list[Span] | None"] | None = None,
         ) -> list[Span] | Failure:
    """Match every token in turn, searching the ends of unknown tokens.

    Parameters
    ----------
    text : str
        The normalized text (code points).
    tokens : sequence of str
        T tokens (only their count is used; ``match`` knows them).
    match : callable
        ``match(i, cursor) -> (start, end) | None``: where token ``i`` (not unknown) lies in
        ``text`` when the walk stands at ``cursor``, or None when it does not fit there.
    is_unknown : sequence of bool
        One per token: an unknown token, whose run is searched.
    should_stop : callable, optional
        Polled every 1,024 matches; True raises :class:`~core.errors.Cancelled`.
    runs : callable, optional
        ``runs(i, cursor) -> spans | None``: the spans of the tokens from ``i`` on when a
        run of them is matched at once (:meth:`core.align.runs.PlainRuns.match`), the spans
        ``match`` would give them one by one; None: match token ``i`` alone. Each span
        counts as one match.

    Returns
    -------
    list of (int, int) or Failure
        T normalized spans, or where the walk got furthest (the highest token index).

    Raises
    ------
    Cancelled
        When ``should_stop()`` returns True.

    Complexity: O(T + N) matches on token lists whose unknown tokens (or groups of them) are
    settled by the next token, whether they align or not; at most ``8 (T + N) + 10,000``
    matches otherwise (then a Failure is returned), plus O(N) to index the runs of the text
    when a group of unknown tokens is met.
    """
    n = len(tokens)
    w = _Walk(text, n, match, is_unknown, should_stop)
    spans: list[Span] = []
    stack: list[_Choice] = []
    best = Failure(0, 0)
    i, cur = 0, 0
    while i < n:
        if not is_unknown[i]:
            run = runs(i, cur) if runs is not None else None
            if run:
                before, w.work = w.work, w.work + len(run)
                if should_stop is not None and before // _STOP_EVERY != w.work // _STOP_EVERY \
                        and should_stop():
                    raise Cancelled("alignment cancelled")
                spans.extend(run)
                i, cur = i + len(run), run[-1][1]
                continue
            w.work += 1  # w.tick(), inlined: this is the hot loop
            if not w.work % _STOP_EVERY and should_stop is not None and should_stop():
                raise Cancelled("alignment cancelled")
            span = match(i, cur)
            if span is not None:
                spans.append(span)
                i, cur = i + 1, span[1]
                continue
        elif (i, cur) not in w.dead:
            w.tick()
            start = _skip_spaces(text, cur)
            count = w.group[i]
            ends = w.fitting(i, start) if count == 1 else w.group_ends(i, count, start)
            first = next(ends, None)
            if first is not None:
                stack.append(_Choice(i, count, cur, start, itertools.chain([first], ends)))
                i, cur = _backtrack(stack, spans, w)  # takes ``first``
                continue
            if count > 1:
                i, cur = w.group_failure(i, count, cur, start)
        if i > best.token_index or (i == best.token_index and cur > best.cursor):
            best = Failure(i, cur)
        moved = _backtrack(stack, spans, w)
        if moved is None or w.work > w.budget:
            return best
        i, cur = moved
    for top in stack:  # the choices of the walk that got through
        if top.count > 1:
            spans[top.index : top.index + top.count] = w.split(top.start, top.tried, top.count)
    return spans


def _backtrack(stack: list[_Choice], spans: list[Span], w: _Walk) -> tuple[int, int] | None:
    """Move to the next untried end of the latest unknown token (or group); None when none
    is left. Marks the abandoned states dead."""
    while stack:
        top = stack[-1]
        after = top.index + top.count
        if top.tried >= 0:
            w.dead.add((after, top.tried))
        end = next(top.ends, None)
        if end is None:
            w.dead.add((top.index, top.cursor))
            stack.pop()
            continue
        top.tried = end
        del spans[top.index:]
        if top.count == 1:
            spans.append((top.start, end))
        else:  # split once the walk is through: only the group's end matters until then
            spans.extend(itertools.repeat((top.start, end), top.count))
        return after, end
    return None
