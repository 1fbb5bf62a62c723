"""The best segmentations of many words at once: the Unigram Viterbi walk in numpy.

The result equals :meth:`~core.tokenizers.models.unigram.Unigram` word by word: the same
float64 sums, and the same tie-break (a candidate replaces the best path to a position only
when strictly better, so ties keep the earliest start). The words are laid end to end as
code points, and three stages each run over all of them at once:

1. **Edges.** From every position, slices of 1, 2, ... code points are hashed one code
   point at a time (:mod:`core.tokenizers.models.span_hash`); a position leaves the walk
   at its first slice whose hash is no piece prefix's (:class:`PieceIndex`), or at its
   word's end. A slice whose hash names a piece is an edge. A character that is no piece
   gets an *unknown* edge of one character (score ``unk_score``).
2. **Best paths.** Every edge ending at offset ``e`` of its word starts before ``e``, so
   offsets are settled in order, ``e = 1, 2, ...``, each for all words at once; inside a
   step, edges are tried longest first (earliest start first).
3. **Read-back.** The back-pointers are followed from every word's end, all words in step.
   Every edge on a path is then checked code point by code point against its piece; a
   word whose path took an edge that only a hash collision made is reported, to be
   segmented alone (see :func:`best_paths` for why checking the path is enough).

Cost for N code points in W words: O(N·R) hash look-ups in step 1 (R: the slices tried
from a position, at most the longest piece), O(E) for the E edges in step 2, O(N) in step
3, all numpy; the Python loops are over the R slice lengths, the (offset, length) groups
of edges and the tokens of the longest word. Memory O(N·R).

Public names: :class:`PieceIndex`, :func:`best_paths`.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from core.errors import check_stop
from core.tokenizers.models.int_hash import IntTable
from core.tokenizers.models.span_hash import SHORT, prefix_hashes
from core.tokenizers.models.span_hash import code_points as _code_points, step as _step

_FIBONACCI = np.uint64(0x9E3779B97F4A7C15)
_NONE = -2  # a character that starts no piece (in PieceIndex's table of characters)
_PREFIX = -1  # a character that starts pieces but is none


class PieceIndex:
    """The pieces of a vocabulary, for finding them in many words at once.

    - one-character slices: a table by code point (piece id, :data:`_PREFIX` or
      :data:`_NONE`);
    - longer ones: a bitmap of the hashes of every prefix of every piece (a set bit may
      be a collision: a slice then goes on being extended for nothing, which costs time
      but changes no result), and a hash table of the pieces themselves, whose hits are
      checked against the pieces' code points (:meth:`confirm`).

    Build with :meth:`build`; :meth:`edges` finds the candidate edges of many words.
    """

    def __init__(self, chars: np.ndarray, reach: np.ndarray, prefixes: np.ndarray,
                 table: IntTable, ids: np.ndarray, code: np.ndarray, offsets: np.ndarray,
                 lengths: np.ndarray):
        self._chars, self._reach = chars, reach
        self._prefixes, self._table, self._ids = prefixes, table, ids
        self._shift = np.uint64(64 - (len(prefixes).bit_length() - 1))
        self._code, self._offsets, self._lengths = code, offsets, lengths
        self.longest = int(lengths.max()) if len(lengths) else 1
        """The longest piece, in code points: no slice longer than it is looked up."""

    @classmethod
    def build(cls, pieces: Sequence[str], ids: Sequence[int]) -> "PieceIndex | None":
        """The index of ``pieces`` (distinct strings) with their ``ids``. None when two
        of two or more code points hash alike (the walk could not tell them apart) or
        crowd the hash table. O(total code points) numpy: one step per code point up to
        :data:`~core.tokenizers.models.span_hash.SHORT`, then one per longer piece."""
        m = len(pieces)
        lengths = np.fromiter(map(len, pieces), np.int64, m)
        ids = np.fromiter(ids, np.int64, m)
        code = _code_points("".join(pieces))
        offsets = np.zeros(m, np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        filled = lengths > 0
        first = code[offsets[filled]]
        chars = np.full(int(first.max()) + 1 if len(first) else 1, _NONE, np.int32)
        chars[first] = _PREFIX
        one = lengths == 1
        chars[code[offsets[one]]] = ids[one]
        reach = np.zeros(len(chars), np.int32)
        np.maximum.at(reach, first, lengths[filled].astype(np.int32))
        # the hashes of every prefix of two or more code points, one code point at a
        # time, longest pieces first (those still growing at step k are a leading slice)
        order = np.flatnonzero(lengths > 1)
        longest = int(lengths.max()) if m else 0
        # longest first: a stable sort of small keys is a radix sort
        order = order[np.argsort((longest - lengths[order]).astype(
            np.uint8 if longest < 256 else np.int64), kind="stable")]
        left = -lengths[order]
        bits = max(10, min(24, (4 * int(lengths[order].sum())).bit_length()))
        prefixes = np.zeros(1 << bits, bool)
        shift = np.uint64(64 - bits)
        hashes = np.zeros(len(order), np.uint64)
        mixed = np.empty(len(order), np.uint64)
        at = offsets[order]
        first = int(np.count_nonzero(-left > SHORT))  # the longest pieces, one at a time
        for j in range(first):
            every = prefix_hashes(code[at[j]:at[j] - left[j]])
            hashes[j] = every[-1]
            prefixes[(every[1:] * _FIBONACCI) >> shift] = True
        live, k = len(order), 0
        while live > first:
            part = slice(first, live)
            hashes[part] = _step(hashes[part], code[at[part] + k])
            if k:
                np.multiply(hashes[part], _FIBONACCI, out=mixed[part])
                np.right_shift(mixed[part], shift, out=mixed[part])
                prefixes[mixed[part]] = True
            k += 1
            live = int(np.searchsorted(left, -k, side="left"))  # pieces longer than k
        table = IntTable.build(hashes.view(np.int64), order)
        if table is None or table.distinct < len(order):
            return None
        return cls(chars, reach, prefixes, table, ids, code, offsets, lengths)

    def first_chars(self) -> tuple[list[int], list[int], list[int]]:
        """Every code point that starts a piece, the longest piece starting with it (code
        points), and its id when it is a one-character piece (else -1): three lists in
        code-point order. O(largest such code point)."""
        chars = np.flatnonzero(self._reach)
        return chars.tolist(), self._reach[chars].tolist(), self._chars[chars].tolist()

    def edges(self, code: np.ndarray, room: np.ndarray,
              should_stop: Callable[[], bool] | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The candidate piece edges of text laid out as ``code`` (code points, shape
        (N,)), where ``room[i]`` is how many code points position ``i`` may span (to its
        word's end).

        Returns ``(start, length, id, which)``, int64 arrays of shape (E,): every slice
        ``code[start:start + length]`` whose hash names a piece — its id and its index in
        the pieces the index was built from (-1 for one character: looked up by code
        point, so certain) — and an *unknown* edge (id -1) at every character that is no
        piece. A slice of two or more code points may be a hash collision that
        :meth:`confirm` rejects. Grouped by length, ascending starts within a length.
        ``should_stop`` is asked before every length. O(N·R) numpy for R the slices
        tried from a position."""
        chars = self._chars
        state = chars[np.minimum(code, len(chars) - 1)]
        state[code >= len(chars)] = _NONE
        pos = np.arange(len(code))  # one-character edges: a piece, else an unknown edge
        found = [(pos, np.ones(len(pos), np.int64), np.maximum(state, -1).astype(np.int64),
                  np.full(len(pos), -1, np.int64))]
        pos = np.flatnonzero((state != _NONE) & (room > 1))
        hashes = _step(np.zeros(len(pos), np.uint64), code[pos])
        prefixes, shift, table, ids = self._prefixes, self._shift, self._table, self._ids
        length = 2
        while len(pos) and length <= self.longest:
            check_stop(should_stop)
            hashes = _step(hashes, code[pos + (length - 1)])
            go = prefixes[(hashes * _FIBONACCI) >> shift]
            pos, hashes = pos[go], hashes[go]
            at = table.index(hashes.view(np.int64))
            piece = np.flatnonzero(at >= 0)
            which = table.values[at[piece]]
            found.append((pos[piece], np.full(len(piece), length), ids[which], which))
            length += 1
            go = room[pos] >= length
            pos, hashes = pos[go], hashes[go]
        start, lengths, ids, which = map(np.concatenate, zip(*found))
        return start, lengths, ids, which

    def confirm(self, code: np.ndarray, start: np.ndarray, length: np.ndarray,
                which: np.ndarray) -> np.ndarray:
        """Whether each edge from :meth:`edges` (``code[start:start + length]``, piece
        ``which``; -1: certain) is truly that piece, code point by code point (bool of
        shape (E,)). O(Σ length) numpy."""
        ok = np.ones(len(start), bool)
        check = np.flatnonzero(which >= 0)
        if not len(check):
            return ok
        start, length, which = start[check], length[check], which[check]
        same = self._lengths[which] == length
        for span in range(int(length.max())):
            part = np.flatnonzero(same & (span < length))  # (a shorter piece: no read past it)
            same[part] &= (code[start[part] + span]
                           == self._code[self._offsets[which[part]] + span])
        ok[check] = same
        return ok


def best_paths(table: PieceIndex, words: Sequence[str], scores: np.ndarray,
               unk_score: float, should_stop: Callable[[], bool] | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The best segmentation of every word (see the module docstring).

    Parameters
    ----------
    table : PieceIndex
        The model's pieces.
    words : sequence of str
        Non-empty words.
    scores : numpy.ndarray of float64, shape (V,)
        Score by piece id.
    unk_score : float
        The score of an unknown edge (one character that is no piece).
    should_stop : callable, optional
        Asked before every stage step; True raises :class:`core.errors.Cancelled`.

    Returns
    -------
    ids : numpy.ndarray of int64, shape (T,)
        The piece id of every token, words in order; -1 for an unknown character (one
        token each: runs are not fused).
    starts, ends : numpy.ndarray of int64, shape (T,)
        Each token's span, in code points relative to its word.
    counts : numpy.ndarray of int64, shape (W,)
        Tokens per word.
    wrong : numpy.ndarray of bool, shape (W,)
        Words whose path took an edge that a hash collision made (never seen in
        practice): their tokens are not their segmentation.

    Why checking the path's edges is enough: an edge made by a collision only adds
    candidates, so where a path of true edges wins, every position on it has the same
    best score, and the same earliest-start winner, as without that edge.
    """
    lens = np.fromiter(map(len, words), np.int64, len(words))
    code = _code_points("".join(words))
    n, w = len(code), len(words)
    word_start = np.zeros(w, np.int64)
    np.cumsum(lens[:-1], out=word_start[1:])
    word_of = np.repeat(np.arange(w), lens)
    offset = np.arange(n) - word_start[word_of]  # each position's offset in its word
    start, length, ids, which = table.edges(code, lens[word_of] - offset, should_stop)
    # groups of (end offset, length), longest first inside an end offset
    longest = int(length.max()) if len(length) else 1
    key = (offset[start] + length) * (longest + 1) + (longest - length)
    if int(key.max(initial=0)) < 1 << 16:
        key = key.astype(np.uint16)  # (a stable sort of 16-bit keys is a radix sort)
    order = np.argsort(key, kind="stable")
    key = key[order]
    slot = start[order] + word_of[start[order]]  # a word of m code points has m + 1 slots
    score = np.where(ids >= 0, scores[ids], unk_score)[order]
    heads = np.concatenate(([0], np.flatnonzero(key[1:] != key[:-1]) + 1))
    bounds = [*heads.tolist(), len(key)]
    group_lengths = (longest - key[heads].astype(np.int64) % (longest + 1)).tolist()
    best = np.full(n + w, -np.inf)
    first = word_start + np.arange(w)
    best[first] = 0.0
    back = np.zeros(n + w, np.int64)
    edge = np.full(n + w, -1, np.int64)  # index of the edge into each slot's best path
    for k, (a, b, size) in enumerate(zip(bounds, bounds[1:], group_lengths)):
        if not k % 64:
            check_stop(should_stop)
        here = slot[a:b]
        there = here + size
        cand = best[here] + score[a:b]
        better = cand > best[there]
        if better.all():
            best[there], back[there], edge[there] = cand, here, order[a:b]
        elif better.any():
            to = there[better]
            best[to], back[to], edge[to] = cand[better], here[better], order[a:b][better]
    # read-back: mark the end slot of every token on a best path
    is_first = np.zeros(n + w, bool)
    is_first[first] = True
    on_path = np.zeros(n + w, bool)
    at = first + lens
    while len(at):
        on_path[at] = True
        at = back[at]
        at = at[~is_first[at]]
    ends = np.flatnonzero(on_path)
    taken = edge[ends]
    word = np.repeat(np.arange(w), lens + 1)[ends]
    counts = np.bincount(word, minlength=w)
    ok = table.confirm(code, start[taken], length[taken], which[taken])
    wrong = np.zeros(w, bool)
    wrong[word[~ok]] = True
    return ids[taken], back[ends] - first[word], ends - first[word], counts, wrong
