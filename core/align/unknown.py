"""The cursor walk with unknown tokens: where does an ``[UNK]`` end? (no Qt).

An unknown token (``[UNK]``, ``<unk>``) stands for text the model had no piece for: for
BERT a whole pre-tokenized word or one CJK ideograph, for a SentencePiece Unigram model a
run of unknown characters inside a word, of any length. So its end is searched: after
skipping spaces it covers one to all characters up to the next whitespace, tried in this
order — the pre-tokenized unit at the cursor first (a single CJK ideograph, one punctuation
character, or a run of other non-space characters, as BERT cuts words), then every shorter or longer
run, shortest first — and the first end that lets the rest of the token list align wins.

The search backtracks over the unknown tokens only (every other token matches at one place
or not at all) and remembers dead states, a (token index, cursor) pair from which the rest
cannot align, so none is expanded twice. An end is only tried where the next token fits
(one-token lookahead), so on real token lists each unknown token costs the length of its run
and the walk stays linear. A step budget of ``8 (T + N) + 10,000`` token matches bounds the
adversarial case (T tokens, N code points): past it the furthest failure is reported.

Public names: :func:`walk`, :class:`Failure`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import regex

from core.errors import Cancelled

Span = tuple[int, int]
_CJK = r"\p{Unified_Ideograph}\u3400-\u4dbf\uf900-\ufaff\U00020000-\U0003134f"
_PUNCT = r"\p{P}!-/:-@\[-`{-~"  # what BERT's pre-tokenizer splits off: Unicode P*, ASCII symbols
_SPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"  # str.isspace
_UNIT = regex.compile(rf"[{_CJK}]|[^{_SPACE}{_PUNCT}{_CJK}]+|[^{_SPACE}]")
_STOP_EVERY = 1024  # steps between two should_stop() calls


@dataclass(frozen=True)
class Failure:
    """Where the walk got furthest before a token did not fit: ``token_index`` and the
    normalized ``cursor`` (code points) it was expected at."""

    token_index: int
    cursor: int


@dataclass
class _Choice:
    index: int  # the unknown token's index
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


def _run_end(text: str, start: int) -> int:
    """End of the run of non-space characters at ``start``. O(length of the run)."""
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    return end


def _ends(text: str, start: int) -> Iterator[int]:
    """Candidate ends of an unknown token's run at ``start``, in the order tried."""
    first = unit_end(text, start)
    if first == start:
        return
    yield first
    last = _run_end(text, start)
    for end in range(start + 1, last + 1):
        if end != first:
            yield end


def walk(text: str, tokens: Sequence[str], match: Callable[[int, int], Span | None],
         is_unknown: Sequence[bool], *, should_stop: Callable[[], bool] | None = None,
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
        Polled every 1,024 steps; True raises :class:`~core.errors.Cancelled`.

    Returns
    -------
    list of (int, int) or Failure
        T normalized spans, or where the walk got furthest (the highest token index).

    Raises
    ------
    Cancelled
        When ``should_stop()`` returns True.

    Complexity: O(T + N) steps on token lists whose unknown tokens are settled by the next
    token, at most ``8 (T + N) + 10,000`` matches otherwise (then a Failure is returned).
    """
    n = len(tokens)
    spans: list[Span] = []
    stack: list[_Choice] = []
    dead: set[tuple[int, int]] = set()
    best = Failure(0, 0)
    budget = 8 * (n + len(text)) + 10_000
    steps, i, cur = 0, 0, 0
    while i < n:
        steps += 1
        if should_stop is not None and steps % _STOP_EVERY == 0 and should_stop():
            raise Cancelled("alignment cancelled")
        if not is_unknown[i]:
            span = match(i, cur)
            if span is not None:
                spans.append(span)
                i, cur = i + 1, span[1]
                continue
        elif (i, cur) not in dead:
            start = _skip_spaces(text, cur)
            ends = _fitting(text, start, i, n, match, is_unknown, dead)
            first = next(ends, None)
            if first is not None:
                stack.append(_Choice(i, cur, start, itertools.chain([first], ends)))
                i, cur = _backtrack(stack, spans, dead)  # takes ``first``
                continue
        if i > best.token_index or (i == best.token_index and cur > best.cursor):
            best = Failure(i, cur)
        moved = _backtrack(stack, spans, dead)
        if moved is None or steps > budget:
            return best
        i, cur = moved
    return spans


def _fitting(text: str, start: int, i: int, n: int, match: Callable[[int, int], Span | None],
             is_unknown: Sequence[bool], dead: set[tuple[int, int]]) -> Iterator[int]:
    """The candidate ends of unknown token ``i`` at which the next token fits."""
    for end in _ends(text, start):
        if (i + 1, end) in dead:
            continue
        if i + 1 == n or is_unknown[i + 1] or match(i + 1, end) is not None:
            yield end


def _backtrack(stack: list[_Choice], spans: list[Span],
               dead: set[tuple[int, int]]) -> tuple[int, int] | None:
    """Move to the next untried end of the latest unknown token; None when none is left.
    Marks the abandoned states dead."""
    while stack:
        top = stack[-1]
        if top.tried >= 0:
            dead.add((top.index + 1, top.tried))
        end = next(top.ends, None)
        if end is None:
            dead.add((top.index, top.cursor))
            stack.pop()
            continue
        top.tried = end
        del spans[top.index:]
        spans.append((top.start, end))
        return top.index + 1, end
    return None
