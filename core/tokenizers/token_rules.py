"""What a tokenizer's token strings stand for, read off its model and pipeline once.

An :class:`~core.tokenizers.encoding.Encoding` carries these rules so that it can answer,
lazily and without the tokenizer, which tokens are the model's unknown token
(``Encoding.unknown_mask``), which are byte-fallback pieces (``Encoding.byte_fallback_mask``)
and which text each token's own content occupies (``Encoding.derived_offsets``, computed by
:mod:`core.tokenizers.derived`).

- *unknown*: by id — WordPiece's ``unk_token``, BPE's and WordLevel's ``unk_token`` (when it
  is in the vocabulary), Unigram's and SentencePiece's ``unk_id``. A token string is not
  enough: the Unigram model reports an unknown token with the text it covers.
- *byte fallback*: the ``<0xAB>`` pieces of a BPE or Unigram model with ``byte_fallback``,
  and the pieces of type BYTE of a SentencePiece model; each stands for one UTF-8 byte.
- *markers*: WordPiece's and BPE's continuing-subword prefix (``##``), BPE's end-of-word
  suffix (``</w>``), a Metaspace replacement character (``▁``, standing for a space or for
  nothing when the pre-tokenizer prepended it), and whether the post-processor trims
  whitespace off the offsets (``trim_offsets``).

Public names: :class:`TokenRules`, :data:`NO_RULES`, :func:`rules_for`, :func:`byte_piece_ids`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["NO_RULES", "TokenRules", "byte_piece_ids", "rules_for"]


@dataclass(frozen=True)
class TokenRules:
    """How to read one tokenizer's tokens.

    Attributes
    ----------
    unk_id : int or None
        Id of the model's unknown token (None: the model has none).
    unk_token : str or None
        Its string, as the model emits it where it stands for text it could not encode
        (a token with that string carries no content of its own).
    byte_pieces : Mapping[int, int]
        Id -> the byte value of each byte-fallback piece (empty without byte fallback).
    prefix, suffix : str
        Continuing-subword prefix and end-of-word suffix ("" when none).
    metaspace : str
        The Metaspace replacement character ("" when none).
    trims_offsets : bool
        The post-processor moves spans past leading/trailing spaces (``trim_offsets``).
    byte_level_text : bool
        The normalized text itself is in GPT-2's byte alphabet (a ByteLevel normalizer).
    memo : dict
        What :mod:`core.tokenizers.derived` has worked out per distinct token (its content
        atoms and how the walk may place it), kept across encodings of the same tokenizer
        so that re-encoding an edited text re-reads only its new tokens. Not compared.
    """

    unk_id: int | None = None
    unk_token: str | None = None
    byte_pieces: Mapping[int, int] = field(default_factory=dict)
    prefix: str = ""
    suffix: str = ""
    metaspace: str = ""
    trims_offsets: bool = False
    byte_level_text: bool = False
    memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)


NO_RULES = TokenRules()
"""No unknown token, no byte fallback, no markers (an encoding built by hand)."""


def byte_piece_ids(vocab: Mapping[str, int]) -> dict[int, int]:
    """Id -> byte of the ``<0x00>`` … ``<0xFF>`` pieces in ``vocab`` (256 look-ups)."""
    out = {}
    for b in range(256):
        id_ = vocab.get(f"<0x{b:02X}>")
        if id_ is not None:
            out[id_] = b
    return out


def _find(component: Any, type_name: str, members: str) -> Any:
    """``component`` or the first member of a Sequence of it whose type is ``type_name``."""
    if component is None:
        return None
    if component.type_name == type_name:
        return component
    for c in getattr(component, members, ()):
        found = _find(c, type_name, members)
        if found is not None:
            return found
    return None


def _trims(processor: Any) -> bool:
    if processor is None:
        return False
    if getattr(processor, "trim", False):
        return True
    return any(_trims(p) for p in getattr(processor, "processors", ()))


def _model_unk(model: Any) -> tuple[int | None, str | None]:
    unk_id = getattr(model, "unk_id", None)
    unk = getattr(model, "unk_token", None)
    if unk_id is None and unk is not None:
        unk_id = model.vocab.get(unk)
    return unk_id, unk


def _model_bytes(model: Any) -> dict[int, int]:
    pieces = getattr(model, "byte_pieces", None)  # a SentencePiece model: its BYTE pieces
    if pieces is not None:
        return pieces
    return byte_piece_ids(model.vocab) if getattr(model, "byte_fallback", False) else {}


def rules_for(tokenizer: Any) -> TokenRules:
    """The :class:`TokenRules` of a :class:`~core.tokenizers.tokenizer.Tokenizer` (its model,
    pre-tokenizer, normalizer and post-processor), read by duck typing so that this record
    imports no pipeline stage. O(vocabulary) for SentencePiece models (a scan of the piece
    types: ``model.byte_pieces``), O(256) otherwise."""
    model = tokenizer.model
    unk_id, unk = _model_unk(model)
    prefix = getattr(model, "prefix", None) or getattr(model, "continuing_subword_prefix", None)
    meta = _find(tokenizer.pre_tokenizer, "Metaspace", "pre_tokenizers")
    return TokenRules(
        unk_id=unk_id, unk_token=unk, byte_pieces=_model_bytes(model), prefix=prefix or "",
        suffix=getattr(model, "end_of_word_suffix", None) or "",
        metaspace=meta.replacement if meta is not None else getattr(model, "metaspace", ""),
        trims_offsets=_trims(tokenizer.post_processor),
        byte_level_text=_find(tokenizer.normalizer, "ByteLevel", "normalizers") is not None)
