"""The ByteLevel normalizer: every code point becomes its UTF-8 bytes in GPT-2's byte
alphabet (:mod:`core.text.byte_alphabet`); all of them keep the code point's span."""

from __future__ import annotations

from core.text.byte_alphabet import to_byte_level
from core.tokenizers.normalizers.base import CharMapNormalizer


class ByteLevelNormalizer(CharMapNormalizer):
    """Every character becomes its UTF-8 bytes in GPT-2's byte alphabet (all of them
    keep the character's span)."""

    type_name = "ByteLevel"
    byte_level = True

    def char_map(self, c: str) -> str:
        return to_byte_level(c)
