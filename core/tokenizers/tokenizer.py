"""The tokenizer pipeline: added tokens -> normalizer -> pre-tokenizer -> model -> post-processor.

Offsets are tracked all the way through: the normalizer yields a
:class:`core.text.normalize.NormalizedText` (normalized character -> original span), the
pre-tokenizer yields words with normalized spans, the model yields word-relative spans, and
the two maps compose into original code-point spans, as the ``tokenizers`` library reports.
"""

from __future__ import annotations

import bisect
from itertools import chain
from operator import itemgetter
from typing import Any, Callable, Iterator, Protocol, Sequence

import numpy as np

from core.collector import collector_paused
from core.text.columns import OptionalIntArray, SpanArray
from core.errors import check_stop
from core.text.normalize import NormalizedText
from core.tokenizers.added_tokens import AddedToken, AddedVocabulary
from core.tokenizers.batch import BatchEncoder
from core.tokenizers.decoding import DecodedPiece, decode, decode_pieces
from core.tokenizers.encoding import COMPACT_TOKENS, Encoding
from core.tokenizers.models.base import Piece
from core.tokenizers.normalizers.base import Normalizer
from core.tokenizers.pre_tokenizers.base import PreTokenizer
from core.tokenizers.processors.base import PostProcessor
from core.tokenizers.token_rules import TokenRules, rules_for


class Model(Protocol):
    """What the pipeline needs from a model (WordPiece, BPE, Unigram, WordLevel)."""

    type_name: str
    vocab: dict[str, int]
    unk_token: str | None

    def tokenize_word(self, word: str) -> Piece: ...

    def tokenize_words(self, words: list[str]) -> list[Piece]: ...

    def describe(self) -> dict[str, Any]: ...


class Tokenizer:
    """A loaded tokenizer.

    Parameters
    ----------
    name : str
        Shown to the user (usually the file or folder name).
    model : Model
    normalizer, pre_tokenizer, post_processor : optional components
    added_tokens : list[AddedToken]
    padding, truncation : dict or None
        The file's settings, reported by :meth:`describe`, never applied.
    source : dict
        Where it came from (``{"format": ..., "path": ...}``).
    byte_level : bool or None
        Tokens are in GPT-2's byte alphabet (default: the pre-tokenizer or the normalizer
        contains a ByteLevel step). Sets :attr:`is_byte_level` and ``Encoding.byte_level``.
    """

    def __init__(self, *, name: str, model: Model, normalizer: Normalizer | None = None,
                 pre_tokenizer: PreTokenizer | None = None,
                 post_processor: PostProcessor | None = None,
                 added_tokens: list[AddedToken] | None = None, padding: dict | None = None,
                 truncation: dict | None = None, source: dict | None = None,
                 byte_level: bool | None = None):
        self.name = name
        self.model = model
        self.normalizer = normalizer
        self.pre_tokenizer = pre_tokenizer
        self.post_processor = post_processor
        self.added = AddedVocabulary(added_tokens or [])
        self.padding, self.truncation = padding, truncation
        self.source = dict(source or {})
        self._vocab = dict(model.vocab)
        for t in self.added.tokens:
            self._vocab.setdefault(t.content, t.id)
        self._inverse = {i: t for t, i in model.vocab.items()}
        self.is_byte_level = bool(byte_level) if byte_level is not None else (
            _has_byte_level(pre_tokenizer, "pre_tokenizers")
            or _has_byte_level(normalizer, "normalizers"))
        for t in self.added.tokens:
            self._inverse[t.id] = t.content

    #: Token strings back to text (set by the loader; None: joined with spaces, as the
    #: reference does without a decoder); ``strict_ids``: unknown ids raise instead of
    #: being skipped (tiktoken, SentencePiece). See :mod:`core.tokenizers.decoding`.
    decoder: Any = None
    strict_ids: bool = False

    def decode(self, ids, *, skip_special_tokens: bool = True) -> str:
        """The text ``ids`` stand for, as the format's reference library decodes them
        (:func:`core.tokenizers.decoding.decode`; raises ``UnknownIdError`` there)."""
        return decode(self, ids, skip_special_tokens=skip_special_tokens)

    def decode_pieces(self, ids, *, skip_special_tokens: bool = True) -> list[DecodedPiece]:
        """Per id, its share of :meth:`decode`'s text and the bytes of characters it holds
        only partly (:func:`core.tokenizers.decoding.decode_pieces`)."""
        return decode_pieces(self, ids, skip_special_tokens=skip_special_tokens)

    # -- vocabulary ---------------------------------------------------------------------

    @property
    def model_type(self) -> str:
        """``"WordPiece"``, ``"BPE"``, ``"Unigram"`` or ``"WordLevel"``."""
        return self.model.type_name

    @property
    def vocab_size(self) -> int:
        """Number of distinct tokens, added tokens included (like ``get_vocab_size()``)."""
        return len(self._vocab)

    @property
    def unk_token(self) -> str | None:
        return getattr(self.model, "unk_token", None)

    @property
    def special_tokens(self) -> list[str]:
        """Contents of the added tokens marked special, in file order."""
        return [t.content for t in self.added.tokens if t.special]

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, id_: int) -> str | None:
        return self._inverse.get(id_)

    def describe(self) -> dict[str, Any]:
        """Every component with its settings, plus the file's padding and truncation
        (shown, never applied) and whether tokens are byte-level."""
        def show(c):
            return None if c is None else c.describe()
        return {
            "name": self.name, **self.source, "model": self.model.describe(),
            "normalizer": show(self.normalizer), "pre_tokenizer": show(self.pre_tokenizer),
            "post_processor": show(self.post_processor), "decoder": show(self.decoder),
            "added_tokens": [dict(vars(t)) for t in self.added.tokens],
            "padding": self.padding, "truncation": self.truncation,
            "vocab_size": self.vocab_size, "byte_level": self.is_byte_level,
        }

    @property
    def token_rules(self) -> TokenRules:
        """What this tokenizer's tokens stand for (unknown id, byte-fallback pieces,
        markers), read off the model and pipeline on first use and kept."""
        rules = self.__dict__.get("_token_rules")
        if rules is None:
            rules = self.__dict__["_token_rules"] = rules_for(self)
        return rules

    # -- pipeline -----------------------------------------------------------------------

    def _normalize_piece(self, piece: str) -> NormalizedText:
        nt = NormalizedText.identity(piece)
        return self.normalizer.normalize(nt) if self.normalizer else nt

    def _pieces(self, text: str) -> Iterator[tuple[str, Any, Any]]:
        """Yield ``("added", (start, end), token)`` and ``("text", shift, NormalizedText)``."""
        segments = self.added.split_original(text) if self.added.has_raw else (
            [(0, len(text), None)] if text else [])
        for a, b, tok in segments:
            if tok is not None:
                yield "added", (a, b), tok
            else:
                yield "text", a, self._normalize_piece(text[a:b] if (a, b) != (0, len(text)) else text)

    def _words(self, nt: NormalizedText, first: bool = True) -> Iterator[tuple[str, Any, Any]]:
        """Yield ``("added", (ns, ne), token)`` and ``("words", 0, (words, starts, maps))``
        of a piece: starts are normalized code points within ``nt.text``; ``maps`` is None
        or the flat ``(lo, hi)`` normalized spans of every character of the (rewritten)
        words (see :meth:`PreTokenizer.split_mapped`). ``first``: the piece starts the
        original text (Metaspace's ``prepend_scheme="first"``). A split counts as the start
        of the original text when its *original* offset is 0, as in the reference: so the
        bound passed on is how many leading normalized characters come from offset 0
        (e.g. "¯" normalizes to " \u0304" and the split "\u0304" still starts it)."""
        segs = self.added.split_normalized(nt.text) if self.added.has_normalized else (
            [(0, len(nt.text), None)] if nt.text else [])
        pre = self.pre_tokenizer
        first = (bisect.bisect_right(nt.starts, 0) if nt.text else 1) if first else 0
        for a, b, tok in segs:
            if tok is not None:
                yield "added", (a, b), tok
            elif pre is None:
                yield "words", 0, ([nt.text[a:b]], [a], None)
            elif (a, b) == (0, len(nt.text)):
                yield "words", 0, pre.split_mapped(nt.text, first)
            else:
                words, starts, maps = pre.split_mapped(nt.text[a:b], max(first - a, 0))
                if maps is not None:
                    maps = (maps[0] + a, maps[1] + a)
                yield "words", 0, (words, [s + a for s in starts], maps)

    def normalize(self, text: str) -> NormalizedText:
        """The whole normalized text; added tokens found in it are kept verbatim."""
        parts = []
        for kind, where, val in self._pieces(text):
            if kind == "added":
                parts.append((where[0], NormalizedText.identity(text[where[0]:where[1]])))
            else:
                parts.append((where, val))
        if len(parts) == 1 and parts[0][0] == 0:
            return parts[0][1]
        return NormalizedText.concat(text, parts)

    def pre_tokenize(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Pre-tokenized words with their ORIGINAL code-point spans (added tokens included)."""
        out: list[tuple[str, tuple[int, int]]] = []
        for kind, where, val in self._pieces(text):
            if kind == "added":
                out.append((val.content, where))
                continue
            for k2, w2, v2 in self._words(val, where == 0):
                if k2 == "added":
                    a, b = val.to_original(*w2)
                    out.append((v2.content, (a + where, b + where)))
                    continue
                for word, s, e in _word_spans(*v2):
                    a, b = val.to_original(s, max(s, e))
                    out.append((word, (a + where, b + where)))
        return out

    def encode(self, text: str, *, add_special_tokens: bool = False,
               should_stop: Callable[[], bool] | None = None) -> Encoding:
        """Encode ``text``; offsets are code points into ``text``.

        Parameters
        ----------
        text : str
            Any string (lone surrogates and control characters included).
        add_special_tokens : bool
            Apply the post-processor's template (``[CLS] … [SEP]`` for BERT).
        should_stop : callable, optional
            Asked after normalizing and pre-tokenizing each piece of text and before every
            :data:`STOP_CHECK_WORDS` words the model tokenizes (every :data:`FLAT_CHUNK`
            words where it merges many new words together); True stops the encoding.

        Returns
        -------
        Encoding
            ``n`` tokens with ids, original code-point offsets, word ids, special-tokens
            mask, type ids and the whole normalized text. The file's padding and
            truncation settings are not applied.

        Raises
        ------
        TypeError
            If ``text`` is not a ``str``.
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        check_stop(should_stop)
        with collector_paused():  # many small tuples, no cycles (see core.collector)
            return self._encode(text, add_special_tokens, should_stop)

    def _encode(self, text: str, add_special_tokens: bool,
                should_stop: Callable[[], bool] | None) -> Encoding:
        tokens: list[str] = []
        ids: list[int] = []
        # long texts gather offsets and word ids as numpy chunks (no tuple per token)
        offsets: Any = [] if len(text) < COLUMN_CHARS else _Chunks()
        word_ids: Any = [] if len(text) < COLUMN_CHARS else _Chunks()
        parts = []
        for kind, where, val in self._pieces(text):
            if kind == "added":
                wid = word_ids[-1] + 1 if word_ids else 0
                _emit_added(val, text[where[0]:where[1]], where, wid, tokens, ids, offsets,
                            word_ids)
                parts.append((where[0], NormalizedText.identity(text[where[0]:where[1]])))
            else:
                check_stop(should_stop)
                parts.append((where, val))
                self._encode_piece(val, where, tokens, ids, offsets, word_ids, should_stop)
        if len(parts) == 1 and parts[0][0] == 0:
            normalized = parts[0][1]
        else:
            normalized = NormalizedText.concat(text, parts)
        if type(offsets) is _Chunks:
            return self._post_process_columns(text, tokens, ids, offsets, word_ids, normalized,
                                              add_special_tokens)
        if self.post_processor is not None:
            self.post_processor.adjust(text, tokens, offsets)
        return self._post_process(tokens, ids, offsets, word_ids, normalized, add_special_tokens)

    def encode_batch(self, texts: Sequence[str], *, add_special_tokens: bool = False,
                     should_stop: Callable[[], bool] | None = None) -> list[Encoding]:
        """:meth:`encode` of every text, equal field for field, without its per-call
        set-up: short texts take the list-based path of :mod:`core.tokenizers.batch`
        (a word cache kept across calls), long ones go through :meth:`encode`.

        Parameters
        ----------
        texts : sequence of str
            Any strings (empty ones and lone surrogates included); not a single ``str``.
        add_special_tokens : bool
            As in :meth:`encode`.
        should_stop : callable, optional
            Asked before every text (and inside long ones, as :meth:`encode` asks).

        Returns
        -------
        list[Encoding]
            One per text, in order. O(total code points) plus one model call per word
            never seen before.

        Raises
        ------
        TypeError
            If ``texts`` is a ``str`` or an item is not a ``str`` (naming its index); raised
            before anything is encoded.
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        texts = check_texts(texts)
        fast = self.__dict__.get("_batch")
        if fast is None:
            fast = self.__dict__["_batch"] = BatchEncoder(self)
        out: list[Encoding] = []
        with collector_paused():
            for text, enc in zip(texts, fast.encode_many(texts, add_special_tokens, should_stop)):
                out.append(enc if enc is not None else self.encode(
                    text, add_special_tokens=add_special_tokens, should_stop=should_stop))
        return out

    def _encode_piece(self, nt, shift, tokens, ids, offsets, word_ids, should_stop=None) -> None:
        wid = word_ids[-1] + 1 if word_ids else 0
        maps = None
        for kind, where, val in self._words(nt, shift == 0):
            if kind == "added":
                a, b = nt.to_original(*where)
                _emit_added(val, nt.text[where[0]:where[1]], (a + shift, b + shift), wid,
                            tokens, ids, offsets, word_ids)
                wid += 1
                continue
            words, starts, char_maps = val
            if not words:
                continue
            if maps is None:
                maps = nt.arrays()
            flat = getattr(self.model, "tokenize_flat", None)
            if flat is not None and len(words) >= STOP_CHECK_WORDS:
                self._encode_flat(flat, nt, maps, shift, words, starts, char_maps, wid,
                                  tokens, ids, offsets, word_ids, should_stop)
                wid += len(words)
                continue
            char_at = 0
            for i in range(0, len(words), WORD_CHUNK):  # bounded C calls: the GIL is freed between
                chunk, chunk_starts, chunk_maps = words, starts, char_maps
                if len(words) > WORD_CHUNK:
                    chunk, chunk_starts = words[i:i + WORD_CHUNK], starts[i:i + WORD_CHUNK]
                if char_maps is not None and len(words) > WORD_CHUNK:
                    n_chars = sum(map(len, chunk))
                    chunk_maps = (char_maps[0][char_at:char_at + n_chars],
                                  char_maps[1][char_at:char_at + n_chars])
                    char_at += n_chars
                pieces = self._tokenize_words(chunk, should_stop)
                counts = list(map(len, map(_IDS, pieces)))
                tokens += chain.from_iterable(map(_TOKENS, pieces))
                ids += chain.from_iterable(map(_IDS, pieces))
                _add_word_ids(word_ids, np.repeat(np.arange(wid, wid + len(chunk)), counts))
                wid += len(chunk)
                _add_spans(offsets, *_piece_offsets(nt, maps, chunk, chunk_starts, chunk_maps,
                                                    pieces, counts, shift))

    def _encode_flat(self, flat, nt, maps, shift, words, starts, char_maps, wid, tokens, ids,
                     offsets, word_ids, should_stop) -> None:
        """Many words, :data:`FLAT_CHUNK` at a time (``should_stop`` asked before each):
        the model's ``tokenize_flat`` laid end to end where it applies, its pieces where
        not. O(total characters + tokens) besides the model's merging."""
        char_at = 0
        for i in range(0, len(words), FLAT_CHUNK):
            check_stop(should_stop)
            chunk, chunk_starts = words[i:i + FLAT_CHUNK], starts[i:i + FLAT_CHUNK]
            n_chars = sum(map(len, chunk))
            chunk_maps = None if char_maps is None else (
                char_maps[0][char_at:char_at + n_chars], char_maps[1][char_at:char_at + n_chars])
            char_at += n_chars
            got = flat(chunk, should_stop)
            if got is None:
                pieces = self._tokenize_words(chunk, should_stop)
                counts = list(map(len, map(_IDS, pieces)))
                tokens += chain.from_iterable(map(_TOKENS, pieces))
                ids += chain.from_iterable(map(_IDS, pieces))
                _add_spans(offsets, *_piece_offsets(nt, maps, chunk, chunk_starts, chunk_maps,
                                                    pieces, counts, shift))
            else:
                chunk_tokens, chunk_ids, counts, rel_a, rel_b = got
                tokens += chunk_tokens
                ids += chunk_ids
                lo, hi = _spans_from_arrays(chunk, chunk_starts, chunk_maps, counts, rel_a,
                                            rel_b)
                _add_spans(offsets, *_original_spans(nt, maps, lo, hi, shift))
            _add_word_ids(word_ids, np.repeat(np.arange(wid + i, wid + i + len(chunk)), counts))

    def _tokenize_words(self, words: list[str], should_stop: Callable[[], bool] | None) -> list:
        """The model's pieces of ``words``, asking ``should_stop`` before every
        :data:`STOP_CHECK_WORDS` words. O(len(words)) model calls, in chunks."""
        check_stop(should_stop)
        if should_stop is None or len(words) <= STOP_CHECK_WORDS:
            return self.model.tokenize_words(words, should_stop)
        out: list = []
        for i in range(0, len(words), STOP_CHECK_WORDS):
            check_stop(should_stop)
            out += self.model.tokenize_words(words[i:i + STOP_CHECK_WORDS], should_stop)
        return out

    def _post_process(self, tokens, ids, offsets, word_ids, normalized, add_special) -> Encoding:
        n = len(ids)
        if not add_special or self.post_processor is None:
            return Encoding(tokens, ids, offsets, word_ids, [0] * n, normalized, [0] * n,
                            self.is_byte_level, self.token_rules)
        out = ([], [], [], [], [], [])
        for item in self.post_processor.single_template():
            if item[0] == "sequence":
                parts = (tokens, ids, offsets, word_ids, [0] * n, [item[1]] * n)
            else:
                _, stoks, sids, type_id = item
                k = len(sids)
                parts = (stoks, sids, [(0, 0)] * k, [None] * k, [1] * k, [type_id] * k)
            for acc, part in zip(out, parts):
                acc += part
        t, i, o, w, m, ty = out
        return Encoding(t, i, o, w, m, normalized, ty, self.is_byte_level, self.token_rules)

    def _post_process_columns(self, text, tokens, ids, offsets, word_ids, normalized,
                              add_special) -> Encoding:
        """:meth:`_post_process` (and the post-processor's offset edits) of offsets and word
        ids gathered as :class:`_Chunks`: the Encoding gets compact columns (lists below
        :data:`COMPACT_TOKENS` tokens, as :meth:`_post_process` gives them). O(tokens)."""
        starts, ends = offsets.columns(2)
        (wids,) = word_ids.columns(1)
        post = self.post_processor
        if post is not None:
            post.adjust_arrays(text, tokens, starts, ends)
        n = len(ids)
        missing = 0
        if not add_special or post is None:
            mask, types = [0] * n, [0] * n
        else:
            out: tuple[list, ...] = ([], [], [], [])
            cols: tuple[list, ...] = ([], [], [])
            for item in post.single_template():
                if item[0] == "sequence":
                    parts = (tokens, ids, [0] * n, [item[1]] * n)
                    arrays = (starts, ends, wids)
                else:
                    _, stoks, sids, type_id = item
                    k = len(sids)
                    parts = (stoks, sids, [1] * k, [type_id] * k)
                    arrays = (np.zeros(k, np.int64), np.zeros(k, np.int64), np.full(k, -1, np.int64))
                    missing += k
                for acc, part in zip(out, parts):
                    acc += part
                for acc, arr in zip(cols, arrays):
                    acc.append(arr)
            tokens, ids, mask, types = out
            starts, ends, wids = (np.concatenate(c) for c in cols)
        spans: Any = SpanArray(starts, ends, 0)
        word_col: Any = OptionalIntArray(wids, missing)
        if len(ids) < COMPACT_TOKENS:  # as short encodings are: lists
            spans, word_col = list(spans), list(word_col)
        return Encoding(tokens, ids, spans, word_col, mask, normalized, types, self.is_byte_level,
                        self.token_rules)


_TOKENS, _IDS, _STARTS, _ENDS = (itemgetter(k) for k in range(4))
STOP_CHECK_WORDS = 512  # encode asks should_stop before every this many words
FLAT_CHUNK = 4096  # words per model.tokenize_flat call (should_stop is asked between)
WORD_CHUNK = 16384  # words per model.tokenize_words result handled at once (bounded C calls)
COLUMN_CHARS = 32768
"""Texts of at least this many code points gather offsets and word ids as numpy chunks
(:class:`_Chunks`) instead of lists of tuples and ints: about 24 bytes a token instead of
~160, and no per-token objects to free (shorter texts keep lists: cheaper to build)."""


class _Chunks:
    """Rows of ``k`` int64 columns gathered as numpy chunks: what :meth:`Tokenizer._encode`
    builds offsets (``k = 2``) and word ids (``k = 1``) in for long texts. ``len`` and
    ``[-1]`` (the last row: an int, or a tuple of ints) read like the list it replaces;
    :meth:`append` adds one row, :meth:`add` a chunk of columns, :meth:`columns`
    concatenates them (O(rows))."""

    __slots__ = ("parts", "n")

    def __init__(self):
        self.parts: list[tuple[np.ndarray, ...]] = []
        self.n = 0

    def __len__(self) -> int:
        return self.n

    def add(self, *cols: np.ndarray) -> None:
        if len(cols[0]):
            self.parts.append(cols)
            self.n += len(cols[0])

    def append(self, row) -> None:
        row = row if isinstance(row, tuple) else (row,)
        self.add(*(np.array([v], np.int64) for v in row))

    def __getitem__(self, i: int):
        if i != -1 or not self.n:
            raise IndexError("only the last row of a _Chunks can be read")
        last = tuple(int(c[-1]) for c in self.parts[-1])
        return last[0] if len(last) == 1 else last

    def columns(self, k: int) -> tuple[np.ndarray, ...]:
        """The ``k`` columns, each one ``(rows,) int64`` array (fresh, writable)."""
        if not self.parts:
            return tuple(np.zeros(0, np.int64) for _ in range(k))
        return tuple(np.concatenate([np.asarray(p[c], np.int64) for p in self.parts])
                     for c in range(k))


def _add_spans(offsets, starts: np.ndarray, ends: np.ndarray) -> None:
    """Append spans ``(starts[i], ends[i])`` to a list (as tuples of ints) or :class:`_Chunks`."""
    if type(offsets) is list:
        offsets += zip(starts.tolist(), ends.tolist())
    else:
        offsets.add(starts, ends)


def _add_word_ids(word_ids, values: np.ndarray) -> None:
    """Append word ids to a list (as ints) or :class:`_Chunks`."""
    if type(word_ids) is list:
        word_ids += values.tolist()
    else:
        word_ids.add(values)


def check_texts(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list, every item checked to be a ``str``.

    Raises
    ------
    TypeError
        If ``texts`` is itself a ``str`` or not iterable, or an item is not a ``str``
        (the message names the first such index).
    """
    if isinstance(texts, str):
        raise TypeError("texts must be a list of str, not one str (wrap it: [text])")
    try:
        texts = list(texts)
    except TypeError:
        raise TypeError(f"texts must be a list of str, not {type(texts).__name__}") from None
    for k, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"texts[{k}] must be str, not {type(text).__name__}")
    return texts


def _word_spans(words, starts, maps):
    """``(word, normalized start, normalized end)`` of each pre-tokenized word."""
    if maps is None:
        return [(w, s, s + len(w)) for w, s in zip(words, starts)]
    out, k = [], 0
    for w in words:
        n = len(w)
        out.append((w, int(maps[0][k]), int(maps[1][k + n - 1])) if n else (w, 0, 0))
        k += n
    return out


def _normalized_spans(words, starts, char_maps, pieces, counts):
    """Normalized ``(lo, hi)`` of every token of ``pieces`` (numpy over all tokens)."""
    total = sum(counts)
    rel_a = np.fromiter(chain.from_iterable(map(_STARTS, pieces)), np.int64, total)
    rel_b = np.fromiter(chain.from_iterable(map(_ENDS, pieces)), np.int64, total)
    return _spans_from_arrays(words, starts, char_maps, counts, rel_a, rel_b)


def _spans_from_arrays(words, starts, char_maps, counts, rel_a, rel_b):
    """Normalized ``(lo, hi)`` of tokens given by their spans inside their words
    (``rel_a``/``rel_b``, int64 (T,)) and the tokens per word (``counts``). O(T + chars)."""
    if char_maps is None:
        base = np.repeat(np.asarray(starts, dtype=np.int64), counts)
        return base + rel_a, base + rel_b
    # rewritten words: token span [a, b) -> (lo[a], hi[b-1]) through the flat char maps
    lo_map, hi_map = char_maps
    lens = np.fromiter(map(len, words), np.int64, len(words))
    tb = np.repeat(np.cumsum(lens) - lens, counts)
    last = tb + np.maximum(np.repeat(lens, counts) - 1, 0)
    lo = lo_map[np.minimum(tb + rel_a, last)]
    hi = hi_map[np.clip(tb + rel_b - 1, tb, last)]
    empty = rel_b <= rel_a
    if empty.any():
        past = empty & (tb + rel_a > last)
        lo[past] = hi_map[last[past]]
        hi[empty] = lo[empty]
    return lo, hi


def _piece_offsets(nt, maps, words, starts, char_maps, pieces, counts, shift):
    """Original ``(starts, ends)`` of every token of ``pieces`` (numpy over all tokens at once)."""
    lo, hi = _normalized_spans(words, starts, char_maps, pieces, counts)
    return _original_spans(nt, maps, lo, hi, shift)


def _original_spans(nt, maps, lo, hi, shift):
    """``(starts, ends)`` (two ``(T,) int64`` arrays) in the original text of normalized
    token spans ``[lo, hi)``; an empty span sits at its start. O(T)."""
    n = len(nt.text)
    empty = hi <= lo
    safe_lo = np.minimum(lo, max(n - 1, 0))
    out_a = maps[0][safe_lo] if n else np.zeros_like(lo)
    out_b = maps[1][np.maximum(hi - 1, 0)] if n else np.zeros_like(lo)
    if empty.any():
        for k in np.flatnonzero(empty):
            out_a[k], out_b[k] = nt.to_original(int(lo[k]), int(lo[k]))
    if shift:
        out_a, out_b = out_a + shift, out_b + shift
    return out_a, out_b


def _has_byte_level(component, members: str) -> bool:
    """True if ``component`` is (or a Sequence of it holds) a ByteLevel step."""
    if component is None:
        return False
    if component.type_name == "ByteLevel":
        return True
    return any(_has_byte_level(c, members) for c in getattr(component, members, ()))


def _emit_added(tok: AddedToken, surface: str, span, wid, tokens, ids, offsets,
                word_ids) -> None:
    """Append an added token; its string is the matched text (with the whitespace that
    ``lstrip``/``rstrip`` absorbed), as the reference reports it."""
    tokens.append(surface)
    ids.append(tok.id)
    offsets.append(tuple(span))
    word_ids.append(wid)
