"""A synthetic clustered corpus for scale experiments (the seed's generator, SPEC §10).

``topics`` centres are drawn from a standard normal in ``dim`` dimensions; each vector is a
uniformly chosen centre plus ``noise`` times standard normal noise, scaled to unit length.
Queries are corpus vectors (chosen without replacement) plus 0.05 standard normal noise,
renormalized: near-duplicates whose exact neighbours sit in their own topic. With the
defaults at 100,000 × 64 a vector's cosine to its own centre is about 0.78.
"""

from __future__ import annotations

import numpy as np

from core.retrieval._checks import RetrievalError, whole_number

QUERY_NOISE = 0.05
MAX_CORPUS_BYTES = 1 << 30
"""Largest float32 corpus :func:`synthetic_corpus` builds: 1 GiB (2.8 M vectors of 96 dims)."""


def _unit(X: np.ndarray) -> np.ndarray:
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X


def synthetic_corpus(n: int, dim: int, *, topics: int = 200, noise: float = 0.8,
                     n_queries: int = 50, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Unit-length clustered vectors and near-duplicate queries.

    Parameters
    ----------
    n : int — corpus vectors, >= 1.
    dim : int — dimensions, >= 2.
    topics : int — topic centres, >= 1.
    noise : float — standard deviation of the per-component noise around a centre, >= 0.
    n_queries : int — queries, 0 .. n (each starts from a distinct corpus vector).
    seed : int — seed of ``numpy.random.default_rng``; the same arguments give the same arrays.

    Returns
    -------
    E : (n, dim) float32 ndarray — unit rows.
    Q : (n_queries, dim) float32 ndarray — unit rows.

    Raises
    ------
    RetrievalError
        A size out of range, a negative or non-finite ``noise``, or a corpus above
        :data:`MAX_CORPUS_BYTES` (1 GiB; 10M × 384 would be 15.4 GB).
    """
    n, dim, topics = whole_number("n", n), whole_number("dim", dim, 2), whole_number("topics", topics)
    n_queries, seed = whole_number("n_queries", n_queries, 0), whole_number("seed", seed, 0)
    if n_queries > n:
        raise RetrievalError(f"n_queries={n_queries} exceeds the corpus size n={n}")
    if not (isinstance(noise, (int, float)) and np.isfinite(noise) and noise >= 0):
        raise RetrievalError(f"noise must be a finite number >= 0, got {noise!r}")
    if 4 * n * dim > MAX_CORPUS_BYTES:
        raise RetrievalError(f"a {n} × {dim} float32 corpus takes {4 * n * dim / 1e9:.1f} GB, "
                             f"above the {MAX_CORPUS_BYTES >> 20} MiB limit; use fewer vectors or dimensions")
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((topics, dim), dtype=np.float32)
    labels = rng.integers(0, topics, size=n)
    E = rng.standard_normal((n, dim), dtype=np.float32)
    E *= np.float32(noise)
    E += centres[labels]
    E = _unit(E)
    picks = rng.choice(n, size=n_queries, replace=False)
    Q = E[picks] + np.float32(QUERY_NOISE) * rng.standard_normal((n_queries, dim), dtype=np.float32)
    return E, _unit(Q)
