"""A read-only darts-clone double-array trie (the key index of SentencePiece's charsmap).

Unit layout (darts-clone, T. Yata): ``has_leaf = (u >> 8) & 1``, ``value = u & 0x7FFFFFFF``,
``label = u & 0x800000FF``, ``offset = (u >> 10) << ((u & 0x200) >> 6)``. A walk starts at
unit 0 and moves to ``pos ^ offset(unit) ^ byte``; the child is valid when its label equals
the byte; a leaf's value sits in the unit at ``pos ^ offset(child)``.

Public names: :class:`DoubleArrayTrie`, :func:`lead_byte_ranges`.
"""

from __future__ import annotations

from core.errors import TokenizerLoadError


def _offset(u: int) -> int:
    return u >> 10 << ((u & 0x200) >> 6)


class DoubleArrayTrie:
    """Prefix search over a double array of uint32 units.

    Parameters
    ----------
    units : sequence of int
        The trie's units (uint32), unit 0 being the root.
    """

    def __init__(self, units):
        self.units = units

    def __len__(self) -> int:
        return len(self.units)

    def prefix_matches(self, key: bytes) -> list[tuple[int, int]]:
        """``(byte length, value)`` of every key that is a prefix of ``key``, shortest first.

        Raises
        ------
        TokenizerLoadError
            If the walk leaves the array (a corrupt trie).
        """
        units = self.units
        out = []
        try:
            pos = _offset(units[0])
            for i, b in enumerate(key):
                if b == 0:
                    break
                pos ^= b
                u = units[pos]
                if u & 0x800000FF != b:
                    break
                pos ^= _offset(u)
                if u & 0x100:
                    out.append((i + 1, units[pos] & 0x7FFFFFFF))
        except IndexError:
            raise TokenizerLoadError(
                f"precompiled charsmap trie is corrupt (index beyond {len(units)} units)") from None
        return out

    def next_bytes(self, key: bytes) -> frozenset[int]:
        """Bytes that follow ``key`` in some longer key (the labels of its children)."""
        units = self.units
        n = len(units)
        pos = _offset(units[0])
        for b in key:
            pos ^= b
            if pos >= n or units[pos] & 0x800000FF != b:
                return frozenset()
            pos ^= _offset(units[pos])
        return frozenset(c for c in range(1, 256) if (pos ^ c) < n and units[pos ^ c] & 0x800000FF == c)


def lead_byte_ranges(lead_bytes: frozenset[int]) -> str:
    """A regex class body for every character whose UTF-8 encoding starts with one of
    ``lead_bytes`` (matches nothing when there is none)."""
    out = []
    for b in sorted(lead_bytes):
        if b < 0x80:
            lo, hi = b, b
        elif 0xC2 <= b <= 0xDF:
            lo = (b & 0x1F) << 6
            hi = lo + 0x3F
        elif 0xE0 <= b <= 0xEF:
            lo = (b & 0x0F) << 12
            hi = lo + 0xFFF
        elif 0xF0 <= b <= 0xF4:
            lo = (b & 0x07) << 18
            hi = min(lo + 0x3FFFF, 0x10FFFF)
        else:
            continue  # not the first byte of any character
        out.append(f"\\U{lo:08x}-\\U{hi:08x}")
    return "".join(out) or "^\\s\\S"
