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
finishes), O(n) set-up and spans. Many new words at once (:meth:`BPE.tokenize_words` from
:data:`~core.tokenizers.models.bpe_batch.BATCH_WORDS` new symbols, :meth:`BPE.tokenize_flat`)
are merged together in numpy rounds (:func:`~core.tokenizers.models.bpe_batch.merge_segments`,
O(n log n) per word). Words shorter than :data:`CACHE_MAX_WORD` are cached, longer ones are recomputed (so the
cache holds O(CACHE_SIZE · CACHE_MAX_WORD) characters at most).

Loading keeps the merge list as it was read: the merge loops look a pair up by its key
``a + sep + b`` (:class:`~core.tokenizers.models.bpe_merge.PairRanks`), which for a list
read as ``"a b"`` strings is each string itself; the ids of the tokens it names are found
in numpy (:mod:`core.tokenizers.models.bpe_ids`); the ``(a, b)`` tuples of :attr:`BPE.merges`
are made when first asked for.

Public names: :class:`BPE`. The merge loops live in :mod:`core.tokenizers.models.bpe_merge`,
the vocabulary and merge-table checks in :mod:`core.tokenizers.models.bpe_build`.
"""

from __future__ import annotations

import re
from itertools import accumulate, chain, filterfalse, repeat
from operator import itemgetter
from typing import Any, Callable, Sequence

from core.errors import SubwordScopeError, TokenizerLoadError, check_stop
from core.text.byte_alphabet import BYTE_TO_CHAR, bytes_to_byte_level
import numpy as np

from core.tokenizers.models.base import mostly_new
from core.tokenizers.models.bpe_batch import (
    BATCH_WORD, BATCH_WORDS, NO_RANK, PairTable, merge_segments, merge_word)
from core.tokenizers.models.bpe_cuts import cut_words, join_pieces, merge_free_cutter
from core.tokenizers.models.bpe_build import (MergeList, bpe_options_from_json, check_vocab,
                                              merge_tables)
from core.tokenizers.models.bpe_merge import (
    LONG_WORD, PairRanks, heap_merge, initial_symbols, merge_all_ranks, merge_by_pairs,
    merge_by_rank, merges_from_ranks, reference_spans)

__all__ = ["BPE"]

CACHE_SIZE = 50_000
"""Words remembered per model (the cache is cleared when full); longer words are not cached."""
CACHE_MAX_WORD = 256
_CHAR_TABLE = 0x10000  # characters below this code point are looked up in a numpy table
_NOT_LOOKED_UP = -2  # that table's value for a character not yet looked up
CUT_FROM = 24
"""Words from which a model with merge-free cuts (:meth:`BPE.merge_free_cutter`) cuts them."""
FLAT_WORDS = 512
"""Words from which :meth:`BPE.tokenize_flat` applies."""
FLAT_CACHED = 20_000
"""Cached words up to which :meth:`BPE.tokenize_flat` caches the words it merged."""
STOP_CHECK_PIECES = 8192
"""Words merged together whose pieces are built between two ``should_stop`` checks."""


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


_PICK_CHUNK = 1 << 16  # items one C-level pass takes before the interpreter may switch threads


def _picked(table: Sequence, keys: list) -> tuple:
    """``tuple(table[k] for k in keys)``, taken in C-level passes of 65,536 keys: between
    passes the interpreter may hand over to another thread (one pass over the million
    tokens of a long word held it ~30 ms, while the GUI thread waited to paint). O(keys)."""
    get = table.__getitem__
    return tuple(chain.from_iterable(map(get, keys[k:k + _PICK_CHUNK]) for k in range(0, len(keys), _PICK_CHUNK)))


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
        self._vocab_r = dict(zip(self._vocab.values(), self._vocab))
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.end_of_word_suffix = end_of_word_suffix
        self.byte_fallback = bool(byte_fallback)
        self.fuse_unk = bool(fuse_unk)
        self.ignore_merges = bool(ignore_merges)
        self.dropout = dropout
        self._by_rank = False
        if not isinstance(merges, MergeList):  # (a checked list is kept as it is)
            merges = ([tuple(m) if isinstance(m, list) else m for m in merges]
                      if list in set(map(type, merges)) else list(merges))
        pair_rank, sep, merge_ids = merge_tables(
            self._vocab, merges, continuing_subword_prefix or "", source)
        self._rule = PairRanks(pair_rank, sep, len(continuing_subword_prefix or ""))
        # the (a, b) tuples are made when .merges is first asked for
        if isinstance(merges, MergeList):
            merges.joined = None  # (its text: only needed to find the ids)
        self._merge_source: MergeList | list | None = merges
        self._merges: tuple[tuple[str, str], ...] | None = None
        self._cache: dict[str, tuple[tuple[str, int, int, int], ...]] = {}
        self._pieces = _PieceCache(self._piece)
        # Built with the model, as the reference builds its merge map: the first long text
        # or batch needs them (Gemma 3: ~0.03 s and ~0.015 s). A merge list read in bulk
        # with unique ids gives the pair table whole; others are asked pair by pair.
        self._pairs: PairTable | None = None  # (the asking table, made on first use)
        self._merge_pairs: PairTable | None = None
        if merge_ids is not None and len(self._vocab_r) == len(self._vocab):
            self._merge_pairs = PairTable.from_arrays(
                merge_ids[:, 0], merge_ids[:, 1], np.arange(len(merge_ids), dtype=np.int64),
                merge_ids[:, 2])
        self._cutter = self._merge_free_cutter()
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
        self._rule = PairRanks(self._vocab)
        self._pieces = _PieceCache(self._rank_piece)
        self._merge_source = None  # derived on first use of .merges
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

    def tokenize_words(self, words: list[str], should_stop: Callable[[], bool] | None = None
                       ) -> list[tuple[tuple, tuple, tuple, tuple]]:
        """:meth:`tokenize_word` for many words (one dict lookup per known word).

        Words of :data:`CUT_FROM` characters or more are first cut where no merge can
        cross (:meth:`merge_free_cutter`): the words not cached are cut, their parts
        tokenized together (as :meth:`_tokenize_uncut_words`) and put back together, and
        the words under :data:`CACHE_MAX_WORD` cached whole. O(total characters) for the
        cuts, O(tokens) to join."""
        cutter = self.merge_free_cutter() if words and max(map(len, words)) >= CUT_FROM else None
        if cutter is None:
            return self._tokenize_uncut_words(words, should_stop)
        pieces = self._pieces
        missing = [w for w in dict.fromkeys(words) if w not in pieces]
        if not missing:
            return list(map(pieces.__getitem__, words))
        get = self._tokenize_cut(missing, cutter, should_stop).get
        return [get(w) or pieces[w] for w in words]

    def _tokenize_cut(self, words: list[str], cutter: "re.Pattern",
                      should_stop: Callable[[], bool] | None = None) -> dict:
        """The pieces of ``words`` (distinct, not cached): cut where ``cutter`` matches,
        their parts tokenized together (:meth:`_tokenize_uncut_words`), put back together
        (:func:`join_pieces`); the words under :data:`CACHE_MAX_WORD` cached whole.
        Returns every word's piece. O(total characters) for the cuts, O(tokens) to join."""
        pieces = self._pieces
        parts, per_word, shifts = cut_words(words, cutter)
        fresh = dict(zip(words, join_pieces(self._tokenize_uncut_words(parts, should_stop),
                                            per_word, shifts)))
        for w, piece in fresh.items():
            if len(w) < CACHE_MAX_WORD:
                if len(pieces) >= CACHE_SIZE:
                    pieces.clear()
                pieces[w] = piece
        return fresh

    batches_new_words = True
    """:meth:`prefetch_words` merges many first-seen words together (numpy rounds)."""

    def prefetch_words(self, words: list[str],
                       should_stop: Callable[[], bool] | None = None) -> dict | None:
        """Merge the ``words`` not yet cached together and cache them, so that the
        :meth:`tokenize_word` calls that follow look them up: a batch of many first-seen
        words goes through the numpy rounds of :meth:`_merge_many` (when they hold
        :data:`BATCH_WORDS` symbols or more) instead of one Python merge loop per word.
        Words with merge-free cuts (:meth:`merge_free_cutter`) are cut, their parts merged
        together and cached, and the words put together at once (:meth:`_tokenize_cut`):
        those too long to cache are returned, ``{word: piece}``, for the caller that asked
        for them to use (else None). Nothing else is merged here (words the rounds leave
        out, or too long to cache, are merged when asked for). O(W) for W words plus
        O(N log N) numpy for their N symbols; ``should_stop`` is asked before every round
        (raises :class:`core.errors.Cancelled`)."""
        if len(words) < 64:
            return None
        pieces = self._pieces
        missing = [w for w in dict.fromkeys(words) if w not in pieces]
        cutter = (self.merge_free_cutter() if missing and max(map(len, missing)) >= CUT_FROM
                  else None)
        if cutter is not None:  # the parts merged together, the words put together at once
            fresh = self._tokenize_cut(missing, cutter, should_stop)
            return {w: p for w, p in fresh.items() if len(w) >= CACHE_MAX_WORD}
        self._cache_merged_together(missing, should_stop)
        return None

    def _cache_merged_together(self, words: list[str],
                               should_stop: Callable[[], bool] | None = None) -> dict:
        """The pieces of the ``words`` not cached (2 to :data:`CACHE_MAX_WORD` - 1
        characters), merged together by :meth:`_merge_many` when they hold
        :data:`BATCH_WORDS` symbols or more (else nothing: ``{}``), put into the word
        cache; returned instead when the cache cannot take them all."""
        pieces = self._pieces
        new = [w for w in filterfalse(pieces.__contains__, dict.fromkeys(words))
               if 1 < len(w) < CACHE_MAX_WORD]  # (the cached ones left out in C)
        if sum(map(len, new)) < BATCH_WORDS:
            return {}
        fresh = self._merge_many(new, should_stop)
        if len(pieces) + len(fresh) > CACHE_SIZE:
            pieces.clear()
        if len(fresh) > CACHE_SIZE:
            return fresh
        pieces.update(fresh)
        return {}

    def _tokenize_uncut_words(self, words: list[str],
                              should_stop: Callable[[], bool] | None = None
                              ) -> list[tuple[tuple, tuple, tuple, tuple]]:
        """:meth:`tokenize_words` without the cuts.

        When the words not cached hold :data:`BATCH_WORDS` symbols or more they are merged
        together in numpy rounds (:meth:`_merge_many`). O(Σ n log n) over the new words.
        ``should_stop`` is asked inside the merging of every word of :data:`LONG_WORD`
        symbols or more (each numpy round, every few thousand heap merges); True raises
        :class:`core.errors.Cancelled`.
        """
        pieces = self._pieces
        fresh = self._cache_merged_together(words) if len(words) >= 64 else {}
        get = fresh.get
        if should_stop is not None and words and max(map(len, words)) >= CACHE_MAX_WORD:
            return [self._piece(w, should_stop) if len(w) >= CACHE_MAX_WORD
                    else get(w) or pieces[w] for w in words]  # long words are never cached
        if fresh:
            return [get(w) or pieces[w] for w in words]
        return list(map(pieces.__getitem__, words))

    def tokenize_flat(self, words: list[str], should_stop: Callable[[], bool] | None = None
                      ) -> tuple | None:
        """:meth:`tokenize_words` laid end to end, for many words most of which are not
        cached: each distinct word merged once, all together in numpy rounds
        (:func:`merge_segments`); the new words are then cached (:meth:`_keep_flat`).

        Returns
        -------
        (tokens, ids, counts, starts, ends) or None
            ``tokens``/``ids``: lists of all T tokens of all words in order; ``counts``:
            int64 (len(words),), tokens per word; ``starts``/``ends``: int64 (T,), spans
            inside each word (code points), as :meth:`tokenize_word` gives them. None when
            the words are few, mostly cached, hold under :data:`BATCH_WORDS` new symbols or
            :meth:`_symbol_ids` does not apply (then use :meth:`tokenize_words`).

        Raises
        ------
        core.errors.Cancelled
            When ``should_stop()`` (asked before every numpy round and inside the words
            the rounds leave unfinished) returns True.

        Notes
        -----
        O(N log N) numpy for the N characters of the distinct words, O(W + T) to lay them
        out for W words; words the rounds do not finish are finished one by one
        (:func:`heap_merge`, O(n log n) each).
        """
        if (len(words) < FLAT_WORDS or self.continuing_subword_prefix
                or self.end_of_word_suffix or len(self._vocab_r) != len(self._vocab)):
            return None  # (the conditions of _symbol_ids that need no look at the words)
        if not mostly_new(words, self._pieces):
            return None  # a warm cache, told by a sample: looked up
        cutter = self.merge_free_cutter() if max(map(len, words)) >= CUT_FROM else None
        if cutter is None:
            return self._tokenize_uncut_flat(words, should_stop)
        short = [w for w in dict.fromkeys(words) if len(w) < CACHE_MAX_WORD]
        if 2 * sum(map(self._pieces.__contains__, short)) > len(short):
            return None  # mostly cached whole (a warm cache): looked up, not cut
        parts, per_word, shifts = cut_words(words, cutter)
        got = self._tokenize_uncut_flat(parts, should_stop)
        if got is None:
            return None
        tokens, ids, counts, starts, ends = got
        shift = np.repeat(np.asarray(shifts, np.int64), counts)
        firsts = np.cumsum(per_word) - np.asarray(per_word)
        counts, starts, ends = np.add.reduceat(counts, firsts), starts + shift, ends + shift
        # the whole words cached too (their parts are), as tokenize_words caches them
        self._keep_flat(words, np.fromiter(map(len, words), np.int64, len(words)),
                        tokens, ids, counts, starts, ends)
        return tokens, ids, counts, starts, ends

    def _tokenize_uncut_flat(self, words: list[str],
                             should_stop: Callable[[], bool] | None = None) -> tuple | None:
        """:meth:`tokenize_flat` without the cuts."""
        distinct = list(dict.fromkeys(words))
        new = list(filterfalse(self._pieces.__contains__, distinct))
        if 2 * len(new) < len(distinct) or sum(map(len, new)) < BATCH_WORDS:
            return None  # (found in C-level passes: a warm cache declines at little cost)
        pos = dict(zip(distinct, range(len(distinct))))
        joined = "".join(distinct)
        chars = self._symbol_ids(joined)
        odd: list[str] = []  # words holding a character that is not a token: merged alone
        if chars is None:
            plain, odd = self._by_missing_characters(distinct, joined)
            if 2 * len(odd) > len(distinct):
                return None
            distinct = plain + odd  # odd ones last
            pos = dict(zip(distinct, range(len(distinct))))
            chars = self._symbol_ids("".join(distinct[:len(distinct) - len(odd)]))
            if chars is None:
                return None
        lens = np.fromiter(map(len, distinct), np.int64, len(distinct))
        merged = distinct[:len(distinct) - len(odd)]
        seg = np.repeat(np.arange(len(merged), dtype=np.int64), lens[:len(merged)])
        if self.ignore_merges:  # a word that is a token stays whole: one symbol, its id
            whole = np.fromiter(map(self._vocab.__contains__, merged), bool, len(merged))
            if whole.any():
                first = np.concatenate(([0], np.cumsum(lens[:len(merged)])[:-1]))
                keep = ~whole[seg]
                keep[first[whole]] = True
                chars[first[whole]] = list(map(self._vocab.__getitem__,
                                               np.asarray(merged, object)[whole]))
                chars, seg = chars[keep], seg[keep]
        sym, seg, unfinished = merge_segments(chars, seg, self._pair_table(),
                                              should_stop=should_stop)
        back = self._vocab_r.__getitem__
        if len(unfinished):
            sym, seg = self._finish_words(sym, seg, unfinished, should_stop)
        check_stop(should_stop)
        id_list = sym.tolist()
        tok_list = list(map(back, id_list))
        widths = np.fromiter(map(len, tok_list), np.int64, len(tok_list))
        counts_d = np.bincount(seg, minlength=len(merged))
        ends_d = np.cumsum(widths) - (np.cumsum(lens) - lens)[seg]
        starts_d = ends_d - widths
        if odd:  # their pieces (byte fallback, unknown tokens) laid after the merged words'
            extra = self._tokenize_uncut_words(odd, should_stop)
            tok_list += chain.from_iterable(map(itemgetter(0), extra))
            id_list += chain.from_iterable(map(itemgetter(1), extra))
            starts_d = np.concatenate((starts_d, np.fromiter(
                chain.from_iterable(map(itemgetter(2), extra)), np.int64)))
            ends_d = np.concatenate((ends_d, np.fromiter(
                chain.from_iterable(map(itemgetter(3), extra)), np.int64)))
            counts_d = np.concatenate((counts_d, np.fromiter(
                map(len, map(itemgetter(1), extra)), np.int64, len(extra))))
        inv = np.fromiter(map(pos.__getitem__, words), np.int64, len(words))
        counts = counts_d[inv]
        total = int(counts.sum())
        lead = np.cumsum(counts) - counts
        at = np.repeat((np.cumsum(counts_d) - counts_d)[inv] - lead, counts)
        at += np.arange(total, dtype=np.int64)
        at_list = at.tolist()
        check_stop(should_stop)
        self._keep_flat(distinct, lens, tok_list, id_list, counts_d, starts_d, ends_d)
        return (list(map(tok_list.__getitem__, at_list)), list(map(id_list.__getitem__, at_list)),
                counts, starts_d[at], ends_d[at])

    def _keep_flat(self, words: list[str], lens: np.ndarray, tok_list: list, id_list: list,
                   counts: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> None:
        """Put the pieces :meth:`tokenize_flat` laid out for ``words`` (``lens`` their
        lengths, ``counts`` their tokens; a word given twice is kept once) into the word
        cache where not cached yet (words under :data:`CACHE_MAX_WORD`), so that encoding
        the same text again (the next keystroke) looks them up instead of merging them all
        again; nothing once the cache holds :data:`FLAT_CACHED` words (a huge text does not
        fill memory with pieces it may never see again). O(words + their tokens), in
        C-level ``map`` chains."""
        pieces = self._pieces
        room = min(FLAT_CACHED - len(pieces), CACHE_SIZE - len(pieces))
        if room <= 0:
            return
        keep = np.fromiter(map(pieces.__contains__, words), bool, len(words))
        keep = ~keep & (lens < CACHE_MAX_WORD)  # the new words the cache takes
        at = np.flatnonzero(keep)[:room]
        if not len(at):
            return
        first = np.cumsum(counts) - counts
        cuts = list(map(slice, first[at].tolist(), (first[at] + counts[at]).tolist()))
        kept = np.asarray(words, object)[at].tolist()
        start_list, end_list = starts.tolist(), ends.tolist()
        pieces.update(zip(kept, zip(*(map(tuple, map(column.__getitem__, cuts))
                                      for column in (tok_list, id_list, start_list, end_list)))))

    def _finish_words(self, sym: np.ndarray, seg: np.ndarray, unfinished: np.ndarray,
                      should_stop: Callable[[], bool] | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
        """``sym``/``seg`` with the ``unfinished`` words merged to the end by
        :func:`heap_merge`. O(W) Python for W words plus O(n log n) per unfinished word."""
        bounds = np.flatnonzero(np.diff(seg)) + 1
        parts, words = np.split(sym, bounds), np.split(seg, bounds)
        back, vocab = self._vocab_r.__getitem__, self._vocab
        for k in np.searchsorted(seg[np.concatenate(([0], bounds))], unfinished).tolist():
            toks = list(map(back, parts[k].tolist()))
            toks = heap_merge(toks, self._rule, should_stop=should_stop)
            parts[k] = np.fromiter(map(vocab.__getitem__, toks), np.int64, len(toks))
            words[k] = np.full(len(toks), words[k][0], np.int64)
        return np.concatenate(parts), np.concatenate(words)

    def _merge_many(self, words: list[str], should_stop: Callable[[], bool] | None = None
                    ) -> dict[str, tuple[tuple, tuple, tuple, tuple]]:
        """Pieces of many distinct words merged together (:func:`merge_segments`); words the
        rounds do not finish, whole-token words under ``ignore_merges``, words holding a
        character that is not a token (byte fallback, unknown) and every word when
        :meth:`_symbol_ids` does not apply are left out (the caller tokenizes them one by
        one). O(N log N) numpy for N symbols plus O(1) Python per word and token."""
        if self.ignore_merges:
            words = [w for w in words if w not in self._vocab]
        joined = "".join(words)
        words, odd = self._by_missing_characters(words, joined)
        if odd:
            joined = "".join(words)
        ids = self._symbol_ids(joined) if words else None
        if ids is None:
            return {}
        lens = np.fromiter(map(len, words), np.int64, len(words))
        sym, seg, unfinished = merge_segments(
            ids, np.repeat(np.arange(len(words), dtype=np.int64), lens), self._pair_table(),
            should_stop=should_stop)
        id_list = sym.tolist()
        tokens = list(map(self._vocab_r.__getitem__, id_list))
        ends = np.cumsum(np.fromiter(map(len, tokens), np.int64, len(tokens)))
        counts = np.bincount(seg, minlength=len(words))
        bounds = np.concatenate(([0], np.cumsum(counts)))
        word_start = np.concatenate(([0], np.cumsum(lens)))[seg]
        ends -= word_start
        starts = np.empty_like(ends)
        starts[0] = 0
        starts[1:] = ends[:-1]
        starts[bounds[:-1][counts > 0]] = 0
        st, en = starts.tolist(), ends.tolist()
        lo, hi = bounds[:-1].tolist(), bounds[1:].tolist()
        fresh: dict = {}
        for i in range(0, len(words), STOP_CHECK_PIECES):  # (~5 µs a word)
            check_stop(should_stop)
            j = i + STOP_CHECK_PIECES
            fresh.update({w: (tuple(tokens[a:b]), tuple(id_list[a:b]), tuple(st[a:b]),
                              tuple(en[a:b])) for w, a, b in zip(words[i:j], lo[i:j], hi[i:j])})
        for k in unfinished.tolist():
            del fresh[words[k]]
        return fresh

    def _by_missing_characters(self, words: list[str], joined: str
                               ) -> tuple[list[str], list[str]]:
        """``words`` (``joined``: laid end to end) parted into those whose every character
        is a token and those holding one that is not (byte fallback or unknown: merged
        one by one), each in order. O(total characters) at C speed plus O(1) per word."""
        vocab = self._vocab
        missing = {c for c in set(joined) if c not in vocab}
        if not missing:
            return words, []
        return ([w for w in words if missing.isdisjoint(w)],
                [w for w in words if not missing.isdisjoint(w)])

    def pair_ranks(self, left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The merge rank and merged token id of each pair of token ids (int64 arrays of
        shape (k,) each): for a merge list the pair's position in it (a pair listed twice:
        its last), for token ranks the rank of the merged token; the rank is ``NO_RANK``
        (from :mod:`core.tokenizers.models.bpe_batch`) where the pair does not merge, and
        the merged id is then meaningless. The model's own pair table (:meth:`_pair_table`,
        built once): O(k) numpy, expected, for k pairs."""
        return self._pair_table().ranks(np.asarray(left, np.int64), np.asarray(right, np.int64))

    def _pair_table(self) -> PairTable:
        """The model's :class:`PairTable` (kept across calls). A merge list read in bulk
        with unique ids gave it whole at construction (:meth:`PairTable.from_arrays`: a
        numpy hash table of the m merges, O(m) to build, then O(1) probes per pair);
        otherwise it is made on first use, and the pairs asked about are looked up in
        C-level ``map`` chains over the merge list's tables or, for token ranks, over the
        vocabulary (two parts merge when their concatenation is a token)."""
        if self._merge_pairs is not None and not self._by_rank:
            return self._merge_pairs
        pairs = self._pairs
        if pairs is not None:
            return pairs
        back, get = self._vocab_r.__getitem__, self._vocab.get
        if self._by_rank:
            def many(left: list[int], right: list[int]) -> np.ndarray:
                found = map(get, map(str.__add__, map(back, left), map(back, right)),
                            repeat(NO_RANK))
                rank = np.fromiter(found, np.int64, len(left))
                return rank << 32 | rank
        else:
            (_, sep, cut), rank_of = self._rule, self._rule.ranks.get

            def many(left: list[int], right: list[int]) -> np.ndarray:
                a, b = list(map(back, left)), list(map(back, right))
                keys = map(str.__add__, map(str.__add__, a, repeat(sep)), b)
                rank = np.fromiter(map(rank_of, keys, repeat(NO_RANK)), np.int64, len(a))
                new = map(get, map(str.__add__, a, [t[cut:] for t in b] if cut else b),
                          repeat(0))
                return rank << 32 | np.fromiter(new, np.int64, len(a))
        pairs = self._pairs = PairTable.from_many(many)
        return pairs

    def merge_free_cutter(self) -> "re.Pattern | None":
        """Where this model's words can be cut without changing their tokens
        (:func:`core.tokenizers.models.bpe_cuts.merge_free_cutter`, built with the model);
        None when the cut would not be exact."""
        return self._cutter

    def _merge_free_cutter(self) -> "re.Pattern | None":
        """:meth:`merge_free_cutter` built (O(vocabulary characters), one C-level pass);
        None for token ranks, a prefix or suffix, ``ignore_merges``, or characters that
        can be dropped (no unknown token and incomplete byte fallback)."""
        exact = (not self._by_rank and not self.continuing_subword_prefix
                 and not self.end_of_word_suffix and not self.ignore_merges
                 and (self.unk_token is not None or (self.byte_fallback and all(
                     f"<0x{b:02X}>" in self._vocab for b in range(256)))))
        return merge_free_cutter(self._vocab) if exact else None

    def _piece(self, word: str, should_stop: Callable[[], bool] | None = None
               ) -> tuple[tuple, tuple, tuple, tuple]:
        if len(word) >= CUT_FROM and self._cutter is not None:
            parts, per_word, shifts = cut_words([word], self._cutter)
            if len(parts) > 1:
                return join_pieces(self._tokenize_uncut_words(parts, should_stop),
                                   per_word, shifts)[0]
        if len(word) >= BATCH_WORD and not (self.ignore_merges and word in self._vocab):
            piece = self._long_piece(word, should_stop)
            if piece is not None:
                return piece
        parts = self._plain_parts(word) if len(word) < BATCH_WORD else None
        if parts is not None:
            return self._piece_from_parts(parts)
        toks = self._compute(word, should_stop)
        return tuple(zip(*toks)) if toks else ((), (), (), ())  # type: ignore[return-value]

    def _rank_piece(self, word: str) -> tuple[tuple, tuple, tuple, tuple]:
        """:meth:`_piece` of a by-rank model, short words inline: a word that is a token
        whole, else its characters merged by :func:`merge_all_ranks` (O(n²) for n <
        :data:`LONG_WORD` characters); longer words go to :meth:`_piece`. Raises as
        :meth:`_piece_from_parts`."""
        vocab = self._vocab
        rank = vocab.get(word)
        if rank is not None:
            return (word,), (rank,), (0,), (len(word),)
        if len(word) >= LONG_WORD or not word:
            return self._piece(word)
        return self._piece_from_parts(merge_all_ranks(list(word), vocab.get))

    def _plain_parts(self, word: str) -> list[str] | None:
        """The merged symbols of a non-empty word that needs no set-up (its characters are
        the symbols: token ranks, or a merge list without prefix, suffix or missing
        characters); None otherwise. Same merges as :meth:`_compute`."""
        if not word:
            return None
        vocab = self._vocab
        if self.ignore_merges and word in vocab:
            return [word]
        if self._by_rank:
            return merge_by_rank(list(word), vocab)
        if (self.continuing_subword_prefix or self.end_of_word_suffix
                or not all(map(vocab.__contains__, word))):
            return None
        return merge_by_pairs(list(word), self._rule)

    def _piece_from_parts(self, parts: list[str]) -> tuple[tuple, tuple, tuple, tuple]:
        """``(tokens, ids, starts, ends)`` of merged symbols laid end to end (spans: their
        running lengths). O(len(parts)). Raises as :meth:`_tokens_from_parts`."""
        try:
            ids = tuple(map(self._vocab.__getitem__, parts))
        except KeyError:
            self._tokens_from_parts(parts)  # raises the error naming the character
            raise
        ends = tuple(accumulate(map(len, parts)))
        return tuple(parts), ids, (0, *ends[:-1]), ends

    def _compute(self, word: str, should_stop: Callable[[], bool] | None = None
                 ) -> tuple[tuple[str, int, int, int], ...]:
        if not word:
            return ()
        if self.ignore_merges and word in self._vocab:
            return ((word, self._vocab[word], 0, len(word)),)
        if len(word) >= BATCH_WORD:
            piece = self._long_piece(word, should_stop)
            if piece is not None:
                return tuple(zip(*piece))
        if self._by_rank:
            if len(word) >= LONG_WORD:
                return self._tokens_from_parts(heap_merge(list(word), self._rule,
                                                          should_stop=should_stop))
            return self._tokens_from_parts(merge_by_rank(list(word), self._vocab))
        return self._merge_word(word, should_stop)

    def _symbol_ids(self, word: str) -> np.ndarray | None:
        """Each character's id (int64, shape (n,)) when every character is a token, ids are
        unique and no prefix or suffix is put on symbols; else None. O(n) numpy through a
        table of the Basic Multilingual Plane's characters, each looked up in the
        vocabulary the first time it is met (O(distinct characters) Python then); a word
        with a character beyond it through its distinct characters (a sort, O(n log n) at
        numpy speed, then O(distinct characters) Python)."""
        if (len(self._vocab_r) != len(self._vocab) or self.continuing_subword_prefix
                or self.end_of_word_suffix):
            return None
        if not word:
            return np.zeros(0, np.int64)
        table = self.__dict__.get("_char_table")
        if table is None:
            table = self._char_table = np.full(_CHAR_TABLE, _NOT_LOOKED_UP, np.int64)
        cps = np.frombuffer(word.encode("utf-32-le", "surrogatepass"), np.uint32)
        if int(cps.max()) >= _CHAR_TABLE:  # each distinct character looked up once
            distinct, inverse = np.unique(cps, return_inverse=True)
            get = self._vocab.get
            found = np.fromiter((get(chr(c), -1) for c in distinct.tolist()), np.int64, len(distinct))
            return found[inverse.reshape(-1)] if (found >= 0).all() else None
        ids = table[cps]
        if (ids == _NOT_LOOKED_UP).any():
            get = self._vocab.get
            for c in set(word):
                table[ord(c)] = get(c, -1)  # (two threads may write the same value)
            ids = table[cps]
        return ids if (ids >= 0).all() else None

    def _long_piece(self, word: str, should_stop: Callable[[], bool] | None = None
                    ) -> tuple[tuple, tuple, tuple, tuple] | None:
        """:meth:`tokenize_word` of a long word: rounds of :func:`merge_word` (numpy),
        finished by :func:`heap_merge` when the rounds stop early; None when
        :meth:`_symbol_ids` does not apply. O(n log n) for n characters; ``should_stop``
        asked before every round and every few thousand heap merges."""
        ids = self._symbol_ids(word)
        if ids is None:
            return None
        out, starts, done = merge_word(ids, self._pair_table(), should_stop=should_stop)
        check_stop(should_stop)
        id_list = out.tolist()
        if len(id_list) == 1:
            return (self._vocab_r[id_list[0]],), tuple(id_list), (0,), (len(word),)
        tokens = _picked(self._vocab_r, id_list)
        if not done:
            tokens = heap_merge(list(tokens), self._rule, should_stop=should_stop)
            check_stop(should_stop)
            id_list = list(map(self._vocab.__getitem__, tokens))
            ends = np.cumsum(np.fromiter(map(len, tokens), np.int64, len(tokens)))
            starts = np.concatenate(([0], ends[:-1]))
            return tuple(tokens), tuple(id_list), tuple(starts.tolist()), tuple(ends.tolist())
        start_list = starts.tolist()
        return tokens, tuple(id_list), tuple(start_list), (*start_list[1:], len(word))

    def _pair_lookup(self, left: int, right: int) -> tuple[int, int] | None:
        """``(rank, merged id)`` of two symbol ids, None when they never merge."""
        a, b = self._vocab_r[left], self._vocab_r[right]
        if self._by_rank:
            rank = self._vocab.get(a + b)
            return None if rank is None else (rank, rank)
        ranks, sep, cut = self._rule
        rank = ranks.get(a + sep + b)
        return None if rank is None else (rank, self._vocab[a + b[cut:]])

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

    def _merge_word(self, word: str, should_stop: Callable[[], bool] | None = None
                    ) -> tuple[tuple[str, int, int, int], ...]:
        """Tokens of a merge-list word with the reference's spans: the plain case by
        :func:`merge_by_pairs`, words with a prefix, a suffix or characters missing from
        the vocabulary through :func:`initial_symbols` and :func:`heap_merge` (widths
        added up). O(n log n) for n symbols (O(n²) list scan below :data:`LONG_WORD`)."""
        prefix, suffix = self.continuing_subword_prefix, self.end_of_word_suffix
        if not prefix and not suffix and all(map(self._vocab.__contains__, word)):
            if len(word) >= LONG_WORD:
                parts = heap_merge(list(word), self._rule, should_stop=should_stop)
            else:
                parts = merge_by_pairs(list(word), self._rule)
            return self._tokens_from_parts(parts)
        parts, widths = initial_symbols(word, self._vocab, prefix, suffix, self.unk_token,
                                        self.fuse_unk, self.byte_fallback)
        parts = heap_merge(parts, self._rule, widths, should_stop=should_stop)
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
            source = self._merge_source
            # Kept as a tuple of (str, str) tuples: the cyclic collector stops tracking such
            # a tuple after its first passes, where a list (Gemma 3: 514,906 pairs) would be
            # walked by every full collection for as long as the model lives.
            self._merges = tuple(merges_from_ranks(self._vocab, should_stop) if source is None
                                 else source.pairs() if isinstance(source, MergeList)
                                 else source)
            self._merge_source = None
        return list(self._merges)

    @property
    def is_byte_level(self) -> bool:
        """True when every byte-level alphabet character is a token."""
        return all(c in self._vocab for c in BYTE_TO_CHAR)

    def describe(self) -> dict[str, Any]:
        """The model's settings for display (dropout is shown, never applied)."""
        n_merges = (len(self._merges) if self._merges is not None
                    else len(self._merge_source) if self._merge_source is not None
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
