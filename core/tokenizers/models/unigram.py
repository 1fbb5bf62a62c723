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

Cost per word of n code points: O(n·R) lookups of slices of at most R code points (R: the
longest piece starting with the character at hand; the walk stops at the first slice that
is no piece's prefix), so O(n·R²) character work; O(n) memory for the lattice and the path.

Public names: :class:`Unigram`, :data:`UNK_PENALTY`, :data:`STOP_EVERY`.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any, Callable, Sequence

from core.errors import Cancelled, SubwordScopeError, TokenizerLoadError, check_stop
from core.tokenizers.models.base import CachedModel, Piece

#: Subtracted from the lowest piece score to score an unknown character (both libraries).
UNK_PENALTY = 10.0
#: Lattice positions between two ``should_stop()`` calls (a few milliseconds of work).
STOP_EVERY = 4096
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
        # every prefix of a piece -> its score, or -inf when the prefix is not a piece
        # itself (so it never improves a path): the Viterbi walk stops extending a slice
        # as soon as it is no prefix (a trie walk). The pieces go in first, so that a
        # piece's walk down its prefixes mostly stops at once (at a shorter piece).
        prefixes = self._prefixes = dict(zip(self.vocab, map(scores.__getitem__,
                                                              self.vocab.values())))
        for t in self.vocab:
            k = len(t) - 1
            while k and t[:k] not in prefixes:
                prefixes[t[:k]] = _NO_PATH
                k -= 1
        # first character -> (its score, None when it is no piece; longest piece starting
        # with it): the one-character edge and the bound of the slices tried
        reach: dict[str, int] = {}
        for t in self.vocab:
            if t and len(t) > reach.get(t[0], 0):
                reach[t[0]] = len(t)
        self._first: dict[str, tuple[float | None, int]] = {}
        for c, r in reach.items():
            id_ = self.vocab.get(c)
            self._first[c] = (scores[id_] if id_ is not None else None, r)

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
            "max_piece_length": max((r for _, r in self._first.values()), default=0),
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
        """:meth:`tokenize_word` for many words; with ``should_stop``, asked before every
        word and every :data:`STOP_EVERY` positions of a long word's lattice.

        Raises
        ------
        core.errors.Cancelled
            If ``should_stop()`` returned True.
        """
        if should_stop is None:
            return super().tokenize_words(words)
        cache, out = self._cache, []
        for word in words:
            check_stop(should_stop)
            out.append(cache[word] if len(word) < STOP_EVERY or word in cache
                       else self._tokenize(word, should_stop))
        return out

    def _tokenize(self, word: str, should_stop: Callable[[], bool] | None = None) -> Piece:
        """The Viterbi walk and read-back of the module docstring, fused: O(n·R) slice
        look-ups for n code points (R: the longest piece from a position), O(n) lists;
        ``should_stop`` is asked every :data:`STOP_EVERY` positions (``Cancelled``).

        An edge is kept as its text (its id is the text's), an unknown one as None; as
        soon as the best path to a position ends in an unknown edge after another one
        (it is final then: no later edge ends there), its start is moved to the run's,
        so that the read-back meets every run of unknown characters as one edge."""
        n = len(word)
        get, first = self._prefixes.get, self._first.get
        unk_score = self.unk_score
        if self.unk_id is None:
            self._check_covered(word)
        # best[j]: best score of word[:j]; back[j], edge[j]: start and text of its last
        # edge. -inf start values make "strictly better" also accept the first candidate.
        best = [0.0] + [_NO_PATH] * n
        back = [0] * (n + 1)
        edge: list[str | None] = [""] * (n + 1)
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
                score = here + one
                if score > best[i + 1]:
                    best[i + 1] = score
                    back[i + 1] = i
                    edge[i + 1] = c
            if reach > 1:  # a while loop: most positions try one or two slices
                j, stop = i + 2, i + reach
                if stop > n:
                    stop = n
                while j <= stop:
                    piece = word[i:j]
                    piece_score = get(piece)
                    if piece_score is None:
                        break
                    score = here + piece_score
                    if score > best[j]:
                        best[j] = score
                        back[j] = i
                        edge[j] = piece
                    j += 1
            i += 1
        ends: list[int] = []
        tokens: list[str | None] = []
        end = n
        while end:  # read back
            ends.append(end)
            tokens.append(edge[end])
            end = back[end]
        ends.reverse()
        tokens.reverse()
        ids = list(map(self.vocab.get, tokens))  # None: a run of unknown characters
        starts = [0, *ends[:-1]]
        if None in ids or (self.unk_id is not None and self.unk_id in ids):
            return self._spell_unknown(word, ids, starts, ends)
        return tuple(tokens), tuple(ids), tuple(starts), tuple(ends)

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

