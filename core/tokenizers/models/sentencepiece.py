"""SentencePiece segmentation of a whole normalized string, as the library does it.

- Unigram (``unigram_model.cc`` ``EncodeOptimized``): Viterbi over the whole string with
  float32 path scores: a candidate is ``float32(piece score + path score)`` and replaces the
  best one at its end only when strictly greater (ties keep the candidate found first, that
  is the earlier start); unknown characters are scored ``min(normal scores) - 10``,
  user-defined pieces ``bytes * max_score - 0.1``; a path score at or below ``-RESCALE``
  at a start position is raised by ``RESCALE`` with every later one (the library's
  behaviour, found by experiment). Candidates are found with a prefix table
  (every prefix of a piece, as the library's trie): the walk from a position stops at the
  first slice that starts no piece. See :class:`UnigramViterbi` for the per-word cache.
- BPE (``bpe_model.cc``): repeatedly merge the adjacent pair whose merged piece has the
  highest score (leftmost on ties); pieces of type UNUSED are split back into the pair
  that formed them.

Both take a :class:`core.tokenizers.formats.sentencepiece.model.SentencePieceModel`;
:func:`unigram_path` returns parallel lists (starts, ends, ids), :func:`bpe_path`
``(start, end, id)`` triples, over the normalized string (code points). The float32
comparison and the rescaling are what ``sentencepiece`` 0.2.3 does on long texts (checked
on 1,000,000 characters of UDHR text: every id and span equal); comparing in float64, as
the C++ source reads, already differs on 2,000 characters. For n code points:
Unigram is O(n·K) prefix lookups (K: pieces and non-piece prefixes matching at a position,
at most the longest piece), O(n·K·P) character work for slices of at most P characters;
BPE is O(m log m + m·P) for m initial symbols (a heap over a linked list), plus O(n·U) for
the user-defined pieces (U: the longest one); both O(n) memory (Unigram: O(longest word)
besides its output and the word cache).

Public names: :class:`UnigramViterbi`, :func:`unigram_path`, :func:`bpe_path`, the piece
types ``NORMAL`` … ``BYTE`` and the model types ``UNIGRAM``, ``BPE`` (the enum values of
``sentencepiece_model.proto``).
"""

from __future__ import annotations

import heapq
import math
import struct
from typing import Callable

from core.errors import Cancelled
from core.tokenizers.models.unigram import UNK_PENALTY

#: Piece types (``ModelProto.SentencePiece.Type``).
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
#: Model types (``TrainerSpec.ModelType``); only these two are segmented.
UNIGRAM, BPE = 1, 2
MODEL_TYPES = {1: "Unigram", 2: "BPE", 3: "Word", 4: "Char"}
_F32 = struct.Struct("<f")
#: Words of more code points than this are segmented without the cache.
MAX_CACHED_WORD = 64
#: The word cache is cleared when it holds this many words (bounded memory).
MAX_CACHED_WORDS = 200_000
#: When the path score at a start position is at or below ``-RESCALE``, the library adds
#: ``RESCALE`` to it and to every later position's score (found by experiment with
#: ``sentencepiece`` 0.2.3: it keeps long texts' scores small; ids equal on 1M characters).
RESCALE = 1e5
#: ``should_stop`` is asked before every this many words.
STOP_CHECK_WORDS = 2048
#: ``should_stop`` is also asked every this many positions of a long word's lattice.
STOP_EVERY = 4096


def _f32(x: float) -> float:
    """``x`` rounded to float32 (SentencePiece scores and sums are float)."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


class UnigramViterbi:
    """The library's Unigram Viterbi, one whitespace-delimited word at a time, memoized.

    Cutting: when no usable piece holds the space symbol except at its start (the
    library's default, ``split_by_whitespace``), no lattice edge crosses a position holding
    a space, so the best path of the whole string passes through each of them and is the
    concatenation of per-word paths, word ``k`` starting from the path score ``B`` reached
    before it. (Likewise after each space when pieces only end with it; otherwise the
    string is one word.)

    Caching: the library's float32 sums make a word's segmentation depend on ``B`` in
    near ties (its rounding step grows with ``|B|``). A word is therefore solved once in
    exact (float64) arithmetic from score 0, remembering, at each end position ``t``
    (code points into the word) of its best path, the margin ``δ(t)`` by which the winning
    candidate beats every other one ending there. With ``h`` the float32 half-step at
    magnitude ``M = |B| + max|E| + 2`` (``E``: the exact best scores inside the word),
    every float32 best score ``R(t)`` stays within ``t·h`` of ``B + E(t)``, whatever is
    decided off the path, so a candidate of the library differs from its exact value by at
    most ``t·h`` and the library picks the exact winner wherever ``δ(t) > 2·t·h``. When
    that holds at every end of the path (and ``m·h <= 1`` for a word of m code points),
    the cached path is the library's and only ``B`` is advanced, one float32 sum per
    piece; otherwise (exact ties such as ``I|II`` against ``II|I``, a word whose scores
    may reach ``-RESCALE``, a word longer than :data:`MAX_CACHED_WORD`) the word is solved
    in float32 from ``B`` as the library does, rescaling included.

    Costs: O(n) to cut n code points into words; per word of m code points O(m·K) lookups
    when solved (K: pieces and piece prefixes matching at a position, at most the longest
    piece), O(pieces) when served from the cache. Memory: O(m) per word besides the
    cache (at most :data:`MAX_CACHED_WORDS` entries of words up to 64 code points).

    Parameters
    ----------
    model : SentencePieceModel
        Uses ``pieces``, ``scores``, ``types``, ``unk_id``, ``min_score``, ``max_score``.
    space : str
        The space symbol of the normalized text (``▁``, or `` `` without escaping).
    """

    def __init__(self, model, space: str):
        self.scores: dict[int, float] = {}
        self.prefixes: dict[str, int] = {}  # prefix of a usable piece -> its id, or -1
        for i, (piece, score, kind) in enumerate(zip(model.pieces, model.scores, model.types)):
            if kind not in (NORMAL, USER_DEFINED):
                continue  # UNUSED pieces are skipped by the library; others never match
            if kind == USER_DEFINED:
                score = _f32(len(piece.encode("utf-8", "surrogatepass")) * model.max_score) - 0.1
            self.scores[i] = score
            for k in range(len(piece) - 1, 0, -1):
                if piece[:k] in self.prefixes:
                    break
                self.prefixes[piece[:k]] = -1
        self.prefixes.update({model.pieces[i]: i for i in self.scores})
        self.unk_id, self.unk_score = model.unk_id, _f32(model.min_score - UNK_PENALTY)
        self.space = space
        spaced = [model.pieces[i] for i in self.scores if space in model.pieces[i]]
        self.cut = ("before" if all(p.find(space, 1) < 0 for p in spaced) else
                    "after" if all(space not in p[:-1] for p in spaced) else None)
        self.cache: dict[str, tuple] = {}

    # -- one word --------------------------------------------------------------------------

    def _edges(self, w: str, i: int) -> list[tuple[int, int, float]]:
        """``(end, id, score)`` of each piece starting at ``w[i]``, shortest first, then
        ``(i + 1, unk_id, unk_score)`` when no one-character piece starts there (the
        library's trie walk: it stops at the first slice that starts no piece). O(K)
        lookups of slices of at most K code points."""
        prefixes, scores = self.prefixes, self.scores
        out = []
        for j in range(i + 1, len(w) + 1):
            id_ = prefixes.get(w[i:j])
            if id_ is None:
                break
            if id_ >= 0:
                out.append((j, id_, scores[id_]))
        if not out or out[0][0] != i + 1:
            out.append((i + 1, self.unk_id, self.unk_score))
        return out

    def solve(self, w: str, base: float, should_stop: Callable[[], bool] | None = None
              ) -> tuple[list[int], list[int], float]:
        """The library's path through ``w`` from path score ``base`` (float32 sums):
        (piece ends, ids, final score). O(m·K) lookups for m code points; ``should_stop``
        is asked every :data:`STOP_EVERY` positions (``Cancelled``)."""
        m = len(w)
        best, back, edge = [base] + [0.0] * m, [0] + [-1] * m, [0] * (m + 1)
        pack, unpack = _F32.pack, _F32.unpack
        for i in range(m):
            if not i % STOP_EVERY and should_stop is not None and should_stop():
                raise Cancelled()
            here = best[i]
            if here <= -RESCALE:  # exact in float32 (Sterbenz); O(m), once per RESCALE
                best[i:] = [b + RESCALE for b in best[i:]]
                here = best[i]
            for j, id_, score in self._edges(w, i):
                score = unpack(pack(score + here))[0]
                if back[j] < 0 or score > best[j]:
                    best[j], back[j], edge[j] = score, i, id_
        ends, ids = _read_back(back, edge, m)
        return ends, ids, best[m]

    def _exact(self, w: str) -> tuple:
        """Cache entry of ``w``: (piece ends, ids, scores, max|E|, largest binary exponent of
        ``M`` for which the path is the library's — or None). O(m·K) lookups."""
        m = len(w)
        best, second = [0.0] + [0.0] * m, [-math.inf] * (m + 1)
        back, edge = [0] + [-1] * m, [0] * (m + 1)
        for i in range(m):
            here = best[i]
            for j, id_, score in self._edges(w, i):
                score += here
                if back[j] < 0:
                    best[j], back[j], edge[j] = score, i, id_
                elif score > best[j]:
                    second[j], best[j], back[j], edge[j] = best[j], score, i, id_
                elif score > second[j]:
                    second[j] = score
        ends, ids = _read_back(back, edge, m)
        widest = max(map(abs, best))
        if not math.isfinite(widest):
            return ends, ids, (), widest, None
        slack = 1e-9 * (1.0 + widest)  # float64 error of the exact sums, generously
        room = min(1.0 / m, *((best[t] - second[t] - slack) / (2 * t) for t in ends))
        scores = tuple(self.scores.get(i, self.unk_score) for i in ids)
        return ends, ids, scores, widest, _max_exponent(room)

    # -- a whole string -------------------------------------------------------------------

    def words(self, s: str) -> list[str]:
        """``s`` cut where no piece can cross (see the class docstring): O(n)."""
        if self.cut is None or not s:
            return [s] if s else []
        parts = s.split(self.space)
        if self.cut == "before":
            return ([parts[0]] if parts[0] else []) + [self.space + p for p in parts[1:]]
        out = [p + self.space for p in parts[:-1]]
        return out + [parts[-1]] if parts[-1] else out

    def path(self, s: str, should_stop: Callable[[], bool] | None = None
             ) -> tuple[list[int], list[int], list[int]]:
        """Piece starts, ends and ids of the library's path over ``s``: O(n·K) lookups for
        the words not cached, O(pieces) for the others.

        Raises
        ------
        core.errors.Cancelled
            If ``should_stop()`` returned True (asked every :data:`STOP_CHECK_WORDS` words).
        """
        starts: list[int] = []
        ends: list[int] = []
        ids: list[int] = []
        cache, f32, frexp = self.cache, _f32, math.frexp
        base, pos = 0.0, 0
        for k, w in enumerate(self.words(s)):
            if should_stop is not None and k % STOP_CHECK_WORDS == 0 and should_stop():
                raise Cancelled()
            entry = cache.get(w)
            if entry is None and len(w) <= MAX_CACHED_WORD:
                if len(cache) >= MAX_CACHED_WORDS:
                    cache.clear()
                entry = cache[w] = self._exact(w)
            if base <= -RESCALE:
                base += RESCALE
            reach = abs(base) + entry[3] + 2.0 if entry is not None else math.inf
            if entry is not None and entry[4] is not None and reach < RESCALE and \
                    frexp(reach)[1] <= entry[4]:
                w_ends, w_ids = entry[0], entry[1]
                for score in entry[2]:
                    base = f32(score + base)
            else:
                w_ends, w_ids, base = self.solve(w, base, should_stop)
            prev = pos
            for e in w_ends:
                starts.append(prev)
                prev = pos + e
                ends.append(prev)
            ids += w_ids
            pos += len(w)
        return starts, ends, ids


def _read_back(back: list[int], edge: list[int], m: int) -> tuple[list[int], list[int]]:
    """Piece ends and ids of the path ending at ``m``, left to right: O(pieces)."""
    ends, ids = [], []
    while m > 0:
        ends.append(m)
        ids.append(edge[m])
        m = back[m]
    ends.reverse()
    ids.reverse()
    return ends, ids


def _max_exponent(room: float) -> int | None:
    """The largest ``e`` with ``2**(e - 25) < room`` (``2**(e - 25)`` is the float32
    half-step of magnitudes in ``[2**(e-1), 2**e)``), or None when ``room <= 0``."""
    if not room > 0:
        return None
    mantissa, k = math.frexp(room)  # room = mantissa * 2**k, 0.5 <= mantissa < 1
    return k - 2 + 25 if mantissa == 0.5 else k - 1 + 25


def unigram_path(model, s: str, should_stop: Callable[[], bool] | None = None
                 ) -> tuple[list[int], list[int], list[int]]:
    """Piece starts, ends and ids of the Viterbi path over normalized ``s`` (see
    :class:`UnigramViterbi`; ``model.viterbi`` holds the model's instance and cache)."""
    return model.viterbi.path(s, should_stop)


def bpe_path(model, s: str, should_stop: Callable[[], bool] | None = None
             ) -> list[tuple[int, int, int]]:
    """(start, end, id) after score-ordered BPE merges over normalized ``s``.

    A heap of (−score, position) over a linked list with stale entries skipped: O(m log m)
    for m initial symbols (each merge pushes at most two entries), O(n·U) for matching the
    user-defined pieces first. ``should_stop`` is asked every :data:`STOP_EVERY` symbols
    and heap entries (``Cancelled``).
    """
    starts, ends, frozen = [], [], []
    pos = 0
    while pos < len(s):
        if not len(starts) % STOP_EVERY and should_stop is not None and should_stop():
            raise Cancelled()
        k = next((k for k in range(min(model._user_reach, len(s) - pos), 0, -1)
                  if s[pos:pos + k] in model._user), 0)
        starts.append(pos), ends.append(pos + max(k, 1)), frozen.append(k > 0)
        pos += max(k, 1)
    m = len(starts)
    prev, nxt = list(range(-1, m - 1)), list(range(1, m + 1))
    nxt[-1] = -1
    heap: list[tuple[float, int, int, int]] = []
    unsplit: dict[str, tuple[str, str]] = {}

    def push(left: int, right: int) -> None:
        if left < 0 or right < 0 or frozen[left] or frozen[right]:
            return
        merged = s[starts[left]:ends[right]]
        id_ = model._normal.get(merged)
        if id_ is not None:
            heapq.heappush(heap, (-model.scores[id_], left, right, len(merged)))
            if model.types[id_] == UNUSED:
                unsplit[merged] = (s[starts[left]:ends[left]], s[starts[right]:ends[right]])

    for i in range(1, m):
        if not i % STOP_EVERY and should_stop is not None and should_stop():
            raise Cancelled()
        push(i - 1, i)
    popped = 0
    while heap:
        popped += 1
        if not popped % STOP_EVERY and should_stop is not None and should_stop():
            raise Cancelled()
        _, left, right, size = heapq.heappop(heap)
        if ends[left] == starts[left] or ends[right] == starts[right] or \
                ends[left] - starts[left] + ends[right] - starts[right] != size:
            continue  # stale
        ends[left] = ends[right]
        starts[right] = ends[right]  # empty
        nxt[left] = nxt[right]
        if nxt[left] >= 0:
            prev[nxt[left]] = left
        push(prev[left], left)
        push(left, nxt[left])
    out: list[tuple[int, int, int]] = []
    i = 0
    while i >= 0:
        _resegment(model, s[starts[i]:ends[i]], starts[i], unsplit, out)
        i = nxt[i]
    return out


def _resegment(model, w: str, at: int, unsplit: dict, out: list) -> None:
    """Split an UNUSED piece back into the pair that formed it, recursively (depth at most
    the piece's length; linear in it)."""
    id_ = model._piece_id(w)
    if model.types[id_] == UNUSED and w in unsplit:
        left, right = unsplit[w]
        _resegment(model, left, at, unsplit, out)
        _resegment(model, right, at + len(left), unsplit, out)
    else:
        out.append((at, at + len(w), id_))
