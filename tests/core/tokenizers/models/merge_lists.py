"""Hypothesis strategies shared by the BPE merge tests: random merge lists over a tiny alphabet."""

from __future__ import annotations

from hypothesis import strategies as st

ALPHABET = "abc"
EVERY_ROUND = 1 << 40  # min_share: every round runs, however few pairs it merges


@st.composite
def merge_lists(draw):
    """A random merge list over ``ALPHABET``: each merge joins two symbols that exist.
    Returns ``(symbols, merges)``: the alphabet then every merged symbol, and the merges."""
    symbols, merges = list(ALPHABET), []
    for _ in range(draw(st.integers(0, 12))):
        a, b = draw(st.sampled_from(symbols)), draw(st.sampled_from(symbols))
        if (a, b) not in merges and len(a + b) <= 8:
            merges.append((a, b))
            if a + b not in symbols:
                symbols.append(a + b)
    return symbols, merges
