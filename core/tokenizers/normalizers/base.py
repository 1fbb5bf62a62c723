"""Base classes of normalizers: each maps a :class:`core.text.normalize.NormalizedText` to a
new one whose spans still point into the original text.

Offsets follow the ``tokenizers`` library: a removed character simply disappears (its span
belongs to no normalized character), every character produced from one source character
inherits that character's span. Spans are code points of the original text.
"""

from __future__ import annotations

from typing import Any

from core.text.normalize import NormalizedText


class Normalizer:
    """Base class: ``normalize(nt) -> NormalizedText`` and a ``describe()`` dict."""

    type_name = "Normalizer"

    def normalize(self, nt: NormalizedText) -> NormalizedText:  # pragma: no cover
        raise NotImplementedError

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

    def __init__(self) -> None:
        self._cache: dict[str, str] = {}

    def char_map(self, c: str) -> str:  # pragma: no cover
        raise NotImplementedError

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        return nt.map_chars_cached(self.char_map, self._cache)
