"""The ByteLevel decoder: GPT-2 byte-alphabet tokens back to UTF-8 text.

Every token whose characters are all in the byte alphabet
(:data:`core.text.byte_alphabet.CHAR_TO_BYTE`) stands for those bytes; any other token (an
added token such as ``<|endoftext|>``) stands for its own UTF-8 bytes. All the bytes are
joined and decoded at once, bytes that form no character becoming U+FFFD as Rust's
``from_utf8_lossy`` does (:mod:`.utf8`), so the chain is left with one string.
"""

from __future__ import annotations

from itertools import chain

from core.text.byte_alphabet import CHAR_TO_BYTE, ByteLevelError, from_byte_level
from core.tokenizers.decoders.base import Decoder, Tracked
from core.tokenizers.decoders.utf8 import assemble


def token_bytes(text: str) -> bytes:
    """The bytes a byte-level token stands for (its own UTF-8 when it is not in the
    alphabet; lone surrogates as their generalized UTF-8). O(len(text))."""
    try:
        return from_byte_level(text)
    except ByteLevelError:
        return text.encode("utf-8", "surrogatepass")


class ByteLevel(Decoder):
    """Byte-level decoding (the reference's ByteLevel decoder; its settings change only
    encoding, so none is kept)."""

    type_name = "ByteLevel"

    @classmethod
    def from_config(cls, cfg: dict) -> "ByteLevel":
        return cls()

    def plain(self, tokens: list[str]) -> str | None:
        """All tokens in the alphabet (the usual case): one translation of the joined text."""
        try:
            return from_byte_level("".join(tokens)).decode("utf-8", "replace")
        except ByteLevelError:
            return None

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """One string from all the bytes, O(total length)."""
        if not items:
            return [Tracked("", 0, ())]
        datas = [token_bytes(t.text) for t in items]
        data = b"".join(datas)
        owners = None
        if items[0].owners is not None:
            owners = list(chain.from_iterable(_byte_owners(t, d) for t, d in zip(items, datas)))
        return [assemble(data, owners, items[0].home)]


def _byte_owners(item: Tracked, data: bytes) -> list[int]:
    """Owner of each byte of ``data`` (the bytes of ``item.text``, one per character in the
    alphabet, else each character's UTF-8 length)."""
    if len(data) == len(item.text) and all(c in CHAR_TO_BYTE for c in item.text):
        return list(item.owners)
    return list(chain.from_iterable([o] * len(c.encode("utf-8", "surrogatepass"))
                                    for c, o in zip(item.text, item.owners)))
