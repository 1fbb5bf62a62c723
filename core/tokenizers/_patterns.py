"""The regex patterns the reference libraries and published tokenizer files use, and which
of them run without the regex time budget (:func:`core.tokenizers._components.needs_budget`).

The split patterns are re-exported by :mod:`core.tokenizers.pre_tokenizers.split_patterns`,
where they are used; they live here, below the components, so that the one budget check
can know them. Every pattern here runs in linear time: the tiktoken ones by construction
(possessive quantifiers), Llama 3's, Qwen2's and the space runs checked on 200k-character
attacks.

Public names: :data:`PATTERNS` (and each ``*_PATTERN``), :data:`SPACE_RUNS_PATTERN`,
:data:`TRUSTED`.
"""

from __future__ import annotations

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

SPACE_RUNS_PATTERN = " {2,}"
"""The ``Replace`` normalizer pattern of the reference's SentencePiece converters (runs of
spaces to one: Pegasus, T5)."""

TRUSTED = frozenset(PATTERNS.values()) | {SPACE_RUNS_PATTERN}
"""Patterns matched without the time budget (its bookkeeping costs about 3.5x the matching)."""
