"""The Unigram model: the best-scoring segmentation of a word (Viterbi).

Algorithm (Kudo 2018, "Subword Regularization"; as the ``tokenizers`` library's
``Unigram.encode_optimized`` implements it, after SentencePiece's ``EncodeOptimized``):
walk the word left to right; for each start position ``i`` and each vocabulary piece
``word[i:j]``, ``best[j] = max(best[j], best[i] + score(piece))`` where only a strictly
better score replaces an earlier candidate (so ties keep the candidate found first: the
earlier start). A position where no one-character piece starts also gets an *unknown* edge
of one character with score ``min(all scores) - 10``. The path is read back from the end;
consecutive unknown edges are fused into one token whose text is the covered characters.
With byte fallback, a token whose text is not in the vocabulary becomes one ``<0xAB>``
piece per UTF-8 byte (all sharing the token's span) when every such piece exists.

Scores are float64 sums, as in ``tokenizers`` (SentencePiece itself sums in float32; see
:mod:`core.tokenizers.models.sentencepiece`). Results are memoized per word.

Three walks give that same result:

- many new words at once (:meth:`Unigram.prefetch_words`, and :meth:`Unigram.tokenize_words`
  when it meets many): all their lattices in numpy
  (:func:`~core.tokenizers.models.unigram_lattice.best_paths`);
- one word of fewer than :data:`LONG_WORD` code points: a Python walk trying, from each
  position, every slice up to the longest piece that starts with its character
  (O(n·R) look-ups for n code points, R that length);
- one longer word: its edges found in numpy
  (:meth:`~core.tokenizers.models.unigram_lattice.PieceIndex.edges`: a slice is extended
  only while it is a prefix of a piece) and the best path taken over them in Python,
  O(E) for E edges (at most n·R, about 2n in practice).

The pieces' index (hashes of every piece and of every prefix of one) is built at load, in
numpy (O(piece code points)); the first characters' reach on the first short walk.

Public names: :class:`Unigram`, :data:`UNK_PENALTY`, :data:`STOP_EVERY`.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any, Callable, Sequence

import numpy as np

from core.errors import Cancelled, SubwordScopeError, TokenizerLoadError, check_stop
from core.tokenizers.models.base import MAX_CACHED_WORDS, CachedModel, Piece, mostly_new
from core.tokenizers.models.span_hash import code_points
from core.tokenizers.models.unigram_lattice import PieceIndex, best_paths

#: Subtracted from the lowest piece score to score an unknown character (both libraries).
UNK_PENALTY = 10.0
#: Lattice positions between two ``should_stop()`` calls (a few milliseconds of work).
STOP_EVERY = 4096
#: Code points (summed over the new words) from which :meth:`Unigram.prefetch_words`
#: walks the words' lattices together in numpy.
LATTICE_FROM = 4096
#: Words of this many code points or more are left to the per-word walk by
#: :meth:`Unigram.prefetch_words` (its numpy steps grow with the longest word).
LATTICE_WORD = 64
#: Words of this many code points or more are walked over their numpy-found edges (the
#: short walk's look-ups cost more from about there).
LONG_WORD = 96
_NO_PATH = float("-inf")  # the lattice's start value: below every (finite) path score


def byte_piece(b: int) -> str:
    """The byte-fallback piece of byte ``b``: ``<0x0A>`` (two upper-case hex digits)."""
    return f"<0x{b:02X}>"


class Unigram(CachedModel):
    """A Unigram language model over subword pieces.

    Parameters
    ----------
    pieces : list of (str, float)
        Piece and score (a log probability) by id. When a piece occurs twice, the later
        id wins, as in ``tokenizers``.
    unk_id : int or None
        Id of the unknown piece; needed as soon as a word has a character no piece covers.
    byte_fallback : bool
        Spell unknown tokens as ``<0xAB>`` byte pieces when all of them are in the vocabulary.
    checked : bool
        ``pieces`` are known to be ``(str, finite number)`` pairs (a checked
        ``tokenizer.json``), so they are not checked again.

    Raises
    ------
    TokenizerLoadError
        If a piece is not ``(str, number)``, a score is not finite, the vocabulary is
        empty while ``unk_id`` is set, or ``unk_id`` is out of range.
    """

    type_name = "Unigram"

    def __init__(self, pieces: Sequence[tuple[str, float]], unk_id: int | None,
                 byte_fallback: bool = False, *, checked: bool = False):
        super().__init__()
        checked = _pieces_columns(pieces) if checked else _checked_pieces(pieces)
        tokens, scores = checked if checked is not None else ([], [])
        for i, item in enumerate(pieces if checked is None else ()):
            if (not isinstance(item, (tuple, list)) or len(item) != 2 or not isinstance(item[0], str)
                    or isinstance(item[1], bool) or not isinstance(item[1], (int, float))):
                raise TokenizerLoadError(f"Unigram vocab entry {i} must be [piece, score], got {item!r:.60}")
            try:
                score = float(item[1])
            except OverflowError:  # an int beyond float range
                score = math.inf
            if not math.isfinite(score):
                raise TokenizerLoadError(f"Unigram vocab entry {i} has a score that is not finite: {item[1]!r:.60}")
            tokens.append(item[0])
            scores.append(score)
        if unk_id is not None:
            if isinstance(unk_id, bool) or not isinstance(unk_id, int):
                raise TokenizerLoadError(f"Unigram unk_id must be an integer or null, got {unk_id!r}")
            if not tokens:
                raise TokenizerLoadError("Unigram vocabulary is empty but unk_id is set")
            if not 0 <= unk_id < len(tokens):
                raise TokenizerLoadError(f"Unigram unk_id {unk_id} is outside the vocabulary (0..{len(tokens) - 1})")
        self.pieces = tokens
        self.scores = scores
        self.unk_id = unk_id
        self.byte_fallback = bool(byte_fallback)
        self.vocab = dict(zip(tokens, range(len(tokens))))  # a repeated piece: its last id
        self.unk_token = tokens[unk_id] if unk_id is not None else None
        self.min_score = min(scores) if scores else float("inf")
        self.unk_score = self.min_score - UNK_PENALTY
        # the pieces indexed for the numpy walks (None when they cannot be: see
        # PieceIndex.build); the first characters' reach for the short walk, on first use
        self._index = PieceIndex.build(list(self.vocab), self.vocab.values())
        self._score_array = np.asarray(scores, np.float64)
        self._first: dict[str, tuple[int | None, int]] | None = None

    @classmethod
    def from_tokenizer_json_model(cls, model: dict, checked: bool = False) -> "Unigram":
        """Build from the ``"model"`` object of a ``tokenizer.json`` (``"type": "Unigram"``);
        ``checked``: its vocabulary has passed the schema check (every entry a ``[str,
        finite number]`` pair: :func:`core.tokenizers.formats.hf_schema.check_document`), so
        it is not checked again.

        Raises
        ------
        TokenizerLoadError
            If ``vocab`` is missing or malformed, or ``unk_id``/``byte_fallback`` have the
            wrong type.
        """
        if not isinstance(model, dict):
            raise TokenizerLoadError(f"Unigram model must be an object, not {type(model).__name__}")
        vocab = model.get("vocab")
        if not isinstance(vocab, list):
            raise TokenizerLoadError("Unigram model needs a \"vocab\" list of [piece, score] pairs")
        fallback = model.get("byte_fallback", False)
        if not isinstance(fallback, bool):
            raise TokenizerLoadError(f"Unigram byte_fallback must be true or false, got {fallback!r}")
        return cls(vocab, model.get("unk_id"), byte_fallback=fallback, checked=checked)

    # -- vocabulary ----------------------------------------------------------------------

    @property
    def vocab_size(self) -> int:
        """Number of pieces (ids ``0 .. vocab_size - 1``)."""
        return len(self.pieces)

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def id_to_token(self, id_: int) -> str | None:
        return self.pieces[id_] if 0 <= id_ < len(self.pieces) else None

    def get_vocab(self) -> dict[str, int]:
        """A copy of piece -> id."""
        return dict(self.vocab)

    def settings(self) -> dict[str, Any]:
        return {
            "vocab_size": self.vocab_size, "unk_id": self.unk_id, "unk_token": self.unk_token,
            "byte_fallback": self.byte_fallback, "min_score": self.min_score,
            "unk_score": self.unk_score,
            "max_piece_length": max(map(len, self.vocab), default=0),
        }

    # -- segmentation --------------------------------------------------------------------

    def tokenize(self, word: str) -> list[tuple[str, int, int, int]]:
        """``(token, id, start, end)`` for each piece of the best segmentation of ``word``.

        ``start``/``end`` are code-point offsets inside ``word``; byte-fallback pieces all
        carry the span of the unknown text they spell.

        Raises
        ------
        SubwordScopeError
            If a character is covered by no piece and the model has no ``unk_id``.
        """
        return list(zip(*self.tokenize_word(word))) if word else []

    def tokenize_words(self, words: list[str], should_stop: Callable[[], bool] | None = None
                       ) -> list[Piece]:
        """:meth:`tokenize_word` for many words (many new ones walked together first:
        :meth:`prefetch_words`); with ``should_stop``, asked before every word and every
        :data:`STOP_EVERY` positions of a long word's lattice.

        Raises
        ------
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        if len(words) >= 64 and mostly_new(words, self._cache):
            self.prefetch_words(words, should_stop)
        if should_stop is None:
            return super().tokenize_words(words)
        cache, out = self._cache, []
        for word in words:
            check_stop(should_stop)
            out.append(cache[word] if len(word) < STOP_EVERY or word in cache
                       else self._tokenize(word, should_stop))
        return out

    batches_new_words = True
    """:meth:`prefetch_words` walks many first-seen words' lattices together (numpy)."""

    def prefetch_words(self, words: list[str],
                       should_stop: Callable[[], bool] | None = None) -> None:
        """Segment the ``words`` not yet cached together and cache them, so that the
        :meth:`tokenize_word` calls that follow look them up: when the new words of 1 to
        :data:`LATTICE_WORD` - 1 code points hold :data:`LATTICE_FROM` code points or more,
        their lattices are walked together in numpy
        (:func:`~core.tokenizers.models.unigram_lattice.best_paths`, equal to
        :meth:`_tokenize` word by word). Words left out (longer ones; with byte fallback,
        those spelled in bytes; without ``unk_id``, those with a character no piece
        covers, which must raise) are segmented when asked for. O(W) for W words plus
        the numpy walk; ``should_stop`` is asked between its steps (``Cancelled``)."""
        if len(words) < 64:
            return None
        cache = self._cache
        new = [w for w in dict.fromkeys(words) if w not in cache and 0 < len(w) < LATTICE_WORD]
        if sum(map(len, new)) < LATTICE_FROM or self._index is None:
            return None
        fresh = self._pieces_together(new, should_stop)
        if len(cache) + len(fresh) > MAX_CACHED_WORDS:
            cache.clear()
        cache.update(fresh)
        return None

    def _first_chars(self) -> dict[str, tuple[int | None, int]]:
        """First character of a piece -> (its id when it is a piece itself, else None;
        the longest piece starting with it), built on first use (from the index, else
        one pass over the pieces)."""
        if self._first is None:
            index = self._index
            if index is not None:
                chars, reach, ids = index.first_chars()
                self._first = dict(zip(map(chr, chars), zip(
                    [None if i < 0 else i for i in ids], reach)))
            else:
                longest: dict[str, int] = {}
                for t in self.vocab:
                    if t and len(t) > longest.get(t[0], 0):
                        longest[t[0]] = len(t)
                get = self.vocab.get
                self._first = {c: (get(c), r) for c, r in longest.items()}
        return self._first

    def _pieces_together(self, words: list[str],
                         should_stop: Callable[[], bool] | None = None) -> dict[str, Piece]:
        """``{word: piece}`` for the ``words`` (distinct, 1 to :data:`LATTICE_WORD` - 1
        code points) from one numpy walk of their lattices, unknown runs fused and looked
        up as :meth:`_spell_unknown` does; the words it cannot finish are left out (see
        :meth:`prefetch_words`). O(T) for their T tokens besides the walk."""
        ids, starts, ends, counts, wrong = best_paths(self._index, words,  # type: ignore[arg-type]
                                                      self._score_array, self.unk_score,
                                                      should_stop)
        n = len(ids)
        word = np.repeat(np.arange(len(words)), counts)
        unk_id = self.unk_id
        unknown = ids < 0 if unk_id is None else (ids < 0) | (ids == unk_id)
        fused = np.zeros(n, bool)  # an unknown token after another in its word
        if n > 1:
            fused[1:] = unknown[1:] & unknown[:-1] & (word[1:] == word[:-1])
        keep = np.flatnonzero(~fused)
        ends = ends[np.concatenate((keep[1:], [n])) - 1]  # a run ends where it stops
        ids, starts, word, unknown = ids[keep], starts[keep], word[keep], unknown[keep]
        pieces = self.pieces
        ids_l = ids.tolist()
        tokens = list(map(pieces.__getitem__, ids_l))
        dropped = set(np.flatnonzero(wrong).tolist())
        runs = np.flatnonzero(unknown).tolist()
        if runs:
            word_start = np.zeros(len(words), np.int64)
            np.cumsum(np.fromiter(map(len, words), np.int64, len(words))[:-1], out=word_start[1:])
            base = word_start[word[runs]]
            joined = "".join(words)
            texts = list(map(joined.__getitem__, map(slice, (base + starts[runs]).tolist(),
                                                        (base + ends[runs]).tolist())))
            found = (list(map(self.vocab.get, texts)) if unk_id is not None
                     else [None] * len(texts))
            if (unk_id is None or self.byte_fallback) and None in found:
                # it raises, or it may be spelled in bytes: left to the per-word walk
                dropped.update(word[[k for k, f in zip(runs, found) if f is None]].tolist())
            list(map(tokens.__setitem__, runs, texts))
            list(map(ids_l.__setitem__, runs, [unk_id if f is None else f for f in found]))
        bounds = np.zeros(len(words) + 1, np.int64)
        np.cumsum(np.bincount(word, minlength=len(words)), out=bounds[1:])
        cuts = list(map(slice, bounds[:-1].tolist(), bounds[1:].tolist()))
        columns = [list(map(tuple, map(col.__getitem__, cuts)))
                   for col in (tokens, ids_l, starts.tolist(), ends.tolist())]
        fresh = dict(zip(words, zip(*columns)))
        for k in dropped:
            del fresh[words[k]]
        return fresh

    def _tokenize(self, word: str, should_stop: Callable[[], bool] | None = None) -> Piece:
        """The best segmentation of one word (see the module docstring for the two walks:
        :meth:`_walk` under :data:`LONG_WORD` code points, else :meth:`_walk_edges`), read
        back; ``should_stop`` is asked every :data:`STOP_EVERY` positions (``Cancelled``).
        O(n) for the read-back of n code points."""
        n = len(word)
        if self.unk_id is None:
            self._check_covered(word)
        index = self._index if n >= LONG_WORD else None
        back, edge = (self._walk(word, should_stop) if index is None
                      else self._walk_edges(word, index, should_stop))
        ends: list[int] = []
        ids: list[int | None] = []
        end = n
        while end:  # read back
            ends.append(end)
            ids.append(edge[end])
            end = back[end]
        ends.reverse()
        ids.reverse()
        starts = [0, *ends[:-1]]
        if None in ids or (self.unk_id is not None and self.unk_id in ids):
            return self._spell_unknown(word, ids, starts, ends)
        return (tuple(map(self.pieces.__getitem__, ids)), tuple(ids), tuple(starts),
                tuple(ends))

    def _walk(self, word: str, should_stop: Callable[[], bool] | None = None
              ) -> tuple[list[int], list[int | None]]:
        """The Viterbi walk of a short word: from each position, every slice up to the
        longest piece starting with its character is looked up. Returns ``back`` and
        ``edge`` (length n + 1): the start and the piece id (None: unknown) of the last
        edge of the best path to each position. O(n·R) slice look-ups for n code points
        (R: that longest piece), O(n) lists.

        As soon as the best path to a position ends in an unknown edge after another one
        (it is final then: no later edge ends there), its start is moved to the run's,
        so that the read-back meets every run of unknown characters as one edge."""
        n = len(word)
        first = self._first_chars().get
        get, scores, unk_score = self.vocab.get, self.scores, self.unk_score
        # best[j]: best score of word[:j]. -inf start values make "strictly better" also
        # accept the first candidate.
        best = [0.0] + [_NO_PATH] * n
        back = [0] * (n + 1)
        edge: list[int | None] = [-1] * (n + 1)
        asks = should_stop is not None
        i = 0
        for c in word:
            if asks and not i % STOP_EVERY and should_stop():
                raise Cancelled("cancelled")
            here = best[i]
            hit = first(c)
            if hit is None or hit[0] is None:  # c is no piece: an unknown edge
                score = here + unk_score
                if score > best[i + 1]:
                    best[i + 1] = score
                    back[i + 1] = back[i] if edge[i] is None else i
                    edge[i + 1] = None
                if hit is None:
                    i += 1
                    continue
                reach = hit[1]
            else:
                one, reach = hit
                score = here + scores[one]
                if score > best[i + 1]:
                    best[i + 1] = score
                    back[i + 1] = i
                    edge[i + 1] = one
            if reach > 1:
                stop = i + reach
                for j in range(i + 2, (stop if stop < n else n) + 1):
                    id_ = get(word[i:j])
                    if id_ is not None:
                        score = here + scores[id_]
                        if score > best[j]:
                            best[j] = score
                            back[j] = i
                            edge[j] = id_
            i += 1
        return back, edge

    def _walk_edges(self, word: str, index: PieceIndex,
                    should_stop: Callable[[], bool] | None = None
                    ) -> tuple[list[int], list[int | None]]:
        """:meth:`_walk` of a long word over its edges found in numpy (each checked
        against its piece's code points; unknown edges where a character is no piece):
        the edges taken by start, one Python step each. O(n·R) numpy, O(E) Python for E
        edges; ``should_stop`` asked for every slice length and every
        :data:`STOP_EVERY` positions."""
        n = len(word)
        code = code_points(word)
        start, length, ids, which = index.edges(code, n - np.arange(n), should_stop)
        if (which >= 0).any():
            ok = index.confirm(code, start, length, which)
            start, length, ids = start[ok], length[ok], ids[ok]
        end = start + length
        order = np.argsort(start, kind="stable")
        start, end, ids = start[order], end[order], ids[order]
        score = np.where(ids >= 0, self._score_array[np.maximum(ids, 0)], self.unk_score)
        best = [0.0] + [_NO_PATH] * n
        back = [0] * (n + 1)
        edge: list[int | None] = [-1] * (n + 1)
        cuts = np.searchsorted(start, np.arange(0, n + STOP_EVERY, STOP_EVERY)).tolist()
        for a, b in zip(cuts, cuts[1:]):
            if a == b:
                continue
            check_stop(should_stop)
            for s, e, id_, sc in zip(start[a:b].tolist(), end[a:b].tolist(),
                                     ids[a:b].tolist(), score[a:b].tolist()):
                cand = best[s] + sc
                if cand > best[e]:
                    best[e] = cand
                    if id_ < 0:  # unknown: a run's start moves back to the run's
                        back[e] = back[s] if edge[s] is None else s
                        edge[e] = None
                    else:
                        back[e] = s
                        edge[e] = id_
        return back, edge

    def _check_covered(self, word: str) -> None:
        """Raise when a character of ``word`` is no piece (the model has no ``unk_id``).
        O(n)."""
        vocab = self.vocab
        for c in word:
            if c not in vocab:
                raise SubwordScopeError(
                    f"{c!r} (U+{ord(c):04X}) is not covered by any piece and the "
                    "Unigram model has no unk_id"
                )

    def _spell_unknown(self, word: str, ids: list[int | None], starts: list[int],
                       ends: list[int]) -> Piece:
        """The Piece of a path with unknown edges (id None: unknown characters, or the
        piece ``unk_id``): consecutive ones are fused into one span, whose text is looked
        up (it may be a piece), else spelled in byte pieces (byte fallback), else
        ``unk_id``. O(tokens + bytes of the unknown text)."""
        unk_id, pieces = self.unk_id, self.pieces
        out_tokens: list[str] = []
        out_ids: list[int] = []
        out_starts: list[int] = []
        out_ends: list[int] = []
        run = -1  # start of the pending unknown span
        for id_, a, b in zip(ids, starts, ends):
            if id_ is None or id_ == unk_id:
                if run < 0:
                    run = a
                continue
            if run >= 0:
                self._spell_span(word, run, a, out_tokens, out_ids, out_starts, out_ends)
                run = -1
            out_tokens.append(pieces[id_])
            out_ids.append(id_)
            out_starts.append(a)
            out_ends.append(b)
        if run >= 0:
            self._spell_span(word, run, len(word), out_tokens, out_ids, out_starts, out_ends)
        return tuple(out_tokens), tuple(out_ids), tuple(out_starts), tuple(out_ends)

    def _spell_span(self, word: str, a: int, b: int, tokens: list[str], ids: list[int],
                    starts: list[int], ends: list[int]) -> None:
        """Append the tokens of the unknown span ``word[a:b]`` (see :meth:`_spell_unknown`)."""
        vocab = self.vocab
        text = word[a:b]
        id_ = vocab.get(text)
        if id_ is None:
            if self.byte_fallback:
                spelled = [byte_piece(x) for x in text.encode("utf-8", "surrogatepass")]
                if all(p in vocab for p in spelled):
                    tokens += spelled
                    ids += [vocab[p] for p in spelled]
                    starts += [a] * len(spelled)
                    ends += [b] * len(spelled)
                    return
            id_ = self.unk_id
        tokens.append(text)
        ids.append(id_)
        starts.append(a)
        ends.append(b)


def _pieces_columns(pieces: Sequence) -> tuple[list[str], list[float]]:
    """The tokens and float scores of ``pieces``, known to be ``(str, finite number)``
    pairs. O(pieces), in C-level passes."""
    return list(map(itemgetter(0), pieces)), list(map(float, map(itemgetter(1), pieces)))


def _checked_pieces(pieces: Sequence) -> tuple[list[str], list[float]] | None:
    """The tokens and float scores of ``pieces`` when every one is right (a ``(str,
    finite number)`` pair; checked in C-level passes), else None (the loop in
    :class:`Unigram` then names the first wrong one). O(pieces)."""
    if type(pieces) is not list or set(map(type, pieces)) - {list, tuple} or set(map(len, pieces)) - {2}:
        return None
    tokens, raw = list(map(itemgetter(0), pieces)), list(map(itemgetter(1), pieces))
    if set(map(type, tokens)) - {str} or set(map(type, raw)) - {float, int}:
        return None
    try:
        scores = list(map(float, raw))
    except OverflowError:  # an int beyond float range: named by the loop
        return None
    return (tokens, scores) if all(map(math.isfinite, scores)) else None

