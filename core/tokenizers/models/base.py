"""Base class of tokenization models: one call per distinct word, memoized.

A model implements ``_tokenize(word) -> Piece``; :class:`CachedModel` provides
``tokenize_word`` and the bulk ``tokenize_words`` (a C-level ``map`` over a dict with
``__missing__``), which is what makes long texts fast: Zipf's law means a 900k-character
text has only tens of thousands of distinct words.

``Piece = (tokens, ids, starts, ends)``: tuples of equal length; ``starts``/``ends`` are
code-point offsets relative to the word (model input), ``start <= end``.
:func:`mostly_new` tells a cold cache from a warm one by a sample.
"""

from __future__ import annotations

from typing import Any, Callable, Container

from core.errors import map_stoppable

Piece = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]

#: The cache is cleared when it grows beyond this many words (bounded memory).
MAX_CACHED_WORDS = 500_000
#: Words of this many code points or more are not cached (a long word rarely comes back,
#: and caching it would keep a copy of a pasted text alive).
MAX_CACHED_WORD_LENGTH = 256
#: :meth:`CachedModel.tokenize_words` asks ``should_stop`` before every this many words.
STOP_CHECK_WORDS = 4096


def mostly_new(words: list[str], known: Container[str]) -> bool:
    """Whether a sample of 256 of the ``words`` finds a quarter of them or more not in
    ``known`` (a cold cache: worth segmenting the new words together). O(256)."""
    sample = words[::max(1, len(words) // 256)]
    return 4 * sum([w not in known for w in sample]) >= len(sample)


class _WordCache(dict):
    def __init__(self, fn: Callable[[str], Piece]):
        super().__init__()
        self._fn = fn

    def __missing__(self, word: str) -> Piece:
        if len(word) >= MAX_CACHED_WORD_LENGTH:
            return self._fn(word)
        if len(self) >= MAX_CACHED_WORDS:
            self.clear()
        piece = self[word] = self._fn(word)
        return piece


class CachedModel:
    """Subclass and implement ``_tokenize``; set ``type_name``, ``vocab``, ``unk_token``."""

    type_name = "Model"
    unk_token: str | None = None
    batches_new_words = False
    """Whether :meth:`prefetch_words` gains anything: BPE merges many new words in numpy
    rounds, Unigram walks their lattices together."""

    def __init__(self) -> None:
        self._cache = _WordCache(self._tokenize)

    def _tokenize(self, word: str) -> Piece:  # pragma: no cover
        raise NotImplementedError

    def tokenize_word(self, word: str) -> Piece:
        """Tokens, ids, word-relative starts and ends of one pre-tokenized word."""
        return self._cache[word]

    def tokenize_words(self, words: list[str],
                       should_stop: Callable[[], bool] | None = None) -> list[Piece]:
        """:meth:`tokenize_word` for many words; ``should_stop`` asked before every
        :data:`STOP_CHECK_WORDS` of them (a batch's words, looked up at once)."""
        return map_stoppable(self._cache.__getitem__, words, should_stop, STOP_CHECK_WORDS)

    def prefetch_words(self, words: list[str],
                       should_stop: Callable[[], bool] | None = None) -> None:
        """Nothing (None): these models gain nothing from seeing many new words at once
        (BPE and Unigram do: see ``prefetch_words`` in :mod:`core.tokenizers.models.bpe`
        and :mod:`core.tokenizers.models.unigram`)."""

    def tokenize_flat(self, words: list[str],
                      should_stop: Callable[[], bool] | None = None) -> tuple | None:
        """None: these models have no path laying many words' tokens end to end (the
        pipeline then uses :meth:`tokenize_words`; BPE has one)."""
        return None

    def settings(self) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}
