"""How a round trip cuts the original, normalized and decoded texts into aligned segments.

:func:`aligned` aligns the normalized text with the decoded text (the characters under
unknown tokens left out, then put back as deletions); :func:`segments` composes that
alignment with the normalization's offset map into ``original ↔ normalized ↔ decoded``
triples, in order and without gaps. All positions are code points. Used by
:mod:`core.align.round_trip`.
"""

from __future__ import annotations

import operator
from itertools import accumulate, compress

from core.align.text_alignment import Opcode, align_texts
from core.text.normalize import NormalizedText


def aligned(nt: NormalizedText, decoded: str, hidden: list[tuple[int, int]]) -> list[Opcode]:
    """Opcodes of the normalized text → ``decoded``. The normalized characters under unknown
    tokens (the sorted, disjoint normalized ranges ``hidden``) are left out of the alignment
    (the decoder cannot give them back) and put back as deletions, so that they never pull
    the rest out of place. O(k + m) plus the alignment's cost."""
    if not any(lo < hi for lo, hi in hidden):
        return align_texts(nt.text, decoded)
    kept: list[int] = []
    pos = 0
    for lo, hi in hidden:
        kept.extend(range(pos, max(pos, lo)))
        pos = max(pos, hi)
    kept.extend(range(pos, len(nt.text)))
    text = nt.text
    return _reinsert(align_texts("".join(text[i] for i in kept), decoded), kept, len(text))


def _reinsert(ops: list[Opcode], kept: list[int], k: int) -> list[Opcode]:
    """Opcodes over the text with only the characters ``kept`` (their positions in a text
    of ``k`` characters, increasing) → opcodes over the whole text: every left-out range
    becomes a deletion, an "equal" range is split around it, other ranges widen over it.
    O(k + len(ops))."""
    out: list[Opcode] = []
    cur = 0  # whole-text position reached

    def skip_to(n: int, j: int) -> None:
        nonlocal cur
        if n > cur:
            out.append(("delete", cur, n, j, j))
            cur = n

    for tag, i1, i2, j1, j2 in ops:
        if tag == "insert":
            out.append((tag, cur, cur, j1, j2))
        elif tag == "equal":
            for t in range(i1, i2):
                skip_to(kept[t], j1 + t - i1)
                if out and out[-1][0] == "equal" and out[-1][2] == kept[t]:
                    out[-1] = ("equal", out[-1][1], kept[t] + 1, out[-1][3], j1 + t - i1 + 1)
                else:
                    out.append(("equal", kept[t], kept[t] + 1, j1 + t - i1, j1 + t - i1 + 1))
                cur = kept[t] + 1
        else:
            skip_to(kept[i1], j1)
            out.append((tag, cur, kept[i2 - 1] + 1, j1, j2))
            cur = kept[i2 - 1] + 1
    skip_to(k, ops[-1][4] if ops else 0)
    return out


def segments(nt: NormalizedText, decoded: str, ops: list[Opcode], hidden: list[tuple[int, int]]):
    """``(o0, o1, n0, n1, d0, d1)`` triples cutting original, normalized and decoded text in
    order, without gaps: at every normalized position both maps can be cut, a zero-width
    normalized segment (original characters the normalizer dropped ↔ decoded text inserted
    there), and between two such positions the characters in between; never inside a
    ``hidden`` range (the text of one unknown token is one segment). O(k + m)."""
    k = len(nt.text)
    o_left, o_right, unit_cut = _unit_cuts(nt)
    d_left, d_right, d_cut = _decoded_cuts(ops, k, len(decoded))
    for lo, hi in hidden:
        d_cut[lo + 1:hi] = [False] * max(0, hi - lo - 1)
    prev = None
    for b in compress(range(k + 1), map(operator.and_, unit_cut, d_cut)):
        if prev is not None:
            yield o_right[prev], o_left[b], prev, b, d_right[prev], d_left[b]
        if o_left[b] < o_right[b] or d_left[b] < d_right[b]:
            yield o_left[b], o_right[b], b, b, d_left[b], d_right[b]
        prev = b


def _unit_cuts(nt: NormalizedText) -> tuple[list[int], list[int], list[bool]]:
    """Per normalized position ``b`` (0..k): the original position left of it (running
    maximum of the ends before it), right of it (its start), and whether the offset map can
    be cut there (no original character is shared across ``b``). O(k)."""
    k = len(nt.text)
    left = [0, *accumulate(nt.ends, max)]
    right = [*nt.starts, len(nt.original)]
    cut = [True, *map(operator.ge, nt.starts[1:], left[1:k]), True] if k else [True]
    return left, right, cut


def _decoded_cuts(ops: list[Opcode], k: int, m: int) -> tuple[list[int], list[int], list[bool]]:
    """Per normalized position ``b``: the decoded position before and after the text
    inserted at ``b``, and whether ``b`` is not strictly inside a replaced range. O(k + m)."""
    left, right, cut = [0] * (k + 1), [m] * (k + 1), [True] * (k + 1)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "insert":
            continue
        right[i1], left[i2] = j1, j2
        inside = i2 - i1 - 1
        if inside <= 0:
            continue
        if tag == "replace":
            cut[i1 + 1:i2] = [False] * inside
        else:
            left[i1 + 1:i2] = right[i1 + 1:i2] = range(j1 + 1, j1 + 1 + inside) if tag == "equal" else [j1] * inside
    return left, right, cut
