"""Characters that draw nothing: zero-width format characters and visible whitespace.

A text view cannot show a zero-width joiner, a soft hyphen or a variation selector; these
helpers say where such characters are so a view can paint a marker at their cursor
position (and, for whitespace, a ``·`` / ``→`` / ``¶`` over the blank). Positions are
**code points** of the text given.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

from core.errors import OffsetError

#: Short names of the zero-width characters people meet in real text.
ZERO_WIDTH_NAMES = {
    "\u200b": "ZWSP", "\u200c": "ZWNJ", "\u200d": "ZWJ", "\u2060": "WJ", "\ufeff": "BOM",
    "\u00ad": "SHY", "\u034f": "CGJ", "\u061c": "ALM", "\u200e": "LRM", "\u200f": "RLM",
    "\u180e": "MVS", "\u2061": "FA", "\u2062": "IT", "\u2063": "IS", "\u2064": "IP",
}
#: The marker painted over each kind of whitespace (the text itself is unchanged).
WHITESPACE_MARKS = {" ": "\u00b7", "\t": "\u2192", "\n": "\u00b6", "\u00a0": "\u00b0", "\u3000": "\u00b7"}


# every character zero_width_name can name (a superset is fine: each match is checked);
# U+13430..U+1343F: format controls whose category differs between the Unicode versions of
# `regex` and `unicodedata` (a test checks every code point)
_CANDIDATES = regex.compile(
    "[\\p{Cf}\U00013430-\U0001343f\u034f\ufe00-\ufe0f\U000e0100-\U000e01ef\U000e0020-\U000e007f"
    + "".join(ZERO_WIDTH_NAMES) + "]")


@dataclass(frozen=True)
class Invisible:
    """A character that draws nothing at code point ``position``; ``name`` is its short
    name (``ZWJ``, ``VS16``, ``U+202E``) or, for whitespace, the marker to paint."""

    position: int
    char: str
    name: str


def zero_width_name(ch: str) -> str | None:
    """The short name of ``ch`` when it is a zero-width character, else None.

    Zero-width: the named joiners and marks, variation selectors (``VS1``–``VS256``), tag
    characters, and any other format character (category Cf), shown as ``U+XXXX``.
    """
    if ch in ZERO_WIDTH_NAMES:
        return ZERO_WIDTH_NAMES[ch]
    cp = ord(ch)
    if 0xFE00 <= cp <= 0xFE0F:
        return f"VS{cp - 0xFE00 + 1}"
    if 0xE0100 <= cp <= 0xE01EF:
        return f"VS{cp - 0xE0100 + 17}"
    if 0xE0020 <= cp <= 0xE007F:
        return "TAG"
    if unicodedata.category(ch) == "Cf":
        return f"U+{cp:04X}"
    return None


def zero_width_chars(text: str, cover=None) -> list[Invisible]:
    """The zero-width characters of ``text``, in order; with ``cover`` (tokens covering
    each code point, length ``len(text)``), only those no token covers (``cover[i] == 0``).

    O(len(text)), the scan in C (one regular expression for the candidates).

    Raises
    ------
    OffsetError
        If ``cover`` is shorter than the text (it belongs to another text).
    """
    if cover is not None and len(cover) < len(text):
        raise OffsetError(f"cover has {len(cover)} entries for {len(text)} code points; pass the cover of this text")
    out = []
    for m in _CANDIDATES.finditer(text, concurrent=False):  # in C; the few candidates are named here
        i, ch = m.start(), m.group()
        name = zero_width_name(ch)
        if name is not None and (cover is None or not cover[i]):
            out.append(Invisible(i, ch, name))
    return out


def whitespace_marks(text: str, start: int = 0, end: int | None = None) -> list[Invisible]:
    """Spaces, tabs, newlines (and no-break/ideographic spaces) in ``text[start:end]``
    with the marker to paint over each (:data:`WHITESPACE_MARKS`). O(end - start)."""
    end = len(text) if end is None else min(end, len(text))
    return [Invisible(i, text[i], WHITESPACE_MARKS[text[i]])
            for i in range(max(0, start), end) if text[i] in WHITESPACE_MARKS]
