"""Building a BPE model: the vocabulary check, the merge tables, and the options of a
``tokenizer.json`` BPE ``"model"`` object (used by :class:`core.tokenizers.models.bpe.BPE`
and the GPT-2 file reader).

Public names: :class:`MergeError`, :class:`MergeList`, :func:`check_vocab`,
:func:`merge_tables`, :func:`parse_merge_entry`, :func:`bpe_options_from_json`.
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from core.errors import TokenizerLoadError
from core.tokenizers.models.bpe_ids import merge_ids


class MergeError(TokenizerLoadError):
    """A merge names a token (or yields a token) that is not in the vocabulary.

    Attributes
    ----------
    index : int
        0-based position of the bad merge in the merge list.
    """

    def __init__(self, message: str, index: int, path: str | None = None):
        self.index = index
        super().__init__(message, path)


def check_vocab(vocab: Any, source: str | None) -> dict[str, int]:
    """Check a token → id mapping; raise :class:`TokenizerLoadError` naming a bad entry."""
    if not isinstance(vocab, dict):
        raise TokenizerLoadError(
            f"the vocabulary must be an object mapping token to id, not a {type(vocab).__name__}",
            source)
    if not (set(map(type, vocab)) - {str} or set(map(type, vocab.values())) - {int}
            or (vocab and min(vocab.values()) < 0)):
        return dict(vocab)  # every entry right (checked in C-level passes)
    for token, i in vocab.items():
        if not isinstance(token, str) or type(i) is not int or i < 0:
            raise TokenizerLoadError(
                f"vocabulary entry {token!r}: {i!r} is not a token with a non-negative "
                "integer id", source)
    return dict(vocab)


class MergeList:
    """A merge list already checked to be pairs of strings, so that :func:`merge_tables`
    need not check or split it again and no tuple is made per merge (Llama 3's 280,147
    tuples took ~0.08 s of every load).

    Read as ``"a b"`` strings it is kept as those strings (``keys``: a pair's key with the
    separator ``" "``, which no token of such a list holds) and their text joined by
    spaces (``joined``: the tokens in order, for
    :func:`~core.tokenizers.models.bpe_ids.merge_ids`; dropped once the model is built);
    its two columns (``firsts``, ``seconds``) are split from the strings when first asked
    for (:meth:`columns`). Read as ``["a", "b"]`` lists it is kept as its columns. Built by
    :func:`bpe_options_from_json`; :meth:`pairs` gives the ``(a, b)`` tuples when asked."""

    def __init__(self, firsts: list[str] | None = None, seconds: list[str] | None = None,
                 keys: list[str] | None = None, joined: str | None = None):
        self.firsts, self.seconds, self.keys, self.joined = firsts, seconds, keys, joined

    def __len__(self) -> int:
        return len(self.keys) if self.keys is not None else len(self.firsts or ())

    def columns(self) -> tuple[list[str], list[str]]:
        """The left and the right tokens, in list order. O(merges) the first time."""
        if self.firsts is None or self.seconds is None:
            joined = self.joined if self.joined is not None else " ".join(self.keys or ())
            flat = joined.split(" ") if self.keys else []
            self.firsts, self.seconds = flat[::2], flat[1::2]
        return self.firsts, self.seconds

    def pairs(self) -> list[tuple[str, str]]:
        """The merges as ``(a, b)`` tuples, in list order. O(merges)."""
        return list(zip(*self.columns()))


def merge_tables(vocab: dict[str, int], merges: "list[tuple[str, str]] | MergeList",
                 prefix: str, source: str | None
                 ) -> tuple[dict[str, int], str, "np.ndarray | None"]:
    """The merge list's ranks as :class:`~core.tokenizers.models.bpe_merge.PairRanks`
    wants them — ``a + sep + b → rank`` — with ``sep``, and the ids of every merge as read:
    int64 of shape (m, 3), ``(left, right, merged)`` in list order (None when the merge
    list needed the merge-by-merge checks). The merged token is ``a`` + ``b`` without its
    first ``len(prefix)`` code points (the continuing-subword prefix).

    ``sep`` is a character that no token of the vocabulary holds (``" "`` for a list read
    as ``"a b"`` strings, whose tokens hold none), so a key names one pair, and the key
    of two symbols of which one holds it (at least two separators) is no merge's. A pair
    listed twice keeps its last rank, as in ``tokenizers``.

    Raises
    ------
    MergeError
        If a merge is not two strings, or a token it names or forms is not in ``vocab``.
    """
    cut = len(prefix)
    fast = _fast_tables(vocab, merges, cut)
    if fast is not None:
        return fast
    pairs = merges.pairs() if isinstance(merges, MergeList) else merges
    for rank, pair in enumerate(pairs):
        if type(pair) is not tuple or len(pair) != 2 or not all(isinstance(t, str) for t in pair):
            raise MergeError(f"merge {rank + 1} is not a pair of tokens: {pair!r}", rank, source)
        a, b = pair
        new = a + b[cut:]
        if a not in vocab or b not in vocab or new not in vocab:
            t, what = next((t, w) for t, w in ((a, "token"), (b, "token"), (new, "merged token"))
                           if t not in vocab)
            raise MergeError(f"merge {rank + 1} ({a!r} {b!r}): {what} {t!r} is not in "
                             "the vocabulary", rank, source)
    sep = separator(vocab)
    return {a + sep + b: rank for rank, (a, b) in enumerate(pairs)}, sep, None


def separator(vocab: dict[str, int]) -> str:
    """A character that no token of ``vocab`` holds: NUL when none does (the usual case),
    else the first such one from U+0001 on. O(vocabulary characters)."""
    joined = "".join(vocab)
    if "\0" not in joined:
        return "\0"
    held = set(joined)
    return next(chr(c) for c in range(1, 0x110000) if chr(c) not in held)


def _fast_tables(vocab: dict[str, int], merges: "list | MergeList", cut: int
                 ) -> tuple[dict[str, int], str, np.ndarray] | None:
    """:func:`merge_tables` in numpy and C-level ``map`` chains when every merge is right;
    None when one is not (the loop then names it). The ids of the tokens every merge
    names are found in numpy (:func:`~core.tokenizers.models.bpe_ids.merge_ids`), else
    by one vocabulary look-up per token; they are the check that every token is in the
    vocabulary. O(merges)."""
    ids = keys = None
    if isinstance(merges, MergeList) and merges.keys is not None:  # "a b" strings
        keys, sep = merges.keys, " "
        ids = merge_ids(vocab, merges.joined or "", sep, cut)
    if keys is None:
        if isinstance(merges, MergeList):
            firsts, seconds = merges.columns()
        else:
            if set(map(type, merges)) - {tuple} or set(map(len, merges)) - {2}:
                return None
            firsts, seconds = list(map(_FIRST, merges)), list(map(_SECOND, merges))
            if set(map(type, firsts)) - {str} or set(map(type, seconds)) - {str}:
                return None
        sep = separator(vocab)
        keys = list(map(str.__add__, map(str.__add__, firsts, repeat(sep)), seconds))
        ids = merge_ids(vocab, sep.join(keys), sep, cut)
    m = len(keys)
    if ids is None:  # looked up one by one (a token not in the vocabulary, or a collision)
        firsts, seconds = merges.columns() if isinstance(merges, MergeList) else (firsts, seconds)
        new = list(map(str.__add__, firsts, seconds if not cut else [b[cut:] for b in seconds]))
        get = vocab.get
        ids = np.empty((m, 3), np.int64)
        for column, tokens in enumerate((firsts, seconds, new)):
            ids[:, column] = np.fromiter(map(get, tokens, repeat(-1)), np.int64, m)
        if m and ids.min() < 0:
            return None
    # (a pair listed twice keeps its last rank: later values overwrite)
    return dict(zip(keys, range(m))), sep, ids


_FIRST, _SECOND = itemgetter(0), itemgetter(1)


# tokenizer.json ---------------------------------------------------------------------------

def parse_merge_entry(entry: Any, index: int, source: str | None) -> tuple[str, str]:
    """One merge of a ``tokenizer.json``: ``"a b"`` (exactly one space) or ``["a", "b"]``."""
    if isinstance(entry, str):
        pair = entry.split(" ")
    elif isinstance(entry, list):
        pair = entry
    else:
        pair = None
    if pair is None or len(pair) != 2 or not all(isinstance(t, str) for t in pair):
        raise MergeError(f"merge {index + 1} is not \"a b\" or [\"a\", \"b\"]: {entry!r}",
                         index, source)
    return pair[0], pair[1]


_STR_OPTIONS = ("unk_token", "continuing_subword_prefix", "end_of_word_suffix")
_BOOL_OPTIONS = ("byte_fallback", "fuse_unk", "ignore_merges")


def _option(model: dict, key: str, types: tuple, source: str | None) -> Any:
    value = model.get(key)
    wrong_bool = isinstance(value, bool) and bool not in types
    if value is not None and (not isinstance(value, types) or wrong_bool):
        raise TokenizerLoadError(f"BPE option {key!r} has the wrong type: {value!r}", source)
    return value


def bpe_options_from_json(model: Any, source: str | None = None
                          ) -> tuple[Any, list[tuple[str, str]], dict[str, Any]]:
    """Vocabulary, merges and options of a ``tokenizer.json`` BPE ``"model"`` object.

    Returns
    -------
    (vocab, merges, options)
        ``BPE(vocab, merges, **options)`` builds the model (the vocabulary is checked there).

    Raises
    ------
    TokenizerLoadError
        Not an object, not of type BPE, no vocab/merges, or an option of the wrong type.
    """
    if not isinstance(model, dict):
        raise TokenizerLoadError(f"the model must be an object, not a {type(model).__name__}",
                                 source)
    kind = model.get("type", "BPE")
    if kind != "BPE":
        raise TokenizerLoadError(f"model type {kind!r} is not BPE", source)
    for key in ("vocab", "merges"):
        if key not in model:
            raise TokenizerLoadError(f"the BPE model has no {key!r}", source)
    if not isinstance(model["merges"], list):
        raise TokenizerLoadError("the BPE model's 'merges' must be a list", source)
    options: dict[str, Any] = {k: _option(model, k, (str,), source) for k in _STR_OPTIONS}
    options.update({k: bool(_option(model, k, (bool,), source)) for k in _BOOL_OPTIONS})
    options["dropout"] = _option(model, "dropout", (int, float), source)
    entries = model["merges"]
    merges = _fast_merges(entries)
    if merges is None:
        merges = [parse_merge_entry(e, i, source) for i, e in enumerate(entries)]
    return model["vocab"], merges, options


def _fast_merges(entries: list) -> MergeList | None:
    """:func:`parse_merge_entry` of every entry in C-level ``map`` chains when all are
    right and of one form (``"a b"`` strings or ``["a", "b"]`` lists); None otherwise (the
    loop then names the bad one). O(merges)."""
    kinds = set(map(type, entries))
    if kinds == {str}:
        if set(map(str.count, entries, repeat(" "))) - {1}:
            return None
        return MergeList(keys=entries, joined=" ".join(entries))  # "a0 b0 a1 b1 ..."
    if kinds == {list}:
        if set(map(len, entries)) - {2}:
            return None
        flat = list(chain.from_iterable(entries))
        if set(map(type, flat)) - {str}:
            return None
    else:
        return None
    return MergeList(flat[::2], flat[1::2])
