"""Byte-level helpers: GPT-2's byte-to-unicode alphabet, split patterns, byte ↔ character maps.

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
:data:`PATTERNS`, :func:`split_pattern`, :func:`compile_pattern`, :func:`pre_split`,
:func:`pattern_for_text`, :func:`reference_pattern`, :data:`NEWER_THAN_REFERENCE`,
:func:`byte_to_char_index`, :func:`byte_span_to_char_span`, :class:`ByteLevelError`.
"""

from __future__ import annotations

from functools import lru_cache

import regex

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


# Split patterns ---------------------------------------------------------------------------

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
"""GPT-2's pattern as the ``tokenizers`` ByteLevel pre-tokenizer uses it (``use_regex``)."""

R50K_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s""")
"""tiktoken's faster, equivalent form of the GPT-2 pattern (r50k_base, p50k_base)."""

CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
"""cl100k_base's pattern as published with tiktoken."""

O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])
"""o200k_base's pattern as published with tiktoken."""

PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "r50k_base": R50K_PATTERN,
    "p50k_base": R50K_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
}


# Letters and numbers that the reference libraries' regex engines do not know (their Unicode
# tables are older than the ``regex`` module's), so ``\p{L}``/``\p{N}`` must not match them.
# Derived by probing every code point through ``tokenizers`` 0.23's ByteLevel pre-tokenizer;
# tiktoken 0.14 agreed wherever a probe could tell (all 456 newer digits). Inclusive ranges.
NEWER_THAN_REFERENCE: tuple[tuple[int, int], ...] = (
    (0x558, 0x558), (0x58B, 0x58C), (0x88F, 0x88F), (0xC5C, 0xC5C), (0xCDC, 0xCDC),
    (0x208F, 0x208F), (0x209D, 0x209F), (0xA7CE, 0xA7CF), (0xA7D2, 0xA7D2),
    (0xA7D4, 0xA7D4), (0xA7DD, 0xA7DD), (0xA7E2, 0xA7E2), (0xA7F1, 0xA7F1),
    (0xAB6C, 0xAB6D), (0x107BB, 0x107BF), (0x10940, 0x10959), (0x10EC5, 0x10EC7),
    (0x10ED9, 0x10EEE), (0x11B0A, 0x11B0A), (0x11DB0, 0x11DDB), (0x11DE0, 0x11DE9),
    (0x11DF1, 0x11DF1), (0x1246F, 0x1246F), (0x12475, 0x1247F), (0x12550, 0x12686),
    (0x16EA0, 0x16EB8), (0x16EBB, 0x16ED3), (0x16FF2, 0x16FF6), (0x187F8, 0x187FF),
    (0x18CD6, 0x18CDA), (0x18D09, 0x18D20), (0x18D80, 0x18DF2), (0x18E00, 0x19191),
    (0x191A0, 0x191D2), (0x1B123, 0x1B128), (0x1B168, 0x1B168), (0x1D6A6, 0x1D6A6),
    (0x1DF1F, 0x1DF24), (0x1DF2B, 0x1DF81), (0x1DF90, 0x1DF96), (0x1DFCD, 0x1DFFF),
    (0x1E6C0, 0x1E6DE), (0x1E6E0, 0x1E6E2), (0x1E6E4, 0x1E6E5), (0x1E6E7, 0x1E6ED),
    (0x1E6F0, 0x1E6F4), (0x1E6FE, 0x1E6FF), (0x2B73A, 0x2B73F), (0x2B81E, 0x2B81E),
    (0x2CEA2, 0x2CEAD), (0x323B0, 0x33479), (0x3D000, 0x3FC3F),
)
_NEWER_SET = "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in NEWER_THAN_REFERENCE)
_HAS_NEWER = regex.compile(f"[{_NEWER_SET}]")
_LETTER_OR_NUMBER = regex.compile(r"\\p\{(?:L[ultmo]?|N[dlo]?)\}")


def reference_pattern(pattern: str) -> str:
    """``pattern`` with every ``\\p{L..}``/``\\p{N..}`` class minus :data:`NEWER_THAN_REFERENCE`.

    The result uses the ``regex`` module's VERSION1 set difference and is about twice as
    slow, so :func:`pattern_for_text` only uses it for texts containing such characters.
    """
    return "(?V1)" + _LETTER_OR_NUMBER.sub(lambda m: f"[{m.group()}--[{_NEWER_SET}]]", pattern)


def pattern_for_text(text: str, pattern: str) -> "regex.Pattern[str]":
    """The compiled pattern that splits ``text`` exactly as the reference libraries do."""
    if _HAS_NEWER.search(text):
        return compile_pattern(reference_pattern(pattern))
    return compile_pattern(pattern)


def split_pattern(name: str) -> str:
    """The published pre-tokenization pattern of a byte-level encoding.

    Raises
    ------
    ByteLevelError
        If ``name`` is not one of :data:`PATTERNS`.
    """
    try:
        return PATTERNS[name]
    except KeyError:
        raise ByteLevelError(
            f"unknown split pattern {name!r}; known: {', '.join(PATTERNS)}"
        ) from None


@lru_cache(maxsize=32)
def compile_pattern(pattern: str) -> "regex.Pattern[str]":
    """Compile a split pattern with the ``regex`` module (possessive quantifiers, ``\\p{..}``).

    Raises
    ------
    ByteLevelError
        If the pattern does not compile.
    """
    try:
        return regex.compile(pattern)
    except regex.error as exc:
        raise ByteLevelError(f"split pattern does not compile: {exc}") from None


def pre_split(text: str, pattern: str) -> list[tuple[str, int, int]]:
    """Split ``text`` into pieces the way a regex pre-tokenizer does ("isolated" behaviour).

    Every match is a piece, and so is any unmatched stretch between matches (the ``tokenizers``
    library keeps those; the published patterns leave none). Letters and numbers newer than
    the reference libraries' Unicode tables are treated as they treat them (see
    :func:`pattern_for_text`).

    Returns
    -------
    list of (piece, start, end)
        ``piece == text[start:end]``; spans are code points, contiguous and covering ``text``.
    """
    out: list[tuple[str, int, int]] = []
    last = 0
    for m in pattern_for_text(text, pattern).finditer(text):
        s, e = m.span()
        if s == e:
            continue
        if s > last:
            out.append((text[last:s], last, s))
        out.append((m.group(), s, e))
        last = e
    if last < len(text):
        out.append((text[last:], last, len(text)))
    return out


# Byte <-> character positions -------------------------------------------------------------

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
    out = []
    for t in tokens:
        b = cache.get(t)
        if b is None:
            try:
                b = from_byte_level(t)
            except ByteLevelError:
                b = t.encode("utf-8", "surrogatepass")
            if len(cache) < 500_000:
                cache[t] = b
        out.append(b)
    return out
