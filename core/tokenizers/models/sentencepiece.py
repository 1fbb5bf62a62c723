"""SentencePiece segmentation of a whole normalized string, as the library does it.

- Unigram (``unigram_model.cc`` ``EncodeOptimized``): Viterbi with float32 path scores;
  unknown characters scored ``min(normal scores) - 10``, user-defined pieces
  ``bytes * max_score - 0.1``; ties keep the candidate found first.
- BPE (``bpe_model.cc``): repeatedly merge the adjacent pair whose merged piece has the
  highest score (leftmost on ties); pieces of type UNUSED are split back into the pair
  that formed them.

Both take a :class:`core.tokenizers.formats.sentencepiece.model.SentencePieceModel` and
return ``(start, end, id)`` triples over the normalized string (code points). For n code
points and P the longest piece: Unigram is O(n·P) lookups (O(n·P²) character work), BPE is
O(m log m + m·P) for m initial symbols (a heap over a linked list), plus O(n·U) for the
user-defined pieces (U: the longest one); both O(n) memory.

Public names: :func:`unigram_path`, :func:`bpe_path`, the piece types ``NORMAL`` … ``BYTE``
and the model types ``UNIGRAM``, ``BPE`` (the enum values of ``sentencepiece_model.proto``).
"""

from __future__ import annotations

import heapq
import struct

from core.tokenizers.models.unigram import UNK_PENALTY

#: Piece types (``ModelProto.SentencePiece.Type``).
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
#: Model types (``TrainerSpec.ModelType``); only these two are segmented.
UNIGRAM, BPE = 1, 2
MODEL_TYPES = {1: "Unigram", 2: "BPE", 3: "Word", 4: "Char"}
_F32 = struct.Struct("<f")


def _f32(x: float) -> float:
    """``x`` rounded to float32 (SentencePiece scores and sums are float)."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def unigram_path(model, s: str) -> list[tuple[int, int, int]]:
    """(start, end, id) of the Viterbi path over normalized ``s`` (float32 scores).

    O(n·P) piece lookups for n code points, P the longest piece starting at a position.
    """
    n = len(s)
    best, back, edge = [0.0] * (n + 1), [-1] * (n + 1), [0] * (n + 1)
    unk_score = _f32(model.min_score - UNK_PENALTY)
    for i in range(n):
        here, single = best[i], False
        for j in range(i + 1, min(n, i + model._reach.get(s[i], 0)) + 1):
            id_ = model._normal.get(s[i:j])
            if id_ is None or model.types[id_] == UNUSED:
                continue
            # float piece score (or a double bonus) + float path score, in double;
            # the best path score is stored back as float.
            if model.types[id_] == USER_DEFINED:
                nbytes = len(s[i:j].encode("utf-8", "surrogatepass"))
                score = (_f32(nbytes * model.max_score) - 0.1) + here
            else:
                score = model.scores[id_] + here
            if back[j] < 0 or score > best[j]:
                best[j], back[j], edge[j] = _f32(score), i, id_
            single = single or j == i + 1
        if not single:
            score = _f32(unk_score + here)
            if back[i + 1] < 0 or score > best[i + 1]:
                best[i + 1], back[i + 1], edge[i + 1] = score, i, model.unk_id
    path, end = [], n
    while end > 0:
        path.append((back[end], end, edge[end]))
        end = back[end]
    return path[::-1]


def bpe_path(model, s: str) -> list[tuple[int, int, int]]:
    """(start, end, id) after score-ordered BPE merges over normalized ``s``.

    A heap of (−score, position) over a linked list with stale entries skipped: O(m log m)
    for m initial symbols (each merge pushes at most two entries), O(n·U) for matching the
    user-defined pieces first.
    """
    starts, ends, frozen = [], [], []
    pos = 0
    while pos < len(s):
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
        push(i - 1, i)
    while heap:
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
