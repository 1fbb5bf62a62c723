"""The course material's pooling program, replayed by the stand-in (SPEC §7, ITEMS 000-13..21).

The material draws every document from one ``default_rng(0)`` stream in 4 dimensions with the
evidence (+3.0) and a junk spike (+8.0) on dimension 0, and prints 3-decimal averages over
200 documents per length. :func:`evidence_sweep` with its defaults draws the same stream, so
every printed figure comes out exactly, whatever other lengths the sweep also covers.
"""

from __future__ import annotations

import numpy as np
import pytest

from core.pooling import aggregate_chunks, attention_pool, mean_pool, noisy_or
from core.pooling.standin import MATERIAL_RUN, evidence_sweep, standin_document

# (condition, method) -> {length: the material's printed average}
PRINTED = {
    ("sparse", "mean"): {16: 0.589, 128: 0.075, 512: 0.016},
    ("sparse", "max"): {16: 3.977, 128: 3.874, 512: 3.936},
    ("junk", "mean"): {16: 0.496, 512: 0.019},
    ("junk", "max"): {16: 8.009, 512: 7.907},
    ("dense", "mean"): {16: 0.763, 128: 0.753, 512: 0.747},
    ("dense", "max"): {16: 4.061, 128: 5.088, 512: 5.550},
    ("sparse", "attention"): {16: 3.629, 128: 3.385, 512: 2.927},
}


@pytest.fixture(scope="module")
def material_sweep():
    return evidence_sweep([16, 128, 512])


@pytest.fixture(scope="module")
def wider_sweep():  # the material's lengths inside a wider range: its figures must not move
    return evidence_sweep([8, 16, 64, 128, 512, 1024], docs=200)


@pytest.mark.parametrize("key", PRINTED, ids=lambda k: "-".join(k))
def test_every_printed_average(material_sweep, wider_sweep, key):
    condition, method = key
    for sweep in (material_sweep, wider_sweep):
        got = {n: round(sweep.at(condition, method, n), 3) for n in PRINTED[key]}
        assert got == PRINTED[key]


def test_padding_example(material_sweep):
    p = material_sweep.padding
    assert (p.n, p.length) == (10, 64)
    assert (round(p.masked_mean, 3), round(p.unmasked_mean, 3), round(p.masked_max, 3)) == (0.452, 0.071, 2.871)
    assert p.unmasked_mean == pytest.approx(p.masked_mean * 10 / 64, rel=1e-12)


def test_two_hundred_documents_per_point(material_sweep):
    assert material_sweep.docs == 200 and material_sweep.lengths.tolist() == [16, 128, 512]
    assert [p for p, _ in MATERIAL_RUN] == ["sparse", "junk", "dense", "attention"]


def test_the_stream_is_the_materials_make_doc():
    """Document by document, the material's generator written out (noise, choice, integers)."""
    rng, mine = np.random.default_rng(0), np.random.default_rng(0)
    for n, n_signal, spike in ((10, 3, 0.0), (16, 3, 0.0), (512, 0, 8.0), (128, 32, 0.0)):
        H = rng.normal(0, 1.0, size=(n, 4))
        if n_signal:
            H[rng.choice(n, size=n_signal, replace=False)] += np.array([3.0, 0, 0, 0])
        if spike:
            H[rng.integers(n), 0] += spike
        kind = "none" if not n_signal else "sparse" if n_signal == 3 else "dense"
        doc = standin_document(n, evidence=kind, junk_spike=bool(spike), rng=mine)
        np.testing.assert_array_equal(doc.H, H)


def test_attention_example_and_noisy_or():
    H = np.array([[1.0, 0.0], [0.0, 1.0], [4.0, 0.0]])
    res = attention_pool(H, None, np.array([1.0, 0.0]))
    assert res.scores.tolist() == [1.0, 0.0, 4.0]
    assert np.round(res.weights, 4).tolist() == [0.0466, 0.0171, 0.9362]
    assert np.round(res.vector, 4).tolist() == [3.7916, 0.0171]
    assert np.round(mean_pool(H), 4).tolist() == [1.6667, 0.3333]
    agg = aggregate_chunks([0.1, 0.2, 0.7])
    assert round(noisy_or([0.1, 0.2, 0.7]), 4) == 0.784 and round(agg.mean, 4) == 0.3333 and agg.max == 0.7
