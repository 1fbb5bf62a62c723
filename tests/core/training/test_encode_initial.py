"""``encode_initial`` (the trainer's initial symbols, encoded in bulk) against the per-word
definition ``initial_symbols``, and the fast path of ``validated_counts``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.symbols import (
    MARKERS,
    TrainingError,
    encode_initial,
    initial_symbols,
    validated_counts,
)


def reference(words, marker):
    """Sorted distinct symbols and every word as a str of chr(id), one word at a time."""
    split = [initial_symbols(w, marker) for w in words]
    names = sorted({s for syms in split for s in syms})
    ids = {s: i for i, s in enumerate(names)}
    return names, ["".join(chr(ids[s]) for s in syms) for syms in split]


# '#', '<', '/', 'w', '>' can spell the markers themselves; é is two UTF-8 bytes, 😀 four.
words = st.lists(st.text(alphabet="ab#</w>é😀", min_size=1, max_size=8), min_size=1,
                 max_size=12, unique=True)


@pytest.mark.parametrize("marker", MARKERS)
@settings(max_examples=150, deadline=None)
@given(words=words)
def test_encode_initial_equals_the_per_word_split(marker, words):
    assert encode_initial(words, marker) == reference(words, marker)


@pytest.mark.parametrize("marker", MARKERS)
def test_encode_initial_on_known_words(marker):
    names, encoded = encode_initial(["low", "wé", "##"], marker)
    assert [tuple(names[ord(ch)] for ch in e) for e in encoded] == [
        initial_symbols(w, marker) for w in ["low", "wé", "##"]]
    assert names == sorted(set(names))


def test_encode_initial_rejects_an_unknown_marker():
    with pytest.raises(TrainingError, match="marker style"):
        encode_initial(["ab"], "@@")


class Weird(str):
    """A str subclass: not the fast path, still a word."""


@pytest.mark.parametrize("counts", [{"ab": 2, "b": 1}, {Weird("ab"): 2}, {"ab": 2, "c": 1 << 70}])
def test_validated_counts_keeps_order_and_values(counts):
    words, values = validated_counts(counts)
    assert words == list(counts) and values == list(counts.values())
    assert all(type(v) is int for v in values)
