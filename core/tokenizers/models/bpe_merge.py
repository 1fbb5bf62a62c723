"""The BPE merge loops and the reference's symbol set-up and span rules (used by
:class:`core.tokenizers.models.bpe.BPE`).

Merges are applied one at a time to the lowest-ranked adjacent pair (leftmost on ties)
until none applies — by merge-list rank (Sennrich et al., 2016; ``tokenizers``, GPT-2
``merges.txt``) or by token rank (tiktoken). Both give the same result as ``tokenizers``'
priority-queue loop, which also pops the lowest (rank, position) pair still present.

:func:`reference_merge` is that rule written plainly (O(n²) for n symbols): the definition
every faster loop is property-tested equal to (tests/core/tokenizers/models/
test_merge_reference.py), never used to encode. The faster loops: :func:`merge_by_pairs`
and :func:`merge_by_rank` (a list scan for short words, :func:`heap_merge` from
:data:`LONG_WORD` symbols on; O(n log n)), :func:`merge_all_ranks` (the rank list scan),
:func:`heap_merge` (the loop of long words, widths and a rank limit included), and the
numpy rounds of :mod:`core.tokenizers.models.bpe_batch`.

A model hands the loops its pairs as :class:`PairRanks`. Also :func:`merges_from_ranks`,
:func:`initial_symbols`, :func:`reference_spans`. Symbol widths and positions are UTF-8
bytes; spans handed back are code points of the word.
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from itertools import repeat
from typing import Callable, NamedTuple

from core.errors import Cancelled, check_stop
from core.text.byte_alphabet import byte_span_to_char_span, byte_to_char_index, utf8_len

_NO_RANK = 1 << 62  # "this pair does not merge"; larger than any real rank
_POSITION = (1 << 32) - 1  # low bits of a heap entry (see heap_merge)


# Merge loops (one merge at a time: lowest rank, leftmost on ties) ---------------------------
#
# Short words (the vast majority) use a plain list scan: O(n²) for n symbols but with a tiny
# constant. From LONG_WORD symbols on, a heap of (rank, position) over a linked list of
# symbols takes over: O(n log n). Both apply the same merges in the same order.

LONG_WORD = 48
"""Symbols from which the heap loop is used (below it the list scan is faster)."""
STOP_CHECK_MERGES = 2048
""":func:`heap_merge` asks ``should_stop`` every this many heap pops (a few ms each)."""
STOP_CHECK_PAIRS = 1 << 16
""":func:`heap_merge` ranks a word's pairs this many at a time (``should_stop`` asked
between)."""


def reference_merge(parts: list[str], ranks: dict, pair_new=None,
                    widths: list[int] | None = None, limit: int = _NO_RANK) -> list[str]:
    """The BPE merge rule written plainly: the definition the faster loops must equal.

    Scan every adjacent pair, merge the one of lowest rank (the leftmost among equal
    ranks), repeat until no pair merges. O(n²) for n symbols (up to n - 1 merges, each
    rescanning up to n pairs); never used to encode, only to test the loops that are.

    Parameters
    ----------
    parts : list of str
        The symbols (not modified).
    ranks : dict
        With ``pair_new``: ``(a, b) → rank`` of a merge list; without: ``token → rank``,
        and ``a`` and ``b`` merge into ``a + b`` when that is a token (tiktoken's rule).
    pair_new : dict, optional
        ``pair_new[(a, b)]`` → merged symbol (asked only of pairs that merge).
    widths : list of int, optional
        Each symbol's width; replaced in place by the merged symbols' summed widths.
    limit : int
        Only ranks below it merge.

    Returns
    -------
    list of str
        The symbols after merging.
    """
    parts = list(parts)
    width = list(widths) if widths is not None else [0] * len(parts)
    while True:
        best = None  # (rank, position) of the pair to merge
        for i in range(len(parts) - 1):
            a, b = parts[i], parts[i + 1]
            rank = ranks.get((a, b)) if pair_new is not None else ranks.get(a + b)
            if rank is not None and rank < limit and (best is None or rank < best[0]):
                best = (rank, i)
        if best is None:
            break
        i = best[1]
        a, b = parts[i], parts[i + 1]
        parts[i:i + 2] = [pair_new[(a, b)] if pair_new is not None else a + b]
        width[i:i + 2] = [width[i] + width[i + 1]]
    if widths is not None:
        widths[:] = width
    return parts


class PairRanks(NamedTuple):
    """What a merge loop needs of a model: ``ranks[a + sep + b]`` is the rank of the pair
    ``(a, b)`` (absent: the pair never merges), and the pair merges into ``a + b[cut:]``.

    A merge list: its pair keys with a separator that no token of it holds (so every key
    names one pair), ``cut`` the continuing-subword prefix's length. Token ranks
    (tiktoken): the vocabulary, ``sep = ""`` and ``cut = 0`` (two parts merge when their
    concatenation is a token, at its rank)."""

    ranks: dict
    sep: str = ""
    cut: int = 0


def merge_by_pairs(parts: list[str], rule: PairRanks) -> list[str]:
    """Merge symbols in place by merge-list rank; returns ``parts``.

    O(n²) list scan below :data:`LONG_WORD` symbols, else O(n log n) (:func:`heap_merge`).
    """
    if len(parts) < 2:
        return parts
    if len(parts) >= LONG_WORD:
        parts[:] = heap_merge(parts, rule)
        return parts
    table, sep, cut = rule
    get = table.get
    ranks = [get(a + sep + b, _NO_RANK) for a, b in zip(parts, parts[1:])]
    while ranks:
        m = min(ranks)
        if m == _NO_RANK:
            break
        i = ranks.index(m)
        parts[i] = parts[i] + parts[i + 1][cut:]
        del parts[i + 1], ranks[i]
        if i < len(ranks):
            ranks[i] = get(parts[i] + sep + parts[i + 1], _NO_RANK)
        if i:
            ranks[i - 1] = get(parts[i - 1] + sep + parts[i], _NO_RANK)
    return parts


def merge_by_rank(parts: list[str], vocab: dict[str, int]) -> list[str]:
    """Merge adjacent parts whose concatenation is a token, lowest rank first (tiktoken),
    in place; returns ``parts``. O(n²) list scan (:func:`merge_all_ranks`) below
    :data:`LONG_WORD` parts, else O(n log n) (:func:`heap_merge`)."""
    if len(parts) >= LONG_WORD:
        parts[:] = heap_merge(parts, PairRanks(vocab))
        return parts
    return merge_all_ranks(parts, vocab.get)


def merge_all_ranks(parts: list[str], get: Callable) -> list[str]:
    """:func:`merge_by_rank`'s list scan without a rank limit (the encoding case), in place:
    ``get`` is the vocabulary's ``dict.get``. O(n²) for n parts (n < :data:`LONG_WORD`):
    per merge two C-level scans (``min``, ``index``) and two look-ups."""
    n = len(parts) - 1  # pairs
    if n < 1:
        return parts
    no = _NO_RANK
    ranks = list(map(get, map(str.__add__, parts, parts[1:]), repeat(no)))
    index = ranks.index
    m = min(ranks)
    while m != no:
        i = index(m)
        a = parts[i] = parts[i] + parts[i + 1]
        del parts[i + 1], ranks[i]
        n -= 1
        if i:
            ranks[i - 1] = get(parts[i - 1] + a, no)
            if i < n:
                ranks[i] = get(a + parts[i + 1], no)
        elif n:
            ranks[0] = get(a + parts[1], no)
        else:
            break  # one part left
        m = min(ranks)
    return parts


def heap_merge(parts: list[str], rule: PairRanks, widths: list[int] | None = None,
               limit: int = _NO_RANK, should_stop: Callable[[], bool] | None = None
               ) -> list[str]:
    """Merge the lowest-ranked adjacent pair (leftmost on ties) until none merges.

    A heap of ``(rank, position)`` entries over a doubly linked list of the symbols; an
    entry is stale (skipped when popped) once its left symbol is gone or the pair at its
    position no longer has its rank. Every merge pushes at most two entries, so for n
    symbols this is O(n log n) time and O(n) memory (the loop of ``tokenizers``'
    ``Word::merge_all``, which pops the lowest rank, then the lowest position, too).

    Parameters
    ----------
    parts : list of str
        The symbols (not modified).
    rule : PairRanks
        The pairs' ranks and how a pair merges (a merge list, or token ranks).
    widths : list of int, optional
        Each symbol's width; merged in place (the widths of merged symbols are added up).
    limit : int
        Only ranks below it merge.
    should_stop : callable, optional
        Asked every :data:`STOP_CHECK_MERGES` heap pops (a long word is cancelled within
        milliseconds).

    Returns
    -------
    list of str
        The symbols after merging.

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    n = len(parts)
    parts = list(parts)
    nxt = list(range(1, n + 1))  # n: no next symbol
    prv = list(range(-1, n - 1))  # -1: no previous symbol
    ranks, sep, cut = rule
    get = ranks.get
    # an entry is one int, rank << 32 | position: int comparisons are cheaper than tuples';
    # the pairs are first ranked STOP_CHECK_PAIRS at a time (should_stop asked between)
    heap: list[int] = []
    for a in range(0, max(n - 1, 0), STOP_CHECK_PAIRS):
        check_stop(should_stop)
        part = parts[a:a + STOP_CHECK_PAIRS + 1]
        ranked = [get(x + sep + y, _NO_RANK) for x, y in zip(part, part[1:])]
        heap += [r << 32 | i for i, r in enumerate(ranked, a) if r < limit]
    heapify(heap)
    pop, push = heappop, heappush
    countdown = STOP_CHECK_MERGES if should_stop is not None else -1
    while heap:
        countdown -= 1
        if not countdown:
            check_stop(should_stop)
            countdown = STOP_CHECK_MERGES
        entry = pop(heap)
        i = entry & _POSITION
        a, j = parts[i], nxt[i]
        if a is None or j == n:
            continue  # stale: the left symbol is gone or has no right neighbour
        b = parts[j]
        if get(a + sep + b) != entry >> 32:
            continue  # stale: the pair changed
        a = parts[i] = a + b[cut:]
        parts[j] = None
        if widths is not None:
            widths[i] += widths[j]
        k = nxt[i] = nxt[j]
        if k < n:
            prv[k] = i
            r = get(a + sep + parts[k], _NO_RANK)
            if r < limit:
                push(heap, r << 32 | i)
        h = prv[i]
        if h >= 0:
            r = get(parts[h] + sep + a, _NO_RANK)
            if r < limit:
                push(heap, r << 32 | h)
    if widths is not None:
        widths[:] = [w for w, p in zip(widths, parts) if p is not None]
    return [p for p in parts if p is not None]


def merges_from_ranks(vocab: dict[str, int], should_stop: Callable[[], bool] | None = None
                      ) -> list[tuple[str, str]]:
    """A merge list for a rank vocabulary, in rank order (derived, for display).

    Each multi-byte token is re-encoded with the tokens of lower rank only; when that gives
    exactly two parts, they are its merge (unreachable tokens have none). Encoding keeps
    using the ranks themselves: the pairs alone are not guaranteed to reproduce tiktoken.
    O(Σ L²) for tokens of L symbols (about a second of pure Python for cl100k_base's 100k
    tokens; nothing calls it while loading or encoding).

    Raises
    ------
    core.errors.Cancelled
        When ``should_stop()`` (asked every 1,024 tokens) returns true.
    """
    out, rule = [], PairRanks(vocab)
    for n, (rank, token) in enumerate(sorted((r, t) for t, r in vocab.items() if len(t) > 1)):
        if should_stop is not None and not n % 1024 and should_stop():
            raise Cancelled("deriving the merge list from the ranks was cancelled")
        if len(token) == 2:  # two single symbols: they are the merge
            out.append((token[0], token[1]))
            continue
        parts = heap_merge(list(token), rule, limit=rank)
        if len(parts) == 2:
            out.append((parts[0], parts[1]))
    return out


def initial_symbols(word: str, vocab: dict[str, int], prefix: str | None, suffix: str | None,
                    unk_token: str | None, fuse: bool, byte_fallback: bool
                    ) -> tuple[list[str], list[int]]:
    """Symbols of ``word`` before merging, and their widths in UTF-8 bytes.

    Follows ``tokenizers``' BPE ``merge_word``: ``prefix`` (``continuing_subword_prefix``)
    on non-initial characters, ``suffix`` (``end_of_word_suffix``) on the last; a missing
    character becomes ``<0xAB>`` byte tokens (with ``byte_fallback``; one per byte of the
    prefixed string, width 1 each), else ``unk_token`` (its characters' bytes, fused when
    ``fuse``), else nothing. Like the reference, a pending unknown token is only emitted at
    the next known character, after any byte-fallback tokens in between.
    """
    parts: list[str] = []
    widths: list[int] = []
    unk = 0  # width of the pending unknown token
    last = len(word) - 1
    for i, ch in enumerate(word):
        s = prefix + ch if i and prefix is not None else ch
        if i == last and suffix is not None:
            s += suffix
        if s in vocab:
            if unk:
                parts.append(unk_token)
                widths.append(unk)
                unk = 0
            parts.append(s)
            widths.append(utf8_len(ch))
            continue
        if byte_fallback:
            codes = [f"<0x{b:02X}>" for b in s.encode("utf-8", "surrogatepass")]
            if all(c in vocab for c in codes):
                parts.extend(codes)
                widths.extend([1] * len(codes))
                continue
        if unk_token is not None:
            if unk and not fuse:
                parts.append(unk_token)
                widths.append(unk)
                unk = 0
            unk += utf8_len(ch)
    if unk:
        parts.append(unk_token)
        widths.append(unk)
    return parts, widths


def reference_spans(word: str, parts: list[str], widths: list[int],
                    vocab: dict[str, int]):
    """Tokens with the reference's spans: running byte offsets mapped to code points.

    Like ``tokenizers``, offsets advance by each emitted symbol's width only, so a dropped
    character (no unknown token) shifts later spans left, and byte-fallback tokens of a
    continuing prefix run past the word — such spans are left as raw byte positions, as
    the reference leaves them.
    """
    index = byte_to_char_index(word)
    n, pos = len(index), 0
    for p, w in zip(parts, widths):
        end = pos + w
        span = byte_span_to_char_span(index, pos, end) if end <= n else (pos, end)
        yield (p, vocab[p], *span)
        pos = end
