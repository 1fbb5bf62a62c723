"""Pooling, chunk windows and noisy-OR: SPEC §7 golden figures and properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core.errors import SubwordScopeError
from core.pooling import (
    aggregate_chunks,
    attention_pool,
    chunk_windows,
    cls_pool,
    contributions,
    cosine_matrix,
    max_pool,
    mean_pool,
    noisy_or,
    pad_rows,
    pool,
    unmasked_mean,
)
from core.pooling.standin import evidence_sweep, standin_document

GOLDEN_H = np.array([[1.0, 0.0], [0.0, 1.0], [4.0, 0.0]])


# -- SPEC §7 golden figures ----------------------------------------------------------------
def test_attention_pool_golden():
    res = attention_pool(GOLDEN_H, None, np.array([1.0, 0.0]))
    assert res.scores.tolist() == [1.0, 0.0, 4.0]
    assert np.round(res.weights, 4).tolist() == [0.0466, 0.0171, 0.9362]
    assert np.round(res.vector, 4).tolist() == [3.7916, 0.0171]


def test_plain_mean_golden():
    assert np.round(mean_pool(GOLDEN_H), 4).tolist() == [1.6667, 0.3333]


def test_padding_10_to_64_golden():
    H = np.random.default_rng(3).normal(size=(10, 8))
    P, mask = pad_rows(H, 64)
    assert np.array_equal(mean_pool(P, mask), mean_pool(H))  # exactly
    np.testing.assert_allclose(unmasked_mean(P), mean_pool(H) * 10 / 64, rtol=1e-12)
    assert np.array_equal(max_pool(P, mask).vector, H.max(axis=0))


def test_chunk_windows_golden():
    assert chunk_windows(2000, 510, 128) == [
        (0, 510), (382, 892), (764, 1274), (1146, 1656), (1528, 2000)
    ]
    assert chunk_windows(2000) == chunk_windows(2000, 510, 128)
    assert len(chunk_windows(2000, 510, 0)) == 4


def test_noisy_or_golden():
    agg = aggregate_chunks([0.1, 0.2, 0.7])
    assert round(noisy_or([0.1, 0.2, 0.7]), 3) == 0.784
    assert round(agg.noisy_or, 3) == 0.784
    assert round(agg.mean, 4) == 0.3333
    assert agg.max == 0.7
    # mean of logits: (ln(1/9) + ln(1/4) + ln(7/3)) / 3 -> sigmoid
    z = (np.log(1 / 9) + np.log(1 / 4) + np.log(7 / 3)) / 3
    assert agg.mean_logit == pytest.approx(1 / (1 + np.exp(-z)), abs=1e-12)
    assert round(agg.mean_logit, 4) == 0.2866


# -- small cases ---------------------------------------------------------------------------
def test_max_pool_winners_and_shares():
    H = np.array([[1.0, 5.0, 0.0], [2.0, 1.0, 0.0], [9.0, 9.0, 9.0]])
    res = max_pool(H, np.array([1, 1, 0]))
    assert res.vector.tolist() == [2.0, 5.0, 0.0]
    assert res.winners.tolist() == [1, 0, 0]  # tie in the last column goes to row 0
    assert res.shares.tolist() == [2 / 3, 1 / 3, 0.0]


def test_cls_and_contributions():
    H = np.arange(12.0).reshape(3, 4)
    assert cls_pool(H).tolist() == [0.0, 1.0, 2.0, 3.0]
    mask = np.array([1, 1, 0])
    assert contributions(H, mask, "cls").tolist() == [1.0, 0.0, 0.0]
    assert contributions(H, mask, "mean").tolist() == [0.5, 0.5, 0.0]
    assert contributions(H, mask, "max").tolist() == [0.0, 1.0, 0.0]
    assert np.array_equal(pool(H, mask, "max"), H[1])


def test_batched_pooling_matches_rows():
    rng = np.random.default_rng(1)
    H = rng.normal(size=(3, 6, 5))
    mask = np.array([[1, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0], [1, 0, 0, 0, 0, 0]])
    w = rng.normal(size=5)
    for b in range(3):
        n = mask[b].sum()
        np.testing.assert_allclose(mean_pool(H, mask)[b], H[b, :n].mean(axis=0))
        np.testing.assert_allclose(max_pool(H, mask).vector[b], H[b, :n].max(axis=0))
        np.testing.assert_allclose(attention_pool(H, mask, w).vector[b],
                                   attention_pool(H[b, :n], None, w).vector)


def test_cosine_matrix():
    C = cosine_matrix(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]]))
    assert C[0, 1] == pytest.approx(np.sqrt(0.5))
    assert C[0, 0] == pytest.approx(1.0)
    assert C[2].tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    "call",
    [
        lambda: mean_pool(np.ones((3, 2)), np.zeros(3)),
        lambda: mean_pool(np.ones((3, 2)), np.ones(4)),
        lambda: mean_pool(np.ones(3)),
        lambda: cls_pool(np.ones((3, 2)), np.array([0, 1, 1])),
        lambda: attention_pool(np.ones((3, 2)), None, np.ones(3)),
        lambda: contributions(np.ones((3, 2)), None, "median"),
        lambda: chunk_windows(10, 5, 5),
        lambda: chunk_windows(10, 0, 0),
        lambda: noisy_or([]),
        lambda: noisy_or([1.5]),
        lambda: pad_rows(np.ones((5, 2)), 3),
        lambda: standin_document(0),
        lambda: standin_document(10, evidence="lots"),
    ],
)
def test_bad_input_raises_typed_error(call):
    with pytest.raises(SubwordScopeError):
        call()


# -- properties ----------------------------------------------------------------------------
finite = st.floats(-100, 100, allow_nan=False, width=64)


@st.composite
def docs(draw):
    n = draw(st.integers(1, 12))
    d = draw(st.integers(1, 6))
    H = draw(arrays(np.float64, (n, d), elements=finite))
    extra = draw(st.integers(0, 20))
    return H, extra


@settings(max_examples=150, deadline=None)
@given(docs())
def test_masked_mean_and_max_invariant_to_padding(doc):
    H, extra = doc
    P, mask = pad_rows(H, len(H) + extra)
    P[len(H):] = 1e6  # padding content must not matter either
    np.testing.assert_allclose(mean_pool(P, mask), mean_pool(H), rtol=1e-12, atol=1e-9)
    assert np.array_equal(max_pool(P, mask).vector, max_pool(H).vector)
    assert np.array_equal(max_pool(P, mask).winners, max_pool(H).winners)


@settings(max_examples=150, deadline=None)
@given(docs(), st.data())
def test_attention_weights_sum_to_one_over_real_tokens(doc, data):
    H, extra = doc
    w = data.draw(arrays(np.float64, (H.shape[1],), elements=st.floats(-3, 3)))
    P, mask = pad_rows(H, len(H) + extra)
    res = attention_pool(P, mask, w)
    assert res.weights[mask == 1].sum() == pytest.approx(1.0, abs=1e-12)
    assert (res.weights[mask == 0] == 0).all()
    assert (res.weights >= 0).all()
    for method in ("mean", "max", "cls"):
        c = contributions(P, mask, method)
        assert c.sum() == pytest.approx(1.0) and (c[mask == 0] == 0).all()


def _reference_windows(n, content, overlap):
    """Obvious version: every multiple of the stride that still has tokens left."""
    stride = content - overlap
    out = []
    for start in range(0, max(n, 1), stride):
        out.append((start, min(start + content, n)))
        if start + content >= n:
            break
    return out if n else []


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3000), st.integers(1, 600), st.data())
def test_chunk_windows_cover_and_overlap(n, content, data):
    overlap = data.draw(st.integers(0, content - 1))
    wins = chunk_windows(n, content, overlap)
    assert wins == _reference_windows(n, content, overlap)
    covered = np.zeros(n, dtype=int)
    for s, e in wins:
        assert 0 <= s < e <= n and e - s <= content
        covered[s:e] += 1
    assert (covered >= 1).all()
    for (s0, e0), (s1, e1) in zip(wins, wins[1:]):
        assert s1 - s0 == content - overlap
        assert e0 - s1 == overlap or e1 == n  # full windows overlap by exactly `overlap`
    if wins:
        assert wins[0][0] == 0 and wins[-1][1] == n


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=8))
def test_noisy_or_against_reference(p):
    direct = 1.0
    for x in p:
        direct *= 1.0 - x
    assert noisy_or(p) == pytest.approx(1.0 - direct, abs=1e-12)
    assert max(p) - 1e-12 <= noisy_or(p) <= 1.0


# -- stand-in ------------------------------------------------------------------------------
def test_standin_is_reproducible_and_marks_evidence():
    a = standin_document(50, 16, seed=7, junk_spike=True, k_dims=4, junk_strength=25.0)
    b = standin_document(50, 16, seed=7, junk_spike=True, k_dims=4, junk_strength=25.0)
    assert np.array_equal(a.H, b.H)
    assert len(a.evidence_rows) == 3 and a.junk_row not in a.evidence_rows
    assert len(standin_document(200, evidence="dense", density=0.1).evidence_rows) == 20
    assert a.H[a.junk_row, :4].min() > 15  # spike on the evidence dimensions


def test_sweep_teaches_the_length_effects():
    # the pane's former settings (32 dims, evidence on 4, 10 % dense, a spike of 25): the
    # lessons hold there too; the material's own settings are pinned in test_material.py
    old = dict(d=32, k_dims=4, density=0.1, junk_strength=25.0, attention_scale=1.0, docs=5)
    sw = evidence_sweep([16, 256, 2048], seed=0, **old)
    sparse, dense, junk = sw.signal["sparse"], sw.signal["dense"], sw.signal["junk"]
    assert sparse["mean"][0] > 0.3 > 0.05 > sparse["mean"][-1]  # sparse evidence fades
    assert sparse["max"][-1] > 2.5  # max keeps it
    assert dense["mean"][-1] == pytest.approx(0.3, abs=0.1)  # 10 % of tokens at strength 3
    assert junk["max"].min() > 20 and junk["mean"][-1] < 0.1  # one spike fools max only
    again = evidence_sweep([16, 256, 2048], seed=0, **old)
    assert np.array_equal(again.signal["junk"]["attention"], junk["attention"])


# -- comparisons the pane shows ------------------------------------------------------------
from core.pooling.compare import compare_methods, padding_demo, score_chunks  # noqa: E402
from core.encoder import StandInEncoder  # noqa: E402


def test_compare_methods_golden_attention_with_given_query():
    H = np.stack([np.vstack([GOLDEN_H, [[9.0, 9.0]]])])  # one padded row
    mask = np.array([[1, 1, 1, 0]])
    cmp = compare_methods(H, mask, queries=np.array([[1.0, 0.0]]))
    assert np.round(cmp.contributions["attention"][0], 4).tolist() == [0.0466, 0.0171, 0.9362, 0.0]
    assert np.round(cmp.pooled["attention"][0], 4).tolist() == [3.7916, 0.0171]
    assert np.round(cmp.pooled["mean"][0], 4).tolist() == [1.6667, 0.3333]
    assert cmp.pooled["max"][0].tolist() == [4.0, 1.0]
    assert cmp.cosine["cls"].shape == (1, 1)


def test_compare_methods_default_query_is_unit_centroid():
    rng = np.random.default_rng(0)
    H = rng.normal(size=(3, 5, 4))
    mask = np.array([[1] * 5, [1] * 3 + [0] * 2, [1] * 4 + [0]])
    cmp = compare_methods(H, mask)
    m = mean_pool(H, mask)
    np.testing.assert_allclose(cmp.queries, m / np.linalg.norm(m, axis=1, keepdims=True))
    for method, C in cmp.cosine.items():
        np.testing.assert_allclose(np.diag(C), 1.0)
        np.testing.assert_allclose(C, C.T)
        np.testing.assert_allclose(cmp.contributions[method].sum(axis=1), 1.0)


def test_padding_demo_shrinks_by_n_over_L():
    H = np.random.default_rng(3).normal(size=(10, 6)) - 0.5
    demo = padding_demo(H, 64)
    assert demo.shrink == 10 / 64
    np.testing.assert_allclose(demo.unmasked_mean, demo.masked_mean * 10 / 64)
    assert np.array_equal(demo.masked_max, H.max(axis=0))
    neg = H.max(axis=0) < 0
    assert (demo.unmasked_max[neg] == 0).all()  # padding zeros win where every value is negative
    i = int(np.where(demo.lengths == 64)[0][0])
    assert demo.norm_ratio[i] == pytest.approx(10 / 64)
    assert demo.max_changed[0] == 0 and demo.max_changed[i] == pytest.approx(neg.mean())


def test_score_chunks_aggregates():
    V = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    sc = score_chunks(V, np.array([1.0, 1.0]))
    np.testing.assert_allclose(sc.cosine, [np.sqrt(0.5), np.sqrt(0.5), -np.sqrt(0.5)])
    np.testing.assert_allclose(sc.probabilities, [np.sqrt(0.5), np.sqrt(0.5), 0.0])
    assert sc.aggregate.noisy_or == pytest.approx(1 - (1 - np.sqrt(0.5)) ** 2)


def test_standin_encoder_offsets_and_chunks():
    enc = StandInEncoder(d=16, seed=1)
    text = "Zoé flew, to İstanbul!"
    out = enc.encode([text, "to"])
    assert out.tokens[0] == ("[CLS]", "zoé", "flew", ",", "to", "i̇stanbul", "!", "[SEP]")
    assert [text[s:e] for s, e in out.offsets[0][1:-1]] == ["Zoé", "flew", ",", "to", "İstanbul", "!"]
    assert out.attention_mask.tolist()[1] == [1, 1, 1, 0, 0, 0, 0, 0]
    assert np.array_equal(out.last_hidden_state[0, 4], out.last_hidden_state[1, 1])  # same word
    doc = enc.encode_document(text, content=3, overlap=1)
    assert doc.windows == ((0, 3), (2, 5), (4, 6))
    assert doc.char_spans == ((0, 9), (8, 21), (13, 22))
    V = np.stack([enc.vector(t) for t in ("[CLS]", "zoé", "flew", ",", "[SEP]")])
    np.testing.assert_allclose(doc.vectors[0], V.mean(axis=0), rtol=1e-6)


# --- bad input (tester findings) -------------------------------------------------------------

from core.pooling import MAX_WINDOWS, PoolingError, window_spans  # noqa: E402


@pytest.mark.parametrize(
    "offsets, windows, match",
    [
        ([(0, 1)], [(0, 5)], r"windows\[0\] = \(0, 5\).*1 tokens"),
        ([(0, 1), (1, 2)], [(0, 1), (1, 1)], r"windows\[1\].*non-empty"),
        ([(0, 1)], [(1, 0)], r"windows\[0\].*ends before it starts"),
        ([(0, 1)], [(-1, 1)], r"windows\[0\].*whole numbers"),
        ([(0, 1)], [None], r"windows\[0\].*pair"),
        ([None], [(0, 1)], r"offsets\[0\].*pair"),
        ([(0, 1)], 5, r"windows must be a sequence"),
    ],
)
def test_window_spans_rejects_bad_windows_with_their_index(offsets, windows, match):
    with pytest.raises(PoolingError, match=match):
        window_spans(offsets, windows)


def test_window_spans_accepts_numpy_offsets():
    offsets = np.array([[0, 3], [4, 7], [8, 9]])
    assert window_spans(offsets, [(0, 2), (1, 3)]) == [(0, 7), (4, 9)]


def test_chunk_windows_caps_the_window_count_before_building():
    with pytest.raises(PoolingError, match=r"100,000,000 windows.*limit of 100,000"):
        chunk_windows(10**8, 1, 0)
    stride = 510 - 128
    n_at_cap = 510 + (MAX_WINDOWS - 1) * stride
    assert len(chunk_windows(n_at_cap)) == MAX_WINDOWS
    with pytest.raises(PoolingError, match="limit"):
        chunk_windows(n_at_cap + 1)
    for bad in [("n", -1, 510, 0), ("content", 10, 2.5, 0), ("overlap", 10, 5, "1"), ("n", None, 5, 0)]:
        with pytest.raises(PoolingError, match=bad[0]):
            chunk_windows(*bad[1:])


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 5000), st.integers(1, 600), st.data())
def test_chunk_windows_matches_the_stepping_reference(n, content, data):
    overlap = data.draw(st.integers(0, content - 1))
    ref, start = [], 0
    while start < n:
        end = min(start + content, n)
        ref.append((start, end))
        if end == n:
            break
        start += content - overlap
    assert chunk_windows(n, content, overlap) == ref


def test_pad_rows_checks_length_and_size():
    with pytest.raises(PoolingError, match="length must be a whole number"):
        pad_rows(np.ones((2, 3)), 2.5)
    with pytest.raises(PoolingError, match="256 MiB"):
        pad_rows(np.ones((2, 3)), 10**12)
    with pytest.raises(PoolingError, match=r"\(n, d\)"):
        pad_rows(np.ones(3), 4)
