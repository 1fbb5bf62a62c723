"""Polynomial hashes of code-point spans, computed in numpy one code point at a time.

``h = h * BASE + code point + 1`` over a span's code points, mod 2**64 (uint64 arithmetic
wraps). Spans taken longest first are still being hashed at step k exactly when they are a
leading slice, so many spans cost one numpy step per code point of the longest. Used to
find pieces and tokens by hash (:mod:`core.tokenizers.models.unigram_lattice`,
:mod:`core.tokenizers.models.bpe_ids`); a hash match is never taken for equality there.

Public names: :data:`BASE`, :data:`SHORT`, :func:`step`, :func:`span_hashes`,
:func:`prefix_hashes`, :func:`longest_first`, :func:`code_points`.
"""

from __future__ import annotations

import numpy as np

BASE = np.uint64(0x100000001B3)
"""The hash's base: odd (FNV-1's 64-bit prime), so that its powers never vanish mod 2**64."""
_ONE = np.uint64(1)
_INVERSE = np.uint64(pow(int(BASE), -1, 1 << 64))  # BASE * _INVERSE = 1 mod 2**64


def step(hashes: np.ndarray, code: np.ndarray) -> np.ndarray:
    """The hashes of spans one code point longer: ``h * BASE + code + 1`` (uint64)."""
    return hashes * BASE + code.astype(np.uint64) + _ONE


def longest_first(lengths: np.ndarray) -> np.ndarray:
    """The spans' order, longest first (a stable sort; a radix sort of 16-bit keys for
    spans under 65,536 code points). O(n)."""
    top = int(lengths.max(initial=0))
    keys = top - lengths
    return np.argsort(keys.astype(np.uint16) if top < 1 << 16 else keys, kind="stable")


SHORT = 64
"""Spans longer than this are hashed one at a time (:func:`prefix_hashes`), so that a
hostile token of a million code points costs O(its length), not a million numpy steps."""


def span_hashes(code: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                order: np.ndarray) -> np.ndarray:
    """The hash of every span ``code[starts[k]:starts[k] + lengths[k]]`` (uint64 of shape
    (n,); an empty span's is 0), the spans taken in ``order`` (:func:`longest_first`):
    one numpy step per code point up to :data:`SHORT`, and each longer span alone with
    powers of the base. O(total code points)."""
    at, left = starts[order], lengths[order]
    hashes = np.zeros(len(order), np.uint64)
    long_spans = int(np.count_nonzero(left > SHORT))
    for k in range(long_spans):  # (few: the longest come first)
        hashes[k] = prefix_hashes(code[at[k]:at[k] + left[k]])[-1]
    live, k = int(np.count_nonzero(left > 0)), 0
    bounds = -left  # ascending: how many spans are longer than k is a binary search
    while live > long_spans:
        hashes[long_spans:live] = step(hashes[long_spans:live], code[at[long_spans:live] + k])
        k += 1
        live = int(np.searchsorted(bounds, -k, side="left"))
    out = np.empty(len(order), np.uint64)
    out[order] = hashes
    return out


def prefix_hashes(code: np.ndarray) -> np.ndarray:
    """The hash of every non-empty prefix of ``code`` (uint64 of shape (len(code),)):
    ``h_k = sum over j <= k of (code[j] + 1) * BASE**(k - j)`` = ``BASE**k`` times the
    running sum of ``(code[j] + 1) * BASE**-j`` (BASE is odd, so it has an inverse mod
    2**64). O(len(code)) numpy, in a fixed number of calls."""
    n = len(code)
    if not n:
        return np.zeros(0, np.uint64)
    up = np.cumprod(np.full(n, BASE, np.uint64))
    down = np.cumprod(np.full(n, _INVERSE, np.uint64))
    up = np.concatenate(([_ONE], up[:-1]))  # BASE ** k
    down = np.concatenate(([_ONE], down[:-1]))  # BASE ** -k
    return np.cumsum((code.astype(np.uint64) + _ONE) * down, dtype=np.uint64) * up


def code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (uint32 of shape (len(text),)); lone surrogates kept."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
