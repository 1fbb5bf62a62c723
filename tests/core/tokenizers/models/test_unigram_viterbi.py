"""The Unigram Viterbi walk against a brute force over every segmentation (tiny
vocabularies of overlapping pieces, scores whose sums are exact so that ties are common),
and against ``tokenizers`` on the same vocabularies, including an ``unk_id`` that names an
ordinary piece (its matches fuse with unknown text, as in the reference). Each property
fails for a Viterbi that lets equal candidates replace earlier ones, drops or mis-scores
the unknown edge, or does not fuse unknown runs."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.errors import TokenizerLoadError
from core.tokenizers.models.unigram import UNK_PENALTY, Unigram, byte_piece

ALPHABET = "ab\u00e9x"  # a piece alphabet: "x" or "\u00e9" alone is often no piece
BYTES = [(byte_piece(b), -6.0) for b in range(256)]

# chunks that words are made of ("y" is never a piece)
CHUNKS = ["a", "b", "x", "\u00e9", "ab", "bx", "xa", "ab\u00e9"]
# pieces that often overlap in such words; each is in a vocabulary or not
COMMON = CHUNKS + ["ba", "aa", "bxa", "b\u00e9"]
# exact binary fractions: sums of a few are exact, and many of them tie (-1 + -1 = -2,
# 1 + -2 = -1, ...); the positive ones let an unknown edge beat a piece covering its text
scores = st.sampled_from([-4.0, -2.0, -1.0, -0.5, 0.0, 1.0, 3.0])
vocabularies = st.tuples(
    st.lists(st.one_of(st.none(), scores), min_size=len(COMMON), max_size=len(COMMON)),
    st.lists(st.tuples(st.text(ALPHABET, min_size=1, max_size=3), scores), max_size=4),
).map(lambda v: [(t, s) for t, s in zip(COMMON, v[0]) if s is not None] + v[1]).filter(bool)
words = st.lists(st.sampled_from(CHUNKS + ["y"]), max_size=5).map("".join).filter(
    lambda w: len(w) <= 8)
# a tie between two longer pieces into the same end: a|bxa (from 1) before ab|xa (from 2)
TIE = [("a", -1.0), ("b", -1.0), ("x", -1.0), ("ab", -2.0), ("bxa", -2.0), ("xa", -1.0)]


def brute_force(pieces, unk_id, byte_fallback, word):
    """``(token, id, start, end)`` of the best of *all* segmentations of ``word``.

    Edges: every piece ``word[i:j]`` (the later id of a duplicate), and one character of
    unknown (score ``min - UNK_PENALTY``) where no one-character piece starts. Best: the
    highest left-to-right sum; among equal sums, the smallest last start, then the smallest
    start before it, and so on (what keeping the first of equal candidates yields).
    Consecutive edges with id ``unk_id`` fuse into one token. O(exponential): tiny words only.
    """
    vocab = {t: i for i, (t, _) in enumerate(pieces)}
    scores = [s for _, s in pieces]
    unk_score = min(scores) - UNK_PENALTY
    n = len(word)

    def paths(i):
        if i == n:
            yield ()
            return
        for j in range(i + 1, n + 1):
            if word[i:j] in vocab:
                id_ = vocab[word[i:j]]
                for rest in paths(j):
                    yield ((i, j, id_, scores[id_]),) + rest
        if word[i] not in vocab:
            for rest in paths(i + 1):
                yield ((i, i + 1, unk_id, unk_score),) + rest

    def rank(path):
        total = 0.0
        for *_, s in path:
            total += s
        return (total, tuple(-a for a, *_ in reversed(path)))

    best = max(paths(0), key=rank) if n else ()
    fused: list[list] = []
    for a, b, id_, _ in best:
        if id_ == unk_id and fused and fused[-1][2] == unk_id:
            fused[-1][1] = b
        else:
            fused.append([a, b, id_])
    out = []
    for a, b, id_ in fused:
        text = word[a:b]
        if id_ != unk_id:
            out.append((text, id_, a, b))
            continue
        found = vocab.get(text)
        spelled = [byte_piece(x) for x in text.encode("utf-8")]
        if found is None and byte_fallback and all(p in vocab for p in spelled):
            out += [(p, vocab[p], a, b) for p in spelled]
        else:
            out.append((text, unk_id if found is None else found, a, b))
    return out


@settings(max_examples=400, deadline=None)
@given(pieces=vocabularies, word=words, unk=st.sampled_from(["<unk>", "a", "x"]),
       byte_fallback=st.booleans())
@example(pieces=TIE, word="abxa", unk="<unk>", byte_fallback=False)
def test_property_viterbi_equals_the_brute_force(pieces, word, unk, byte_fallback):
    """Ties (equal halves) and unknown text (y; x and é when they are no piece) are
    frequent; the unknown piece is sometimes an ordinary string that the word may contain."""
    pieces = [(unk, -1.0)] + pieces + (BYTES if byte_fallback else [])
    model = Unigram(pieces, 0, byte_fallback)
    assert model.tokenize(word) == brute_force(pieces, 0, byte_fallback, word)


@settings(max_examples=200, deadline=None)
@given(pieces=vocabularies, word=words, unk=st.sampled_from(["<unk>", "a", "x"]))
@example(pieces=TIE, word="abxa", unk="<unk>")
def test_property_viterbi_equals_tokenizers_on_ties(pieces, word, unk):
    tokenizers = pytest.importorskip("tokenizers")
    pieces = [(unk, -1.0)] + pieces
    ref = tokenizers.Tokenizer(tokenizers.models.Unigram(pieces, 0, False)).encode(word)
    want = [(t, i, a, b) for t, i, (a, b) in zip(ref.tokens, ref.ids, ref.offsets)]
    assert Unigram(pieces, 0).tokenize(word) == want


def test_brute_force_knows_the_tie_break_and_fusion():
    """The brute force itself: of a|b|c, ab|c and a|bc (all -3) the earliest last start
    wins; unknown runs fuse, literal matches of the unknown piece included."""
    pieces = [("<unk>", -1.0), ("a", -1.0), ("b", -1.0), ("ab", -2.0), ("bc", -2.0), ("c", -1.0)]
    assert brute_force(pieces, 0, False, "abc") == [("a", 1, 0, 1), ("bc", 4, 1, 3)]
    assert brute_force([("x", -1.0), ("a", -1.0)], 0, False, "yxza") == [
        ("yxz", 0, 0, 3), ("a", 1, 3, 4)]


@pytest.mark.parametrize("score", [float("inf"), float("-inf"), float("nan"), 10 ** 400])
def test_a_score_that_is_not_finite_is_a_load_error(score):
    with pytest.raises(TokenizerLoadError, match="entry 1 has a score that is not finite"):
        Unigram([("a", -1.0), ("b", score)], 0)
