"""Base classes of normalizers: each maps a :class:`core.text.normalize.NormalizedText` to a
new one whose spans still point into the original text.

Offsets follow the ``tokenizers`` library: a removed character simply disappears (its span
belongs to no normalized character), every character produced from one source character
inherits that character's span. Spans are code points of the original text.
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Any

from core.text.normalize import NormalizedText


class Normalizer:
    """Base class: ``normalize(nt) -> NormalizedText`` and a ``describe()`` dict.

    What a normalizer can do, for the pipeline to ask instead of testing its type:
    ``byte_level`` (it spells text in GPT-2's byte alphabet, or a member of it does) and
    ``per_character`` (a :class:`CharMapNormalizer`: ``translate`` applies it to a whole
    string with one table), ``prepares`` (:meth:`prepare` does something: a batch's
    characters are worth gathering for it)."""

    type_name = "Normalizer"
    byte_level = False
    per_character = False
    prepares = False

    def normalize(self, nt: NormalizedText) -> NormalizedText:  # pragma: no cover
        raise NotImplementedError

    def prepare(self, chars: set[str]) -> None:
        """Get ready to normalize many texts made of ``chars`` (a batch's); most
        normalizers need nothing."""

    def settings(self) -> dict[str, Any]:
        """The component's settings, as shown in ``Tokenizer.describe()``."""
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}


class CharMapNormalizer(Normalizer):
    """A normalizer that is a pure function of each character (``char_map``).

    ``char_map(c)`` returns the replacement of one code point (possibly ``""`` or several
    code points, all of which keep ``c``'s span); results are memoized per character.
    """

    per_character = True

    def __init__(self) -> None:
        self._cache: dict[str, str] = {}

    def char_map(self, c: str) -> str:  # pragma: no cover
        raise NotImplementedError

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        return nt.map_chars_cached(self.char_map, self._cache)

    def translate(self, text: str) -> tuple[str, list[int] | None]:
        """``text`` normalized, and ``None`` when every character maps to exactly one
        (the offset map is the identity), else the index in ``text`` of the source
        character of every output character. Equal to :meth:`normalize` on
        ``NormalizedText.identity(text)``; the translation table is kept across calls,
        so a short text costs one ``str.translate`` plus O(n) only where a character
        is removed or grows. O(n) for n code points."""
        state = self.__dict__.get("_translation")
        if state is None:  # char -> image; the str.translate table; chars of another length
            state = self.__dict__["_translation"] = ({}, {}, set())
        seen, table, resized = state
        chars = set(text)
        for c in chars.difference(seen):
            out = seen[c] = self._cache.get(c)
            if out is None:
                out = seen[c] = self._cache[c] = self.char_map(c)
            if out != c:
                table[ord(c)] = out
            if len(out) != 1:
                resized.add(c)
        new = text.translate(table) if table else text
        if resized.isdisjoint(chars):
            return new, None
        sizes = map(len, map(seen.__getitem__, text))  # C-level: each image's length
        return new, list(chain.from_iterable(map(repeat, range(len(text)), sizes)))
