"""Words a model certainly returns as one whole piece, decided without running it word by word.

The reachability probes (:mod:`.reach`) hand the model about one word per
vocabulary entry, nearly all of them entries themselves. For four model rules a vocabulary
word's fate is known from the vocabulary alone:

- WordPiece (greedy longest match): a vocabulary word of at most
  ``max_input_chars_per_word`` code points is its own first (and only) match;
- BPE with ``ignore_merges`` (tiktoken rank files): a vocabulary word is looked up whole
  before any merging;
- BPE by merge list (GPT-2) without continuing-subword prefix or end-of-word suffix: the
  words whose characters are all tokens are merged side by side in numpy
  (:func:`~core.tokenizers.vocab_audit.ranks.merged_whole`, the same rule as the model);
  those that end as one symbol are that token, the others are left to the model;
- Unigram (Viterbi, ties keep the earlier candidate, so the one-piece path found first wins
  them): the one piece's score ``s`` is compared with an upper bound on every other
  segmentation. With every score ``<= 0``, a segmentation of two or more pieces scores at
  most ``P(i) + S(j)`` (its first piece ``w[:i]``, its last ``w[j:]``, ``i <= j``) plus, when
  ``i < j``, the best score ``G`` of a piece that starts with one of the inner characters
  (the gap holds at least one piece; unknown characters score ``unk_score``, lower than any
  piece). ``s`` at or above that bound (with a margin for float rounding) means the model
  keeps the word whole; otherwise the model decides.

Anything else (a BPE with a prefix or suffix, SentencePiece ``.model`` files, other
models) is left to the model: :func:`whole_piece` then returns None.

Public names: :func:`whole_piece`.
"""

from __future__ import annotations

import weakref
from itertools import accumulate, repeat
from operator import add
from typing import Any, Callable

import numpy as np

from core.tokenizers.models.bpe_batch import NO_RANK as MODEL_NO_RANK
from core.tokenizers.vocab_audit.ranks import NO_RANK, merge_table, merged_whole

Whole = Callable[[list[str]], "list[int | None]"]
MARGIN = 1e-9  # score units; far above float64 rounding of a sum of a few log probabilities
_NEG = float("-inf")
_KEPT: "weakref.WeakKeyDictionary[Any, Whole | None]" = weakref.WeakKeyDictionary()


def whole_piece(model: Any) -> Whole | None:
    """A function ``words -> ids``: for each word, the id of the single piece ``model``
    certainly returns for it, or None when it cannot tell (ask the model); None when no
    rule applies to this model (see the module docstring). Kept per model while it lives
    (building it is O(V) for Unigram, O(M log M) for a merge list)."""
    try:
        return _KEPT[model]
    except (KeyError, TypeError):
        rule = _rule(model)
    try:
        _KEPT[model] = rule
    except TypeError:  # not weakly referable: build it each time
        pass
    return rule


def _rule(model: Any) -> Whole | None:
    kind = getattr(model, "type_name", "")
    if kind == "WordPiece":
        vocab, limit = model.vocab, model.max_input_chars_per_word
        return lambda words: [vocab.get(w) if len(w) <= limit else None for w in words]
    if kind == "BPE" and getattr(model, "ignore_merges", False):
        return lambda words: list(map(model.vocab.get, words))
    if kind == "BPE" and not (model.continuing_subword_prefix or model.end_of_word_suffix):
        table = (_model_pairs(model) if hasattr(model, "pair_ranks")
                 else merge_table(model.vocab, model.merges))
        return lambda words: _merge_list_whole(model.vocab, table, words)
    if kind == "Unigram" and _plain_unigram(model):
        lookup = _UnigramBound(model).lookup
        return lambda words: list(map(lookup, words))
    return None


def _model_pairs(model: Any):
    """:func:`~core.tokenizers.vocab_audit.ranks.merge_table`'s pair rule read from the
    model's own pair table (``pair_ranks``: built once per model and kept, where building
    the rule's own table from the merge list took ~0.5 s for Gemma 3's 514,906 merges with
    no stop check between)."""
    def pairs(x: np.ndarray, y: np.ndarray):
        rank, new = model.pair_ranks(x, y)
        hit = rank != MODEL_NO_RANK
        return np.where(hit, rank, NO_RANK), np.where(hit, new, -1)
    return pairs


def _merge_list_whole(vocab: dict[str, int], table, words: list[str]) -> list[int | None]:
    """The merge-list rule: words of symbols that are all tokens are merged side by side
    (:func:`~core.tokenizers.vocab_audit.ranks.merged_whole`); one symbol is its own token.
    O(total length) plus the rounds."""
    out: list[int | None] = [None] * len(words)
    many = []
    for k, w in enumerate(words):
        if len(w) == 1:
            out[k] = vocab.get(w)
        elif len(w) > 1 and all(map(vocab.__contains__, w)):
            many.append(k)
    if many:
        for k, id_ in zip(many, merged_whole(vocab, table, [words[k] for k in many])):
            out[k] = id_
    return out


def _plain_unigram(model: Any) -> bool:
    """Whether the bound applies: the core Unigram model, no positive score."""
    return (type(model).__module__ == "core.tokenizers.models.unigram"
            and all(s <= 0.0 for s in model.scores))


class _UnigramBound:
    """The Unigram rule of the module docstring; O(n) vocabulary lookups per word of n
    code points (two slices per position)."""

    def __init__(self, model: Any):
        self.vocab, self.scores = model.vocab, model.scores
        self.unk = model.unk_score
        top: dict[str, float] = {}
        for token, id_ in self.vocab.items():
            if token and self.scores[id_] > top.get(token[0], _NEG):
                top[token[0]] = self.scores[id_]
        self.top = top  # best score of a piece starting with that character

    def lookup(self, word: str) -> int | None:
        id_ = self.vocab.get(word)
        if id_ is None or len(word) == 1:
            return id_
        if self.scores[id_] >= self._bound(word) + MARGIN:
            return id_
        return None

    def _bound(self, w: str) -> float:
        """The most any segmentation of ``w`` (n >= 2 code points) into two or more pieces
        can score; O(n) lookups, the maxima in C."""
        n, get, scores, unk = len(w), self.vocab.get, self.scores, self.unk
        # head[k - 1]: score of w[:k] as the first piece; tail[k - 1]: of w[k:] as the last
        head = [_NEG if (i := get(w[:k])) is None else scores[i] for k in range(1, n)]
        tail = [_NEG if (i := get(w[k:])) is None else scores[i] for k in range(1, n)]
        if head[0] == _NEG:
            head[0] = unk  # no piece of one character: an unknown edge
        if tail[-1] == _NEG:
            tail[-1] = unk
        bound = max(map(add, head, tail))
        if n > 2:
            gap = max(max(map(self.top.get, w[1:-1], repeat(unk))), unk)
            gapped = max(map(add, accumulate(head[:-1], max), tail[1:]))
            bound = max(bound, gapped + gap)
        return bound
