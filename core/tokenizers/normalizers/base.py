"""Base classes of normalizers: each maps a :class:`core.text.normalize.NormalizedText` to a
new one whose spans still point into the original text.

Offsets follow the ``tokenizers`` library: a removed character simply disappears (its span
belongs to no normalized character), every character produced from one source character
inherits that character's span. Spans are code points of the original text.
"""

from __future__ import annotations

from itertools import chain, pairwise, repeat
from typing import Any, Callable

import numpy as np
import regex

from core.errors import check_stop
from core.text.normalize import NormalizedText
from core.tokenizers._components import cut_points

STOP_PIECE = 1 << 16
"""Code points normalized between two ``should_stop`` checks in a long text (up to ~45 ms)."""

_TWO_PRINTABLE = regex.compile(r"[\x20-\x7e]{2}")


class Normalizer:
    """Base class: ``normalize(nt) -> NormalizedText`` and a ``describe()`` dict.

    What a normalizer can do, for the pipeline to ask instead of testing its type:
    ``byte_level`` (it spells text in GPT-2's byte alphabet, or a member of it does) and
    ``per_character`` (a :class:`CharMapNormalizer`: ``translate`` applies it to a whole
    string with one table), ``prepares`` (:meth:`prepare` does something: a batch's
    characters are worth gathering for it), ``char_for_char`` (it writes every character
    alone as one character, whatever stands around it: any piece of its normalized text,
    map in place, is the normalized piece, so the pipeline may normalize a text whole
    however added tokens cut it)."""

    type_name = "Normalizer"
    byte_level = False
    per_character = False
    prepares = False
    char_for_char = False

    def normalize(self, nt: NormalizedText) -> NormalizedText:  # pragma: no cover
        raise NotImplementedError

    def safe_cut(self, text: str, at: int) -> int | None:
        """The first position ``p >= at`` where ``text`` may be cut and its halves
        normalized apart (the two results, maps joined, equal the whole text's), or None
        (the default: never). O(p - at)."""
        return None

    def normalize_stoppable(self, nt: NormalizedText,
                            should_stop: Callable[[], bool] | None) -> NormalizedText:
        """:meth:`normalize`, asking ``should_stop`` before every :data:`STOP_PIECE`
        code points of a long text: it is cut where :meth:`safe_cut` allows and the
        pieces' results joined (the pipeline's normalize stage; a 1M-character text took
        0.2-0.4 s in one call). O(n) besides the normalizer's own work.

        Raises
        ------
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        text = nt.text
        if should_stop is None or len(text) < 2 * STOP_PIECE:
            return self.normalize(nt)
        cuts = cut_points(self.safe_cut, text, STOP_PIECE)
        if len(cuts) == 1:
            return self.normalize(nt)
        parts = []
        for a, b in pairwise([*cuts, len(text)]):
            check_stop(should_stop)
            parts.append(self.normalize(nt.slice(a, b)))
        return joined(nt.original, parts)

    def prepare(self, chars: set[str]) -> None:
        """Get ready to normalize many texts made of ``chars`` (a batch's); most
        normalizers need nothing."""

    def settings(self) -> dict[str, Any]:
        """The component's settings, as shown in ``Tokenizer.describe()``."""
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}


def joined(original: str, parts: list[NormalizedText]) -> NormalizedText:
    """Consecutive normalized pieces of one text (spans already absolute) as one; the
    pieces' true maps joined too where one has a :attr:`~NormalizedText.truthful` map.
    O(n)."""
    columns = [p.arrays() for p in parts]
    out = NormalizedText.from_arrays(original, "".join([p.text for p in parts]),
                                     np.concatenate([c[0] for c in columns]),
                                     np.concatenate([c[1] for c in columns]))
    if any(p.truthful is not None for p in parts):
        out.truthful = joined(original, [p.true_map() for p in parts])
    return out


def cut_between_printable(text: str, at: int) -> int | None:
    """The first position ``p >= at`` between two printable ASCII characters (U+0020 to
    U+007E), or None. O(p - at)."""
    m = _TWO_PRINTABLE.search(text, max(at - 1, 0))
    return None if m is None else m.start() + 1


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

    def safe_cut(self, text: str, at: int) -> int | None:
        return at  # each character is normalized on its own

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
