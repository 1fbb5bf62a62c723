"""An int64 → int64 hash table, built and probed a whole numpy array at a time.

Open addressing with linear probing and Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4), at
most a quarter full. Building places every pending key at its next slot in rounds; a
look-up probes every key still looking at its next slot in rounds; so no Python runs per
key. Used for BPE's pair ranks (:class:`~core.tokenizers.models.bpe_batch.PairTable`) and
the Unigram lattice's piece prefixes (:mod:`~core.tokenizers.models.unigram_lattice`).

Public names: :class:`IntTable`, :data:`MAX_PROBE`.
"""

from __future__ import annotations

import numpy as np

MAX_PROBE = 64
"""Rounds a key may take to find its slot, and filled slots in a row, before
:meth:`IntTable.build` gives up (only keys crafted against the hash crowd it so; the
shared merge lists need under 16)."""

_FIBONACCI = np.uint64(0x9E3779B97F4A7C15)


class IntTable:
    """``key → value`` for whole int64 arrays of keys (:meth:`build`, :meth:`get`)."""

    def __init__(self, keys: np.ndarray, values: np.ndarray, slots: np.ndarray):
        self.keys, self.values, self._slots = keys, values, slots
        self._bits = len(slots).bit_length() - 1
        filled = np.flatnonzero(slots >= 0)
        self._slot_keys = np.zeros(len(slots), np.int64)  # each slot's key (0 when empty)
        self._slot_keys[filled] = keys[slots[filled]]
        self.distinct = len(filled)
        """How many distinct keys the table holds (fewer than ``len(keys)`` when a key
        was given twice)."""

    @classmethod
    def build(cls, keys: np.ndarray, values: np.ndarray) -> "IntTable | None":
        """The table of ``keys[k] → values[k]`` (int64 arrays of shape (m,)); a key given
        twice keeps its highest value. None when the keys crowd the table (a round of
        placing runs past :data:`MAX_PROBE`, or so does a run of filled slots). O(m)
        expected: a round places or moves on every key still pending."""
        keys = np.asarray(keys, np.int64)
        values = np.asarray(values, np.int64)
        m = len(keys)
        bits = max(4, (4 * m).bit_length())
        slots = np.full(1 << bits, -1, np.int32)
        slot = _slot_of(keys, bits)
        pending = np.arange(m, dtype=np.int32)
        rounds = 0
        while len(pending):  # a round: every pending key tries its slot
            rounds += 1
            if rounds > MAX_PROBE:
                return None
            at = slot[pending]
            free = slots[at] == -1
            slots[at[free]] = pending[free]  # (one of the keys aiming at a slot wins it)
            lost = pending[slots[at] != pending]
            held = slots[slot[lost]]
            same = keys[held] == keys[lost]  # a key given twice: its highest value stays
            stay = lost[:0]
            if same.any():
                a, b = held[same], lost[same]
                slots[slot[b]] = np.where(values[b] > values[a], b, a)
                stay = b[values[b] > values[slots[slot[b]]]]  # lost to a lower twin: again
                lost = lost[~same]
            slot[lost] = (slot[lost] + 1) & ((1 << bits) - 1)
            pending = np.concatenate((lost, stay))
        # a look-up probes to the end of its run of filled slots (runs wrap around the end)
        padded = np.zeros(len(slots) + 2, np.int8)
        np.greater_equal(slots, 0, out=padded[1:-1].view(bool))
        edges = np.diff(padded)
        opens, closes = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        runs = closes - opens
        longest = int(runs.max()) if len(runs) else 0
        if len(runs) > 1 and opens[0] == 0 and closes[-1] == len(slots):
            longest = max(longest, int(runs[0] + runs[-1]))
        return cls(keys, values, slots) if longest <= MAX_PROBE else None

    def index(self, keys: np.ndarray) -> np.ndarray:
        """Where each of ``keys`` is in the arrays the table was built from (int64 of
        shape keys.shape; -1: not in the table). O(k) expected."""
        slots, known = self._slots, self._slot_keys
        out = np.full(len(keys), -1, np.int64)
        todo = np.arange(len(keys))
        slot = _slot_of(keys, self._bits)
        while len(todo):  # a round: every key still looking probes its next slot
            held = slots[slot]
            filled = held >= 0
            hit = (known[slot] == keys) & filled
            out[todo[hit]] = held[hit]
            go = filled & ~hit
            todo, keys, slot = todo[go], keys[go], (slot[go] + 1) & (len(slots) - 1)
        return out

    def get(self, keys: np.ndarray, missing: int) -> np.ndarray:
        """The values of ``keys`` (``missing`` for a key not in the table), int64 of
        shape keys.shape. O(k) expected."""
        at = self.index(keys)
        out = np.full(len(keys), missing, np.int64)
        hit = np.flatnonzero(at >= 0)
        out[hit] = self.values[at[hit]]
        return out


def _slot_of(keys: np.ndarray, bits: int) -> np.ndarray:
    """Each key's home slot in a table of 2**bits: the top bits of the key times 2**64/φ
    (Fibonacci hashing), int64 of shape keys.shape."""
    return ((keys.view(np.uint64) * _FIBONACCI) >> np.uint64(64 - bits)).astype(np.int64)
