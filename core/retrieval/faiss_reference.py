"""FAISS as the reference (optional ``faiss-cpu``): flat exact search and IndexIVFFlat sweeps.

Every function returns None when ``faiss`` is not importable, so a caller (the pane) shows the
FAISS column only when the package is installed. The IVF reference is
``IndexIVFFlat(IndexFlatIP(d), d, nlist, METRIC_INNER_PRODUCT)`` with the k-means seed set,
FAISS's defaults otherwise (10 iterations, at most 256 training vectors per centroid).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np

from core.retrieval._checks import as_corpus, as_queries, whole_number
from core.retrieval.exact import top_k
from core.retrieval.recall import DEFAULT_NPROBES, IVFSweep, recall_at_k


def faiss_module() -> ModuleType | None:
    """The ``faiss`` module, or None when it is not installed (an optional dependency)."""
    try:
        import faiss  # optional: the [faiss] extra
    except ImportError:
        return None
    return faiss


def _float32(E, Q):
    E = np.ascontiguousarray(as_corpus(E), dtype=np.float32)
    Qm, _ = as_queries(Q, E.shape[1], np.dtype(np.float32))
    return E, Qm


def faiss_flat_search(E, Q, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Exact inner-product top-``k`` with ``faiss.IndexFlatIP`` (None without faiss).

    Parameters
    ----------
    E : (N, d) float ndarray
    Q : (Q, d) or (d,) float ndarray
    k : int

    Returns
    -------
    ids : (Q, k) int64 ndarray, scores : (Q, k) float32 ndarray — or None.
    """
    faiss = faiss_module()
    if faiss is None:
        return None
    E, Qm = _float32(E, Q)
    index = faiss.IndexFlatIP(E.shape[1])
    index.add(E)
    scores, ids = index.search(Qm, whole_number("k", k))
    return ids, scores


def faiss_ivf_index(E, nlist: int, *, seed: int = 0):
    """A trained and filled ``faiss.IndexIVFFlat`` on ``E`` (None without faiss)."""
    faiss = faiss_module()
    if faiss is None:
        return None
    E = np.ascontiguousarray(as_corpus(E), dtype=np.float32)
    d = E.shape[1]
    index = faiss.IndexIVFFlat(faiss.IndexFlatIP(d), d, whole_number("nlist", nlist), faiss.METRIC_INNER_PRODUCT)
    index.cp.seed = whole_number("seed", seed, 0)
    index.cp.min_points_per_centroid = 1  # only silences FAISS's "provide at least ..." warning on small corpora
    index.train(E)
    index.add(E)
    return index


def faiss_ivf_sweep(E, Q, nlist: int, nprobes: Sequence[int] = DEFAULT_NPROBES, k: int = 10, *,
                    seed: int = 0, index=None, exact=None) -> IVFSweep | None:
    """FAISS ``IndexIVFFlat``'s recall@k and fraction scanned per nprobe (None without faiss).

    The fraction scanned is FAISS's own count of distances computed
    (``indexIVF_stats.ndis``) over ``Q · N``. Recall is against our exact
    :func:`~core.retrieval.exact.top_k` (equal to ``IndexFlatIP``'s).

    Cost: the FAISS build when no ``index`` is given, one exact search when no ``exact`` is
    given, and one FAISS search per nprobe (the loop runs over ``nprobes``).
    """
    faiss = faiss_module()
    if faiss is None:
        return None
    E32, Qm = _float32(E, Q)
    nprobes = tuple(whole_number("nprobe", p) for p in nprobes)
    index = faiss_ivf_index(E32, nlist, seed=seed) if index is None else index
    exact = top_k(E32, Qm, k) if exact is None else np.asarray(exact)
    stats = faiss.cvar.indexIVF_stats
    recall, scanned = [], []
    for p in nprobes:
        index.nprobe = p
        stats.reset()
        _, ids = index.search(Qm, k)
        recall.append(recall_at_k(ids, exact))
        scanned.append(float(stats.ndis / (Qm.shape[0] * E32.shape[0])))
    return IVFSweep(nlist, k, nprobes, tuple(recall), tuple(scanned), source="faiss")
