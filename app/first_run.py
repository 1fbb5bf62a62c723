"""What a first run shows: the bundled BERT-uncased tokenizer on a short multilingual sample.

The sample has accents (Zoé), a dotted capital I (İstanbul), a ligature (ﬁ), emoji (one a
ZWJ family, one with a skin tone), Devanagari, Arabic and Thai, and four named entities
whose BIO labels (:data:`SAMPLE_LABELS`, one per BERT token) the Alignment pane's *labels*
mode lifts to entity spans. A tokenizer remembered from an earlier run, or asked for on the
command line, replaces the default; the sample is used only while no text was saved.
"""

from __future__ import annotations

from core.data import builtin_tokenizer

DEFAULT_TOKENIZER = "bert-base-uncased"

SAMPLE_TEXT = ("Zo\u00e9 flew from \u0130stanbul to \u092e\u0941\u0902\u092c\u0908 with Nvidia: "
               "the \ufb01nal leg took 3 hours \U0001F680\n"
               "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a \u2014 "
               "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 "
               "\U0001F469\u200d\U0001F469\u200d\U0001F467 \U0001F44D\U0001F3FD")

# zoe flew from istanbul to [UNK](मुंबई) with n ##vid ##ia : the ﬁ ##nal leg took 3 hours
# [UNK](🚀), [UNK](Thai word), —, 12 Arabic pieces, [UNK](family), [UNK](thumbs up): 35 tokens.
# The second line starts in Thai so that it reads left to right (an Arabic start would
# make the whole line a right-to-left paragraph).
SAMPLE_LABELS = " ".join(["B-PER", "O", "O", "B-LOC", "O", "B-LOC", "O", "B-ORG"] + ["O"] * 27)


def default_tokenizer_path() -> str:
    """The file of the first-run tokenizer (unpacked into the cache folder on first use).

    Raises
    ------
    core.data.ResourceError
        If the bundled files are missing or the cache folder cannot be written.
    """
    return str(builtin_tokenizer(DEFAULT_TOKENIZER))
