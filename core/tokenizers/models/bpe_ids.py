"""The vocabulary ids of a merge list's tokens, found in numpy.

Looking up every token a merge list names in the vocabulary dict costs a Python hash and
dict probe per token, each a few cache misses: Llama 3's 280,147 merges name 840,441
tokens (left, right and the merged one), ~0.2 s of every load. Here the tokens are read
as code points from the merge list's text (tokens joined by a separator that none holds),
hashed one code point at a time in numpy steps (:mod:`core.tokenizers.models.span_hash`;
the merged token's hash is composed from its two parts'), and looked up in a hash table
of the vocabulary's tokens hashed alike (:class:`~core.tokenizers.models.int_hash.IntTable`).
Every id found is then checked code point by code point against its vocabulary token,
so a hash collision can never give a wrong id: the caller then looks the tokens up one by
one (as it does when a token is not in the vocabulary, to name it).

Cost for a merge list of C code points naming T tokens and a vocabulary of V code points:
O(C + V) numpy, in at most :data:`LONGEST` steps, O(T) expected hash probes. Memory
O(C + V).

Public names: :func:`merge_ids`, :data:`LONGEST`.
"""

from __future__ import annotations

import numpy as np

from core.tokenizers.models import span_hash
from core.tokenizers.models.int_hash import IntTable
from core.tokenizers.models.span_hash import code_points, longest_first, span_hashes

LONGEST = 256
"""A merge list naming a token of more code points is looked up one by one (the checks
here take one numpy step per code point of the longest token)."""


def merge_ids(vocab: dict[str, int], text: str, sep: str, cut: int) -> np.ndarray | None:
    """The ids ``(left, right, merged)`` of every merge, int64 of shape (m, 3), in list
    order; None when one of them is not in the vocabulary, or cannot be told apart by
    hash, or one is longer than :data:`LONGEST` (the caller then looks the tokens up one by
    one).

    Parameters
    ----------
    vocab : dict
        Token → id.
    text : str
        The merge list's tokens in order, left then right of each merge, joined by
        ``sep`` (``"a0 b0 a1 b1 ..."`` for ``sep = " "``).
    sep : str
        One character that no token of the merge list holds.
    cut : int
        Code points dropped from the right token when merging (the continuing-subword
        prefix): merge ``(a, b)`` forms ``a + b[cut:]``.
    """
    code = code_points(text)
    seps = np.flatnonzero(code == ord(sep))
    if len(seps) % 2 == 0:  # 2m tokens have 2m - 1 separators
        return None
    starts = np.concatenate(([0], seps + 1))
    lengths = np.concatenate((seps, [len(code)])) - starts
    if int(lengths.max(initial=0)) > LONGEST:
        return None
    table, v_code, v_starts, v_lengths, v_ids = _vocab_table(vocab)
    if table is None:
        return None
    order = longest_first(lengths)
    hashes = span_hashes(code, starts, lengths, order)
    left, right = starts[0::2], starts[1::2]
    n_left, n_right = lengths[0::2], lengths[1::2] - cut
    if cut:
        if (n_right < 0).any():
            return None
        tail = span_hashes(code, right + cut, n_right, longest_first(n_right))
    else:
        tail = hashes[1::2]
    powers = np.cumprod(np.full(int(n_right.max(initial=0)) + 1, span_hash.BASE, np.uint64))
    powers = np.concatenate(([np.uint64(1)], powers[:-1]))  # BASE ** k
    merged = hashes[0::2] * powers[n_right] + tail
    at = np.stack((table.index(hashes[0::2].view(np.int64)),
                   table.index(hashes[1::2].view(np.int64)),
                   table.index(merged.view(np.int64))), axis=1)
    if len(at) and at.min() < 0:
        return None
    if not ((v_lengths[at[:, 0]] == n_left).all() and (v_lengths[at[:, 1]] == lengths[1::2]).all()
            and (v_lengths[at[:, 2]] == n_left + n_right).all()):
        return None
    # every id checked code point by code point: each token against the token its id
    # names, then each merge's two tokens against the two parts of the merged token
    named = np.empty(len(starts), np.int64)
    named[0::2], named[1::2] = v_starts[at[:, 0]], v_starts[at[:, 1]]
    if not _same(code, starts, lengths, order, v_code, named):
        return None
    named[0::2] = v_starts[at[:, 2]]
    named[1::2] = named[0::2] + n_left
    if cut:
        if not (_same(code, left, n_left, longest_first(n_left), v_code, named[0::2])
                and _same(code, right + cut, n_right, longest_first(n_right), v_code,
                          named[1::2])):
            return None
    elif not _same(code, starts, lengths, order, v_code, named):
        return None
    return v_ids[at]


def _vocab_table(vocab: dict[str, int]):
    """The vocabulary's tokens hashed: ``(table, code, starts, lengths, ids)``, where
    ``table`` maps a hash to the token's position (None when two tokens hash alike)."""
    tokens = list(vocab)
    lengths = np.fromiter(map(len, tokens), np.int64, len(tokens))
    code = code_points("".join(tokens))
    starts = np.zeros(len(tokens), np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    ids = np.fromiter(vocab.values(), np.int64, len(tokens))
    hashes = span_hashes(code, starts, lengths, longest_first(lengths))
    table = IntTable.build(hashes.view(np.int64), np.arange(len(tokens)))
    if table is None or table.distinct < len(tokens):
        return None, code, starts, lengths, ids
    return table, code, starts, lengths, ids


def _same(code: np.ndarray, where: np.ndarray, lengths: np.ndarray, order: np.ndarray,
          other: np.ndarray, other_at: np.ndarray) -> bool:
    """Whether every span ``code[where[k]:where[k] + lengths[k]]`` equals
    ``other[other_at[k]:other_at[k] + lengths[k]]``, the spans taken in ``order`` (longest
    first): one numpy step per code point of the longest span, O(total code points)."""
    a, b, left = where[order], other_at[order], lengths[order]
    live, k = int(np.count_nonzero(left > 0)), 0
    bounds = -left
    while live:
        if not (code[a[:live] + k] == other[b[:live] + k]).all():
            return False
        k += 1
        live = int(np.searchsorted(bounds, -k, side="left"))
    return True
