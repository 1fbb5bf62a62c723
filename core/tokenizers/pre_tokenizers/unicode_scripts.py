"""The UnicodeScripts pre-tokenizer: cut the text where the Unicode script changes.

As the reference does: Hiragana, Katakana and U+30FC count as Han; spaces, unassigned and
private-use code points and the code points missing from the reference's older table
(:mod:`core.tokenizers.pre_tokenizers._script_compat`) take the script of the text around
them; and text before the first cut (leading spaces) is dropped — a quirk kept on purpose.
Scripts come from the ``regex`` module's tables. Spans are code points of the normalized
text.
"""

from __future__ import annotations

import regex

from core.tokenizers._unicode_compat import regex_ranges
from core.tokenizers.pre_tokenizers._script_compat import SCRIPTLESS_IN_REFERENCE
from core.tokenizers.pre_tokenizers.base import PreTokenizer, Words

_SCRIPTLESS = regex.compile("[" + regex_ranges(SCRIPTLESS_IN_REFERENCE) + "]")


def _script_names() -> list[str]:
    try:  # every Script value the regex module knows (private table, checked below)
        from regex import _regex_core

        _, values = _regex_core.PROPERTIES["SCRIPT"]
        names: dict[int, str] = {}
        for name, value in values.items():
            if len(name) > 4 or value not in names:
                names[value] = name
        found = [n for n in names.values() if n.isalpha() or "_" in n]
        if len(found) > 100:
            return found
    except (ImportError, AttributeError, KeyError, ValueError, TypeError):
        pass
    return ["LATIN", "GREEK", "CYRILLIC", "ARMENIAN", "HEBREW", "ARABIC", "DEVANAGARI",
            "BENGALI", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM", "GUJARATI", "GURMUKHI",
            "THAI", "LAO", "TIBETAN", "GEORGIAN", "HANGUL", "ETHIOPIC", "KHMER", "MYANMAR",
            "HIRAGANA", "KATAKANA", "HAN", "INHERITED", "COMMON"]


class UnicodeScripts(PreTokenizer):
    """Cut the text where the script changes."""

    type_name = "UnicodeScripts"

    def __init__(self) -> None:
        self._scripts: dict[str, str] = {}
        names = _script_names()
        self._names = names
        self._re = regex.compile("|".join(f"(?P<s{k}>\\p{{Script={n}}})" for k, n in enumerate(names)),
                                 regex.DOTALL)

    def script(self, c: str) -> str:
        """The script the reference assigns to ``c`` (``"Any"`` for a space)."""
        s = self._scripts.get(c)
        if s is None:
            if c == " " or _SCRIPTLESS.match(c):
                s = "Any"
            elif c == "\u30fc":
                s = "HAN"
            else:
                m = self._re.match(c)
                s = self._names[int(m.lastgroup[1:])] if m else "UNKNOWN"
                if s in ("HIRAGANA", "KATAKANA"):
                    s = "HAN"
                elif s == "UNKNOWN":  # unassigned or private use: not in the table
                    s = "Any"
            self._scripts[c] = s
        return s

    def split(self, text: str) -> Words:
        cuts, last = [], None  # as the reference: text before the first cut is dropped
        for i, c in enumerate(text):
            s = self.script(c)
            if s != "Any" and s != last:
                cuts.append(i)
                last = s
        cuts.append(len(text))
        spans = [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]
        return [text[a:b] for a, b in spans], [a for a, _ in spans]
