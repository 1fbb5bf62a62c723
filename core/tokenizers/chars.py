"""Character classes of the reference tokenizer pipelines, as Python predicates and regex classes.

The definitions follow the ``tokenizers`` library (which follows Rust's ``char`` methods and
an older Unicode category table); :mod:`core.tokenizers._unicode_compat` holds the
code points where that table and Python's ``unicodedata`` disagree.
"""

from __future__ import annotations

import re
import unicodedata

import regex

from core.tokenizers import _unicode_compat as compat

#: Unicode White_Space (Rust ``char::is_whitespace``); note Python's ``str.isspace`` also
#: accepts U+001C..U+001F, which are not White_Space.
WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs"})
_MN_KEPT = compat.expand(compat.MN_KEPT)
_STRIPPED_NOT_MN = compat.expand(compat.STRIPPED_NOT_MN)
_CONTROL_KEPT = compat.expand(compat.CONTROL_KEPT)
_CJK_RANGES = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)


def is_whitespace(c: str) -> bool:
    """Unicode White_Space, as Rust's ``char::is_whitespace``."""
    return c in WHITESPACE


def is_control(c: str) -> bool:
    """A character BERT's clean-text step removes: category C (but not Cn), except tab/LF/CR."""
    if c in "\t\n\r":
        return False
    return unicodedata.category(c) in _CONTROL_CATEGORIES and c not in _CONTROL_KEPT


def is_nonspacing_mark(c: str) -> bool:
    """Category Mn as the reference library's table has it (what strip-accents removes)."""
    if unicodedata.category(c) == "Mn":
        return c not in _MN_KEPT
    return c in _STRIPPED_NOT_MN


def is_cjk(c: str) -> bool:
    """A CJK ideograph (the blocks BERT's handle-chinese-chars surrounds with spaces)."""
    o = ord(c)
    return any(a <= o <= b for a, b in _CJK_RANGES)


def lower(c: str) -> str:
    """Full lowercase mapping of one character, per character (no final-sigma context)."""
    o = compat.LOWER_OVERRIDES.get(ord(c))
    return chr(o) if o is not None else c.lower()


def is_combining_mark(c: str) -> bool:
    """General category M (Mn, Mc, Me): what the ``StripAccents`` normalizer removes."""
    return unicodedata.category(c)[0] == "M"


def is_word_char(c: str) -> bool:
    """A ``\\w`` character of the reference's regex engine: Alphabetic, Mark, Nd, Nl, Pc or
    Join_Control. A code point unassigned in Python's Unicode tables is decided by the
    ``regex`` module's newer tables, except the letters and numbers newer than the
    reference's (:data:`core.tokenizers._unicode_compat.NEWER_THAN_REFERENCE`)."""
    cat = unicodedata.category(c)
    if cat == "Cn":
        return _NEWER_WORD.match(c) is not None
    if cat[0] in "LM" or cat in ("Nd", "Nl", "Pc") or c in "\u200c\u200d":
        return True
    return cat == "So" and _ALPHABETIC_SYMBOL.match(c) is not None


def _class(ranges) -> str:
    parts = []
    for a, b in ranges:
        lo, hi = re.escape(chr(a)), re.escape(chr(b))
        parts.append(lo if a == b else f"{lo}-{hi}")
    return "".join(parts)


#: Regex character-class bodies (without brackets), for ``re`` patterns.
WHITESPACE_CLASS = "".join(re.escape(c) for c in sorted(WHITESPACE))
BERT_PUNCTUATION_CLASS = _class(compat.BERT_PUNCTUATION)
_ALPHABETIC_SYMBOL = regex.compile(r"\p{Alphabetic}")  # e.g. circled letters
_NEWER_WORD = regex.compile(f"(?V1)[\\w--[{compat.regex_ranges(compat.NEWER_THAN_REFERENCE)}]]")
