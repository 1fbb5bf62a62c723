"""The initial pair statistics of :class:`~core.training.pair_index.PairIndex`, in numpy.

Every word is a ``str`` of symbol characters (``chr(id)``); all of them are joined into one
array of code points (UTF-32), each adjacent pair inside a word becomes one integer
``left << 21 | right``, and a stable sort groups the occurrences of each pair in corpus
order, so that counts, first occurrences and word lists are reductions over the groups.
"""

from __future__ import annotations

import numpy as np

_CODE_BITS = 21  # a code point fits in 21 bits


def _as_codes(text: str) -> np.ndarray:
    """The code points of ``text`` as ``uint32`` (surrogate code points included)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def count_pairs(symbols: list[str], counts: list[int], n_symbols: int):
    """Count every adjacent pair of the encoded words and list the words holding it.

    Parameters
    ----------
    symbols : list of str
        Each word type's symbols, one character (its id) per symbol, in corpus order.
    counts : list of int
        Each word type's frequency (> 0).
    n_symbols : int
        Number of distinct symbol ids (all ids are below it).

    Returns
    -------
    pair_counts : dict of str to int
        Pair key (2 characters) → occurrences weighted by word count, in first-occurrence
        order.
    first : dict of str to int
        Pair key → ``word index << 32 | position`` of its first occurrence.
    words : dict of str to list of int
        Pair key → the indices of the words holding it, ascending (no repeats).
    symbol_counts : list of int
        Occurrences of each symbol id weighted by word count, shape (n_symbols,).
    codes : list of int
        Each pair as the integer ``left id << 21 | right id``, in the order of the dicts.

    O(S log S) for S symbols in all (one sort, in C).
    """
    codes = _as_codes("".join(symbols)).astype(np.int64)
    lengths = np.fromiter(map(len, symbols), dtype=np.int64, count=len(symbols))
    weights = np.asarray(counts, dtype=np.int64)
    word_of = np.repeat(np.arange(len(symbols), dtype=np.int64), lengths)
    symbol_counts = np.zeros(n_symbols, dtype=np.int64)
    np.add.at(symbol_counts, codes, weights[word_of])
    inside = np.flatnonzero(word_of[:-1] == word_of[1:])  # pair starts that stay in a word
    if not len(inside):
        return {}, {}, {}, symbol_counts.tolist(), []
    pair = codes[inside] << _CODE_BITS | codes[inside + 1]
    word = word_of[inside]
    position = inside - (np.cumsum(lengths) - lengths)[word]
    order = np.argsort(pair, kind="stable")  # groups pairs, corpus order inside a group
    pair, word, position = pair[order], word[order], position[order]
    starts = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
    totals = np.add.reduceat(weights[word], starts)
    firsts = word[starts] << 32 | position[starts]
    new_word = np.r_[True, (pair[1:] != pair[:-1]) | (word[1:] != word[:-1])]
    kept_pair, kept_word = pair[new_word], word[new_word]
    bounds = np.r_[np.flatnonzero(np.r_[True, kept_pair[1:] != kept_pair[:-1]]),
                   len(kept_pair)].tolist()
    kept = kept_word.tolist()
    lists = [kept[i:j] for i, j in zip(bounds, bounds[1:])]
    unique = pair[starts]
    halves = np.stack([unique >> _CODE_BITS, unique & ((1 << _CODE_BITS) - 1)], axis=1)
    text = halves.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    keys = [text[i : i + 2] for i in range(0, len(text), 2)]
    rank = np.argsort(firsts, kind="stable")  # first-occurrence order, as a scan finds them
    keys = [keys[i] for i in rank.tolist()]
    pair_counts = dict(zip(keys, totals[rank].tolist()))
    first = dict(zip(keys, firsts[rank].tolist()))
    words = dict(zip(keys, [lists[i] for i in rank.tolist()]))
    return pair_counts, first, words, symbol_counts.tolist(), unique[rank].tolist()
