"""GPT-2's byte-to-unicode alphabet, and byte ↔ code-point positions.

Byte-level BPE (GPT-2, RoBERTa, tiktoken encodings) works on the UTF-8 bytes of the text.
So that every token is still a printable string, GPT-2 maps each byte to one visible
character: printable Latin-1 bytes stand for themselves, the 68 others (controls, space,
NBSP, soft hyphen) are shifted to U+0100 and up in byte order — the space byte 0x20 becomes
``"Ġ"`` (U+0120) and the newline byte 0x0A becomes ``"Ċ"`` (U+010A). Source: the
``bytes_to_unicode`` table published with GPT-2 (Radford et al., 2019, ``encoder.py``), which
the ``tokenizers`` library's ByteLevel pre-tokenizer reproduces.

Lone surrogates (U+D800–U+DFFF, possible in a Python ``str`` but not in UTF-8) are encoded
with ``"surrogatepass"``, i.e. as the three bytes of their generalized UTF-8 form
(``"\\ud800"`` → ``ED A0 80``), so that every Python string has a byte-level form whose bytes
map back to it. The reference libraries cannot take such strings at all.

Public names: :data:`BYTE_TO_CHAR`, :data:`CHAR_TO_BYTE`, :func:`bytes_to_unicode`,
:func:`to_byte_level`, :func:`bytes_to_byte_level`, :func:`from_byte_level`,
:func:`token_bytes_cached`, :func:`utf8_len`, :func:`byte_to_char_index`, :func:`byte_char_index`,
:func:`byte_span_to_char_span`, :func:`readable_parts`, :func:`readable_bytes`,
:func:`shown_char`, :func:`readable_shown`, :class:`ByteLevelError`.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from core.errors import SubwordScopeError


class ByteLevelError(SubwordScopeError):
    """A string is not in the byte-level alphabet, or a split-pattern name is unknown."""


def _build_table() -> tuple[str, ...]:
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
            *range(ord("®"), ord("ÿ") + 1)]
    table: list[str] = [""] * 256
    for b in kept:
        table[b] = chr(b)
    shifted = (b for b in range(256) if not table[b])
    for n, b in enumerate(shifted):
        table[b] = chr(256 + n)
    return tuple(table)


BYTE_TO_CHAR: tuple[str, ...] = _build_table()
"""``BYTE_TO_CHAR[b]`` is the alphabet character of byte ``b`` (256 entries)."""

CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
"""Inverse of :data:`BYTE_TO_CHAR`."""

# str.translate tables: Latin-1 code point -> alphabet char, and back. Latin-1 characters
# that are not in the alphabet map to U+FFFF so that the Latin-1 encode step rejects them.
_TO_ALPHABET = {b: c for b, c in enumerate(BYTE_TO_CHAR)}
_FROM_ALPHABET = {ord(c): b for b, c in enumerate(BYTE_TO_CHAR)}
_FROM_ALPHABET.update({b: 0xFFFF for b in range(256) if chr(b) not in CHAR_TO_BYTE})


def bytes_to_unicode() -> dict[int, str]:
    """The GPT-2 byte-to-unicode table as a new dict ``{byte: character}`` (256 entries)."""
    return dict(enumerate(BYTE_TO_CHAR))


def bytes_to_byte_level(data: bytes) -> str:
    """Map raw bytes to the byte-level alphabet, one character per byte."""
    return data.decode("latin-1").translate(_TO_ALPHABET)


def to_byte_level(text: str) -> str:
    """UTF-8 encode ``text`` and map each byte to its alphabet character.

    Lone surrogates are encoded with ``"surrogatepass"`` (three bytes each).

    Returns
    -------
    str
        One alphabet character per UTF-8 byte: ``len(result) == len(text.encode())``.
    """
    return bytes_to_byte_level(text.encode("utf-8", "surrogatepass"))


def from_byte_level(s: str) -> bytes:
    """The bytes that a byte-level string stands for (inverse of :func:`bytes_to_byte_level`).

    Raises
    ------
    ByteLevelError
        If ``s`` contains a character outside the byte-level alphabet (e.g. a plain space).
    """
    try:
        return s.translate(_FROM_ALPHABET).encode("latin-1")
    except UnicodeEncodeError as exc:
        bad = s[exc.start]
        raise ByteLevelError(
            f"character {bad!r} (U+{ord(bad):04X}) at position {exc.start} is not in the "
            "GPT-2 byte-level alphabet"
        ) from None


# Byte <-> code-point positions-------------------------------------------------------------

def utf8_len(ch: str) -> int:
    """Number of UTF-8 bytes of one code point (a lone surrogate: 3, as surrogatepass)."""
    o = ord(ch)
    return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4


def byte_to_char_index(text: str) -> list[int]:
    """For each UTF-8 byte of ``text`` (surrogatepass), the index of its code point.

    Returns
    -------
    list[int], length ``len(to_byte_level(text))``
        Non-decreasing; the bytes of code point ``i`` all map to ``i``.
    """
    if text.isascii():
        return list(range(len(text)))
    return [i for i, ch in enumerate(text) for _ in range(utf8_len(ch))]


def byte_char_index(text: str) -> np.ndarray:
    """For every UTF-8 byte of ``text`` (surrogatepass), the index of its code point.

    Returns
    -------
    (n_bytes,) int64 ndarray
        Non-decreasing; computed from the bytes' lead/continuation bits, no Python loop.
    """
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    if len(data) == len(text):
        return np.arange(len(text), dtype=np.int64)
    return np.cumsum((data & 0xC0) != 0x80, dtype=np.int64) - 1


def byte_span_to_char_span(index: list[int], start: int, end: int) -> tuple[int, int]:
    """The code-point span of the characters whose bytes ``start:end`` touch.

    A byte span that covers part of a character still owns that whole character, so pieces
    of one character share that character's span (the ``tokenizers`` library's convention).

    Parameters
    ----------
    index : list[int]
        :func:`byte_to_char_index` of the text.
    start, end : int
        Half-open byte span, ``0 <= start <= end <= len(index)``.

    Returns
    -------
    (int, int)
        Half-open code-point span; an empty byte span gives an empty span at its position.
    """
    if start >= end:
        pos = index[start] if start < len(index) else (index[-1] + 1 if index else 0)
        return pos, pos
    return index[start], index[end - 1] + 1


_TOKEN_BYTES: dict[str, bytes] = {}


def token_bytes_cached(tokens: list[str]) -> list[bytes]:
    """:func:`from_byte_level` of every token, memoized; a token with characters outside
    the alphabet (an added token) gives its own UTF-8 bytes."""
    cache = _TOKEN_BYTES
    out = list(map(cache.get, tokens))  # O(n) lookups in C; the misses are filled below
    if None not in out:
        return out
    for j in [j for j, b in enumerate(out) if b is None]:
        t = tokens[j]
        try:
            b = from_byte_level(t)
        except ByteLevelError:
            b = t.encode("utf-8", "surrogatepass")
        if len(cache) < 500_000:
            cache[t] = b
        out[j] = b
    return out


def readable_parts(data: bytes) -> list[tuple[str, bool]]:
    """``data`` decoded from UTF-8 as a person reads a byte-level token: ``(text, False)``
    for each run of whole characters and ``(hex, True)`` for each run of bytes that are only
    part of a character here, as ``"E0 A4"`` (byte values in hex, space-separated). O(n)."""
    text = data.decode("utf-8", "surrogateescape")
    out: list[tuple[str, bool]] = []
    for part in _PARTIAL.split(text):
        if part and "\udc80" <= part[0] <= "\udcff":
            out.append((" ".join(f"{ord(c) - 0xDC00:02X}" for c in part), True))
        elif part:
            out.append((part, False))
    return out


def readable_bytes(data: bytes) -> str:
    """:func:`readable_parts` as one string, partial bytes in ``⟨E0 A4⟩`` (``"à¤¨"`` → ``"न"``,
    ``"à¤"`` → ``"⟨E0 A4⟩"``). O(n)."""
    return "".join(f"⟨{p}⟩" if partial else p for p, partial in readable_parts(data))


_PARTIAL = re.compile("([\udc80-\udcff]+)")


# How a token's characters are shown to a person (the app's Readable column, the command
# line's readable table): what draws nothing gets a visible stand-in.
SHOWN = {
    " ": "\u2423", "\n": "\u21b5", "\t": "\u21e5", "\r": "\u240d", "\u00a0": "\u27e8NBSP\u27e9",
    "\u200d": "\u27e8ZWJ\u27e9", "\u200c": "\u27e8ZWNJ\u27e9", "\u200b": "\u27e8ZWSP\u27e9",
    "\ufeff": "\u27e8BOM\u27e9", "\u2028": "\u27e8LS\u27e9", "\u2029": "\u27e8PS\u27e9",
    "\u00ad": "\u27e8SHY\u27e9", "\u2060": "\u27e8WJ\u27e9",
}  # space ␣, newline ↵, tab ⇥, CR ␍, the zero-width and no-break characters by name
DOTTED_CIRCLE = "\u25cc"  # drawn before a combining mark that has no base in the shown string


def shown_char(ch: str) -> str:
    """One code point as a person can see it: :data:`SHOWN` stand-ins (``␣``, ``↵``,
    ``⟨ZWJ⟩`` …), other controls, format characters, surrogates and separators as
    ``⟨U+0085⟩``, anything else as it is. O(1)."""
    named = SHOWN.get(ch)
    if named is not None:
        return named
    if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") or ch.isspace():
        return f"\u27e8U+{ord(ch):04X}\u27e9"
    return ch


def readable_shown(data: bytes, limit: int = 80, *, dotted_circle: bool = True) -> str:
    """The display form of a byte-level token's bytes, as the app's Readable column and the
    command line's readable table show it: :func:`readable_parts`, whole characters through
    :func:`shown_char` (each run cut to ``limit`` code points, ``…`` after a cut), bytes that
    are only part of a character as ``⟨E0 A4⟩``, and — with ``dotted_circle`` — a ``◌``
    before a leading combining mark (``"ों"`` → ``"◌ों"``), so a mark is never drawn on
    nothing. For display only: exports of the tokens keep :func:`readable_bytes`. O(n).

    >>> readable_shown(b" caf\xc3")
    '␣caf⟨C3⟩'
    """
    out = []
    for part, partial in readable_parts(data):
        if partial:
            out.append(f"\u27e8{part}\u27e9")
            continue
        out.append("".join(map(shown_char, part[:limit])) + ("\u2026" if len(part) > limit else ""))
    shown = "".join(out)
    if dotted_circle and shown and unicodedata.category(shown[0]).startswith("M"):
        return DOTTED_CIRCLE + shown
    return shown
