"""UTF-8 bytes back to characters, remembering which token each byte came from.

Two rules for bytes that form no character:

- ``"lossy"`` — Rust's ``String::from_utf8_lossy`` and Python's ``errors="replace"`` (the
  Unicode Standard's "maximal subpart" practice): each maximal prefix of a valid sequence
  becomes one U+FFFD (``E0 A4 41`` → ``"\\ufffdA"``). Used by the ByteLevel decoder and
  tiktoken.
- ``"per_byte"`` — SentencePiece's ``DecodeUTF8``: every byte that does not start a
  complete valid character becomes its own U+FFFD (``E0 A4 41`` → ``"\\ufffd\\ufffdA"``).

:func:`assemble` (lossy rule) turns ``(bytes, owner per byte)`` into a :class:`Tracked` string whose
characters belong to the token holding their last byte, with a
:class:`~core.tokenizers.decoders.base.CharPart` for every character whose bytes came from
more than one token. O(number of bytes).

Public names: :func:`char_lengths`, :func:`assemble`.
"""

from __future__ import annotations

import numpy as np

from core.tokenizers.decoders.base import CharPart, Tracked

_REPLACEMENT = "\ufffd"
# lead byte -> (sequence length, allowed range of the second byte)
_LEADS: dict[int, tuple[int, int, int]] = {}
for _b in range(0xC2, 0xE0):
    _LEADS[_b] = (2, 0x80, 0xBF)
for _b in range(0xE0, 0xF0):
    _LEADS[_b] = (3, 0xA0 if _b == 0xE0 else 0x80, 0x9F if _b == 0xED else 0xBF)
for _b in range(0xF0, 0xF5):
    _LEADS[_b] = (4, 0x90 if _b == 0xF0 else 0x80, 0x8F if _b == 0xF4 else 0xBF)


def _one(data: bytes, i: int, rule: str) -> tuple[int, bool]:
    """(bytes consumed, forms a character) at ``data[i]``."""
    b = data[i]
    if b < 0x80:
        return 1, True
    lead = _LEADS.get(b)
    if lead is None:
        return 1, False
    n, lo, hi = lead
    k = 1
    while k < n and i + k < len(data):
        c = data[i + k]
        if not ((lo <= c <= hi) if k == 1 else (0x80 <= c <= 0xBF)):
            break
        k += 1
    if k == n:
        return n, True
    return (k if rule == "lossy" else 1), False


def char_lengths(data: bytes, rule: str = "lossy") -> list[tuple[int, bool]]:
    """``(bytes, valid)`` of each decoded character of ``data`` in order: a valid character
    spans its bytes; an invalid run becomes one U+FFFD spanning ``bytes`` bytes.
    O(len(data))."""
    out, i = [], 0
    while i < len(data):
        n, ok = _one(data, i, rule)
        out.append((n, ok))
        i += n
    return out


def assemble(data: bytes, owners: list[int] | None, home: int) -> Tracked:
    """Decode ``data`` by the ``"lossy"`` rule (``owners[k]``: the token byte ``k`` came
    from; None: untracked).

    Each character belongs to the token holding its last byte; a character whose bytes come
    from several tokens gets one :class:`CharPart` per token. O(len(data)).
    """
    if owners is None:
        return Tracked(data.decode("utf-8", "replace"), home)
    try:
        return _assemble_valid(data.decode("utf-8"), data, owners, home)
    except UnicodeDecodeError:
        pass
    text, own, parts, i = [], [], [], 0
    for n, ok in char_lengths(data):
        ch = data[i:i + n].decode("utf-8") if ok else _REPLACEMENT
        text.append(ch)
        own.append(owners[i + n - 1])
        if owners[i] != owners[i + n - 1]:
            parts += _split(ch, owners[i:i + n])
        i += n
    return Tracked("".join(text), home, tuple(own), tuple(parts))


def _assemble_valid(text: str, data: bytes, owners: list[int], home: int) -> Tracked:
    """:func:`assemble` for valid UTF-8, vectorized: a character starts at every byte that
    is not a continuation byte (``10xxxxxx``). O(len(data))."""
    if not data:
        return Tracked("", home, ())
    arr = np.frombuffer(data, np.uint8)
    own = np.asarray(owners, np.int64)
    starts = np.flatnonzero((arr & 0xC0) != 0x80)
    ends = np.append(starts[1:], len(arr)) - 1
    parts: list[CharPart] = []
    for c in np.flatnonzero(own[starts] != own[ends]).tolist():
        a, b = int(starts[c]), int(ends[c]) + 1
        parts += _split(text[c], owners[a:b])
    return Tracked(text, home, tuple(own[ends].tolist()), tuple(parts))


def _split(ch: str, owners: list[int]) -> list[CharPart]:
    """One :class:`CharPart` per run of equal owners over a character's bytes."""
    parts, start = [], 0
    for k in range(1, len(owners) + 1):
        if k == len(owners) or owners[k] != owners[start]:
            parts.append(CharPart(owners[start], ch, start + 1, k, len(owners)))
            start = k
    return parts
