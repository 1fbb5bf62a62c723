"""Align two strings that are mostly equal: a linear walk with a bounded resynchronisation.

Made for texts that differ in a few short places (a decoded text against the normalized text
it came from: spaces added or dropped, unknown words missing), where a general diff is
quadratic for nothing. The walk takes the longest equal run, then looks for the nearest
place where both texts agree again on :data:`ANCHOR` characters, searching a window that
doubles from 1 up to :data:`MAX_WINDOW` characters on each side (``str.find`` does the
scanning). Where no anchor is found within the largest window, :data:`MAX_WINDOW` characters
of each side are declared replaced and the walk goes on.

Complexity: O(n + m) for equal texts; O(n + m + Σ d_k²) character comparisons (C-level
``str.find``; O(n + m + Σ d_k) Python steps) where ``d_k`` is the size of the k-th differing
place; never more than O((n + m) · MAX_WINDOW). All positions are code points.

Public names: :func:`align_texts`, :data:`ANCHOR`, :data:`MAX_WINDOW`.
"""

from __future__ import annotations

from typing import Literal

ANCHOR = 3
"""Characters both texts must share for the walk to resynchronise (fewer at the very end)."""

MAX_WINDOW = 4096
"""Largest distance (code points, on each side) searched for a resynchronisation."""

Tag = Literal["equal", "replace", "delete", "insert"]
Opcode = tuple[Tag, int, int, int, int]


def _equal_run(a: str, b: str, i: int, j: int) -> int:
    """Length of the common prefix of ``a[i:]`` and ``b[j:]``; O(run) by doubling slices."""
    step, run = 64, 0
    limit = min(len(a) - i, len(b) - j)
    while run < limit:
        k = min(step, limit - run)
        if a[i + run:i + run + k] == b[j + run:j + run + k]:
            run += k
            step *= 2
        elif k == 1:
            break
        else:
            step = max(1, k // 2)
    return run


def _anchored(a: str, b: str, i: int, j: int, d: int) -> tuple[int, int] | None:
    """The resynchronisation ``(da, db)`` with ``da, db <= d`` and the smallest ``da + db``
    where ``a[i+da:]`` and ``b[j+db:]`` start with the same :data:`ANCHOR` characters (or
    are the same rest of both texts). O(d · (d + ANCHOR)) comparisons, O(d) Python steps."""
    best: tuple[int, int] | None = None
    rest_a, rest_b = len(a) - i, len(b) - j
    if rest_a <= d and rest_b <= d:
        best = (rest_a, rest_b)  # both rests differ entirely: the end is a resync point
    for db in range(min(d, rest_b) + 1):  # for each skip in b, the nearest anchor in a
        needle = b[j + db:j + db + ANCHOR]
        if len(needle) < ANCHOR:  # a short anchor must be the end of both texts
            da = rest_a - len(needle)
            if 0 <= da <= d and a[i + da:] == needle and (best is None or da + db < sum(best)):
                best = (da, db)
            break
        da = a.find(needle, i, i + d + ANCHOR) - i
        if da >= 0 and (best is None or da + db < sum(best)):
            best = (da, db)
    for da in range(min(d, rest_a) + 1):  # and the other way round
        needle = a[i + da:i + da + ANCHOR]
        if len(needle) < ANCHOR:
            db = rest_b - len(needle)
            if 0 <= db <= d and b[j + db:] == needle and (best is None or da + db < sum(best)):
                best = (da, db)
            break
        db = b.find(needle, j, j + d + ANCHOR) - j
        if db >= 0 and (best is None or da + db < sum(best)):
            best = (da, db)
    return best


def _resync(a: str, b: str, i: int, j: int) -> tuple[int, int]:
    """Skips ``(da, db)`` to the next agreement, at least one of them positive: windows of
    1, 2, 4, … :data:`MAX_WINDOW`; past that, a block of MAX_WINDOW on each side."""
    if i == len(a) or j == len(b):
        return len(a) - i, len(b) - j
    d = 1
    while True:
        found = _anchored(a, b, i, j, d)
        if found is not None and found != (0, 0):
            return found
        if d >= MAX_WINDOW:
            return min(MAX_WINDOW, len(a) - i), min(MAX_WINDOW, len(b) - j)
        d *= 2


def _walk(a: str, b: str) -> list[Opcode]:
    """Opcodes of ``a`` → ``b`` by the equal-run walk with resynchronisation."""
    ops: list[Opcode] = []
    i = j = 0
    while i < len(a) or j < len(b):
        run = _equal_run(a, b, i, j)
        if run:
            ops.append(("equal", i, i + run, j, j + run))
            i, j = i + run, j + run
            continue
        da, db = _resync(a, b, i, j)
        ops.append((_tag(da, db), i, i + da, j, j + db))
        i, j = i + da, j + db
    return ops


def _tag(na: int, nb: int) -> Tag:
    return "equal" if not (na or nb) else "replace" if na and nb else "delete" if na else "insert"


def _gap_ops(a: str, b: str, xa: int, ya: int, xb: int, yb: int, ops: list[Opcode]) -> None:
    """Append the opcodes of ``a[xa:ya]`` → ``b[xb:yb]``: their common prefix and suffix are
    equal, the rest one opcode. O(gap)."""
    p = 0
    while xa + p < ya and xb + p < yb and a[xa + p] == b[xb + p]:
        p += 1
    q = 0
    while ya - q > xa + p and yb - q > xb + p and a[ya - q - 1] == b[yb - q - 1]:
        q += 1
    if p:
        _append(ops, ("equal", xa, xa + p, xb, xb + p))
    _spaced_ops(a, b, xa + p, ya - q, xb + p, yb - q, ops)
    if q:
        _append(ops, ("equal", ya - q, ya, yb - q, yb))


def _spaced_ops(a: str, b: str, xa: int, ya: int, xb: int, yb: int, ops: list[Opcode]) -> None:
    """Append the opcodes of a differing ``a[xa:ya]`` → ``b[xb:yb]``: their whitespace
    characters are paired in order (the k-th of one with the k-th of the other), so that
    the words between them differ one by one. O(gap)."""
    wa = [k for k in range(xa, ya) if a[k].isspace()]
    wb = [k for k in range(xb, yb) if b[k].isspace()]
    for ka, kb in zip(wa, wb):
        _one_op(ops, xa, ka, xb, kb)
        _one_op(ops, ka, ka + 1, kb, kb + 1, a[ka] == b[kb])
        xa, xb = ka + 1, kb + 1
    _one_op(ops, xa, ya, xb, yb)


def _one_op(ops: list[Opcode], i1: int, i2: int, j1: int, j2: int, same: bool = False) -> None:
    if i2 > i1 or j2 > j1:
        _append(ops, ("equal" if same else _tag(i2 - i1, j2 - j1), i1, i2, j1, j2))


def _append(ops: list[Opcode], op: Opcode) -> None:
    """Append ``op``, merging it into the previous opcode when both are "equal"."""
    if ops and op[0] == "equal" and ops[-1][0] == "equal":
        ops[-1] = ("equal", ops[-1][1], op[2], ops[-1][3], op[4])
    else:
        ops.append(op)


def align_texts(a: str, b: str) -> list[Opcode]:
    """Opcodes turning ``a`` into ``b``, like :meth:`difflib.SequenceMatcher.get_opcodes`.

    The non-whitespace characters of both texts are aligned by the walk of the module
    docstring; the whitespace between two matched characters is then compared run by run,
    so spaces added, dropped or doubled anywhere never hide the text around them.

    Parameters
    ----------
    a, b : str
        Any strings.

    Returns
    -------
    list of (tag, i1, i2, j1, j2)
        ``tag`` is "equal", "replace", "delete" or "insert"; ``a[i1:i2]`` becomes
        ``b[j1:j2]`` (code points). The opcodes cover both texts in order, without gaps;
        "equal" ranges hold equal text. Not always a minimal edit (see the module docstring).
        O(n + m) Python steps plus the walk's cost.

    Raises
    ------
    TypeError
        If ``a`` or ``b`` is not a ``str``.
    """
    if not isinstance(a, str) or not isinstance(b, str):
        raise TypeError("align_texts needs two str")
    if a == b:
        return [("equal", 0, len(a), 0, len(b))] if a else []
    pa = [k for k, c in enumerate(a) if not c.isspace()]
    pb = [k for k, c in enumerate(b) if not c.isspace()]
    ops: list[Opcode] = []
    xa = xb = 0  # ends of the last matched character
    ra = rb = 0  # start of the equal run that ends there
    for tag, i1, i2, j1, j2 in _walk("".join(a[k] for k in pa), "".join(b[k] for k in pb)):
        if tag != "equal":
            continue
        for ka, kb in zip(pa[i1:i2], pb[j1:j2]):
            if not (ka - xa == kb - xb and a[xa:ka] == b[xb:kb]):  # the whitespace before differs
                if xa > ra or xb > rb:
                    _append(ops, ("equal", ra, xa, rb, xb))
                _gap_ops(a, b, xa, ka, xb, kb, ops)
                ra, rb = ka, kb
            xa, xb = ka + 1, kb + 1
    if xa > ra or xb > rb:
        _append(ops, ("equal", ra, xa, rb, xb))
    _gap_ops(a, b, xa, len(a), xb, len(b), ops)
    return ops
