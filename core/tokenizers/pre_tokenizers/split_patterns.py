"""Byte-level split patterns (GPT-2, r50k/p50k, cl100k, o200k, Llama 3, Qwen2/3) and the
Unicode-version shim that keeps ``\\p{L}``/``\\p{N}`` as old as the reference libraries'
tables.

The patterns split text (code points) before the byte rewrite of the ByteLevel
pre-tokenizer (:mod:`core.tokenizers.pre_tokenizers.byte_level`); the byte alphabet itself is
:mod:`core.text.byte_alphabet`, the letters and numbers the references do not know are
:data:`core.tokenizers._unicode_compat.NEWER_THAN_REFERENCE`.

Public names: :data:`PATTERNS` (and each ``*_PATTERN``), :func:`split_pattern`,
:func:`compile_pattern`, :func:`pre_split`, :func:`pattern_for_text`,
:func:`reference_pattern`, :func:`cut_before_spaced_word`.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from core.text.byte_alphabet import ByteLevelError
from core.tokenizers._components import finditer_budgeted, needs_budget
from core.tokenizers._patterns import (  # noqa: F401 - re-exported: the published split patterns
    CL100K_PATTERN, GPT2_PATTERN, LLAMA3_PATTERN, O200K_PATTERN, PATTERNS, QWEN2_PATTERN,
    R50K_PATTERN)
from core.tokenizers._unicode_compat import NEWER_THAN_REFERENCE, regex_ranges


_NEWER_SET = regex_ranges(NEWER_THAN_REFERENCE)
_NEWER_CHARS = frozenset(chr(c) for a, b in NEWER_THAN_REFERENCE for c in range(a, b + 1))
_LETTER_OR_NUMBER = regex.compile(r"\\p\{(?:L[ultmo]?|N[dlo]?)\}")
_PUBLISHED = frozenset(PATTERNS.values())
_SPACED_WORD = regex.compile(r"(?<=[A-Za-z]) (?=[A-Za-z])")


def cut_before_spaced_word(pattern: str, text: str, at: int) -> int | None:
    """For a published pattern (:data:`PATTERNS`), the first position ``p >= at`` of a
    space between two ASCII letters, or None (also for any other pattern). Every published
    pattern ends a match there (the letters before it end a letter run or a contraction,
    which take no space after them) and starts the next one with that space and the
    letters after it, looking at nothing before it: a safe cut of the split (see
    :meth:`core.tokenizers.pre_tokenizers.base.PreTokenizer.safe_cut`). O(p - at)."""
    if pattern not in _PUBLISHED:
        return None
    m = _SPACED_WORD.search(text, at)
    return None if m is None else m.start()


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
    matches = (finditer_budgeted(compiled, text, pattern, "split pattern") if needs_budget(pattern)
               else compiled.finditer(text, concurrent=False))
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
