"""Texts encoded together: one pass over all the words of a chunk.

:class:`~core.tokenizers.batch.BatchEncoder` encodes a text at a time; for pipelines whose
pre-tokenizer rewrites its words (ByteLevel: GPT-2, tiktoken files; Metaspace, alone or
after plain splitters: Pegasus and other SentencePiece conversions) or hands them to the
model as they are (the plain plan: BERT, Gemma 3) most of that time is per-token list
work repeated for every text. :func:`encode_chunk` instead splits every text of a chunk
into its source words (the encoder's plan), looks all of them up at once in the encoder's
bulk cache — the rewritten-word cache (words never seen are computed there, each once; a
first word with a prepended character in the shifted cache), or the model's own words for
the plain plan — and builds the tokens, ids, word ids and offsets of the whole chunk in
flat lists and numpy arrays, then cuts them per text. Every Encoding equals, field for
field, what ``Tokenizer.encode`` returns.

It covers texts that go through the pipeline as one piece with the identity offset map:
no normalizer, or one that keeps every character's span (a per-character one whose images
are all one character long, a one-to-one rewrite such as Gemma 3's ``" "`` → ``"▁"``, or
one that returns the NormalizedText it was given), no
added token matched in the text, fewer than :data:`~core.tokenizers.batch.SMALL_TEXT`
code points. Any other text is handed to :meth:`BatchEncoder.encode
<core.tokenizers.batch.BatchEncoder.encode>` (its normalized text reused when it is one
piece; then, when that returns None, to ``Tokenizer.encode`` by the caller).

Spans are code points of the text (original = normalized, the map being the identity).

Public names: :func:`encode_chunk`, :data:`CHUNK`, :data:`FIRST`, :data:`ALL`.
"""

from __future__ import annotations

import bisect
from typing import Any, Callable

import numpy as np

from core.errors import check_stop
from core.tokenizers.builder import build_encoding
from core.tokenizers.pipeline import laid_flat

__all__ = ["encode_chunk", "ALL", "CHUNK", "FIRST"]

CHUNK = 4096
"""Texts encoded together at most (bounds the flat lists kept alive at once)."""
FIRST, ALL = 1, 2
"""Which words of a text had a character prepended (a split's ``shifted``; 0: none)."""


def encode_chunk(enc: Any, texts: list[str], add_special_tokens: bool,
                 should_stop: Callable[[], bool] | None = None) -> list[Any]:
    """The Encodings of ``texts`` (None where ``Tokenizer.encode`` must do it).

    Parameters
    ----------
    enc : core.tokenizers.batch.BatchEncoder
        Of a tokenizer whose ``bulk_cache`` is not None (the cache every word is looked
        up in: ``prefetch(words)``, ``pieces(words)``).
    texts : list of str
    add_special_tokens : bool
        As in ``Tokenizer.encode``.
    should_stop : callable, optional
        Asked before every text; True raises :class:`core.errors.Cancelled`.

    Returns
    -------
    list
        One Encoding (or None) per text, in order.

    Cost: O(total code points) for the splits, one cache look-up per word plus one model
    call per word never seen before, O(tokens) flat list and numpy work.
    """
    tok = enc.tok
    added, plan = tok.added, enc.plan
    all_shifted = enc.bulk_cache is enc.rewrites[1]
    out: list[Any] = [None] * len(texts)
    small = enc.small_text
    todo: list[tuple[int, str, Any]] = []  # (index, text, NormalizedText)
    whole: list[tuple[int, str, Any, bool]] = []  # texts whose normalization moved text
    extra: list[str] = []  # their words (when split as the others are)
    fetch_whole = enc.model.batches_new_words and not added.has_normalized
    keys: list[str] = []
    starts: list[int] = []
    n_words: list[int] = []
    firsts: list[int] = []  # index in keys of each first word with a prepended character
    for k, text in enumerate(texts):
        check_stop(should_stop)
        if len(text) >= small:
            continue
        if added.has_raw and text and added.split_original(text) != [(0, len(text), None)]:
            out[k] = enc.encode(text, add_special_tokens)
            continue
        nt, identity = enc.normalize(text)
        if not identity or (added.has_normalized and nt.text and added.split_normalized(
                nt.text) != [(0, len(nt.text), None)]):
            whole.append((k, text, nt, identity))
            if fetch_whole and nt.text:  # its words are fetched with the rest
                split = plan(enc, nt.text, bisect.bisect_right(nt.starts, 0))
                if split is not None and split[2] == (ALL if all_shifted else 0):
                    extra += split[0]
            continue
        if nt.text:
            split = plan(enc, nt.text, 1)
            if split is None or (split[2] == ALL) != all_shifted:
                out[k] = enc.encode_whole(text, nt, identity, add_special_tokens)
                continue
            words, word_starts, shifted = split
            if shifted == FIRST:  # the first word stands for a prepended character
                firsts.append(len(keys))
            keys += words
            starts += word_starts
            n_words.append(len(words))
        else:
            n_words.append(0)
        todo.append((k, text, nt))
    flat = None if firsts or not todo else enc.bulk_cache.flat(keys, should_stop)
    if flat is None or extra:
        enc.bulk_cache.prefetch(keys + extra if flat is None else extra, should_stop)
    for k, text, nt, identity in whole:
        check_stop(should_stop)
        out[k] = enc.encode_whole(text, nt, identity, add_special_tokens)
    if not todo:
        return out
    check_stop(should_stop)
    tokens, ids, offsets, word_ids, bounds = _flat(enc, keys, starts, n_words, firsts, flat,
                                                   should_stop)
    for i, ((k, text, nt), a, b) in enumerate(zip(todo, bounds[:-1], bounds[1:])):
        if not i % STOP_CHECK_TEXTS:
            check_stop(should_stop)
        out[k] = build_encoding(tok, text, nt, tokens[a:b], ids[a:b], offsets[a:b],
                                word_ids[a:b], add_special_tokens)
    return out


STOP_CHECK_TEXTS = 256
"""``should_stop`` is asked before every this many Encodings a chunk assembles."""


def _flat(enc: Any, keys: list[str], starts: list[int], n_words: list[int],
          firsts: list[int], flat: tuple | None = None,
          should_stop: Callable[[], bool] | None = None):
    """Tokens, ids, offsets and word ids of all the words, laid end to end, and the token
    bounds of each text (``len(n_words) + 1`` of them); the words at ``firsts`` are
    looked up as shifted (a character prepended). ``flat``: the bulk cache's answer for
    all the words at once (``(tokens, ids, counts, starts, ends)``), else the words'
    pieces are looked up (``should_stop`` asked as the cache asks it). O(tokens)."""
    if flat is None:
        pieces = enc.bulk_cache.pieces(keys, should_stop)
        shifted = enc.rewrites[1]
        for i in firsts:
            pieces[i] = shifted[keys[i]]
        if not pieces:
            return [], [], [], [], [0] * (len(n_words) + 1)
        flat = laid_flat(pieces)
        check_stop(should_stop)
    tokens, ids, counts, rel_lo, rel_hi = flat
    base = np.repeat(np.asarray(starts, np.int64), counts)
    lo, hi = rel_lo + base, rel_hi + base
    offsets = list(zip(lo.tolist(), hi.tolist()))
    per_text = np.asarray(n_words, np.int64)
    word_bounds = np.zeros(len(per_text) + 1, np.int64)
    np.cumsum(per_text, out=word_bounds[1:])
    # a word's id: its index among its text's words
    first_word = np.repeat(word_bounds[:-1], per_text)
    word_ids = np.repeat(np.arange(len(keys), dtype=np.int64) - first_word, counts).tolist()
    token_bounds = np.zeros(len(keys) + 1, np.int64)
    np.cumsum(counts, out=token_bounds[1:])
    return tokens, ids, offsets, word_ids, token_bounds[word_bounds].tolist()
