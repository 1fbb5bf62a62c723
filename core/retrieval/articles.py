"""The article structure of a UDHR-style text: heading lines, article numbers, paragraphs.

The shared UDHR files hold one title or paragraph a line, but the lines do not line up by
index: 82 to 96 lines against English's 92 (Finnish opens with four publisher's lines,
Amharic has no preamble, Japanese lacks the heading of article 23, some translations split
an article's paragraph in two). What every file keeps is the structure: numbered articles,
each under a short heading line (``Article 12``, ``12. cikk``, ``第十二条``, ``አንቀጽ፡፲፪፤``,
``סעיף יב.``, ``제 12 조``).

- **Headings.** A text's heading *marker* is the word that most short lines (at most
  :data:`HEADING_MAX_CHARS` code points) start or end with (``Article``; ``cikk``,
  ``artikla.``), or when no word is shared, the character they start with (``第`` for Chinese and Japanese);
  at least :data:`MIN_HEADINGS` lines must share it (a start word wins a tie with an end
  word). Words are split at whitespace and at
  the Ethiopic wordspace ``፡``.
- **Numbers.** Each heading's number is read with :func:`~core.retrieval.numerals.read_number`.
  Numbers out of order (a typo such as a second ``סעיף ב.`` where ``כ`` is meant) are
  dropped: the kept ones are the longest chain that leaves room for the headings between
  them. A gap whose size fits exactly (``Article premier`` before ``Article 2``) is filled;
  anything else stays unnumbered.

:mod:`core.retrieval.parallel` pairs two texts' paragraphs article by article.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import regex

from core.retrieval._checks import as_lines, whole_number
from core.retrieval.numerals import read_number

HEADING_MAX_CHARS = 40
MIN_HEADINGS = 5

_WORDS = regex.compile(r"[\s\u1361]+")


@dataclass(frozen=True)
class ArticleStructure:
    """The headings and numbered articles of one text (:func:`article_structure`).

    Attributes
    ----------
    marker : str or None — the heading word (or first character); None: no structure found.
    position : {"first", "last", "char", ""} — where the marker sits in a heading line.
    headings : tuple[int, ...] — line indices of the heading lines.
    numbers : tuple[int | None, ...] — each heading's article number (None: not known).
    sections : dict[int, tuple[int, ...]] — article number → line indices of its paragraphs.
    paragraphs : tuple[int, ...] — every line index that is not a heading.
    """

    marker: str | None
    position: str
    headings: tuple
    numbers: tuple
    sections: dict = field(hash=False)
    paragraphs: tuple


def _words(line: str) -> list[str]:
    return [w for w in _WORDS.split(line.strip()) if w]


def find_marker(lines: Sequence[str], *, max_chars: int = HEADING_MAX_CHARS,
                min_headings: int = MIN_HEADINGS) -> tuple[str | None, str]:
    """The heading marker of ``lines`` and its position (``(None, "")`` when none).

    Cost: O(total length of the short lines); one pass counts the candidates.
    """
    counts: Counter = Counter()
    for line in lines:
        words = _words(line)
        if words and len(line.strip()) <= max_chars:
            counts[("first", words[0])] += 1
            counts[("last", words[-1])] += 1
            counts[("char", line.strip()[0])] += 1
    for positions in (("first", "last"), ("char",)):
        best = max(((n, -positions.index(p), w, p) for (p, w), n in counts.items() if p in positions),
                   default=None)  # most lines; on a tie "first" before "last"
        if best is not None and best[0] >= min_headings:
            return best[2], best[3]
    return None, ""


def _heading_rest(line: str, marker: str, position: str, max_chars: int) -> str | None:
    """What follows (or precedes) the marker in a heading line; None when it is no heading."""
    s = line.strip()
    words = _words(s)
    if not words or len(s) > max_chars:
        return None
    if position == "first" and words[0] == marker:
        return s[s.index(marker) + len(marker):]
    if position == "last" and words[-1] == marker:
        return s[: s.rindex(marker)]
    if position == "char" and s[0] == marker:
        rest = s[1:]
        return rest if read_number(rest) is not None else None
    return None


def consistent_numbers(raw: Sequence[int | None], last: int | None = None) -> list[int | None]:
    """Article numbers of consecutive headings, with the inconsistent ones dropped or filled.

    Keeps the largest set of read numbers such that between any two kept headings ``i < j``
    there is room for the headings in between (``n_j - n_i >= j - i``), the first kept one
    counting from 0 before the start (of two such sets, the one skipping fewer numbers:
    ``1 2 19 4`` keeps ``1 2 4``); then fills a run of unknown headings between two kept
    numbers (or between the start and the first) when its length is exactly the gap. When
    the number of the ``last`` article is known, the run after the last kept heading is
    filled too if it fits exactly (30 unread Yoruba number words become articles 1 to 30).

    Cost: O(H²) for H headings (a longest-chain dynamic programme; H is about 30).

    Examples
    --------
    >>> consistent_numbers([None, 2, 3, None, 5])
    [1, 2, 3, 4, 5]
    >>> consistent_numbers([1, 2, 2, 4, None])   # a typo'd 2 where 3 belongs; the tail stays open
    [1, 2, 3, 4, None]
    >>> consistent_numbers([1, 2, 2, 4, None], last=5)
    [1, 2, 3, 4, 5]
    """
    known = [(i, n) for i, n in enumerate(raw) if n is not None and n - i >= 1]
    best = [1] * len(known)
    prev = [-1] * len(known)
    for b, (j, nj) in enumerate(known):
        for a in range(b):
            i, ni = known[a]
            if nj - ni >= j - i and best[a] + 1 > best[b]:
                best[b], prev[b] = best[a] + 1, a
    out: list[int | None] = [None] * len(raw)
    chain = []
    # most headings kept; on a tie the chain whose last number skips the fewest numbers
    b = max(range(len(known)), key=lambda j: (best[j], known[j][0] - known[j][1]), default=-1)
    while b >= 0:
        chain.append(known[b])
        b = prev[b]
    chain.reverse()
    if last is not None:
        chain.append((len(raw), last + 1))  # a virtual heading after the end
    prev_i, prev_n = -1, 0
    for i, n in chain:
        if i < len(raw):
            out[i] = n
        if n - prev_n == i - prev_i:
            for g in range(prev_i + 1, i):
                out[g] = prev_n + (g - prev_i)
        prev_i, prev_n = i, n
    return out


def article_structure(lines: Sequence[str], *, last: int | None = None,
                      max_chars: int = HEADING_MAX_CHARS,
                      min_headings: int = MIN_HEADINGS) -> ArticleStructure:
    """Headings, article numbers and each article's paragraphs of one text.

    Cost: O(total length) to find the marker and the headings, plus O(H²) for the numbers.

    Parameters
    ----------
    lines : sequence of str — the text's lines (as read: one title or paragraph each).
    last : int, optional — the number of the last article, when known (from the reference
        text); lets unread headings at the end be numbered (see :func:`consistent_numbers`).
    max_chars : int — longest heading, in code points.
    min_headings : int — fewest headings that make a structure.

    Returns
    -------
    ArticleStructure
        Without a structure — no marker, or fewer than ``min_headings`` headings numbered —
        every line is a paragraph and ``sections`` is empty.

    Raises
    ------
    RetrievalError
        ``lines`` not a sequence of str, ``last`` not None or a whole number >= 0,
        ``max_chars`` or ``min_headings`` not a whole number >= 1.
    """
    lines = as_lines("lines", lines)
    last = None if last is None else whole_number("last", last, 0)
    max_chars, min_headings = whole_number("max_chars", max_chars), whole_number("min_headings", min_headings)
    marker, position = find_marker(lines, max_chars=max_chars, min_headings=min_headings)
    if marker is None:
        return ArticleStructure(None, "", (), (), {}, tuple(range(len(lines))))
    heads, raw = [], []
    for i, line in enumerate(lines):
        rest = _heading_rest(line, marker, position, max_chars)
        if rest is not None:
            heads.append(i)
            raw.append(read_number(rest))
    numbers = consistent_numbers(raw, last)
    if sum(n is not None for n in numbers) < min_headings:  # short lines that merely look alike
        return ArticleStructure(None, "", (), (), {}, tuple(range(len(lines))))
    bounds = heads + [len(lines)]
    sections = {n: tuple(range(bounds[h] + 1, bounds[h + 1]))
                for h, n in enumerate(numbers) if n is not None}
    head_set = set(heads)
    paragraphs = tuple(i for i in range(len(lines)) if i not in head_set)
    return ArticleStructure(marker, position, tuple(heads), tuple(numbers), sections, paragraphs)
