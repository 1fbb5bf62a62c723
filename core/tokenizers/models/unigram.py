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

Public names: :class:`Unigram`, :data:`UNK_PENALTY`.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from core.errors import SubwordScopeError, TokenizerLoadError
from core.tokenizers.models.base import CachedModel, Piece

#: Subtracted from the lowest piece score to score an unknown character (both libraries).
UNK_PENALTY = 10.0
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

    Raises
    ------
    TokenizerLoadError
        If a piece is not ``(str, number)``, a score is not finite, the vocabulary is
        empty while ``unk_id`` is set, or ``unk_id`` is out of range.
    """

    type_name = "Unigram"

    def __init__(self, pieces: Sequence[tuple[str, float]], unk_id: int | None,
                 byte_fallback: bool = False):
        super().__init__()
        tokens, scores = [], []
        for i, item in enumerate(pieces):
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
        self.vocab = {t: i for i, t in enumerate(tokens)}
        self.unk_token = tokens[unk_id] if unk_id is not None else None
        self.min_score = min(scores) if scores else float("inf")
        self.unk_score = self.min_score - UNK_PENALTY
        # every prefix of a piece -> its id, or -1 when the prefix is not a piece itself:
        # the Viterbi walk stops extending a slice as soon as it is no prefix (a trie walk)
        self._prefixes: dict[str, int] = {}
        for t in self.vocab:
            for k in range(len(t) - 1, 0, -1):
                if t[:k] in self._prefixes:
                    break
                self._prefixes[t[:k]] = -1
        self._prefixes.update(self.vocab)
        # first character -> (its id or -1, its score, longest piece starting with it):
        # the one-character edge and the bound of the slices tried from a position
        reach: dict[str, int] = {}
        for t in self.vocab:
            if t and len(t) > reach.get(t[0], 0):
                reach[t[0]] = len(t)
        self._first: dict[str, tuple[int, float, int]] = {}
        for c, r in reach.items():
            id_ = self.vocab.get(c, -1)
            self._first[c] = (id_, scores[id_] if id_ >= 0 else 0.0, r)

    @classmethod
    def from_tokenizer_json_model(cls, model: dict) -> "Unigram":
        """Build from the ``"model"`` object of a ``tokenizer.json`` (``"type": "Unigram"``).

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
        return cls(vocab, model.get("unk_id"), byte_fallback=fallback)

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
            "max_piece_length": max((r for *_, r in self._first.values()), default=0),
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

    def _tokenize(self, word: str) -> Piece:
        """The Viterbi walk and read-back of the module docstring, fused: O(n·R) slice
        look-ups for n code points (R: the longest piece from a position), O(n) lists."""
        n = len(word)
        get, scores, first = self._prefixes.get, self.scores, self._first
        unk_id, unk_score = self.unk_id, self.unk_score
        # best[j]: best score of word[:j]; back[j], edge[j]: start and id of its last edge.
        # -inf start values make "strictly better" also accept the first candidate.
        best = [0.0] + [_NO_PATH] * n
        back = [0] * (n + 1)
        edge = [0] * (n + 1)
        for i, c in enumerate(word):
            here = best[i]
            j = i + 1
            hit = first.get(c)
            if hit is not None and hit[0] >= 0:
                score = here + hit[1]
                if score > best[j]:
                    best[j] = score
                    back[j] = i
                    edge[j] = hit[0]
            else:
                if unk_id is None:
                    raise SubwordScopeError(
                        f"{c!r} (U+{ord(c):04X}) is not covered by any piece and the "
                        "Unigram model has no unk_id"
                    )
                score = here + unk_score
                if score > best[j]:
                    best[j] = score
                    back[j] = i
                    edge[j] = unk_id
            if hit is not None and hit[2] > 1:
                stop = min(i + hit[2], n)
                j += 1
                while j <= stop:
                    id_ = get(word[i:j])
                    if id_ is None:
                        break
                    if id_ >= 0:
                        score = here + scores[id_]
                        if score > best[j]:
                            best[j] = score
                            back[j] = i
                            edge[j] = id_
                    j += 1
        ids: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        end = n
        while end:  # read back, fusing consecutive unknown edges
            start = back[end]
            id_ = edge[end]
            if id_ == unk_id and ids and ids[-1] == unk_id:
                starts[-1] = start
            else:
                ids.append(id_)
                starts.append(start)
                ends.append(end)
            end = start
        ids.reverse()
        starts.reverse()
        ends.reverse()
        if unk_id is None or unk_id not in ids:
            return tuple(map(self.pieces.__getitem__, ids)), tuple(ids), tuple(starts), tuple(ends)
        return self._spell_unknown(word, ids, starts, ends)

    def _spell_unknown(self, word: str, ids: list[int], starts: list[int],
                       ends: list[int]) -> Piece:
        """The Piece of a path with unknown spans: such a span's text is looked up (it
        may be a piece), else spelled in byte pieces (byte fallback), else ``unk_id``.
        O(tokens + bytes of the unknown text)."""
        vocab, pieces, unk_id = self.vocab, self.pieces, self.unk_id
        out_tokens: list[str] = []
        out_ids: list[int] = []
        out_starts: list[int] = []
        out_ends: list[int] = []
        for id_, a, b in zip(ids, starts, ends):
            if id_ != unk_id:
                out_tokens.append(pieces[id_])
                out_ids.append(id_)
                out_starts.append(a)
                out_ends.append(b)
                continue
            text = word[a:b]
            id_ = vocab.get(text)
            if id_ is None:
                if self.byte_fallback:
                    spelled = [byte_piece(x) for x in text.encode("utf-8", "surrogatepass")]
                    if all(p in vocab for p in spelled):
                        out_tokens += spelled
                        out_ids += [vocab[p] for p in spelled]
                        out_starts += [a] * len(spelled)
                        out_ends += [b] * len(spelled)
                        continue
                id_ = unk_id
            out_tokens.append(text)
            out_ids.append(id_)
            out_starts.append(a)
            out_ends.append(b)
        return tuple(out_tokens), tuple(out_ids), tuple(out_starts), tuple(out_ends)
