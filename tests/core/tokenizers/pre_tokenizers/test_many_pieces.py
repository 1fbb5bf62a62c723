"""Many pieces pre-tokenized together equal each pre-tokenized alone.

A text cut by many added tokens (a chat prompt) sends its pieces to the pre-tokenizer in one
``split_mapped_flat`` call, which lays their words end to end; a Sequence ending in
ByteLevel then spells the words of all pieces at once, after its Split has cut each
(``split_texts``). Maps may be None where each word character stands for the normalized
character at its own place (ByteLevel on ASCII text): the tests compare maps after writing
such a None out as those places.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.text.byte_alphabet import from_byte_level
from core.tokenizers.pre_tokenizers import build_pre_tokenizer

BL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
LLAMA_SPLIT = {"type": "Split", "pattern": {"Regex": (
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+"
    "[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+")}, "behavior": "Isolated", "invert": False}
PRE_TOKENIZERS = {
    "split-then-bytes": {"type": "Sequence", "pretokenizers": [LLAMA_SPLIT, BL]},
    "bytes-gpt2": dict(BL, use_regex=True),
    "bytes-prefix": dict(BL, use_regex=True, add_prefix_space=True),
    "whitespace-then-metaspace": {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True}]},
    "plain": {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"}, {"type": "Punctuation", "behavior": "Isolated"}]},
}
BUILT = {name: build_pre_tokenizer(cfg) for name, cfg in PRE_TOKENIZERS.items()}

_pieces = st.lists(st.text(st.sampled_from(list(
    "ab Z1'\n\t.,éअि्கு한ไก่مرحبا👨\u200d👩\u00a0\u0301")), max_size=24), min_size=1, max_size=8)


def _written_out(words: list[str], starts: list[int], maps):
    """``maps`` as two lists, a None written out as each word character's own place."""
    if maps is not None:
        return np.asarray(maps[0]).tolist(), np.asarray(maps[1]).tolist()
    lo = [s + k for w, s in zip(words, starts) for k in range(len(w))]
    return lo, [x + 1 for x in lo]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(BUILT)), _pieces)
@example("split-then-bytes", ["Hi there", "", "नमस्ते दुनिया", "ok\n\n", "👨\u200d👩 x"])
def test_pieces_together_equal_each_alone(name, pieces):
    """Laid end to end, each piece's words, starts and maps moved by its ``at`` (its start
    in a longer text) equal the piece's own."""
    pre = BUILT[name]
    shifts = [3 * k for k in range(len(pieces))]
    for at in (None, shifts):
        words, starts, maps, counts = pre.split_mapped_flat(pieces, at)
        assert len(counts) == len(pieces) and sum(counts) == len(words) == len(starts)
        lo, hi = _written_out(words, starts, maps)
        assert len(lo) == sum(map(len, words))
        w = chars = 0
        for piece, n, shift in zip(pieces, counts, at or [0] * len(pieces)):
            w1, s1, m1 = pre.split_mapped(piece, 0)
            assert (words[w:w + n], starts[w:w + n]) == (w1, [x + shift for x in s1]), piece
            size = sum(map(len, w1))
            lo1, hi1 = _written_out(w1, s1, m1)
            assert lo[chars:chars + size] == [x + shift for x in lo1], piece
            assert hi[chars:chars + size] == [x + shift for x in hi1], piece
            w, chars = w + n, chars + size


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(st.sampled_from(list("ab Z1'\n.,é👨\u200d")), max_size=24), max_size=8),
       st.sampled_from(["Isolated", "Removed", "MergedWithPrevious"]), st.booleans())
@example(["", "a  b", "1'\n"], "Isolated", False)
def test_split_texts_equal_split_one_by_one(pieces, behavior, invert):
    """A Split's words of many texts laid end to end (its tiles found by one ``findall`` a
    text, the starts moved by ``at`` in one pass) equal :meth:`split` of each, for
    patterns whose matches tile the texts or do not."""
    for pattern in (LLAMA_SPLIT["pattern"]["Regex"], "\\s+", "a|(?=b)"):
        split = build_pre_tokenizer({"type": "Split", "pattern": {"Regex": pattern},
                                     "behavior": behavior, "invert": invert})
        one_by_one = [split.split(p) for p in pieces]
        at = [len(p) + 1 for p in pieces]
        words, starts, counts = split.split_texts(pieces, at)
        assert counts == [len(w) for w, _ in one_by_one]
        assert words == [w for ws, _ in one_by_one for w in ws]
        assert starts == [s + a for (_, ss), a in zip(one_by_one, at) for s in ss]
        assert split.split_texts(pieces)[1] == [s for _, ss in one_by_one for s in ss]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
@example("")
@example("a b")
@example(" é")
def test_byte_level_leaves_out_the_map_only_where_places_are_kept(text):
    """ByteLevel gives no map exactly for ASCII text with no space prepended (and for no
    text), and then each word spells, one character a byte, the text at its own places."""
    for name in ("bytes-gpt2", "bytes-prefix"):
        words, starts, maps = BUILT[name].split_mapped(text)
        prepends = name == "bytes-prefix" and not text.startswith(" ")
        assert (maps is None) == (not text or text.isascii() and not prepends), (name, text)
        if maps is None:
            assert [from_byte_level(w).decode("ascii") for w in words] == [
                text[s:s + len(w)] for w, s in zip(words, starts)]
