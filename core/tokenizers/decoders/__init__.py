"""Decoders of the tokenizer pipeline and their registry: token strings back to text.

Each decoder works on the list of token strings as the ``tokenizers`` library's decoders do
(``decode_chain(tokens) -> list[str]``; ``decode(tokens) -> str`` joins the result) and, inside,
on owner-tracked strings (:class:`~.base.Tracked`) so that
:func:`core.tokenizers.decoding.decode_pieces` can say which token produced which characters.
Modules: :mod:`.base` (interface, tracked strings, :class:`~.base.CharPart`), :mod:`.utf8`
(bytes to characters, two rules for invalid bytes), :mod:`.wordpiece` (WordPiece and its
``cleanup``), :mod:`.byte_level`, :mod:`.metaspace`, :mod:`.byte_fallback`, :mod:`.fuse`,
:mod:`.strip`, :mod:`.replace`, :mod:`.bpe` (BPEDecoder), :mod:`.ctc`, :mod:`.sequence`, and
:mod:`.sentencepiece` (the ``.model`` format's rule, which needs piece types, not only
strings).

To add a component: subclass :class:`Decoder` in a module of this package (override
``step``), give it ``type_name`` and ``from_config``, and register it in :data:`DECODERS`.
"""

from __future__ import annotations

from typing import Callable

from core.tokenizers._components import build_component
from core.tokenizers.decoders.base import CharPart, Decoder, Tracked
from core.tokenizers.decoders.bpe import BPEDecoder
from core.tokenizers.decoders.byte_fallback import ByteFallback
from core.tokenizers.decoders.byte_level import ByteLevel
from core.tokenizers.decoders.ctc import CTC
from core.tokenizers.decoders.fuse import Fuse
from core.tokenizers.decoders.metaspace import Metaspace
from core.tokenizers.decoders.replace import Replace
from core.tokenizers.decoders.sequence import Sequence
from core.tokenizers.decoders.strip import Strip
from core.tokenizers.decoders.wordpiece import WordPiece

__all__ = [
    "CTC", "DECODERS", "BPEDecoder", "ByteFallback", "ByteLevel", "CharPart", "Decoder",
    "Fuse", "Metaspace", "Replace", "Sequence", "Strip", "Tracked", "WordPiece",
    "build_decoder",
]


def _sequence(cfg: dict) -> Sequence:
    members = cfg["decoders"]
    if not isinstance(members, list):
        raise TypeError("decoders must be a list")
    return Sequence([build_decoder(c) for c in members])


#: ``tokenizer.json`` decoder ``type`` -> builder taking the component's JSON object.
DECODERS: dict[str, Callable[[dict], Decoder]] = {
    "WordPiece": WordPiece.from_config,
    "ByteLevel": ByteLevel.from_config,
    "Metaspace": Metaspace.from_config,
    "ByteFallback": ByteFallback.from_config,
    "Fuse": Fuse.from_config,
    "Strip": Strip.from_config,
    "Replace": Replace.from_config,
    "BPEDecoder": BPEDecoder.from_config,
    "CTC": CTC.from_config,
    "Sequence": _sequence,
}


def build_decoder(cfg: dict | None) -> Decoder | None:
    """Build a decoder from its ``tokenizer.json`` object (``None`` -> ``None``: the
    tokenizer then joins token strings with spaces, as the reference does).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` or a malformed setting (the message names it).
    """
    return build_component("decoder", cfg, DECODERS)
