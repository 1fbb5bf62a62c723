"""Ids back to text: ``Tokenizer.decode`` and ``Tokenizer.decode_pieces``.

The steps are the reference's (``tokenizers::Tokenizer::decode``): each id becomes its token
string (an added token's content wins over the model's entry for the same id); with
``skip_special_tokens`` the strings of added tokens marked special are dropped (by content);
the tokenizer's decoder (:mod:`core.tokenizers.decoders`) turns the strings into text, or,
without one, they are joined with single spaces.

Every loader sets the decoder of its format: a ``tokenizer.json`` its ``decoder`` section;
``vocab.txt`` WordPiece (``##``, cleanup); GPT-2 files and tiktoken ByteLevel (bytes to
UTF-8, U+FFFD for bytes that form no character, as ``tiktoken.decode`` with its default
``errors="replace"``); a SentencePiece ``.model`` its own rule
(:mod:`core.tokenizers.decoders.sentencepiece`).

Ids the vocabulary lacks: the ``tokenizers`` library skips them silently, and so do the
formats it reads (``tokenizer.json``, ``vocab.txt``, GPT-2 files); tiktoken and
SentencePiece raise, and so does this (:class:`UnknownIdError`) for those formats
(``Tokenizer.strict_ids``). A negative id, or one of 2**32 or more, is refused everywhere,
as the reference refuses to convert it.

Public names: :func:`decode`, :func:`decode_pieces`, :class:`DecodedPiece`,
:class:`UnknownIdError`, :data:`CharPart` (re-exported).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from core.errors import SubwordScopeError, check_stop
from core.tokenizers.decoders.base import CharPart, Tracked

__all__ = ["CharPart", "DecodedPiece", "UnknownIdError", "decode", "decode_pieces"]

_MAX_ID = 2**32


class UnknownIdError(SubwordScopeError):
    """An id has no token in this tokenizer's vocabulary (or is not a valid id at all).

    Attributes
    ----------
    id : int
        The offending id.
    position : int
        Its index in the ids given.
    """

    def __init__(self, id_: int, position: int, vocab_size: int):
        self.id, self.position = id_, position
        super().__init__(f"id {id_} (position {position}) is not in this tokenizer's "
                         f"vocabulary of {vocab_size:,} tokens; were these ids made by "
                         "another tokenizer?")


@dataclass(frozen=True)
class DecodedPiece:
    """What one id contributes to the decoded text.

    Attributes
    ----------
    id : int
    token : str or None
        Its token string (None for an id the vocabulary lacks, which is skipped).
    text : str
        The decoded characters it produced, in order. A character spelled by several tokens'
        bytes (byte-level or byte-fallback pieces) belongs to the token holding its last
        byte; the others hold ``""`` for it and say so in ``parts``.
    start, end : int
        Code-point span of ``text`` in the decoded string (for an empty ``text``, where it
        would be: just after the earlier tokens' characters).
    skipped : bool
        Dropped before decoding (a special token with ``skip_special_tokens``, or an
        unknown id).
    parts : tuple[CharPart, ...]
        The characters it holds only some UTF-8 bytes of (``parts[k].label`` reads
        ``"bytes 1–2 of म (U+092E)"``; bytes are numbered from 1 within the character).
    """

    id: int
    token: str | None
    text: str
    start: int
    end: int
    skipped: bool = False
    parts: tuple[CharPart, ...] = ()


def _tokens(tokenizer: Any, ids: Iterable[int],
            skip_special_tokens: bool) -> tuple[list[int], list[str | None], list[bool]]:
    """(ids, token per id, kept per id). O(len(ids)).

    Raises
    ------
    TypeError
        If an id is not an integer.
    UnknownIdError
        For an id out of range, or unknown to a tokenizer with ``strict_ids``.
    """
    ids = list(map(operator.index, ids))
    if ids and not 0 <= min(ids) <= max(ids) < _MAX_ID:
        k = next(k for k, i in enumerate(ids) if not 0 <= i < _MAX_ID)
        raise UnknownIdError(ids[k], k, tokenizer.vocab_size)
    tokens = list(map(tokenizer.id_to_token, ids))
    if getattr(tokenizer, "strict_ids", False) and None in tokens:
        k = tokens.index(None)
        raise UnknownIdError(ids[k], k, tokenizer.vocab_size)
    special = set(tokenizer.special_tokens) if skip_special_tokens else set()
    special.add(None)
    kept = [t not in special for t in tokens]
    return ids, tokens, kept


def _decoded(tokenizer: Any, tokens: list[str | None], kept: list[bool]) -> list[bool]:
    """Per token, whether it goes to the decoder: the kept ones, or every known one for a
    decoder that drops special pieces itself (``Decoder.drops_special_pieces``)."""
    if getattr(getattr(tokenizer, "decoder", None), "drops_special_pieces", False):
        return [t is not None for t in tokens]
    return kept


def _steps(decoder: Any) -> list[Any]:
    """The decoder's steps in order: a Sequence's members (flattened), else itself."""
    members = getattr(decoder, "decoders", None)
    return [d for m in members for d in _steps(m)] if isinstance(members, list) else [decoder]


def _run(tokenizer: Any, items: list[Tracked], should_stop: Callable[[], bool] | None = None
         ) -> Tracked:
    """The decoder chain over ``items``, ``should_stop`` asked before each step (each is
    O(total length))."""
    decoder = getattr(tokenizer, "decoder", None)
    if decoder is not None:
        for step in _steps(decoder):
            check_stop(should_stop)
            items = step.step(items)
        check_stop(should_stop)
        return Tracked.join(items)
    if not items:
        return Tracked("", 0, ())
    spaced = [items[0]] + [t.edit(" " + t.text, (t.home, *(t.owners or ())))
                           for t in items[1:]]
    return Tracked.join(spaced)


def decode(tokenizer: Any, ids: Iterable[int], *, skip_special_tokens: bool = True,
           should_stop: Callable[[], bool] | None = None) -> str:
    """The text ``ids`` stand for, as the format's reference library decodes them.

    Parameters
    ----------
    tokenizer : Tokenizer
    ids : iterable of int
    skip_special_tokens : bool
        Drop added tokens marked special (``[CLS]``, ``<|endoftext|>``, ``</s>``).
    should_stop : callable, optional
        Asked before the decoder runs and between its steps (a Sequence's members); True
        stops the decoding.

    Returns
    -------
    str
        O(total length of the tokens) plus the decoder's regexes, if any.

    Raises
    ------
    TypeError
        If an id is not an integer.
    UnknownIdError
        See the module docstring.
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    _, tokens, kept = _tokens(tokenizer, ids, skip_special_tokens)
    check_stop(should_stop)
    decoder = getattr(tokenizer, "decoder", None)
    strings = [t for t, keep in zip(tokens, _decoded(tokenizer, tokens, kept)) if keep]
    if decoder is None:
        return " ".join(strings)
    text = decoder.plain(strings)  # one C-level pass where the chain allows it
    if text is not None:
        return text
    return _run(tokenizer, [Tracked(t, k) for k, t in enumerate(strings)], should_stop).text


def decode_pieces(tokenizer: Any, ids: Iterable[int], *, skip_special_tokens: bool = True,
                  should_stop: Callable[[], bool] | None = None) -> list[DecodedPiece]:
    """Per id, its share of :func:`decode`'s text, byte runs reassembled into characters.

    ``"".join(p.text for p in decode_pieces(t, ids))`` equals ``decode(t, ids)`` whenever
    the decoder keeps the characters in token order (every decoder but a Replace whose
    regex moves text around).

    Returns
    -------
    list[DecodedPiece]
        One per id, in order. O(total length of the tokens).

    Raises
    ------
    TypeError, UnknownIdError, core.errors.Cancelled
        As :func:`decode` (``should_stop`` is asked as there).
    """
    ids, tokens, kept = _tokens(tokenizer, ids, skip_special_tokens)
    check_stop(should_stop)
    sent = _decoded(tokenizer, tokens, kept)
    items = [Tracked.of(t, k, True) for k, (t, keep) in enumerate(zip(tokens, sent)) if keep]
    out = _run(tokenizer, items, should_stop)
    check_stop(should_stop)
    parts: dict[int, list[CharPart]] = {}
    for part in out.parts:
        parts.setdefault(part.token, []).append(part)
    owners = np.asarray(out.owners or (), np.int64)
    if np.all(owners[1:] >= owners[:-1]):  # characters in token order: slices
        keys = np.arange(len(ids))
        lo = np.searchsorted(owners, keys, "left").tolist()
        hi = np.searchsorted(owners, keys, "right").tolist()
        return [DecodedPiece(i, tok, out.text[a:b], a, b, not keep, tuple(parts.get(k, ())))
                for k, (i, tok, keep, a, b) in enumerate(zip(ids, tokens, kept, lo, hi))]
    return _scattered(out, ids, tokens, kept, parts)


def _scattered(out: Tracked, ids, tokens, kept, parts) -> list[DecodedPiece]:
    """:func:`decode_pieces` when a decoder moved characters out of token order.
    O(total length)."""
    where: dict[int, list[int]] = {}
    for pos, owner in enumerate(out.owners or ()):
        where.setdefault(owner, []).append(pos)
    pieces, done = [], 0
    for k, (i, tok) in enumerate(zip(ids, tokens)):
        pos = where.get(k, [])
        text = "".join(out.text[p] for p in pos)
        start, end = (pos[0], pos[-1] + 1) if pos else (done, done)
        done = max(done, end)
        pieces.append(DecodedPiece(i, tok, text, start, end, not kept[k],
                                   tuple(parts.get(k, ()))))
    return pieces
