"""Byte-level split patterns (GPT-2, r50k/p50k, cl100k, o200k, Llama 3, Qwen2/3) and the
Unicode-version shim that keeps ``\\p{L}``/``\\p{N}`` as old as the reference libraries'
tables.

The patterns split text (code points) before the byte rewrite of the ByteLevel
pre-tokenizer (:mod:`core.tokenizers.pre_tokenizers.byte_level`); the byte alphabet itself is
:mod:`core.text.byte_alphabet`, the letters and numbers the references do not know are
:data:`core.tokenizers._unicode_compat.NEWER_THAN_REFERENCE`.

Public names: :data:`PATTERNS` (and each ``*_PATTERN``), :func:`split_pattern`,
:func:`compile_pattern`, :func:`pre_split`, :func:`pattern_for_text`,
:func:`reference_pattern`.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from core.text.byte_alphabet import ByteLevelError
from core.tokenizers._components import finditer_budgeted
from core.tokenizers._unicode_compat import NEWER_THAN_REFERENCE, regex_ranges


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

LLAMA3_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
"""Llama 3's ``Split`` pattern as its ``tokenizer.json`` writes it (cl100k_base's, without
the possessive quantifiers)."""

QWEN2_PATTERN = LLAMA3_PATTERN.replace(r"\p{N}{1,3}", r"\p{N}")
"""Qwen2's and Qwen3's ``Split`` pattern (Llama 3's with one digit per piece)."""

PATTERNS: dict[str, str] = {
    "gpt2": GPT2_PATTERN,
    "r50k_base": R50K_PATTERN,
    "p50k_base": R50K_PATTERN,
    "cl100k_base": CL100K_PATTERN,
    "o200k_base": O200K_PATTERN,
    "llama3": LLAMA3_PATTERN,
    "qwen2": QWEN2_PATTERN,
}


_TRUSTED = frozenset(PATTERNS.values())
_NEWER_SET = regex_ranges(NEWER_THAN_REFERENCE)
_NEWER_CHARS = frozenset(chr(c) for a, b in NEWER_THAN_REFERENCE for c in range(a, b + 1))
_LETTER_OR_NUMBER = regex.compile(r"\\p\{(?:L[ultmo]?|N[dlo]?)\}")


def reference_pattern(pattern: str) -> str:
    """``pattern`` with every ``\\p{L..}``/``\\p{N..}`` class minus :data:`NEWER_THAN_REFERENCE`.

    The result uses the ``regex`` module's VERSION1 set difference and is about twice as
    slow, so :func:`pattern_for_text` only uses it for texts containing such characters.
    """
    return "(?V1)" + _LETTER_OR_NUMBER.sub(lambda m: f"[{m.group()}--[{_NEWER_SET}]]", pattern)


def pattern_for_text(text: str, pattern: str) -> "regex.Pattern[str]":
    """The compiled pattern that splits ``text`` exactly as the reference libraries do.
    O(n) hash look-ups (of the distinct characters, for a long text): a set test is
    about ten times faster than searching with the class of the newer characters."""
    if not _NEWER_CHARS.isdisjoint(text if len(text) < 256 else set(text)):
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

    A pattern that is not one of :data:`PATTERNS` (a regex the user or a file gave) runs under
    a time budget (:func:`core.tokenizers._components.finditer_budgeted`).

    Returns
    -------
    list of (piece, start, end)
        ``piece == text[start:end]``; spans are code points, contiguous and covering ``text``.

    Raises
    ------
    PatternTimeoutError
        A pattern not in :data:`PATTERNS` ran past its time budget.
    """
    out: list[tuple[str, int, int]] = []
    last = 0
    compiled = pattern_for_text(text, pattern)
    matches = (compiled.finditer(text, concurrent=False) if pattern in _TRUSTED
               else finditer_budgeted(compiled, text, pattern, "split pattern"))
    for m in matches:
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
