"""The decoder interface and the owner-tracked strings every decoder works on.

A decoder turns the list of token strings of an id sequence back into text, step by step,
as the ``tokenizers`` library's decoders do: ``decode_chain(tokens) -> list[str]`` (one
step; a :class:`~core.tokenizers.decoders.sequence.Sequence` chains steps) and
``decode(tokens) -> str`` (the chain's strings joined with nothing).

Inside, a step maps a list of :class:`Tracked` strings to a new list. A tracked string may
carry, for each of its code points, the index of the token it came from (``owners``), and
the :class:`CharPart` records of characters whose UTF-8 bytes came from several tokens; that
is what :func:`core.tokenizers.decoding.decode_pieces` reports per token. Plain decoding
passes ``owners=None`` and every step skips the bookkeeping.

Public names: :class:`Decoder`, :class:`Tracked`, :class:`CharPart`, :func:`replace_spans`,
:func:`replace_all`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import chain
from typing import Any, Iterable

from core.text.offsets import byte_part_label


@dataclass(frozen=True)
class CharPart:
    """Some of the UTF-8 bytes of one decoded character, held by one token.

    Attributes
    ----------
    token : int
        Index of the token (into the ids given to ``decode_pieces``).
    char : str
        The character (one code point; ``"\\ufffd"`` for bytes that form no character).
    first_byte, last_byte : int
        The bytes of ``char`` the token holds, numbered from 1, inclusive.
    n_bytes : int
        How many UTF-8 bytes the character has.
    """

    token: int
    char: str
    first_byte: int
    last_byte: int
    n_bytes: int

    @property
    def label(self) -> str:
        """``"bytes 1–2 of म (U+092E)"`` (``"byte 3 of …"`` for a single byte)."""
        return byte_part_label(self.char, self.first_byte, self.last_byte)


@dataclass(slots=True)
class Tracked:
    """One string of a decoder chain (never changed in place: steps make new ones; not
    frozen because a frozen dataclass is three times slower to build, per token).

    Attributes
    ----------
    text : str
    home : int
        The token this string stands for (the first one, once strings are joined); it owns
        characters inserted into an empty string.
    owners : tuple[int, ...] or None
        Token index per code point of ``text`` (None: not tracked).
    parts : tuple[CharPart, ...]
        Characters of ``text`` split over several tokens' bytes.
    """

    text: str
    home: int
    owners: tuple[int, ...] | None = None
    parts: tuple[CharPart, ...] = ()

    @classmethod
    def of(cls, text: str, home: int, track: bool) -> "Tracked":
        """``text`` wholly owned by token ``home`` (tracked or not)."""
        return cls(text, home, (home,) * len(text) if track else None)

    def edit(self, text: str, owners: Iterable[int] | None) -> "Tracked":
        """The same string's new text (and owners, when tracked)."""
        return Tracked(text, self.home, None if self.owners is None else tuple(owners or ()),
                       self.parts)

    def owner_at(self, i: int) -> int:
        """Owner of code point ``i`` (the nearest one for ``i`` past the end; ``home`` for
        an empty string)."""
        if not self.owners:
            return self.home
        return self.owners[min(max(i, 0), len(self.owners) - 1)]

    @staticmethod
    def join(items: list["Tracked"]) -> "Tracked":
        """All strings as one (owners and parts concatenated), O(total length)."""
        if not items:
            return Tracked("", 0, ())
        text = "".join(t.text for t in items)
        owners = None if items[0].owners is None else tuple(chain.from_iterable(
            t.owners for t in items))
        return Tracked(text, items[0].home, owners, tuple(chain.from_iterable(t.parts for t in items)))


def replace_spans(item: Tracked, spans: Iterable[tuple[int, int]], content: str) -> Tracked:
    """Replace each ``(start, end)`` code-point span of ``item.text`` (ascending, disjoint)
    by ``content``; the new characters belong to the owner of the span's last character
    (of the next one for an empty span). O(length of the text)."""
    text, out, own, pos = item.text, [], [], 0
    track = item.owners is not None
    for a, b in spans:
        out += [text[pos:a], content]
        if track:
            who = item.owner_at(b - 1 if b > a else a)
            own += [*item.owners[pos:a], *[who] * len(content)]
        pos = b
    if not out:
        return item
    out.append(text[pos:])
    if track:
        own += item.owners[pos:]
    return item.edit("".join(out), own)


def replace_all(item: Tracked, old: str, new: str) -> Tracked:
    """``str.replace(old, new)`` on a tracked string (Rust's ``str::replace`` gives the same
    result: left to right, non-overlapping; an empty ``old`` inserts ``new`` around every
    character). O(length of the text)."""
    if item.owners is None:
        return item.edit(item.text.replace(old, new), None)
    if old and old not in item.text:
        return item
    if not old:
        n = len(item.text)
        return replace_spans(item, [(i, i) for i in range(n + 1)], new)
    return replace_spans(item, (m.span() for m in re.finditer(re.escape(old), item.text)), new)


class Decoder:
    """Base class: a step of the decoder chain (subclasses override :meth:`step`)."""

    type_name = "Decoder"
    drops_special_pieces = False
    """True for a decoder that drops special (control) pieces itself and must see them: in
    SentencePiece a control piece between two byte pieces still ends the byte run."""

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """One decoding step over the chain's strings."""
        raise NotImplementedError

    def plain(self, tokens: list[str]) -> str | None:
        """``decode(tokens)`` by a quicker route that keeps no owners, or None when the
        decoder has none (then :meth:`step` runs untracked)."""
        return None

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The reference's ``decode_chain``: token strings in, strings out."""
        return [t.text for t in self.step([Tracked(t, i) for i, t in enumerate(tokens)])]

    def decode(self, tokens: list[str]) -> str:
        """The reference's ``decode``: ``decode_chain`` joined with nothing."""
        return "".join(self.decode_chain(tokens))

    def settings(self) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}
