"""The pre-tokenizer interface: cut the normalized text into words, keeping normalized spans.

``split(text) -> (words, starts)``, two parallel lists: word ``k`` is ``words[k]`` and
stands for the normalized code points ``[starts[k], starts[k] + len(words[k]))`` of
``text``. A pre-tokenizer that rewrites its words (ByteLevel's byte alphabet, Metaspace's
``▁``) sets ``transforms = True`` and implements either ``word_map(text, word, start) ->
(starts, ends)`` (for every character of ``word`` the normalized span it stands for,
absolute in ``text``) or, faster, ``split_mapped(text, first) -> (words, starts, (lo,
hi))`` with ``lo``/``hi`` flat int64 arrays: the normalized span of every character of
every word, words concatenated in order (or None where every character stands at its own
place). The tokenizer maps model offsets through them.
"""

from __future__ import annotations

from itertools import accumulate, chain
from typing import Any

import numpy as np

Words = tuple[list[str], list[int]]
#: The split behaviours of the reference library (what happens to a delimiter).
BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")


class PreTokenizer:
    """Base class of pre-tokenizers.

    What a pre-tokenizer can do, for the pipeline to ask instead of testing its type:
    ``transforms`` (it rewrites its words), ``byte_level`` (into GPT-2's byte alphabet,
    itself or a member) and ``batch_split``: how the batch path
    (:mod:`core.tokenizers.batch`) may cut a text into cacheable source words —
    ``"plain"`` (the words themselves), ``"byte_level"`` / ``"metaspace"`` (source pieces
    rewritten word by word), ``"then_meta"`` / ``"then_bytes"`` (a Sequence of plain
    splitters ending in such a step), or None (texts go through ``Tokenizer.encode``).
    """

    type_name = "PreTokenizer"
    transforms = False
    byte_level = False

    @property
    def batch_split(self) -> str | None:
        return "plain" if not self.transforms else None

    def split(self, text: str) -> Words:  # pragma: no cover
        raise NotImplementedError

    def split_texts(self, texts: list[str], at: list[int] | None = None
                    ) -> tuple[list[str], list[int], list[int]]:
        """:meth:`split` of many texts, laid end to end: ``(words, starts, counts)`` — every
        text's words in order, each word's start in its own text plus ``at[k]`` (the text's
        start in a longer piece; default 0), and the number of words of each text (an
        empty text has none). A pre-tokenizer that splits many short texts faster together
        (Split) overrides it. O(words) besides the splitting."""
        got = [self.split(text) if text else ([], []) for text in texts]
        counts = [len(g[0]) for g in got]
        return (list(chain.from_iterable(g[0] for g in got)),
                moved(list(chain.from_iterable(g[1] for g in got)), counts, at), counts)

    def word_map(self, text: str, word: str, start: int) -> tuple[list[int], list[int]]:
        """Normalized span of each character of a rewritten ``word`` (``transforms`` only)."""
        raise NotImplementedError  # pragma: no cover

    def split_mapped(self, text: str, first: bool = True) -> tuple[list[str], list[int], Any]:
        """``(words, starts, maps)``: :meth:`split` plus, for rewriting pre-tokenizers, the
        flat ``(lo, hi)`` normalized spans of every word character; None where each word
        character stands for the normalized character at its own place (``starts[k] + i``:
        always for pre-tokenizers that do not rewrite, and for ByteLevel's spelling of
        ASCII text).
        ``first``: ``text`` starts the original text (Metaspace's ``"first"`` scheme); a
        Sequence reads it as a bound: a word starting before normalized position ``first``
        starts the original text (``True`` = 1, ``False`` = 0)."""
        words, starts = self.split(text)
        if not self.transforms:
            return words, starts, None
        lo: list[int] = []
        hi: list[int] = []
        for w, s in zip(words, starts):
            a, b = self.word_map(text, w, s)
            lo += a
            hi += b
        return words, starts, (np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64))

    def split_mapped_flat(self, texts: list[str], at: list[int] | None = None
                          ) -> tuple[list[str], list[int], Any, list[int]]:
        """:meth:`split_mapped` of many texts none of which starts the original text (the
        pieces of a text cut by added tokens), laid end to end.

        ``at``: each text's start in the longer piece it was cut from (default 0): the
        starts and maps are given from there.

        Returns
        -------
        (words, starts, maps, counts)
            Every text's words in order; each word's start in its own text plus ``at``
            (code points); the flat ``(lo, hi)`` maps of all their characters, likewise
            (:func:`laid_maps`; None when every character stands at its own place); and
            the number of words of each text. A pre-tokenizer that splits many texts
            faster together (a Sequence ending in ByteLevel) overrides it. O(characters)
            besides the splitting.
        """
        got = [self.split_mapped(text, 0) for text in texts]
        if at is not None and any(at):
            got = [(w, [x + a for x in s], m if m is None else (m[0] + a, m[1] + a)) if a
                   else (w, s, m) for (w, s, m), a in zip(got, at)]
        words = list(chain.from_iterable(g[0] for g in got))
        starts = list(chain.from_iterable(g[1] for g in got))
        counts = [len(g[0]) for g in got]
        maps = laid_maps(words, starts, [g[2] for g in got], list(accumulate(counts, initial=0)))
        return words, starts, maps, counts

    def safe_cut(self, text: str, at: int) -> int | None:
        """The first position ``p >= at`` where ``text`` may be cut and its halves split
        apart (the words of ``text[p:]`` shifted by ``p`` follow those of ``text[:p]``,
        as in the whole text's split; the second half does not start the text), or None
        (the default: never). The pipeline cuts a long text there to ask ``should_stop``
        between the pieces. O(p - at)."""
        return None

    def settings(self) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}


def laid_maps(words: list[str], starts: list[int], maps: list[Any],
              bounds: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """The character maps of groups of words laid end to end: group ``k`` is
    ``words[bounds[k]:bounds[k + 1]]`` (with their ``starts``) and ``maps[k]`` its flat
    ``(lo, hi)`` maps, or None when each of its word characters ``i`` stands at its own
    place (``starts[j] + i``), which is then written out. None when no group has a map.
    O(characters) in numpy, with numpy calls only for the groups that have maps."""
    if all(m is None for m in maps):
        return None
    if all(m is not None for m in maps):
        return np.concatenate([m[0] for m in maps]), np.concatenate([m[1] for m in maps])
    lo = char_places(words, starts)
    hi = lo + 1
    chars_before = list(accumulate(map(len, words), initial=0))
    for m, w0, w1 in zip(maps, bounds, bounds[1:]):
        if m is not None:
            lo[chars_before[w0]:chars_before[w1]], hi[chars_before[w0]:chars_before[w1]] = m
    return lo, hi


def moved(starts: list[int], counts: list[int], at: list[int] | None) -> list[int]:
    """``starts`` of groups of ``counts`` words, group ``k``'s moved by ``at[k]`` (None or
    all 0: unmoved). O(words), in one numpy pass."""
    if at is None or not any(at):
        return starts
    return (np.asarray(starts, np.int64) + np.repeat(np.asarray(at, np.int64), counts)).tolist()


def char_places(words: list[str], starts: list[int]) -> np.ndarray:
    """Where each character of ``words`` stands when every word character ``i`` stands at
    its own place, ``starts[j] + i``: an int64 array, one entry per character of the words
    laid end to end. O(characters) in numpy."""
    lens = np.fromiter(map(len, words), np.int64, len(words))
    places = np.repeat(np.asarray(starts, np.int64) - (np.cumsum(lens) - lens), lens)
    places += np.arange(len(places), dtype=np.int64)
    return places
