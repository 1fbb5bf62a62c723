"""Where a tokenizer's offsets mislead (SPEC §8): flags per token and per character.

The reference libraries' offsets are reported as they are, never "fixed"; this module says
where they surprise a person: a span that starts or ends inside a grapheme cluster, a
character that no token covers, a character that several tokens share (byte-level pieces of
one character), a token whose span is empty. For byte-level tokens it also says which UTF-8
bytes of which character a token owns ("bytes 3–4 of 😀").

The token ↔ character alignment is kept as two ragged index lists (spaCy-style): which
characters each token covers and which tokens cover each character.

Public names: :func:`audit`, :class:`Audit`, :class:`TokenFlags`, :func:`grapheme_bounds`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import regex

from core.errors import OffsetError

_GRAPHEME = regex.compile(r"\X", regex.DOTALL)


def grapheme_bounds(text: str) -> list[int]:
    """Code-point offsets where extended grapheme clusters start, plus ``len(text)``."""
    bounds = [m.start() for m in _GRAPHEME.finditer(text)]
    bounds.append(len(text))
    return bounds


@dataclass(frozen=True)
class TokenFlags:
    """What is surprising about one token's span.

    Attributes
    ----------
    cuts_grapheme : bool
        The span starts or ends strictly inside an extended grapheme cluster.
    empty : bool
        The span is empty (special tokens, a dummy-prefix marker, or a lost character).
    shares_chars : bool
        Another token's span overlaps this one (byte-level pieces of one character).
    partial_chars : tuple[str, ...]
        For byte-level tokens that own only some bytes of a character:
        e.g. ``("bytes 3–4 of 😀",)``; bytes are numbered from 1.
    byte_start, byte_end : int | None
        The UTF-8 byte range of the original text the token owns, when known.
    """

    cuts_grapheme: bool = False
    empty: bool = False
    shares_chars: bool = False
    partial_chars: tuple[str, ...] = ()
    byte_start: int | None = None
    byte_end: int | None = None

    @property
    def any(self) -> bool:
        return self.cuts_grapheme or self.empty or self.shares_chars or bool(self.partial_chars)


@dataclass(frozen=True)
class Audit:
    """Flags for one encoding of one text.

    Attributes
    ----------
    tokens : list[TokenFlags]
        One entry per token.
    char_tokens : list[list[int]]
        For each original code point, the indices of the tokens whose span covers it.
    token_chars : list[range]
        For each token, the code points its span covers.
    uncovered : list[int]
        Code points covered by no token, whitespace excluded.
    uncovered_whitespace : list[int]
        Whitespace code points covered by no token (normal for most tokenizers).
    """

    tokens: list[TokenFlags]
    char_tokens: list[list[int]] = field(repr=False)
    token_chars: list[range] = field(repr=False)
    uncovered: list[int]
    uncovered_whitespace: list[int]

    @property
    def shared(self) -> list[int]:
        """Code points covered by more than one token."""
        return [i for i, toks in enumerate(self.char_tokens) if len(toks) > 1]


def _byte_ranges(text: str, offsets: Sequence[tuple[int, int]], byte_lengths: Sequence[int]):
    """Assign each token a UTF-8 byte range inside its span, in order.

    A token that starts in the same character where the previous token stopped mid-way
    continues from the previous token's last byte.
    """
    starts8 = [0]
    for ch in text:
        starts8.append(starts8[-1] + len(ch.encode("utf-8", "surrogatepass")))
    prev_end = 0
    out = []
    for (s, e), n in zip(offsets, byte_lengths):
        lo, hi = starts8[s], starts8[e]
        b0 = prev_end if lo < prev_end < hi else lo
        b1 = min(b0 + n, hi) if n else b0
        out.append((b0, b1))
        if b1 > b0:
            prev_end = b1
    return out, starts8


def _partial(text: str, starts8: list[int], s: int, e: int, b0: int, b1: int) -> tuple[str, ...]:
    notes = []
    for i in range(s, e):
        c0, c1 = starts8[i], starts8[i + 1]
        lo, hi = max(b0, c0), min(b1, c1)
        if hi > lo and (lo > c0 or hi < c1):
            first, last = lo - c0 + 1, hi - c0
            which = f"byte {first}" if first == last else f"bytes {first}\u2013{last}"
            notes.append(f"{which} of {text[i]!s} (U+{ord(text[i]):04X})")
    return tuple(notes)


def audit(
    text: str,
    offsets: Sequence[tuple[int, int]],
    *,
    byte_lengths: Sequence[int] | None = None,
    special_tokens_mask: Sequence[int] | None = None,
) -> Audit:
    """Flag the misleading parts of an encoding's offsets (SPEC §8).

    Parameters
    ----------
    text : str
        The original text.
    offsets : sequence of (int, int)
        Each token's half-open code-point span of ``text`` (as the tokenizer reports it).
    byte_lengths : sequence of int, optional
        For byte-level tokenizers, how many UTF-8 bytes each token stands for; enables
        :attr:`TokenFlags.partial_chars` and the byte ranges.
    special_tokens_mask : sequence of int, optional
        1 for special tokens; their empty spans are expected and not flagged.

    Raises
    ------
    OffsetError
        If a span is out of bounds or reversed, or the lists differ in length.
    """
    n = len(text)
    if byte_lengths is not None and len(byte_lengths) != len(offsets):
        raise OffsetError(f"{len(byte_lengths)} byte lengths for {len(offsets)} tokens")
    special = list(special_tokens_mask) if special_tokens_mask is not None else [0] * len(offsets)
    if len(special) != len(offsets):
        raise OffsetError(f"special-tokens mask has {len(special)} entries for {len(offsets)} tokens")
    char_tokens: list[list[int]] = [[] for _ in range(n)]
    token_chars: list[range] = []
    for j, (s, e) in enumerate(offsets):
        if not 0 <= s <= e <= n:
            raise OffsetError(f"token {j} span ({s}, {e}) is outside the text of {n} code points")
        token_chars.append(range(s, e))
        if not special[j]:
            for i in range(s, e):
                char_tokens[i].append(j)
    bounds = set(grapheme_bounds(text))
    bytes_info = _byte_ranges(text, offsets, byte_lengths) if byte_lengths is not None else None
    flags = []
    for j, (s, e) in enumerate(offsets):
        if special[j]:
            flags.append(TokenFlags())
            continue
        b0 = b1 = None
        partial: tuple[str, ...] = ()
        if bytes_info is not None:
            (b0, b1), starts8 = bytes_info[0][j], bytes_info[1]
            partial = _partial(text, starts8, s, e, b0, b1)
        flags.append(
            TokenFlags(
                cuts_grapheme=s < e and (s not in bounds or e not in bounds),
                empty=s == e,
                shares_chars=any(len(char_tokens[i]) > 1 for i in range(s, e)),
                partial_chars=partial,
                byte_start=b0,
                byte_end=b1,
            )
        )
    uncovered = [i for i in range(n) if not char_tokens[i] and not text[i].isspace()]
    uncovered_ws = [i for i in range(n) if not char_tokens[i] and text[i].isspace()]
    return Audit(flags, char_tokens, token_chars, uncovered, uncovered_ws)
