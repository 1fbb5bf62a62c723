"""A synthetic clustered corpus for scale experiments (the course material's generator, SPEC §10).

``topics`` centres are drawn from a standard normal in ``dim`` dimensions; each vector is a
uniformly chosen centre plus ``noise`` times standard normal noise, scaled to unit length.
Queries are corpus vectors (chosen without replacement) plus 0.05 standard normal noise,
renormalized: near-duplicates whose exact neighbours sit in their own topic. With the
defaults at 100,000 × 64 a vector's cosine to its own centre is about 0.78.

The draws are the material's, in its order and precision: one ``default_rng(seed)``; centres
``normal(size=(topics, dim))`` in float64; topic labels ``integers(0, topics, n)``; noise
``normal(size=(n, dim))`` in float64, added to the centres and only then rounded to float32;
query rows ``choice(n, n_queries, replace=False)``; query noise ``normal`` in float64 rounded
to float32 before it is scaled by 0.05. So ``synthetic_corpus(100_000, 64)`` is the material's
corpus: query 0's top-3 ids are 71429, 29778, 66022 (cosines 0.9396, 0.7573, 0.7373) and int8
codes keep 0.986 of the exact top-10 over the 50 queries.
"""

from __future__ import annotations

import numpy as np

from core.retrieval._checks import RetrievalError, whole_number

QUERY_NOISE = 0.05
_BLOCK_VALUES = 1 << 21  # float64 noise values drawn at once (16 MiB)
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

    Cost: O(n · dim) time; memory the float32 corpus plus 16 MiB of float64 noise, drawn in
    row blocks (the loop runs over blocks, not vectors) that continue one stream.

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
    centres = rng.normal(size=(topics, dim))  # float64, as the material draws them
    labels = rng.integers(0, topics, size=n)
    E = np.empty((n, dim), dtype=np.float32)
    step = max(1, _BLOCK_VALUES // dim)  # rows per block: the float64 noise stays bounded
    for a in range(0, n, step):  # blocks continue one stream: the same values as one draw
        b = min(n, a + step)
        E[a:b] = centres[labels[a:b]] + noise * rng.normal(size=(b - a, dim))
    E = _unit(E)
    picks = rng.choice(n, size=n_queries, replace=False)
    Q = E[picks] + QUERY_NOISE * rng.normal(size=(n_queries, dim)).astype(np.float32)
    return E, _unit(Q)
