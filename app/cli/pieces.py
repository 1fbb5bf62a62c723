"""Cutting a long text into pieces a tokenizer encodes one at a time, with the same tokens.

``subwordscope encode`` works piece by piece so that its memory is bounded whatever the
input's size. A **piece boundary** is a position ``p`` (code points) such that:

- the character before ``p`` is a line feed (preferred), other whitespace or sentence
  punctuation, and the character at ``p`` is neither whitespace, nor a combining mark, nor a
  format character (so ``p`` is a grapheme-cluster boundary and no whitespace run is split);
- the tokenizer agrees: around ``p`` (:data:`WINDOW` code points each side)
  ``tokenizer.pre_tokenize(left + right)`` gives exactly the words, with the same spans, of
  ``pre_tokenize(left)`` followed by ``pre_tokenize(right)`` — so no word, added token,
  normalization (NFC composition) or start-of-text rule (a prefix space, Metaspace's
  ``prepend_scheme="first"``) crosses it — and ``encode`` of the window gives the ids,
  offsets and derived offsets of the two sides' encodes (a Metaspace ``▁`` that the whole
  text takes from the line end but a piece adds itself moves a derived span). The model
  tokenizes each word on its own, so the tokens, ids and offsets equal those of one encode
  of the whole text.

Pieces are about :data:`PIECE_CHARS` code points. When no position in a piece's reach passes
the test (a tokenizer without a pre-tokenizer that splits there, or a line of
:data:`FORCED_CHARS` code points without one), the piece is cut anyway at the last
non-whitespace, non-mark character before :data:`FORCED_CHARS` and marked ``exact=False``:
the tokens next to that boundary may differ from a whole-text encode. A run of whitespace
is never cut (it is held whole, however long).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Iterator

from core.tokenizers import TokenizerLike

PIECE_CHARS = 1 << 16
"""Code points a piece aims at (a boundary is looked for in its second half)."""

FORCED_CHARS = 1 << 18
"""Longest piece cut only at a boundary the pre-tokenizer agrees with (262,144 code points)."""

WINDOW = 256
"""Code points each side of a candidate boundary given to the pre-tokenizer test."""

CANDIDATES = 16
"""Candidates of each kind (after a line feed, after other whitespace or punctuation) tried,
from the last one back."""

_AFTER_LINE = re.compile(r"\n(?=\S)")
_AFTER_SPACE = re.compile(r"[\s.,;:!?\u3001\u3002\uff01\uff0c\uff1f\u0964\u06d4](?=\S)")


@dataclass(frozen=True)
class Piece:
    """``text`` starting at code point ``start`` of the whole text; ``exact``: its start is a
    piece boundary the pre-tokenizer agrees with (or the start of the text)."""

    text: str
    start: int
    exact: bool = True


def pieces(blocks: Iterable[str], tokenizer: TokenizerLike, piece_chars: int | None = None,
           forced_chars: int | None = None) -> Iterator[Piece]:
    """Cut the text given as ``blocks`` (consecutive parts of it) into pieces whose
    concatenation is the text. The first piece holds a non-whitespace character unless the
    whole text is blank (then it is the only piece, possibly empty).

    Holds one block plus at most ``forced_chars`` code points (plus a whitespace run).
    Cost: O(n) to scan, and per piece at most ``4 · CANDIDATES`` tests, each three
    pre-tokenizations and three encodes of at most ``2 · WINDOW`` code points. ``piece_chars`` / ``forced_chars`` default to :data:`PIECE_CHARS`
    and :data:`FORCED_CHARS`.
    """
    piece_chars = PIECE_CHARS if piece_chars is None else piece_chars
    forced_chars = FORCED_CHARS if forced_chars is None else forced_chars
    buf, start, exact = "", 0, True
    for block in blocks:
        buf += block
        while len(buf) >= piece_chars + WINDOW:
            reach = min(len(buf) - WINDOW, forced_chars)
            cut = _cut(buf, tokenizer, piece_chars, reach, force=reach == forced_chars)
            if cut is None:
                break
            p, ok = cut
            yield Piece(buf[:p], start, exact)
            buf, start, exact = buf[p:], start + p, ok
    while len(buf) > forced_chars:  # the end: what is left, still in pieces
        cut = _cut(buf, tokenizer, piece_chars, forced_chars, force=True)
        if cut is None:
            break
        p, ok = cut
        yield Piece(buf[:p], start, exact)
        buf, start, exact = buf[p:], start + p, ok
    if buf or start == 0:
        yield Piece(buf, start, exact)


def _cut(buf: str, tokenizer: TokenizerLike, piece_chars: int, reach: int,
         force: bool) -> tuple[int, bool] | None:
    """``(p, True)``: a piece boundary in ``(piece_chars // 2, reach]``, the latest one up
    to ``piece_chars`` first; ``(p, False)``: when ``force`` and none passed, the last
    candidate or cluster start; None: read more first (or only whitespace to cut at)."""
    lo = piece_chars // 2
    for a, b in ((lo, min(piece_chars, reach)), (piece_chars, reach)):
        if b <= a:
            continue
        for pattern in (_AFTER_LINE, _AFTER_SPACE):
            for p in _candidates(pattern, buf, a, b):
                if buf[:p].strip() and _agrees(tokenizer, buf, p):
                    return p, True
    if not force:
        return None
    for pattern in (_AFTER_LINE, _AFTER_SPACE):
        found = _candidates(pattern, buf, lo, reach)
        if found and buf[:found[0]].strip():
            return found[0], False
    for p in range(reach, lo, -1):  # no line, no space: the last character that starts a cluster
        if _starts_cluster(buf[p]) and buf[:p].strip():
            return p, False
    return None


def _candidates(pattern: re.Pattern, buf: str, a: int, b: int) -> list[int]:
    """The last :data:`CANDIDATES` positions ``p`` in ``(a, b]`` after a ``pattern`` match
    whose character ``buf[p]`` starts a grapheme cluster, latest first."""
    out = []
    for m in reversed(list(pattern.finditer(buf, a, b + 1))):
        p = m.end()
        if a < p <= b and _starts_cluster(buf[p]):
            out.append(p)
            if len(out) == CANDIDATES:
                break
    return out


def _starts_cluster(c: str) -> bool:
    """Not whitespace, a combining mark or a format character (ZWJ, variation selectors…)."""
    return not c.isspace() and unicodedata.category(c)[0] != "M" and unicodedata.category(c) != "Cf"


def _agrees(tokenizer: TokenizerLike, buf: str, p: int) -> bool:
    """Whether the tokenizer pre-tokenizes and encodes ``buf`` around ``p`` as its two sides
    apart: the same words with the same spans, and the same ids, offsets and derived offsets
    (a start-of-text rule can move a derived span while the words stay)."""
    left, right = buf[max(0, p - WINDOW):p], buf[p:p + WINDOW]
    k = len(left)
    try:
        whole = tokenizer.pre_tokenize(left + right)
        apart = tokenizer.pre_tokenize(left) + [(w, (s + k, e + k)) for w, (s, e) in tokenizer.pre_tokenize(right)]
        if [(w, tuple(span)) for w, span in whole] != [(w, tuple(span)) for w, span in apart]:
            return False
        both, a, b = (tokenizer.encode(t) for t in (left + right, left, right))
        return (list(both.ids) == list(a.ids) + list(b.ids)
                and _spans(both.offsets) == _spans(a.offsets) + _spans(b.offsets, k)
                and _spans(both.derived_offsets) == _spans(a.derived_offsets) + _spans(b.derived_offsets, k))
    except (ValueError, TypeError, AttributeError, NotImplementedError):
        return False


def _spans(offsets, shift: int = 0) -> list[tuple[int, int]]:
    return [(s + shift, e + shift) for s, e in offsets]
