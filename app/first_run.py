"""What a first run shows: a 2026 tokenizer (the bundled GPT-4o, o200k_base) on a short
multilingual sample, with the bundled BERT-uncased beside it in side by side.

The sample has accents (Zoé), a dotted capital I (İstanbul), a ligature (ﬁ), emoji (one a
ZWJ family, one with a skin tone), Devanagari, Arabic and Thai, so the first minute shows
what a modern byte-level tokenizer does to every script and what a 2018 WordPiece one
does (its ``[UNK]``s) on the same line. A tokenizer remembered from an earlier run, or asked
for on the command line, replaces the default; the sample is used only while no text was
saved. The teaching example (and its entity labels) stays one key away.
"""

from __future__ import annotations

from core.data import builtin_tokenizer

DEFAULT_TOKENIZER = "gpt-4o"
SIDE_BY_SIDE_TOKENIZER = "bert-base-uncased"
"""The built-in shown beside the default on a first run."""

SAMPLE_TEXT = ("Zo\u00e9 flew from \u0130stanbul to \u092e\u0941\u0902\u092c\u0908 with Nvidia: "
               "the \ufb01nal leg took 3 hours \U0001F680\n"
               "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a \u2014 "
               "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 "
               "\U0001F469\u200d\U0001F469\u200d\U0001F467 \U0001F44D\U0001F3FD")
# The second line starts in Thai so that it reads left to right (an Arabic start would
# make the whole line a right-to-left paragraph).


def default_tokenizer_path() -> str:
    """The file of the first-run tokenizer (unpacked into the cache folder on first use).

    Raises
    ------
    core.data.ResourceError
        If the bundled files are missing or the cache folder cannot be written.
    """
    return str(builtin_tokenizer(DEFAULT_TOKENIZER))


def side_by_side_path() -> str:
    """The file of the tokenizer a first run shows beside the default (raises as
    :func:`default_tokenizer_path`)."""
    return str(builtin_tokenizer(SIDE_BY_SIDE_TOKENIZER))
