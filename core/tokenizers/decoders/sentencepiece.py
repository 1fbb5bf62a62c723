"""SentencePiece's own decoding rule for ``.model`` files (``SentencePieceProcessor::Decode``).

Pieces are looked up by string, as the library's ``Decode(pieces)`` does (pieces are unique
in a model). Control pieces (``<s>``, ``</s>``) decode to nothing; the unknown piece to the
model's ``unk_surface`` (``" ⁇ "`` unless the trainer set another); runs of byte pieces
(``<0xE0>``…) to the characters their bytes spell, the last byte piece of a character holding
it and the others nothing, each byte that starts no valid character becoming its own U+FFFD
(:mod:`.utf8`'s ``"per_byte"`` rule); every other piece to itself with ``▁`` turned into a
space. While nothing has been written yet, a leading ``▁`` is dropped from the piece when the
model adds a dummy prefix or removes extra whitespace — from the first such piece only, or
from every leading one with ``remove_extra_whitespaces``.

Not reproduced: a model's ``denormalizer_spec`` (no trainer option writes one by default).
"""

from __future__ import annotations

from typing import Any

from core.tokenizers.decoders.base import CharPart, Decoder, Tracked
from core.tokenizers.decoders.utf8 import char_lengths
from core.tokenizers.models.sentencepiece import BYTE, CONTROL, UNKNOWN

SPACE = "\u2581"
DEFAULT_UNK_SURFACE = " \u2047 "


class SentencePieceDecoder(Decoder):
    """Decode pieces of one SentencePiece model.

    Parameters
    ----------
    vocab : dict[str, int]
        Piece -> id.
    types : list[int]
        Piece type by id (``core.tokenizers.models.sentencepiece`` constants).
    unk_id : int
    add_dummy_prefix, remove_extra_whitespaces : bool
        The model's normalizer settings.
    unk_surface : str
        What the unknown piece decodes to.
    """

    type_name = "SentencePiece"
    drops_special_pieces = True  # <s> between <0xC2> and <0x80> decodes as two U+FFFD

    def __init__(self, vocab: dict[str, int], types: list[int], unk_id: int, *,
                 add_dummy_prefix: bool = True, remove_extra_whitespaces: bool = True,
                 unk_surface: str = DEFAULT_UNK_SURFACE):
        self.vocab, self.types, self.unk_id = vocab, types, unk_id
        self.unk_piece = next(p for p, i in vocab.items() if i == unk_id)
        self.strip_bos = add_dummy_prefix or remove_extra_whitespaces
        self.remove_extra_whitespaces = remove_extra_whitespaces
        self.unk_surface = unk_surface

    def settings(self) -> dict[str, Any]:
        return {"strip_leading_space": self.strip_bos, "unk_surface": self.unk_surface}

    def _kind(self, piece: str) -> int:
        return self.types[self.vocab.get(piece, self.unk_id)]

    def step(self, items: list[Tracked]) -> list[Tracked]:
        """One surface per piece, O(total length)."""
        out: list[Tracked] = []
        run: list[Tracked] = []
        at_bos, seen_ws, written = True, False, False
        for item in items:
            kind = self._kind(item.text)
            if kind == BYTE:
                run.append(item)
                continue
            decoded = _bytes(run)
            out += decoded
            written = written or any(t.text for t in decoded)
            run = []
            if seen_ws or written:
                at_bos = False
            text, seen_ws = self._surface(item.text, kind, at_bos)
            written = written or bool(text)
            out.append(item.edit(text, [item.home] * len(text)))
        return out + _bytes(run)

    def plain(self, pieces: list[str]) -> str:
        """:meth:`step` without owners, on plain strings, joined. O(total length)."""
        out: list[str] = []
        run: list[int] = []
        at_bos, seen_ws, written = True, False, False
        vocab, types, unk = self.vocab, self.types, self.unk_id
        for piece in pieces:
            kind = types[vocab.get(piece, unk)]
            if kind == BYTE:
                run.append(int(piece[3:5], 16))
                continue
            if run:
                text = _plain_bytes(bytes(run))
                out.append(text)
                written, run = written or bool(text), []
            if seen_ws or written:
                at_bos = False
            text, seen_ws = self._surface(piece, kind, at_bos)
            written = written or bool(text)
            out.append(text)
        if run:
            out.append(_plain_bytes(bytes(run)))
        return "".join(out)

    def _surface(self, piece: str, kind: int, at_bos: bool) -> tuple[str, bool]:
        """(surface, consumed a leading ▁) of one non-byte piece."""
        if kind == CONTROL:
            return "", False
        if kind == UNKNOWN:
            return (self.unk_surface if piece == self.unk_piece else piece), False
        consumed = False
        if at_bos and self.strip_bos and piece.startswith(SPACE):
            piece, consumed = piece[1:], not self.remove_extra_whitespaces
        return piece.replace(SPACE, " "), consumed


def _plain_bytes(data: bytes) -> str:
    """The characters a byte run spells (``"per_byte"`` rule), O(len(data))."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        i, out = 0, []
        for n, ok in char_lengths(data, "per_byte"):
            out.append(data[i:i + n].decode("utf-8") if ok else "\ufffd")
            i += n
        return "".join(out)


def _bytes(run: list[Tracked]) -> list[Tracked]:
    """Surfaces of a run of byte pieces (``<0xAB>``), O(len(run))."""
    data = bytes(int(t.text[3:5], 16) for t in run)
    out, i = [], 0
    for n, ok in char_lengths(data, "per_byte"):
        ch = data[i:i + n].decode("utf-8") if ok else "\ufffd"
        for k in range(n):
            t = run[i + k]
            last = k == n - 1
            parts = (CharPart(t.home, ch, k + 1, k + 1, n),) if n > 1 else ()
            text = ch if last else ""
            out.append(Tracked(text, t.home, None if t.owners is None else (t.home,) * len(text),
                               parts))
        i += n
    return out
