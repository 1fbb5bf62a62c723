"""The ByteFallback decoder: runs of ``<0xAB>`` byte pieces back to characters.

As the reference: a token is a byte piece when it is exactly six bytes long, starts with
``<0x`` and ends with ``>`` and its two middle characters parse as a hexadecimal byte (Rust's
``u8::from_str_radix``, which also takes a leading ``+``). Each run of consecutive byte
pieces becomes one string when its bytes are valid UTF-8, otherwise one U+FFFD per piece.
"""

from __future__ import annotations

from core.tokenizers.decoders.base import Decoder, Tracked
from core.tokenizers.decoders.utf8 import assemble

_HEX = frozenset("0123456789abcdefABCDEF")


def piece_byte(token: str) -> int | None:
    """The byte a ``<0xAB>`` piece stands for, or None for any other token."""
    data = token.encode("utf-8", "surrogatepass")
    if len(data) != 6 or not (data.startswith(b"<0x") and data.endswith(b">")):
        return None
    digits = data[3:5].decode("latin-1").removeprefix("+")
    if not digits or not set(digits) <= _HEX:
        return None
    return int(digits, 16)


class ByteFallback(Decoder):
    """Byte-fallback decoding: ``["<0xE0>", "<0xA4>", "<0xAE>"]`` → ``["म"]``."""

    type_name = "ByteFallback"

    @classmethod
    def from_config(cls, cfg: dict) -> "ByteFallback":
        return cls()

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """O(total length)."""
        out: list[Tracked] = []
        run: list[tuple[int, Tracked]] = []
        for item in items:
            b = piece_byte(item.text)
            if b is not None:
                run.append((b, item))
                continue
            out += _flush(run)
            run = []
            out.append(item)
        return out + _flush(run)


def _flush(run: list[tuple[int, Tracked]]) -> list[Tracked]:
    if not run:
        return []
    data = bytes(b for b, _ in run)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return [t.edit("\ufffd", t.owners and t.owners[-1:]) for _, t in run]
    first = run[0][1]
    owners = None if first.owners is None else [t.owner_at(len(t.text) - 1) for _, t in run]
    return [assemble(data, owners, first.home)]
