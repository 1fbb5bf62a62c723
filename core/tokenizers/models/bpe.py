"""The BPE model: one pre-tokenized word in, its tokens with code-point spans out.

Two ways of deciding which adjacent pair to merge next, both applied one merge at a time to
the lowest-ranked pair (leftmost on ties) until no pair can merge:

- by merge list (Hugging Face ``tokenizers``, GPT-2 ``merges.txt``): the rank of a pair of
  symbols is its line in the merge list (Sennrich et al., 2016, "Neural Machine Translation
  of Rare Words with Subword Units");
- by token rank (tiktoken ``.tiktoken`` files): two adjacent parts merge when their
  concatenated bytes are a token, lowest rank first; a word that is itself a token is
  returned whole (tiktoken's fast path, which is ``ignore_merges``).

Both give the same result as ``tokenizers``' priority-queue merge loop, which also pops the
lowest (rank, position) pair that is still present.

Spans are code points inside the word. For byte-level models the word is in the byte-level
alphabet, so they are byte positions; the pipeline maps them to text spans with
:func:`core.text.byte_alphabet.byte_span_to_char_span`. Otherwise they are the spans the
reference reports, quirks included (see :meth:`BPE.tokenize`).

Cost per word of n symbols: O(n log n) merging (a list scan for short words, a heap from
:data:`~core.tokenizers.models.bpe_merge.LONG_WORD` symbols on, and from
:data:`~core.tokenizers.models.bpe_batch.BATCH_WORD` on numpy rounds first, which the heap
finishes), O(n) set-up and spans;
words shorter than :data:`CACHE_MAX_WORD` are cached, longer ones are recomputed (so the
cache holds O(CACHE_SIZE · CACHE_MAX_WORD) characters at most).

Public names: :class:`BPE`. The merge loops live in :mod:`core.tokenizers.models.bpe_merge`,
the vocabulary and merge-table checks in :mod:`core.tokenizers.models.bpe_build`.
"""

from __future__ import annotations

from typing import Any, Callable

from core.errors import SubwordScopeError, TokenizerLoadError
from core.text.byte_alphabet import BYTE_TO_CHAR, bytes_to_byte_level
import numpy as np

from core.tokenizers.models.bpe_batch import BATCH_WORD, batch_merge
from core.tokenizers.models.bpe_build import bpe_options_from_json, check_vocab, merge_tables
from core.tokenizers.models.bpe_merge import (
    heap_merge, initial_symbols, merge_by_pairs, merge_by_rank, merge_widths, merges_from_ranks,
    reference_spans)

__all__ = ["BPE"]

CACHE_SIZE = 50_000
"""Words remembered per model (the cache is cleared when full); longer words are not cached."""
CACHE_MAX_WORD = 256


class _PieceCache(dict):
    """Word → piece, computed on a miss; cleared when it holds :data:`CACHE_SIZE` words."""

    def __init__(self, compute):
        super().__init__()
        self._compute = compute

    def __missing__(self, word: str):
        if len(self) >= CACHE_SIZE:
            self.clear()
        piece = self._compute(word)
        if len(word) < CACHE_MAX_WORD:
            self[word] = piece
        return piece


class BPE:
    """A BPE model (merge list or tiktoken ranks).

    Parameters
    ----------
    vocab : dict[str, int]
        Token string → id.
    merges : list of (str, str)
        Merge pairs in rank order (rank = position).
    unk_token : str | None
        Token for characters missing from the vocabulary; without one they are dropped,
        as in ``tokenizers``.
    continuing_subword_prefix, end_of_word_suffix : str | None
        Marks put on non-initial characters / the last character before lookup.
    byte_fallback : bool
        Characters missing from the vocabulary become ``<0xAB>`` byte tokens when all of
        their bytes (prefix and suffix included, as in ``tokenizers``) are tokens.
    fuse_unk : bool
        Consecutive unknown characters give one unknown token.
    ignore_merges : bool
        A word that is itself a token is returned whole without merging.
    dropout : float | None
        Stored and shown; never applied (results are deterministic).
    source : str | None
        File name used in error messages.

    Raises
    ------
    TokenizerLoadError
        On wrong types; :class:`MergeError` when a merge's tokens are not in ``vocab``.
    """

    type_name = "BPE"

    def __init__(self, vocab: dict[str, int], merges: list[tuple[str, str]],
                 unk_token: str | None = None, continuing_subword_prefix: str | None = None,
                 end_of_word_suffix: str | None = None, byte_fallback: bool = False,
                 fuse_unk: bool = False, ignore_merges: bool = False,
                 dropout: float | None = None, *, source: str | None = None):
        self._vocab = check_vocab(vocab, source)
        self._vocab_r = {i: t for t, i in self._vocab.items()}
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.end_of_word_suffix = end_of_word_suffix
        self.byte_fallback = bool(byte_fallback)
        self.fuse_unk = bool(fuse_unk)
        self.ignore_merges = bool(ignore_merges)
        self.dropout = dropout
        self._by_rank = False
        self._merges: list[tuple[str, str]] | None = [
            tuple(m) if isinstance(m, list) else m for m in merges]
        self._pair_rank, self._pair_new = merge_tables(
            self._vocab, self._merges, continuing_subword_prefix or "", source)
        self._cache: dict[str, tuple[tuple[str, int, int, int], ...]] = {}
        self._pieces = _PieceCache(self._piece)
        if unk_token is not None and unk_token not in self._vocab:
            raise TokenizerLoadError(f"unk_token {unk_token!r} is not in the vocabulary", source)

    # Construction -------------------------------------------------------------------------

    @classmethod
    def from_tokenizer_json_model(cls, model: dict[str, Any], *,
                                  source: str | None = None) -> "BPE":
        """Build from the ``"model"`` object of a Hugging Face ``tokenizer.json``.

        Merges may be ``"a b"`` strings (exactly one space) or ``["a", "b"]`` pairs.

        Raises
        ------
        TokenizerLoadError
            When the object is not a BPE model or a field has the wrong type.
        """
        vocab, merges, options = bpe_options_from_json(model, source)
        return cls(vocab, merges, **options, source=source)

    @classmethod
    def from_tiktoken_ranks(cls, ranks: dict[bytes, int], *, source: str | None = None) -> "BPE":
        """Byte-level BPE by token rank, exactly as tiktoken encodes ordinary text.

        Tokens are the byte-level alphabet strings of the token bytes; ids are the ranks.

        Raises
        ------
        TokenizerLoadError
            If a single byte has no rank (tiktoken cannot encode such text either).
        """
        missing = [b for b in range(256) if bytes([b]) not in ranks]
        if missing:
            raise TokenizerLoadError(
                f"the rank file has no token for {len(missing)} single byte(s), first "
                f"0x{missing[0]:02X}; every byte needs a rank", source)
        vocab = {bytes_to_byte_level(b): r for b, r in ranks.items()}
        self = cls(vocab, [], ignore_merges=True, source=source)
        self._by_rank = True
        self._merges = None  # derived on first use of .merges
        return self

    # Encoding ---------------------------------------------------------------------------

    def tokenize(self, word: str) -> list[tuple[str, int, int, int]]:
        """Split one pre-tokenized word into tokens.

        Parameters
        ----------
        word : str
            For byte-level models, already in the byte-level alphabet (one char per byte).

        Returns
        -------
        list of (token, id, start, end)
            Spans are half-open code-point offsets inside ``word``; for byte-level models
            these are byte positions. Byte-fallback tokens of one character each carry that
            character's span; a fused unknown token spans all its characters. Spans are the
            reference's: where it drops a character (no unknown token, no byte fallback),
            later spans shift left as they do in ``tokenizers``.

        Raises
        ------
        SubwordScopeError
            For a by-rank model, if ``word`` contains a character outside the byte alphabet.
        """
        hit = self._cache.get(word)
        if hit is not None:
            return list(hit)
        out = self._compute(word)
        if len(word) < CACHE_MAX_WORD:
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[word] = out
        return list(out)

    def tokenize_word(self, word: str) -> tuple[tuple, tuple, tuple, tuple]:
        """:meth:`tokenize` transposed: ``(tokens, ids, starts, ends)`` tuples (pipeline form)."""
        return self._pieces[word]

    def tokenize_words(self, words: list[str]) -> list[tuple[tuple, tuple, tuple, tuple]]:
        """:meth:`tokenize_word` for many words (one dict lookup per known word)."""
        return list(map(self._pieces.__getitem__, words))

    def _piece(self, word: str) -> tuple[tuple, tuple, tuple, tuple]:
        toks = self._compute(word)
        return tuple(zip(*toks)) if toks else ((), (), (), ())  # type: ignore[return-value]

    def _compute(self, word: str) -> tuple[tuple[str, int, int, int], ...]:
        if not word:
            return ()
        if self.ignore_merges and word in self._vocab:
            return ((word, self._vocab[word], 0, len(word)),)
        if len(word) >= BATCH_WORD and self._batchable(word):
            return self._tokens_from_parts(self._long_parts(word))
        if self._by_rank:
            return self._tokens_from_parts(merge_by_rank(list(word), self._vocab))
        return self._merge_word(word)

    def _batchable(self, word: str) -> bool:
        """Whether :meth:`_long_parts` applies: every character is a token, ids are unique
        and no prefix or suffix is put on symbols. O(n) for n characters."""
        return (len(self._vocab_r) == len(self._vocab)
                and not self.continuing_subword_prefix and not self.end_of_word_suffix
                and all(map(self._vocab.__contains__, word)))

    def _long_parts(self, word: str) -> list[str]:
        """The merged symbols of a long word: rounds of :func:`batch_merge` (numpy), finished
        by :func:`heap_merge` when the rounds stop early. O(n log n) for n characters."""
        vocab, back = self._vocab, self._vocab_r
        ids = np.fromiter(map(vocab.__getitem__, word), np.int64, len(word))
        out, done = batch_merge(ids, self._pair_lookup)
        parts = list(map(back.__getitem__, out.tolist()))
        if done:
            return parts
        if self._by_rank:
            return heap_merge(parts, vocab)
        return heap_merge(parts, self._pair_rank, self._pair_new)

    def _pair_lookup(self, left: int, right: int) -> tuple[int, int] | None:
        """``(rank, merged id)`` of two symbol ids, None when they never merge."""
        a, b = self._vocab_r[left], self._vocab_r[right]
        if self._by_rank:
            rank = self._vocab.get(a + b)
            return None if rank is None else (rank, rank)
        rank = self._pair_rank.get((a, b))
        return None if rank is None else (rank, self._vocab[self._pair_new[(a, b)]])

    def _tokens_from_parts(self, parts: list[str]) -> tuple[tuple[str, int, int, int], ...]:
        vocab, out, pos = self._vocab, [], 0
        try:
            for p in parts:
                end = pos + len(p)
                out.append((p, vocab[p], pos, end))
                pos = end
        except KeyError:
            bad = next(c for c in "".join(parts) if c not in vocab)
            raise SubwordScopeError(
                f"character {bad!r} is not a byte-level symbol; map the text with "
                "to_byte_level() first") from None
        return tuple(out)

    def _merge_word(self, word: str) -> tuple[tuple[str, int, int, int], ...]:
        prefix, suffix = self.continuing_subword_prefix, self.end_of_word_suffix
        if not prefix and not suffix and all(map(self._vocab.__contains__, word)):
            parts = merge_by_pairs(list(word), self._pair_rank, self._pair_new)
            return self._tokens_from_parts(parts)
        parts, widths = initial_symbols(word, self._vocab, prefix, suffix, self.unk_token,
                                        self.fuse_unk, self.byte_fallback)
        merge_widths(parts, widths, self._pair_rank, self._pair_new)
        return tuple(reference_spans(word, parts, widths, self._vocab))

    # Vocabulary -------------------------------------------------------------------------

    def token_to_id(self, token: str) -> int | None:
        """Id of ``token``, or None."""
        return self._vocab.get(token)

    def id_to_token(self, token_id: int) -> str | None:
        """Token of ``token_id``, or None."""
        return self._vocab_r.get(token_id)

    @property
    def vocab(self) -> dict[str, int]:
        """The vocabulary itself (token → id); read only — use :meth:`get_vocab` for a copy."""
        return self._vocab

    @property
    def vocab_size(self) -> int:
        """Number of vocabulary entries."""
        return len(self._vocab)

    def get_vocab(self) -> dict[str, int]:
        """A copy of the vocabulary (token → id)."""
        return dict(self._vocab)

    @property
    def merges(self) -> list[tuple[str, str]]:
        """Merge pairs in rank order (for rank files: see :meth:`merge_list`)."""
        return self.merge_list()

    def merge_list(self, should_stop: Callable[[], bool] | None = None
                   ) -> list[tuple[str, str]]:
        """Merge pairs in rank order, a copy.

        For a rank file they are derived on the first call (:func:`merges_from_ranks`,
        about a second for cl100k_base; loading and encoding never need them) and kept.

        Raises
        ------
        core.errors.Cancelled
            When ``should_stop()`` returns true while they are being derived.
        """
        if self._merges is None:
            self._merges = merges_from_ranks(self._vocab, should_stop)
        return list(self._merges)

    @property
    def is_byte_level(self) -> bool:
        """True when every byte-level alphabet character is a token."""
        return all(c in self._vocab for c in BYTE_TO_CHAR)

    def describe(self) -> dict[str, Any]:
        """The model's settings for display (dropout is shown, never applied)."""
        n_merges = (len(self._merges) if self._merges is not None
                    else sum(1 for t in self._vocab if len(t) > 1))
        return {
            "type": "BPE",
            "merge_rule": "token rank (tiktoken)" if self._by_rank else "merge list",
            "vocab_size": self.vocab_size,
            "merges": n_merges,
            "byte_level": self.is_byte_level,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "end_of_word_suffix": self.end_of_word_suffix,
            "byte_fallback": self.byte_fallback,
            "fuse_unk": self.fuse_unk,
            "ignore_merges": self.ignore_merges,
            "dropout": self.dropout,
            "dropout_applied": False,
        }

    def __repr__(self) -> str:
        d = self.describe()
        return f"BPE(vocab_size={d['vocab_size']}, merges={d['merges']}, rule={d['merge_rule']!r})"
