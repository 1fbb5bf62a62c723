"""FAISS as the reference (optional ``faiss-cpu``): flat exact search and IndexIVFFlat sweeps.

Every function returns None when ``faiss`` is not importable, so a caller (the pane) shows the
FAISS column only when the package is installed. The IVF reference is
``IndexIVFFlat(IndexFlatIP(d), d, nlist, METRIC_INNER_PRODUCT)`` with the k-means seed set,
FAISS's defaults otherwise (10 iterations, at most 256 training vectors per centroid).

Arguments are checked as :mod:`core.retrieval` checks them, before FAISS sees them: every
function raises :class:`~core.retrieval.RetrievalError` for a corpus that is ragged, empty,
not real or not finite, queries of another width, ``k`` / ``nlist`` / ``nprobe`` below 1,
``nlist`` above the corpus size or ``exact`` ids that are not integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np

from core.retrieval._checks import (
    RetrievalError, as_corpus, as_ids, as_queries, check_finite, whole_number, whole_numbers,
)
from core.retrieval.exact import top_k
from core.retrieval.recall import DEFAULT_NPROBES, IVFSweep, recall_at_k


def faiss_module() -> ModuleType | None:
    """The ``faiss`` module, or None when it is not installed (an optional dependency)."""
    try:
        import faiss  # optional: the [faiss] extra
    except ImportError:
        return None
    return faiss


def _corpus32(E) -> np.ndarray:
    """``E`` as a finite float32 ``(N, d)`` array."""
    return check_finite(np.ascontiguousarray(as_corpus(E), dtype=np.float32), "E")


def _float32(E, Q) -> tuple[np.ndarray, np.ndarray]:
    """``E`` as :func:`_corpus32` and ``Q`` as float32 ``(Q, d)`` queries."""
    E = _corpus32(E)
    return E, as_queries(Q, E.shape[1], np.dtype(np.float32))[0]


def _nlist(nlist, n: int) -> int:
    nlist = whole_number("nlist", nlist)
    if nlist > n:
        raise RetrievalError(f"cannot make {nlist} cells from {n} vectors; use at most {n}")
    return nlist


def faiss_flat_search(E, Q, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Exact inner-product top-``k`` with ``faiss.IndexFlatIP`` (None without faiss).

    Parameters
    ----------
    E : (N, d) float ndarray
    Q : (Q, d) or (d,) float ndarray
    k : int

    Returns
    -------
    ids : (Q, min(k, N)) int64 ndarray, scores : (Q, min(k, N)) float32 ndarray — or None.
    """
    faiss = faiss_module()
    if faiss is None:
        return None
    E, Qm = _float32(E, Q)
    k = min(whole_number("k", k), E.shape[0])  # as exact search: never more than the corpus holds
    if Qm.shape[0] == 0:
        return np.empty((0, k), np.int64), np.empty((0, k), np.float32)
    index = faiss.IndexFlatIP(E.shape[1])
    index.add(E)
    scores, ids = index.search(Qm, k)
    return ids, scores


def faiss_ivf_index(E, nlist: int, *, seed: int = 0):
    """A trained and filled ``faiss.IndexIVFFlat`` on ``E`` (None without faiss)."""
    faiss = faiss_module()
    if faiss is None:
        return None
    E = _corpus32(E)
    d, nlist, seed = E.shape[1], _nlist(nlist, E.shape[0]), whole_number("seed", seed, 0)
    index = faiss.IndexIVFFlat(faiss.IndexFlatIP(d), d, nlist, faiss.METRIC_INNER_PRODUCT)
    index.cp.seed = seed
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
    nprobes, k = whole_numbers("nprobes", nprobes), whole_number("k", k)
    _nlist(nlist, E32.shape[0])
    exact = top_k(E32, Qm, k) if exact is None else as_ids(exact, "exact")
    index = faiss_ivf_index(E32, nlist, seed=seed) if index is None else index
    stats = faiss.cvar.indexIVF_stats
    recall, scanned = [], []
    for p in nprobes:
        index.nprobe = p
        stats.reset()
        _, ids = index.search(Qm, k)
        recall.append(recall_at_k(ids, exact))
        scanned.append(float(stats.ndis / (Qm.shape[0] * E32.shape[0])))
    return IVFSweep(nlist, k, nprobes, tuple(recall), tuple(scanned), source="faiss")
