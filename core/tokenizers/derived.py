"""Derived offsets: the span each token's own content occupies in the original text.

The reference libraries compute a token's span from positions carried through the
pipeline, and in a few places those positions are wrong: a BPE model without an unknown
token drops a character it cannot encode and every later token of the word shifts left
(huggingface/tokenizers#517); after an added token, with a prefix space and
``trim_offsets``, the next token loses its first character (#1300); a prepended ``▁``
claims the first character of its word although the next token holds it; the byte pieces a
SentencePiece model spells an unknown character with get empty spans but the last.
:func:`derived_offsets` recomputes every span from what the token *holds*, independently
of those positions, in the way :mod:`core.align` aligns a pasted token list: a cursor walks
over the UTF-8 bytes of the normalized text and each token's content is matched at the
cursor (after skipping whitespace, or — for a character the model dropped — a little
further on); the matched bytes are mapped to original code points through the normalized
text's true map (:meth:`~core.text.normalize.NormalizedText.true_map`: where the reference
misplaces characters in the map itself, as after a character the ``Precompiled`` charsmap
deletes at the start of a piece, the map without that misplacement).

A token's content: its bytes for byte-level tokens (a leading space may be the one the
pre-tokenizer added, so it may match nothing); the byte of a byte-fallback piece; its
string without the continuing-subword prefix / end-of-word suffix otherwise, each Metaspace
``▁`` standing for a ``▁`` or a whitespace character in the normalized text, or for nothing
(prepended). The model's unknown token written as its own string (``[UNK]``) has no content:
it keeps the reference span (moved to the cursor when that span lies behind it), as do
special tokens the post-processor added.

Whitespace is a convention, not content: where the reference span differs from the derived
one only by *blank* code points (whitespace, or characters the normalizer dropped: nothing
but whitespace comes from them) next to the token's first or last other character, the
reference's choice is kept (and, with ``trim_offsets``, spaces are trimmed the same way).
So derived spans differ from the reference exactly where the reference misplaces characters
that have content. Spans are half-open code points of the original text.

Speed: the walk is first guessed for all tokens at once in numpy and checked
(:mod:`core.tokenizers.derived_runs`); only tokens whose guess fails (dropped characters,
unusual tokens) are walked one by one. Token contents (:mod:`core.tokenizers.derived_contents`)
are worked out once per distinct token and remembered across encodings.

Public names: :func:`derived_offsets`.
"""

from __future__ import annotations

from array import array
from itertools import chain
from typing import Any, Sequence

import numpy as np

from core.text.byte_alphabet import from_byte_level
from core.text.char_classes import capped_lookup
from core.text.columns import IntArray, SpanArray, int_array
from core.tokenizers import chars
from core.tokenizers.derived_contents import Atom, token_contents
from core.tokenizers.derived_runs import guess_walk, nonzero32, resume_at
from core.tokenizers.derived_sources import covering_ends
from core.tokenizers.token_rules import TokenRules

__all__ = ["derived_offsets"]

SEARCH_BYTES = 256
"""How far past the cursor (bytes, beyond the token's own length) a token's content is
looked for when it does not fit at the cursor: room for dropped characters."""

_BYTE_SPACE = np.array([chr(b).isspace() for b in range(256)], bool)


_SPACE_CODES = np.array([chr(c).isspace() for c in range(0x3002)], bool)  # none from U+3001 on


def _is_space(text: str) -> np.ndarray:
    """``(len(text),) bool``: ``str.isspace`` of every character, by table lookup (numpy,
    a few short C calls instead of one call per character). O(n)."""
    return capped_lookup(_SPACE_CODES, text)


def _int32_table(n: int) -> array:
    """A zeroed ``array("i")`` of ``n`` entries, allocated once (no temporary copy)."""
    return array("i", [0]) * n


def _view32(table: array) -> np.ndarray:
    """An ``array("i")`` as an int32 ndarray sharing its memory."""
    return np.frombuffer(table, np.int32) if len(table) else np.zeros(0, np.int32)


class _Text:
    """The normalized text as UTF-8 bytes with, per byte, its character and whether that
    character is whitespace.

    Per byte (``m`` bytes, ``n`` characters): ``ws`` (bytes, 1 for whitespace) and
    ``ws_array`` (its bool view), ``char_of`` (``array("i")``, length ``m + 1``) and
    ``char_array`` (its int32 view); per character ``starts`` / ``starts_array`` (its first
    byte, length ``n + 1``); per original code point ``blank`` (bytes, see :func:`_blank`).
    ``nt`` is the true map (:meth:`NormalizedText.true_map`); ``ref_starts`` / ``ref_ends``
    are the map the reference spans were read through (``reference``'s, when it differs).
    About 10 bytes a byte; no per-byte Python object. O(m)."""

    def __init__(self, nt: Any, byte_level_text: bool, reference: Any = None):
        text = nt.text
        if byte_level_text:
            self.data = from_byte_level(text)
            data = np.frombuffer(self.data, np.uint8)
            self.char_of = array("i", np.arange(len(self.data) + 1, dtype=np.int32).tobytes())
            self.starts = self.char_of
            space = _BYTE_SPACE[data]
            self.ws_array = space
        else:
            self.data = text.encode("utf-8", "surrogatepass")
            data = np.frombuffer(self.data, np.uint8)
            lead = (data & 0xC0) != 0x80  # the first byte of each character
            # plain arrays index faster than numpy scalars in the per-token loop; they are
            # filled through int32 views of their own memory (no copies)
            self.char_of = _int32_table(len(data) + 1)
            char_of = _view32(self.char_of)
            np.cumsum(lead, dtype=np.int32, out=char_of[:-1])
            char_of[:-1] -= 1
            char_of[-1] = len(text)
            self.starts = _int32_table(len(text) + 1)
            starts = _view32(self.starts)
            starts[:-1] = nonzero32(lead)
            starts[-1] = len(data)
            del lead, starts
            space = _is_space(text)
            self.ws_array = space[char_of[:-1]]
            del char_of
        self.ws = self.ws_array.tobytes()
        self.char_array = _view32(self.char_of)
        self.starts_array = _view32(self.starts)
        self.n = len(self.data)
        self.nt = nt
        self.nt_starts, self.nt_ends = nt.arrays()
        covering = covering_ends(nt, self.nt_starts, self.nt_ends)  # all of a composed char
        self.blank = _blank(nt, space, self.nt_starts, covering)
        self._nt_starts, self._nt_ends = nt.starts, nt.ends
        if covering is not self.nt_ends:
            self.nt_ends, self._nt_ends = covering, int_array(covering)
        self.ref_starts, self.ref_ends = self.nt_starts, self.nt_ends
        if reference is not None and reference is not nt:
            s, e = reference.arrays()
            self.ref_starts, self.ref_ends = s, covering_ends(reference, s, e)

    def skip_ws(self, p: int) -> int:
        ws, n = self.ws, self.n
        while p < n and ws[p]:
            p += 1
        return p

    def match(self, atoms: Sequence[Atom], p: int) -> tuple[int, int] | None:
        """Bytes ``[start, end)`` that ``atoms`` cover at ``p``, or None. An optional atom
        takes its literal or one whitespace character there, or nothing."""
        data, start = self.data, None
        for optional, lit in atoms:
            if data.startswith(lit, p):
                start = p if start is None else start
                p += len(lit)
            elif optional:
                if p < self.n and self.ws[p] and lit != b" ":
                    start = p if start is None else start
                    p = self.starts[self.char_of[p] + 1]
            else:
                return None
        return (p if start is None else start), p

    def locate(self, atoms: Sequence[Atom], cur: int) -> tuple[int, int] | None:
        """Where ``atoms`` fit first: at the cursor, after whitespace, or (for dropped
        characters) at the next occurrence of their first literal within
        :data:`SEARCH_BYTES`. O(SEARCH_BYTES) per token at worst."""
        optional, lit = atoms[0] if atoms else (True, b"")
        if optional or self.data.startswith(lit, cur):  # else it cannot fit at the cursor
            found = self.match(atoms, cur)
            if found is not None:
                return found
        skipped = self.skip_ws(cur)
        found = self.match(atoms, skipped) if skipped != cur else None
        if found is not None:
            return found
        core = list(atoms)
        while core and core[0][0]:
            core.pop(0)
        if not core:
            return None
        limit = skipped + SEARCH_BYTES + sum(len(lit) for _, lit in atoms)
        q = self.data.find(core[0][1], skipped, limit)
        while q >= 0:
            found = self.match(core, q)
            if found is not None:
                return found
            q = self.data.find(core[0][1], q + 1, limit)
        return None

    def to_original(self, b0: int, b1: int) -> tuple[int, int]:
        """The original span of the characters whose bytes ``[b0, b1)`` touch."""
        if b1 > b0:
            return self._nt_starts[self.char_of[b0]], self._nt_ends[self.char_of[b1 - 1]]
        return self.nt.to_original(*(self.char_of[min(b0, self.n)],) * 2)

    def to_bytes(self, a: int, b: int) -> tuple[int, int]:
        """The normalized bytes of original span ``[a, b)``."""
        n0, n1 = self.nt.to_normalized(a, b)
        return self.starts[n0], self.starts[n1]


def _blank(nt: Any, space: np.ndarray, nt_starts: np.ndarray, nt_ends: np.ndarray) -> bytes:
    """Per original code point: 1 when no non-whitespace normalized character comes from
    it (whitespace, or a character the normalizer dropped), else 0. O(n)."""
    n = len(nt.original)
    keep = ~space
    delta = np.bincount(nt_starts[keep], minlength=n + 1)
    delta -= np.bincount(nt_ends[keep], minlength=n + 1)
    return (np.cumsum(delta[:n], dtype=np.int32) <= 0).tobytes()


def _spelled_out(enc: Any, text: _Text) -> tuple[np.ndarray, np.ndarray] | None:
    """For byte-level tokens whose bytes, in order, are exactly the normalized text's bytes
    (no special tokens inside, no prefix space added): each token's span from its byte
    position, as the walk would find it, as ``(starts, ends)`` code-point arrays of shape
    ``(n,)``, computed with numpy (O(bytes)); else None."""
    data = enc.token_bytes
    if data is None or any(enc.special_tokens_mask) or not _spells(data, text.data):
        return None
    kind = np.int32 if text.n < 2**31 else np.int64  # byte positions: half the memory
    lengths = np.fromiter(map(len, data), kind, len(data))
    if len(lengths) == 0 or not lengths.all():
        return None
    at = np.cumsum(lengths, dtype=kind)  # each token's end, edited in place (no temporaries):
    at -= 1  # its last byte,
    last = text.char_array[at]
    at -= lengths  # its first byte
    at += 1
    del lengths
    first = text.char_array[at]
    del at
    return text.nt_starts[first], text.nt_ends[last]


_JOIN_CHUNK = 16_384


def _spells(parts: Sequence[bytes], data: bytes) -> bool:
    """``b"".join(parts) == data``, joined a chunk of parts at a time: one join of every
    part holds a buffer descriptor (~80 bytes) per part at once, 60 MB for 750,000 tokens.
    O(bytes)."""
    pos = 0
    for k in range(0, len(parts), _JOIN_CHUNK):
        piece = b"".join(parts[k:k + _JOIN_CHUNK])
        if not data.startswith(piece, pos):
            return False
        pos += len(piece)
    return pos == len(data)


def _margin(blank: bytes, a: int, step: int) -> int:
    """The end of the run of blank code points next to ``a`` going ``step`` (-1 or +1)."""
    if step < 0:
        while a > 0 and blank[a - 1]:
            a -= 1
    else:
        while a < len(blank) and blank[a]:
            a += 1
    return a


def _settle(text: str, blank: bytes, span: tuple[int, int], ref: tuple[int, int],
            trims: bool, space: frozenset[str]) -> tuple[int, int]:
    """Keep the reference's whitespace convention: its start (end) is kept when it lies in
    the blank code points (whitespace, dropped characters) next to the derived span's first
    (last) other one."""
    if span == ref:
        return ref
    a, b = span
    core_a, core_b = a, b
    while core_a < core_b and blank[core_a]:
        core_a += 1
    while core_b > core_a and blank[core_b - 1]:
        core_b -= 1
    r0, r1 = ref
    if core_a == core_b:  # whitespace only, or nothing (a prepended marker)
        if _margin(blank, a, -1) <= r0 <= r1 <= _margin(blank, b, 1):
            return ref
        return (b, b) if trims else (a, b)
    if trims:
        while a < core_a and text[a] in space:
            a += 1
        while b > core_b and text[b - 1] in space:
            b -= 1
    start = r0 if _margin(blank, core_a, -1) <= r0 <= core_a else a
    end = r1 if core_b <= r1 <= _margin(blank, core_b, 1) else b
    return start, max(start, end)


def derived_offsets(enc: Any, rules: TokenRules, *, shortcut: bool = True) -> list[tuple[int, int]]:
    """One derived span per token of ``enc`` (see the module docstring).

    Parameters
    ----------
    enc : Encoding
        ``tokens``, ``ids``, ``offsets``, ``word_ids``, ``special_tokens_mask``,
        ``normalized`` and ``token_bytes`` are read.
    rules : TokenRules
        The tokenizer's rules (unknown id, byte pieces, markers, trimming).
    shortcut : bool
        Use the vectorized paths: byte-level spans from byte positions when the tokens
        spell the text out exactly, and runs of plain tokens placed in bulk
        (:mod:`core.tokenizers.derived_runs`). The same result as the token-by-token
        walk, which False forces.

    Returns
    -------
    list of (int, int), or SpanArray
        A :class:`core.text.columns.SpanArray` (equal to the list) when ``enc.offsets``
        is one. Length ``len(enc)``; half-open code points of the original text, inside it,
        with non-decreasing starts over the non-special tokens. O(bytes + tokens) plus
        the searches past dropped characters (O(:data:`SEARCH_BYTES`) each).
    """
    text = _Text(enc.normalized.true_map(), rules.byte_level_text, enc.normalized)
    original = enc.normalized.original
    space = frozenset(" ") if enc.byte_level else chars.WHITESPACE  # what trim_offsets trims
    blank, trims = text.blank, rules.trims_offsets
    raw = _spelled_out(enc, text) if shortcut else None
    ref = _ref_arrays(enc.offsets)
    if raw is not None:  # the tokens' bytes are the text's bytes: no walk needed
        refs = enc.offsets
        a, b = raw
        differ = (a != ref[0]) | (b != ref[1])
        differ &= ~_blank_lead(text, a, b, ref[0], ref[1], np.ones(len(a), bool))
        at = np.flatnonzero(differ)
        settled = [_settle(original, blank, span, r, trims, space) for span, r in
                   zip(zip(a[at].tolist(), b[at].tolist()), zip(ref[0][at].tolist(), ref[1][at].tolist()))]
        return _replaced(refs, dict(zip(at.tolist(), settled)))
    b0, b1 = _walk(enc, rules, text, ref, shortcut)
    return _spans(enc, text, ref, b0, b1, trims, space)


def _ref_arrays(offsets: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, ends)``: the reference spans as two ``(n,) int64`` arrays (a
    :class:`SpanArray`'s own columns, not copied). O(tokens)."""
    if isinstance(offsets, SpanArray):
        return offsets.arrays()
    flat = np.fromiter(chain.from_iterable(offsets), np.int64, 2 * len(offsets)).reshape(-1, 2)
    return flat[:, 0], flat[:, 1]


def _replaced(refs: Sequence[tuple[int, int]], changed: dict[int, tuple[int, int]]):
    """``refs`` with the spans in ``changed`` replaced: a new :class:`SpanArray` when
    ``refs`` is one (no per-token tuples), else a list of tuples. O(tokens)."""
    if isinstance(refs, SpanArray):
        starts, ends = IntArray(), IntArray()
        starts.frombytes(memoryview(refs.starts).cast("B"))
        ends.frombytes(memoryview(refs.ends).cast("B"))
        if changed and len(starts):
            at = np.fromiter(changed, np.int64, len(changed))
            pairs = np.array(list(changed.values()), np.int64).reshape(-1, 2)
            np.frombuffer(starts, np.int64)[at] = pairs[:, 0]
            np.frombuffer(ends, np.int64)[at] = pairs[:, 1]
        return SpanArray(starts, ends, 0)
    out = [r if isinstance(r, tuple) else tuple(r) for r in refs]
    for j, span in changed.items():
        out[j] = span
    return out


def _walk(enc: Any, rules: TokenRules, text: _Text, ref: tuple[np.ndarray, np.ndarray], guess: bool) -> tuple[np.ndarray, np.ndarray]:
    """The byte span each token's content is found at by the cursor walk (special tokens:
    ``(-1, -1)``, they keep the reference span). With ``guess``, the walk is guessed for all
    tokens at once (:func:`~core.tokenizers.derived_runs.guess_walk`, the same spans) and
    only walked token by token from a failed guess until the cursor meets the guesses
    again. O(tokens) steps, each O(token bytes), or O(:data:`SEARCH_BYTES`) past dropped
    characters."""
    codes, table = token_contents(enc, rules)
    contents = [table[c] if c >= 0 else None for c in codes.tolist()] if not guess else None
    special = enc.special_tokens_mask
    n = len(codes)
    refs = _ref_bytes(ref, text)
    if not guess:
        b0, b1 = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
        cur = 0
        for j in range(n):
            if not special[j]:
                b0[j], b1[j] = found = _step(text, contents[j], cur, int(refs[0][j]),
                                             int(refs[1][j]))
                cur = found[1]
        return b0, b1
    g = guess_walk(text, codes, table, special, refs, rules.metaspace.encode("utf-8"),
                   rules.byte_level_text, rules.memo)
    b0, b1 = g.b0, g.b1
    done = 0  # tokens before this index are placed
    for m in np.flatnonzero(~g.ok).tolist():
        if m < done:
            continue
        j, cur = m, int(g.prev_end[m])
        while j < n and (j == m or not resume_at(g, j, cur)):
            if not special[j]:
                atoms = table[codes[j]] if codes[j] >= 0 else None
                b0[j], b1[j] = found = _step(text, atoms, cur, int(refs[0][j]), int(refs[1][j]))
                cur = found[1]
            j += 1
        done = j
    return b0, b1


def _step(text: _Text, atoms: list[Atom] | None, cur: int, r0: int, r1: int) -> tuple[int, int]:
    """One token of the walk: where its content fits from ``cur``; with no content, or none
    that fits, its reference bytes ``[r0, r1)`` from the cursor on."""
    found = text.locate(atoms, cur) if atoms is not None else None
    if found is None:
        r0 = max(r0, text.skip_ws(cur))
        found = r0, max(r0, r1)
    return found


def _ref_bytes(ref: tuple[np.ndarray, np.ndarray], text: _Text) -> tuple[np.ndarray, np.ndarray]:
    """Per token, the normalized bytes of its reference span ``ref`` (starts, ends: code
    points), as :meth:`NormalizedText.to_normalized` maps it, vectorized: two int32
    arrays. O(tokens · log chars)."""
    starts, ends = text.ref_starts, text.ref_ends
    n0 = np.searchsorted(ends, ref[0], side="right")
    n1 = np.maximum(n0, np.searchsorted(starts, ref[1], side="left"))
    return text.starts_array[n0], text.starts_array[n1]


def _blank_lead(text: _Text, a: np.ndarray, b: np.ndarray, r0: np.ndarray, r1: np.ndarray,
                nonempty: np.ndarray) -> np.ndarray:
    """``(tokens,) bool``: the derived span ``[a, b)`` is the reference span ``[r0, r1)``
    plus blank code points before ``r0`` (a space a marker consumed), where :func:`_settle`
    keeps the reference. O(tokens + chars)."""
    blank_array = np.frombuffer(text.blank, bool)
    solid = np.zeros(len(blank_array) + 1, np.int32)  # non-blank code points before each
    np.cumsum(~blank_array, dtype=np.int32, out=solid[1:])
    r0c = np.minimum(r0, len(blank_array) - 1) if len(blank_array) else r0
    lead = nonempty & (b == r1) & (a < r0) & (r0 < r1) & (solid[r0] == solid[np.maximum(a, 0)])
    if len(blank_array):
        lead &= ~blank_array[r0c]
    return lead


def _spans(enc: Any, text: _Text, ref: tuple[np.ndarray, np.ndarray], b0: np.ndarray,
           b1: np.ndarray, trims: bool, space: frozenset[str]):
    """Map the walk's byte spans to original code points and settle each against its
    reference span (:func:`_settle`); vectorized where the two agree or differ only by
    blank code points before the reference start. O(tokens). A SpanArray when
    ``enc.offsets`` is one, else a list of tuples."""
    refs = enc.offsets
    if not len(refs):
        return _replaced(refs, {})
    nonempty = b1 > b0
    char_of = text.char_array
    first = char_of[np.where(nonempty, b0, 0)]
    last = char_of[np.where(nonempty, b1 - 1, 0)]
    starts, ends = text.nt_starts, text.nt_ends
    if len(starts):
        a, b = starts[first], ends[last]
    else:
        a = b = np.zeros(len(refs), np.int64)
    r0, r1 = ref
    same = nonempty & (a == r0) & (b == r1) | (b0 < 0)
    same |= _blank_lead(text, a, b, r0, r1, nonempty)
    original, blank = enc.normalized.original, text.blank
    changed = {}
    for j in np.flatnonzero(~same).tolist():
        span = (int(a[j]), int(b[j])) if nonempty[j] else text.to_original(int(b0[j]), int(b1[j]))
        changed[j] = _settle(original, blank, span, tuple(refs[j]), trims, space)
    return _replaced(refs, changed)
