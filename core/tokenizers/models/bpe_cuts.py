"""Where a word can be cut without changing its BPE tokens: boundaries no merge crosses.

Some files have no pre-tokenizer that splits words (Gemma 3: the normalizer turns spaces
into ``▁`` and the ``Split`` on ``" "`` that follows never matches), so a whole line reaches
the model as one word and is merged symbol by symbol, with no word cache to help. Yet most
of its boundaries are never crossed: BPE merges only ever build vocabulary tokens, so a
boundary between characters ``c`` and ``▁`` (``c`` not itself ``▁``) can only be crossed by
a token that contains ``c▁``. Where no token does, the two sides are merged independently,
and the word's tokens are the tokens of its parts laid end to end — the same tokens, in the
same order, with the same spans (shifted by each part's start). Gemma 3 has one such token
(``>▁</``) in 262,144, so a line is cut before every ``▁`` that follows neither ``▁`` nor
``>``, and its parts are looked up in the word cache like the words of any other file.

The cut is exact only for the plain merge rule (no continuing-subword prefix or
end-of-word suffix, which are put on word boundaries; no ``ignore_merges``, which looks at
the whole word) and when no character can be dropped (an unknown token or complete byte
fallback: a dropped character shifts the reference's later spans in the whole word). The
model checks that (:meth:`core.tokenizers.models.bpe.BPE.merge_free_cutter`).

Public names: :data:`MARKER`, :func:`merge_free_cutter`, :func:`cut_words`,
:func:`join_pieces`.
"""

from __future__ import annotations

import re
from itertools import accumulate, chain, islice, repeat
from operator import add, itemgetter
from typing import Iterable

import numpy as np

from core.text.offsets import code_points

__all__ = ["MARKER", "cut_words", "join_pieces", "merge_free_cutter"]

MARKER = "\u2581"
"""SentencePiece's word-boundary mark (``▁``), where the cuts are made."""
_SEPARATOR = "\uffff"  # between tokens laid end to end (a noncharacter: in no real token)


def merge_free_cutter(tokens: Iterable[str]) -> re.Pattern | None:
    """A pattern matching (empty) every place before ``▁`` that no token can cross.

    Parameters
    ----------
    tokens : iterable of str
        Every token merges can build (the vocabulary).

    Returns
    -------
    re.Pattern or None
        Zero-width matches before each ``▁`` whose preceding character ``c`` is neither
        ``▁`` nor the first half of a ``c▁`` pair found inside some token; None when ``▁``
        is not a token (then the file does not mark words this way). O(total characters of
        the tokens) in numpy, over their UTF-32 code units.
    """
    if not isinstance(tokens, (dict, set, frozenset)):
        tokens = list(tokens)
    if MARKER not in tokens:  # a vocabulary (dict) answers without a scan
        return None
    # every token laid end to end, a noncharacter (U+FFFF) between two: one numpy pass
    # over the code units finds the character before every ▁ (a lone surrogate passes as
    # its own unit)
    units = code_points(_SEPARATOR.join(tokens))
    before = units[:-1][units[1:] == ord(MARKER)]
    before = before[(before != ord(MARKER)) & (before != ord(_SEPARATOR))]
    joiners = set(map(chr, np.unique(before).tolist()))
    if np.count_nonzero(units == ord(_SEPARATOR)) != len(tokens) - 1 and any(
            _SEPARATOR + MARKER in t for t in tokens):  # a token holding it: look at each
        joiners.add(_SEPARATOR)
    held = "".join(map(re.escape, sorted(joiners | {MARKER})))
    return re.compile(f"(?<=[^{held}])(?={MARKER})")


def cut_words(words: list[str], cutter: re.Pattern
              ) -> tuple[list[str], list[int], list[int]]:
    """The words cut where ``cutter`` matches.

    Returns
    -------
    (parts, per_word, shifts)
        ``parts``: every word's parts in order (a word with no cut is one part, the empty
        word one empty part); ``per_word``: parts per word (>= 1); ``shifts``: each part's
        start inside its word, in code points. O(total characters).
    """
    parts: list[str] = []
    per_word: list[int] = []
    shifts: list[int] = []
    split = cutter.split
    for w in words:
        cut = split(w)
        parts += cut
        per_word.append(len(cut))
        shifts += accumulate(map(len, cut[:-1]), initial=0)
    return parts, per_word, shifts


def join_pieces(pieces: list, per_word: list[int], shifts: list[int]) -> list:
    """The parts' pieces ``(tokens, ids, starts, ends)`` put back together per word, the
    spans shifted by each part's start (the inverse of :func:`cut_words`). Each word's
    tokens, ids and shifted spans are laid end to end by C-level chains over its parts:
    O(tokens) at C speed plus O(1) Python per word (a word of one part keeps its piece)."""
    if len(pieces) == len(per_word):  # no word was cut
        return list(pieces)
    tokens = map(itemgetter(0), pieces)
    ids = map(itemgetter(1), pieces)
    starts = map(map, repeat(add), map(itemgetter(2), pieces), map(repeat, shifts))
    ends = map(map, repeat(add), map(itemgetter(3), pieces), map(repeat, shifts))
    out = []
    k = 0
    for n in per_word:
        if n == 1:
            out.append(pieces[k])
            next(tokens), next(ids), next(starts), next(ends)
        else:
            out.append((tuple(chain.from_iterable(islice(tokens, n))),
                        tuple(chain.from_iterable(islice(ids, n))),
                        tuple(chain.from_iterable(islice(starts, n))),
                        tuple(chain.from_iterable(islice(ends, n)))))
        k += n
    return out
