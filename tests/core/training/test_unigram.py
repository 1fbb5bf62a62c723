"""Unigram lattice and Viterbi: SPEC §5 golden figures and a brute-force check."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.training.unigram import (
    BUILTIN_COUNTS,
    NoSegmentationError,
    builtin_log_probs,
    lattice,
    log_probs_from_counts,
    n_best,
    path_score,
    viterbi,
)


def test_builtin_vocabulary_is_specs():
    assert sum(BUILTIN_COUNTS.values()) == 58 and len(BUILTIN_COUNTS) == 17


@pytest.mark.parametrize("word, pieces, score", [
    ("lowest", ["low", "est"], -3.978),
    ("newest", ["new", "est"], -4.132),
    ("lowers", ["low", "er", "s"], -8.156),
])
def test_golden_best_paths(word, pieces, score):
    got, got_score = viterbi(word, builtin_log_probs(), max_len=5)
    assert got == pieces and round(got_score, 3) == score


def test_golden_candidates_for_lowest():
    lp = builtin_log_probs()
    assert [round(path_score(p.split("+"), lp), 3) for p in ("low+est", "lo+west", "l+o+w+est")] \
        == [-3.978, -6.329, -11.272]
    best = n_best("lowest", lp, 2)
    assert [b.pieces for b in best] == [("low", "est"), ("lo", "west")]
    assert round(best[1].score, 3) == -6.329


def test_lattice_lists_every_piece_with_its_span():
    edges = lattice("lowest", builtin_log_probs(), max_len=5)
    assert all("lowest"[e.start:e.end] == e.piece for e in edges)
    assert {(e.start, e.end) for e in edges} >= {(0, 3), (3, 6), (2, 6), (0, 4)}
    assert ("lowest"[0:6] in BUILTIN_COUNTS) is False
    assert max(e.end - e.start for e in lattice("lowest", builtin_log_probs(), max_len=3)) == 3


def test_uncovered_word_raises_a_clear_error():
    with pytest.raises(NoSegmentationError, match="position 2 .'x'."):
        viterbi("lox", builtin_log_probs())
    with pytest.raises(NoSegmentationError):
        viterbi("", builtin_log_probs())


def brute_force(word, log_probs, max_len):
    """Every segmentation of ``word`` into vocabulary pieces, scored."""
    out = []
    for cuts in itertools.product([False, True], repeat=max(0, len(word) - 1)):
        bounds = [0] + [i + 1 for i, c in enumerate(cuts) if c] + [len(word)]
        pieces = tuple(word[a:b] for a, b in zip(bounds, bounds[1:]))
        if all(p in log_probs and len(p) <= max_len for p in pieces):
            out.append((sum(log_probs[p] for p in pieces), pieces))
    return sorted(out, key=lambda t: (-t[0], t[1]))


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="lowestnrid", min_size=1, max_size=9), st.integers(1, 5),
       st.integers(1, 6))
def test_n_best_equals_brute_force(word, max_len, n):
    lp = builtin_log_probs()
    expected = brute_force(word, lp, max_len)
    if not expected:
        with pytest.raises(NoSegmentationError):
            n_best(word, lp, n, max_len)
        return
    got = n_best(word, lp, n, max_len)
    assert len(got) == min(n, len(expected))
    for g, (score, _pieces) in zip(got, expected):
        assert math.isclose(g.score, score, abs_tol=1e-9)
        assert "".join(g.pieces) == word
        assert math.isclose(path_score(g.pieces, lp), g.score, abs_tol=1e-9)


def test_log_probs_reject_bad_counts():
    with pytest.raises(ValueError):
        log_probs_from_counts({"a": 0})
