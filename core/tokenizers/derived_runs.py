"""The derived-offsets walk guessed for all tokens at once in numpy, then verified.

:func:`core.tokenizers.derived.derived_offsets` walks a cursor over the normalized text's
bytes and finds each token's content at the cursor (after skipping whitespace). Most tokens
hold one literal without whitespace, optionally after one marker (a byte-level leading
space or a Metaspace ``▁``), and the walk then finds them where the text's non-whitespace
bytes, read in order, spell the literals out. :func:`guess_walk` guesses every token's
match that way — restarting the spelling after each unknown or unusual token at the end of
its reference span — and checks each guess against the walk's rule *given the guess for
the previous token*. By induction, every token up to the first failed check is placed
exactly as the walk places it; from a failed token on the caller walks token by token
until its cursor meets the guesses again (:func:`resume_at`).

Kinds of token: plain (a literal), marked (marker + literal), a lone Metaspace marker, an
unknown token written as its own string (no content), special (the post-processor's:
the walk skips it), other (anything else: always walked). Positions are byte offsets into
the normalized text's UTF-8 (or byte-level) bytes.

Public names: :func:`guess_walk`, :class:`Guesses`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

OTHER, PLAIN, MARKED, LONE, UNKNOWN, SPECIAL = range(6)
_KIND = object()  # tags this module's entries in the shared memo
_CHUNK = 1 << 20  # bytes a chunk when positions are gathered
_LONE_PASSES = 4  # lone markers in a row resolved by vector passes (longer chains: walked)


@dataclass
class Guesses:
    """The guessed walk, one entry per token.

    Attributes
    ----------
    b0, b1 : numpy.ndarray of int64, shape (n,)
        The guessed byte span of each token's match (-1 for special tokens).
    ok : numpy.ndarray of bool, shape (n,)
        The guess is what the walk finds when its cursor is at ``prev_end``.
    prev_end : numpy.ndarray of int64, shape (n,)
        The guessed cursor before each token (the end of the previous non-special one).
    """

    b0: np.ndarray
    b1: np.ndarray
    ok: np.ndarray
    prev_end: np.ndarray


def guess_walk(text: Any, codes: Sequence[int], table: Sequence[list], special: Sequence[bool],
               ref_bytes: tuple[np.ndarray, np.ndarray], metaspace: bytes,
               byte_level: bool, memo: dict | None = None) -> Guesses:
    """Guess and check the walk for every token. O(bytes + tokens), all in numpy except a
    per-distinct-token classification.

    Parameters
    ----------
    text : core.tokenizers.derived._Text
        ``data`` (bytes, length ``m``), ``ws_array`` (bool per byte), ``char_array``
        (int64 per byte, length ``m + 1``).
    codes : sequence of int, length n
        Per token, the index of its content in ``table`` (-1: no content).
    table : sequence of list of (bool, bytes)
        The distinct contents, as atoms the walk reads.
    special : sequence of bool
        Per token, the special-tokens mask.
    ref_bytes : (numpy.ndarray, numpy.ndarray)
        Per token, the normalized byte span of its reference span.
    metaspace : bytes
        The Metaspace marker's bytes (empty when none).
    byte_level : bool
        ``text.data`` is in the byte-level alphabet (whitespace judged per byte).
    memo : dict, optional
        Kept across calls: each distinct content's kind (keyed by the content object's
        id and whether the text holds the marker; the caller keeps the objects alive).
    """
    data = np.frombuffer(text.data, np.uint8)
    m = len(data)
    keep = ~text.ws_array
    nw_pos = nonzero32(keep, extra=m)  # non-whitespace bytes, then the end (int32)
    nw_before = np.zeros(m + 1, np.int32)  # non-whitespace bytes before each byte
    np.cumsum(keep, dtype=np.int32, out=nw_before[1:])
    del keep
    marker_in_text = bool(metaspace) and metaspace in text.data
    kind, lengths, lits, space_marker = _classify(codes, table, special, metaspace,
                                                  marker_in_text, byte_level,
                                                  {} if memo is None else memo)
    n = len(kind)
    t_start = np.concatenate(([0], np.cumsum(lengths)))
    r0, r1 = ref_bytes
    # segments of the literal stream restart after every unknown / other token
    restart = (kind == UNKNOWN) | (kind == OTHER)
    seg_first = np.maximum.accumulate(np.where(restart, np.arange(1, n + 1), 0))
    base = np.where(seg_first > 0, nw_before[r1[np.maximum(seg_first - 1, 0)]], 0)
    c = base + t_start[:n] - t_start[seg_first]  # each literal's first non-whitespace byte
    end = np.full(n, -1, np.int64)
    ok = np.zeros(n, bool)
    lit_kind = (kind == PLAIN) | (kind == MARKED)
    first = _place_literals(data, nw_pos, c, lengths, lits, lit_kind, end, ok)
    end[restart] = r1[restart]
    prev_end = _previous_ends(kind, end, text, data)
    b0, b1 = first.copy(), end.copy()
    nnw = nw_pos[nw_before[prev_end]]  # the walk's skip_ws(prev_end)
    # the literal is the next content byte after the cursor (true by construction of c;
    # kept as a guard so a wrong segment base can never be accepted)
    ok &= ~lit_kind | (c == nw_before[prev_end])
    marked = kind == MARKED
    gap_one = np.where(space_marker, (first - prev_end == 1)
                       & (data[np.clip(prev_end, 0, max(m - 1, 0))] == 0x20) if m else False,
                       text.char_array[np.clip(first, 0, m)] - text.char_array[prev_end] == 1)
    b0 = np.where(marked & gap_one, prev_end, b0)
    unknown = kind == UNKNOWN
    ustart = np.maximum(r0, nnw)
    b0[unknown] = ustart[unknown]
    ok[unknown] = ustart[unknown] <= r1[unknown]
    lone = kind == LONE
    b0[lone] = prev_end[lone]
    ok[lone] = end[lone] >= 0
    is_special = kind == SPECIAL
    b0[is_special] = b1[is_special] = -1
    ok[is_special] = True
    return Guesses(b0, b1, ok, prev_end)


def _place_literals(data, nw_pos, c, lengths, lits, lit_kind, end, ok) -> np.ndarray:
    """Guessed literal spans: first byte ``nw_pos[c]``, end after the literal's last byte;
    ``ok`` where the bytes there are the literal and contiguous. Fills ``end`` and ``ok``
    for literal tokens and returns the first bytes (-1 elsewhere). O(literal bytes)."""
    n_nw = len(nw_pos) - 1
    idx = np.flatnonzero(lit_kind)
    first = np.full(len(c), -1, np.int64)
    if not len(idx):
        return first
    ci, li = c[idx], lengths[idx]
    fits = (ci >= 0) & (ci + li <= n_nw)
    ci_safe = np.where(fits, ci, 0)
    li_safe = np.where(fits, li, 1)
    first[idx] = nw_pos[ci_safe]
    end[idx] = nw_pos[np.minimum(ci_safe + li_safe - 1, n_nw)] + 1
    want = np.frombuffer(b"".join(lits), np.uint8)
    offsets = np.concatenate(([0], np.cumsum(li)))
    # per literal byte (int32, uint8 and bool arrays: the text's bytes fit in int32)
    pos = np.repeat((ci_safe - offsets[:-1]).astype(np.int32), li)
    pos += np.arange(offsets[-1], dtype=np.int32)
    if n_nw:
        np.clip(pos, 0, n_nw - 1, out=pos)
        have = data[nw_pos[pos]]
    else:
        have = np.zeros(len(pos), np.uint8)
    del pos
    bad = np.logical_or.reduceat(have != want, offsets[:-1]) if len(want) else np.zeros(len(idx), bool)
    del have, want
    ok[idx] = fits & ~bad & (end[idx] - first[idx] == li)
    return first


def _previous_ends(kind: np.ndarray, end: np.ndarray, text: Any, data: np.ndarray) -> np.ndarray:
    """The guessed cursor before each token: the end of the previous non-special token (0
    for the first). Lone markers' ends are filled in here, in up to
    :data:`_LONE_PASSES` vector passes (each takes one whitespace character at the cursor,
    or none). O(tokens) per pass."""
    n = len(kind)
    m = len(data)
    idx = np.arange(n)
    prev_idx = np.maximum.accumulate(np.where(kind != SPECIAL, idx, -1))  # last non-special ≤ j
    prev_idx = np.concatenate(([-1], prev_idx[:-1])) if n else prev_idx
    lone = np.flatnonzero(kind == LONE)
    for _ in range(_LONE_PASSES):
        if not len(lone):
            break
        p = prev_idx[lone]
        cur = np.where(p >= 0, end[np.maximum(p, 0)], 0)
        known = (p < 0) | (kind[np.maximum(p, 0)] != LONE) | (cur >= 0)
        cur_ok = known & (cur >= 0)
        at = np.clip(cur, 0, m)
        takes = cur_ok & (at < m) & text.ws_array[np.minimum(at, max(m - 1, 0))] if m else cur_ok & False
        step = text.starts_array[np.minimum(text.char_array[at] + 1, len(text.starts_array) - 1)]
        end[lone[cur_ok]] = np.where(takes, step, at)[cur_ok]
        lone = lone[~cur_ok]
    prev_end = np.where(prev_idx >= 0, end[np.maximum(prev_idx, 0)], 0)
    return np.maximum(prev_end, 0)


def nonzero32(mask: np.ndarray, extra: int | None = None) -> np.ndarray:
    """``np.flatnonzero(mask)`` as int32 (then ``extra``, if given), in chunks of
    :data:`_CHUNK` (no full-length int64 transient). O(len(mask))."""
    out = np.empty(int(np.count_nonzero(mask)) + (extra is not None), np.int32)
    k = 0
    for s in range(0, len(mask), _CHUNK):
        idx = np.flatnonzero(mask[s:s + _CHUNK])
        out[k:k + len(idx)] = idx
        out[k:k + len(idx)] += s
        k += len(idx)
    if extra is not None:
        out[-1] = extra
    return out


def resume_at(g: Guesses, j: int, cur: int) -> bool:
    """True when the guesses hold again from token ``j`` on, the walk's cursor being ``cur``."""
    return bool(g.ok[j]) and int(g.prev_end[j]) == cur


def _classify(codes: Sequence[int], table: Sequence[list], special: Sequence[bool],
              metaspace: bytes, marker_in_text: bool, byte_level: bool, memo: dict):
    """Per token its kind, literal length, the literal of each plain or marked token (in
    token order) and whether its marker is a byte-level space. O(distinct contents' bytes)
    in Python, then O(tokens) gathers."""
    facts = []
    for atoms in table:
        key = (_KIND, id(atoms), marker_in_text)
        got = memo.get(key)
        if got is None:  # the entry holds the atoms, so their id stays theirs
            got = memo[key] = (atoms, _kind(atoms, metaspace, marker_in_text, byte_level))
        facts.append(got[1])
    facts.append((UNKNOWN, b"", False))  # code -1
    code = np.asarray(codes, np.int64).reshape(-1)
    kind_of = np.array([f[0] for f in facts], np.int8)
    length_of = np.array([len(f[1]) for f in facts], np.int64)
    space_of = np.array([f[2] for f in facts], bool)
    kinds = kind_of[code]
    is_special = np.asarray(special, bool).reshape(-1)
    kinds[is_special] = SPECIAL
    lengths = np.where(is_special, 0, length_of[code])
    lit_of = [f[1] for f in facts]
    lits = [lit_of[c] for c in code[(kinds == PLAIN) | (kinds == MARKED)].tolist()]
    return kinds, lengths, lits, space_of[code] & ~is_special


def _kind(atoms: list, metaspace: bytes, marker_in_text: bool,
          byte_level: bool) -> tuple[int, bytes, bool]:
    if len(atoms) == 1 and atoms[0][0] and atoms[0][1] == metaspace:
        if not marker_in_text:
            return LONE, b"", False
        return PLAIN, metaspace, False  # a lone marker the text spells out
    if len(atoms) == 1 and not atoms[0][0]:
        kind, lit = PLAIN, atoms[0][1]
    elif len(atoms) == 2 and atoms[0][0] and not atoms[1][0]:
        if marker_in_text and atoms[0][1] == metaspace:  # the text spells the marker out
            kind, lit = PLAIN, metaspace + atoms[1][1]  # (a SentencePiece .model's text)
        elif atoms[0][1] != b" " and atoms[0][1] != metaspace:
            return OTHER, b"", False
        else:
            kind, lit = MARKED, atoms[1][1]
    else:
        return OTHER, b"", False
    if not lit or _has_whitespace(lit, byte_level):
        return OTHER, b"", False
    return kind, lit, kind == MARKED and atoms[0][1] == b" "


def _has_whitespace(lit: bytes, byte_level: bool) -> bool:
    if byte_level:
        return any(chr(b).isspace() for b in lit)
    try:
        text = lit.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:  # part of a character (a byte-fallback piece): walk it
        return True
    return any(ch.isspace() for ch in text)
