"""Many short texts at once: the per-text fast path behind ``Tokenizer.encode_batch``.

:meth:`Tokenizer.encode <core.tokenizers.tokenizer.Tokenizer.encode>` is built for one long
text: numpy over all of its tokens at once. On a short text (a line, a sentence) that
set-up costs more than the work, so :class:`BatchEncoder` encodes short texts with plain
lists and a second per-word cache, and gives every text an :class:`Encoding` equal, field
for field, to what ``encode`` returns:

- per-character normalizers (BERT's, Lowercase, …) translate the text with one table kept
  across texts (:meth:`CharMapNormalizer.translate`); other normalizers run as in ``encode``;
- a pre-tokenizer that rewrites its words (ByteLevel's byte alphabet, Metaspace's ``▁``) is
  split into source words whose rewritten form, model tokens and word-relative normalized
  spans are computed once per distinct word and kept (:class:`_Rewrites`), so
  a known word costs one dict look-up; plain pre-tokenizers use the model's own word cache;
- such rewriting pipelines (GPT-2, tiktoken files, Metaspace ones as Pegasus's) encode
  chunks of texts together (:meth:`BatchEncoder.encode_many`,
  :mod:`core.tokenizers.batch_bulk`): one cache look-up pass and flat list and numpy work
  over all the chunk's words instead of per-text lists;
- a text the fast path does not cover (a pipeline shape it does not know, a word it cannot
  rewrite alone) goes through ``encode``, as does every text of :data:`SMALL_TEXT` code
  points or more.

Spans are code points: model spans are word-relative (bytes for byte-level words), the
cached spans normalized code points relative to the word's start, the Encoding's original
code points.

Public names: :class:`BatchEncoder`, :data:`SMALL_TEXT`.
"""

from __future__ import annotations

import bisect
from itertools import accumulate, chain, repeat
from operator import add, lt
from typing import Any, Callable

import numpy as np

from core.errors import check_stop, map_stoppable
from core.text.byte_alphabet import bytes_to_byte_level
from core.text.normalize import NormalizedText
from core.tokenizers.batch_bulk import ALL, CHUNK, FIRST, encode_chunk
from core.tokenizers.builder import build_encoding
from core.tokenizers.models.base import mostly_new

__all__ = ["BatchEncoder", "SMALL_TEXT"]

SMALL_TEXT = 2048
"""Texts of this many code points or more are encoded by ``Tokenizer.encode`` (numpy)."""
MAX_CACHED = 200_000
"""The rewritten-word cache is cleared when it holds this many words."""
MAX_CACHED_WORD = 256
"""Rewritten words of this many code points or more are not cached."""
STOP_CHECK_PIECES = 4096
"""``should_stop`` is asked before every this many words a bulk cache looks up (each new
one is computed: a Unigram word's Viterbi walk, ~10 µs)."""

Split = tuple[list[str], list[int], int]  # words, their normalized starts, which shifted


class BatchEncoder:
    """Encodes short texts for one tokenizer; built once per tokenizer and kept.

    Parameters
    ----------
    tokenizer : core.tokenizers.tokenizer.Tokenizer
        Its model, normalizer, pre-tokenizer, added tokens and post-processor are read;
        :func:`core.tokenizers.builder.build_encoding` assembles the Encoding, as for
        ``encode``.
    """

    small_text = SMALL_TEXT  # read by batch_bulk (which this module imports)

    def __init__(self, tokenizer: Any):
        self.tok = tokenizer
        self.model = tokenizer.model
        norm = tokenizer.normalizer
        self._translate = norm.translate if norm is not None and norm.per_character else None
        self.plan = _plan(tokenizer.pre_tokenizer)
        byte_level = self.plan in (_byte_level, _then_bytes)
        # rewritten words by whether their first character was prepended (0/1)
        self.rewrites = (_Rewrites(self.model, byte_level, 0),
                          _Rewrites(self.model, byte_level, 1))
        # the cache of the words of texts encoded together (None: a text at a time)
        self.bulk_cache = _bulk_cache(self)

    # -- many texts -------------------------------------------------------------------------

    def encode_many(self, texts: list[str], add_special_tokens: bool,
                    should_stop: Callable[[], bool] | None = None) -> list[Any]:
        """The Encodings of ``texts``, None for each text the caller must give to
        ``Tokenizer.encode``. Pipelines that rewrite their words encode chunks of
        :data:`CHUNK` texts together (:func:`~core.tokenizers.batch_bulk.encode_chunk`),
        others a text at a time (:meth:`encode`). ``should_stop`` is asked before every
        text (raises :class:`core.errors.Cancelled`). O(total code points + tokens) plus
        one model call per word never seen before."""
        normalizer = self.tok.normalizer
        if normalizer is not None and normalizer.prepares and len(texts) > 1:
            normalizer.prepare(set().union(*texts))
        if self.bulk_cache is not None:
            out: list[Any] = []
            for k in range(0, len(texts), CHUNK):
                out += encode_chunk(self, texts[k:k + CHUNK], add_special_tokens, should_stop)
            return out
        out = []
        for k, text in enumerate(texts):
            if k % CHUNK == 0:
                self._prefetch(texts[k:k + CHUNK], should_stop)
            check_stop(should_stop)
            out.append(self.encode(text, add_special_tokens))
        return out

    def _prefetch(self, texts: list[str],
                  should_stop: Callable[[], bool] | None = None) -> None:
        """Give the model the words of ``texts`` all at once (:meth:`_Rewrites.prefetch`)
        when its cache looks cold — it holds fewer words than there are texts — and the
        model segments many new words better together (``batches_new_words``: BPE,
        Unigram): the words of the pieces between added tokens, split as :meth:`encode`
        splits them. O(total code points) for the splits (repeated by :meth:`encode`,
        which is why a warm cache skips this)."""
        cache = self.rewrites[0]
        if self.plan is None or not self.model.batches_new_words or len(cache) >= len(texts):
            return
        added = self.tok.added
        words: list[str] = []
        for text in texts:
            check_stop(should_stop)
            if not text:
                continue
            for a, b, found in (added.split_original(text) if added.has_raw
                                else [(0, len(text), None)]):
                if found is not None:
                    continue
                nt = self.normalize(text[a:b] if (a, b) != (0, len(text)) else text)[0]
                piece = nt.text
                first = bisect.bisect_right(nt.starts, 0) if a == 0 else 0
                for c, d, found in (added.split_normalized(piece) if added.has_normalized
                                    else [(0, len(piece), None)]):
                    split = None if found is not None or c == d else self.plan(
                        self, piece[c:d], max(first - c, 0))
                    if split is not None and not split[2]:
                        words += split[0]
        cache.prefetch(words, should_stop)

    # -- one text ---------------------------------------------------------------------------

    def encode(self, text: str, add_special_tokens: bool) -> Any:
        """The Encoding of ``text``, or None when the fast path does not cover it (the
        caller then uses ``encode``). O(n) for n code points plus one model call per word
        never seen before."""
        tok = self.tok
        if self.plan is None or len(text) >= SMALL_TEXT:
            return None
        if not tok.added.has_raw:
            return self.encode_whole(text, *self.normalize(text), add_special_tokens)
        tokens: list[str] = []
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        word_ids: list[int | None] = []
        normalized = self._encode_segments(text, tokens, ids, offsets, word_ids)
        if normalized is None:
            return None
        return build_encoding(tok, text, normalized, tokens, ids, offsets, word_ids,
                              add_special_tokens)

    def encode_whole(self, text: str, normalized: NormalizedText, identity: bool,
                     add_special_tokens: bool) -> Any:
        """:meth:`encode` of a short text in which no added token is matched before
        normalization (one piece), given its :meth:`normalize` result."""
        tok = self.tok
        tokens: list[str] = []
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        word_ids: list[int | None] = []
        if not self._encode_piece(normalized, identity, 0, tokens, ids, offsets, word_ids):
            return None
        return build_encoding(tok, text, normalized, tokens, ids, offsets, word_ids,
                              add_special_tokens)

    def _encode_segments(self, text, tokens, ids, offsets, word_ids):
        """The pieces between added tokens matched in the original text (as
        ``Tokenizer.encode``); their joined NormalizedText, None if one is not covered."""
        parts = []
        for a, b, added in self.tok.added.split_original(text):
            if added is not None:
                _emit_added(added, text[a:b], (a, b), tokens, ids, offsets, word_ids)
                parts.append((a, NormalizedText.identity(text[a:b])))
                continue
            nt, identity = self.normalize(text if (a, b) == (0, len(text)) else text[a:b])
            if not self._encode_piece(nt, identity, a, tokens, ids, offsets, word_ids):
                return None
            parts.append((a, nt))
        if len(parts) == 1 and parts[0][0] == 0:
            return parts[0][1]
        return NormalizedText.concat(text, parts)

    def normalize(self, piece: str) -> tuple[NormalizedText, bool]:
        """The piece's NormalizedText and whether its map is the identity (a normalizer
        that changes nothing returns the NormalizedText it was given; a one-to-one rewrite
        shares its columns)."""
        n = len(piece)
        if self._translate is None:
            nt = NormalizedText.identity(piece)
            if self.tok.normalizer is None:
                return nt, True
            out = self.tok.normalizer.normalize(nt)
            # (a one-to-one rewrite, as Gemma's " " -> "▁", keeps the identity's columns)
            return out, out is nt or (out.starts is nt.starts and out.ends is nt.ends)
        new, source = self._translate(piece)
        if source is None:
            return NormalizedText(piece, new, list(range(n)), list(range(1, n + 1))), True
        return NormalizedText(piece, new, source, [i + 1 for i in source]), False

    def _encode_piece(self, nt, identity, shift, tokens, ids, offsets, word_ids) -> bool:
        """Append the tokens of one normalized piece (as the stages of ``Tokenizer.encode``);
        False when the fast path cannot split it. O(tokens) list work."""
        added = self.tok.added
        text = nt.text
        if not text:
            return True
        first = bisect.bisect_right(nt.starts, 0) if shift == 0 else 0
        if not added.has_normalized:
            split = self.plan(self, text, first)
            if split is None:
                return False
            if split[0]:
                self._emit_words(nt, identity, shift, split, word_ids[-1] + 1 if word_ids else 0,
                                 tokens, ids, offsets, word_ids)
            return True
        wid = word_ids[-1] + 1 if word_ids else 0
        for a, b, tok in added.split_normalized(text):
            if tok is not None:
                s, e = nt.to_original(a, b)
                _emit_added(tok, text[a:b], (s + shift, e + shift), tokens, ids, offsets,
                            word_ids, wid)
                wid += 1
                continue
            split = self.plan(self, text[a:b] if (a, b) != (0, len(text)) else text,
                               max(first - a, 0))
            if split is None:
                return False
            keys, starts, shifted = split
            if not keys:
                continue
            if a:
                split = keys, [s + a for s in starts], shifted
            self._emit_words(nt, identity, shift, split, wid, tokens, ids, offsets, word_ids)
            wid += len(keys)
        return True

    def _emit_words(self, nt, identity, shift, split, wid, tokens, ids, offsets,
                    word_ids) -> None:
        """Tokens, ids, word ids and original spans of the words' cached pieces.
        O(tokens), in C-level chains."""
        keys, starts, shifted = split
        if self.plan is _plain:
            pieces = self.model.tokenize_words(keys)
        elif shifted == ALL:
            pieces = list(map(self.rewrites[1].__getitem__, keys))
        else:
            pieces = list(map(self.rewrites[0].__getitem__, keys))
            if shifted:
                pieces[0] = self.rewrites[1][keys[0]]
        toks, tids, rel_lo, rel_hi = zip(*pieces)
        counts = list(map(len, tids))
        tokens += chain.from_iterable(toks)
        ids += chain.from_iterable(tids)
        word_ids += chain.from_iterable(map(repeat, range(wid, wid + len(keys)), counts))
        base = list(chain.from_iterable(map(repeat, starts, counts)))
        lo = map(add, base, chain.from_iterable(rel_lo))
        hi = map(add, base, chain.from_iterable(rel_hi))
        if identity:
            if shift:
                offsets += zip([x + shift for x in lo], [y + shift for y in hi])
            else:
                offsets += zip(lo, hi)
        else:
            offsets += _mapped_spans(nt, lo, hi, shift)


class _Rewrites(dict):
    """Source word -> ``(tokens, ids, lo, hi)``: the model's tokens of the word rewritten
    (its byte-level spelling for ByteLevel; for Metaspace the word itself, ``▁`` included)
    with each token's normalized span relative to the word's start (``lo <= hi``).
    ``shifted``: the word's first character was prepended and stands for the next one.
    Computed on a miss (O(len(word))) and kept; cleared at :data:`MAX_CACHED` words."""

    def __init__(self, model: Any, byte_level: bool, shifted: int):
        super().__init__()
        self.model, self.byte_level, self.shifted = model, byte_level, shifted

    def __missing__(self, word: str) -> tuple:
        shifted = self.shifted
        ascii_ = word.isascii()
        if self.byte_level:
            model_word = bytes_to_byte_level(word.encode("utf-8", "surrogatepass"))
            char_of = range(len(word)) if ascii_ else list(chain.from_iterable(
                map(repeat, range(len(word)), map(_UTF8_LENGTH.__getitem__, word))))
        else:
            model_word, char_of = word, range(len(word))
        piece = self.model.tokenize_word(model_word)
        toks, ids, starts, ends = piece
        if all(map(lt, starts, ends)):  # no empty token
            if ascii_ or not self.byte_level:  # one character per symbol
                if not shifted:
                    return self._keep(word, piece)
                if max(ends, default=0) <= len(word):
                    # the prepended first symbol is normalized [0, 1) with the next one
                    lo = tuple([a - 1 if a else 0 for a in starts])
                    hi = tuple([b - 1 if b > 1 else 1 for b in ends])
                    return self._keep(word, (toks, ids, lo, hi))
            elif not shifted:
                lo = tuple(map(char_of.__getitem__, starts))
                hi = tuple(char_of[b - 1] + 1 for b in ends)
                return self._keep(word, (toks, ids, lo, hi))
        lo_map = [max(k - shifted, 0) for k in char_of]
        hi_map = [max(k + 1 - shifted, 1) for k in char_of]
        last = len(model_word) - 1
        lo, hi = [], []
        for a, b in zip(starts, ends):  # pipeline.spans_in_text, for one word
            x = lo_map[min(a, last)]
            if b <= a:
                x = hi_map[last] if a > last else x
                y = x
            else:
                y = max(hi_map[min(max(b - 1, 0), last)], x)
            lo.append(x)
            hi.append(y)
        return self._keep(word, (toks, ids, tuple(lo), tuple(hi)))

    def prefetch(self, words: list[str],
                 should_stop: Callable[[], bool] | None = None) -> None:
        """Let the model see the ``words`` not yet kept all at once (its
        ``prefetch_words``: BPE merges many new words together, Unigram walks their
        lattices together) before they are looked up one by one. Skipped unless
        :func:`~core.tokenizers.models.base.mostly_new` (a warm cache: nothing to gain).
        O(W) for W words plus the model's work."""
        if not mostly_new(words, self):
            return
        new = [w for w in dict.fromkeys(words) if w not in self]
        if len(new) < 64:
            return
        model_words = ([bytes_to_byte_level(w.encode("utf-8", "surrogatepass")) for w in new]
                       if self.byte_level else new)
        self.model.prefetch_words(model_words, should_stop)
        check_stop(should_stop)
        if self.model.batches_new_words and not (self.shifted and self.byte_level):
            short = [k for k, w in enumerate(new) if len(w) < MAX_CACHED_WORD]
            self._keep_many([new[k] for k in short], [model_words[k] for k in short])

    def pieces(self, words: list[str],
               should_stop: Callable[[], bool] | None = None) -> list[tuple]:
        """The kept pieces of ``words`` (computed where missing), ``should_stop`` asked
        before every :data:`STOP_CHECK_PIECES` words. O(W) look-ups."""
        return map_stoppable(self.__getitem__, words, should_stop, STOP_CHECK_PIECES)

    def flat(self, words: list[str], should_stop: Callable[[], bool] | None = None) -> None:
        """None: rewritten words are looked up as pieces (:meth:`prefetch`, :meth:`pieces`)."""
        return None

    def _keep_many(self, words: list[str], model_words: list[str]) -> None:
        """Keep the rewritten pieces of many words at once (as :meth:`__missing__`
        computes them one by one), unshifted or not byte-level: byte spans mapped to
        character spans in numpy over the joined words; the prepended first symbol of a
        shifted word given the span [0, 1) of the character it stands for. Words with an
        empty token are left to :meth:`__missing__`. O(W + T) for W words of T tokens,
        plus the model's :meth:`tokenize_word` per word (cached by :meth:`prefetch`)."""
        if not words:
            return
        if len(self) + len(words) > MAX_CACHED:
            self.clear()
        toks, ids, starts, ends = zip(*map(self.model.tokenize_word, model_words))
        counts = np.fromiter(map(len, ids), np.int64, len(ids))
        total = int(counts.sum())
        word_of = np.repeat(np.arange(len(words)), counts)
        lo = np.fromiter(chain.from_iterable(starts), np.int64, total)
        hi = np.fromiter(chain.from_iterable(ends), np.int64, total)
        full = np.bincount(word_of, weights=lo >= hi, minlength=len(words)) == 0
        if self.byte_level:  # byte spans → spans of the word's characters
            joined = "".join(words)
            code = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), np.uint32)
            width = 1 + (code >= 0x80) + (code >= 0x800) + (code >= 0x10000)
            char_of = np.repeat(np.arange(len(joined)), width)
            n_bytes = np.fromiter(map(len, model_words), np.int64, len(words))
            n_chars = np.fromiter(map(len, words), np.int64, len(words))
            byte_base = (np.cumsum(n_bytes) - n_bytes)[word_of]
            char_base = (np.cumsum(n_chars) - n_chars)[word_of]
            last = len(char_of) - 1
            lo, hi = (char_of[np.minimum(lo + byte_base, last)] - char_base,
                      char_of[np.clip(hi - 1 + byte_base, 0, last)] + 1 - char_base)
        elif self.shifted:  # one character per symbol, the first one prepended
            lo, hi = np.maximum(lo - 1, 0), np.maximum(hi - 1, 1)
        bounds = np.concatenate(([0], np.cumsum(counts))).tolist()
        lo_list, hi_list = lo.tolist(), hi.tolist()
        keep = np.flatnonzero(full).tolist()
        cuts = [slice(bounds[k], bounds[k + 1]) for k in keep]
        self.update(zip(map(words.__getitem__, keep),
                        zip(map(toks.__getitem__, keep), map(ids.__getitem__, keep),
                            map(tuple, map(lo_list.__getitem__, cuts)),
                            map(tuple, map(hi_list.__getitem__, cuts)))))

    def _keep(self, word: str, out: tuple) -> tuple:
        if len(word) < MAX_CACHED_WORD:
            if len(self) >= MAX_CACHED:
                self.clear()
            self[word] = out
        return out


class _Utf8Length(dict):
    """Character -> its bytes in UTF-8 (a lone surrogate: 3, as ``surrogatepass``), kept
    so that a known character costs a C-level look-up; cleared at 65,536 characters."""

    def __missing__(self, ch: str) -> int:
        if len(self) >= 65_536:
            self.clear()
        code = ord(ch)
        n = self[ch] = 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
        return n


_UTF8_LENGTH = _Utf8Length()


def _mapped_spans(nt, lo, hi, shift):
    """``(start, end)`` original code points of normalized spans ``[lo, hi)`` through the
    piece's offset map (as ``builder.original_spans``: an empty span sits at its start),
    as an iterable. O(tokens), in C-level maps when no span is empty."""
    starts, ends = nt.starts, nt.ends
    lo, hi = list(lo), list(hi)
    if all(map(lt, lo, hi)):
        s = map(starts.__getitem__, lo)
        e = map([0, *ends].__getitem__, hi)  # ends[y - 1]
        if shift:
            return zip(map(shift.__add__, s), map(shift.__add__, e))
        return zip(s, e)
    out = []
    for x, y in zip(lo, hi):
        if y > x:
            out.append((starts[x] + shift, ends[y - 1] + shift))
        else:
            s, e = nt.to_original(x, x)
            out.append((s + shift, e + shift))
    return out


def _emit_added(tok, surface, span, tokens, ids, offsets, word_ids, wid=None) -> None:
    """Append an added token (its string the matched text, as ``encode`` reports it)."""
    if wid is None:
        wid = word_ids[-1] + 1 if word_ids else 0
    tokens.append(surface)
    ids.append(tok.id)
    offsets.append(span)
    word_ids.append(wid)


# -- how each pre-tokenizer is split into cacheable words ---------------------------------------
#
# A plan takes (encoder, normalized text, first bound) and returns (keys, starts, shifted):
# for _plain the words themselves (the model caches them), for the others the source words
# of the _Rewrites caches, with which of them had a character prepended (0: none, FIRST:
# the first, ALL: every one); or None when this text must go through Tokenizer.encode.


def _plain(enc: BatchEncoder, text: str, first: int) -> Split | None:
    pre = enc.tok.pre_tokenizer
    if pre is None:
        return ([text], [0], 0) if text else ([], [], 0)
    words, starts = pre.split(text)
    return words, starts, 0


def _tiling(pieces: list[str], pfx: int) -> Split:
    """Pieces tiling a text with ``pfx`` characters prepended (the first piece holds
    them), with their normalized starts."""
    starts = list(accumulate(map(len, pieces[:-1]), initial=0))
    if pfx:
        return pieces, [max(s - pfx, 0) for s in starts], FIRST
    return pieces, starts, 0


def _byte_level(enc: BatchEncoder, text: str, first: int) -> Split | None:
    if not text:
        return [], [], 0
    return _tiling(*enc.tok.pre_tokenizer.source_pieces(text))


def _metaspace(enc: BatchEncoder, text: str, first: int) -> Split | None:
    if not text:
        return [], [], 0
    return _tiling(*enc.tok.pre_tokenizer.source_pieces(text, first))


def _then_meta(enc: BatchEncoder, text: str, first: int) -> Split | None:
    *plain, meta = enc.tok.pre_tokenizer.pre_tokenizers
    words, starts = _plain_stages(plain, text)
    rep = meta.replacement
    joined = "".join(words)
    if " " in joined or rep in joined:
        return None
    scheme = meta.prepend_scheme
    if scheme == "always":
        return [rep + w for w in words], starts, ALL
    if scheme == "first" and words and starts[0] < first:
        return [rep + words[0]] + words[1:], starts, FIRST
    return words, starts, 0


def _then_bytes(enc: BatchEncoder, text: str, first: int) -> Split | None:
    *plain, _ = enc.tok.pre_tokenizer.pre_tokenizers
    words, starts = _plain_stages(plain, text)
    return words, starts, 0


def _plain_stages(stages, text: str) -> Split:
    """Words and starts after non-rewriting Sequence members (as ``Sequence.split_mapped``)."""
    if len(stages) == 1 and text:
        return stages[0].split(text)
    words, starts = ([text], [0]) if text else ([], [])
    for p in stages:
        nw: list[str] = []
        ns: list[int] = []
        for word, base in zip(words, starts):
            w2, s2 = p.split(word)
            nw += w2
            ns += [base + s for s in s2]
        words, starts = nw, ns
    return words, starts


class _ModelWords:
    """The words of a plain plan (handed to the model as they are) seen as a bulk cache:
    the model's own word cache, asked for many words at once. (Two threads batching on one
    tokenizer may take each other's uncached pieces: a word's piece is the same whoever
    computed it.)"""

    def __init__(self, model: Any):
        self.model = model
        self._uncached: dict = {}  # pieces the last prefetch computed but could not cache

    def prefetch(self, words: list[str],
                 should_stop: Callable[[], bool] | None = None) -> None:
        """The model's ``prefetch_words`` (BPE merges many new words together); the pieces
        it returns (words too long for its cache) are kept for :meth:`pieces`."""
        self._uncached = self.model.prefetch_words(words, should_stop) or {}

    def flat(self, words: list[str], should_stop: Callable[[], bool] | None = None
             ) -> tuple | None:
        """The model's ``tokenize_flat`` of ``words`` — ``(tokens, ids, counts, starts,
        ends)`` laid end to end, when most of them are new (a cold batch: no per-word
        pieces built and laid out again) — or None (then :meth:`prefetch` and
        :meth:`pieces`)."""
        return self.model.tokenize_flat(words, should_stop)

    def pieces(self, words: list[str],
               should_stop: Callable[[], bool] | None = None) -> list[tuple]:
        """``(tokens, ids, starts, ends)`` per word, spans relative to the word: the last
        prefetch's uncached pieces (then forgotten), the model's ``tokenize_words`` for
        the rest (``should_stop`` given to it). O(W) look-ups besides the model's work."""
        kept, self._uncached = self._uncached, {}
        if not kept:
            return self.model.tokenize_words(words, should_stop)
        rest = iter(self.model.tokenize_words([w for w in words if w not in kept], should_stop))
        return [kept[w] if w in kept else next(rest) for w in words]


def _bulk_cache(enc: BatchEncoder) -> "_Rewrites | _ModelWords | None":
    """The cache of the words of texts encoded together
    (:func:`~core.tokenizers.batch_bulk.encode_chunk`): for a rewriting plan the shifted
    rewritten-word cache when the plan prepends to every word, else the unshifted one; for
    the plain plan the model's own (:class:`_ModelWords`); None for the other plans
    (texts then go one at a time)."""
    plan = enc.plan
    if plan is _plain:
        return _ModelWords(enc.model)
    if plan is _then_meta and enc.tok.pre_tokenizer.pre_tokenizers[-1].prepend_scheme == "always":
        return enc.rewrites[1]
    if plan in (_byte_level, _metaspace, _then_meta, _then_bytes):
        return enc.rewrites[0]
    return None


_PLANS = {"plain": _plain, "byte_level": _byte_level, "metaspace": _metaspace,
          "then_meta": _then_meta, "then_bytes": _then_bytes}


def _plan(pre: Any):
    """The split function for this pre-tokenizer (what its ``batch_split`` says it
    allows), None when the fast path does not cover it."""
    return _plain if pre is None else _PLANS.get(pre.batch_split)
