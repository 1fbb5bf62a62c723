"""Recall@k of an approximate search against exact search, and IVF sweeps over nprobe.

``recall@k = |approx ∩ exact| / k`` per query, averaged over the queries (SPEC §10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.retrieval._checks import RetrievalError, as_array, as_ids, whole_number, whole_numbers
from core.retrieval.exact import top_k
from core.retrieval.ivf import IVFIndex

DEFAULT_NPROBES = (1, 4, 16)


def recall_at_k(approx, exact) -> float:
    """Mean share of each query's exact top-k that the approximate top-k found.

    Cost: O(Q·k·log(Q·k)) (one ``isin`` on row-tagged ids; no loop over queries).

    Parameters
    ----------
    approx : (k,) or (Q, k) int ndarray
        Approximate ids; ``-1`` (padding) never matches. Order does not matter.
    exact : same shape, int ndarray
        Exact ids (no ``-1``), e.g. from :func:`~core.retrieval.exact.top_k`.

    Returns
    -------
    float in [0, 1]

    Raises
    ------
    RetrievalError
        Shapes differ, not 1-D/2-D integer arrays (ragged lists included), ``k = 0``, no
        queries, an exact id below 0 or an approximate one below -1.
    """
    a, e = as_array(approx, "approx"), as_array(exact, "exact")
    if a.shape != e.shape or a.ndim not in (1, 2) or a.shape[-1] == 0 or a.dtype.kind not in "iu" \
            or e.dtype.kind not in "iu":
        raise RetrievalError(f"approx and exact must be integer ids of one shape (k,) or (Q, k); "
                             f"got {a.dtype} {a.shape} and {e.dtype} {e.shape}")
    if a.size == 0:
        raise RetrievalError("no queries: recall needs at least one row of ids")
    if e.min() < 0 or a.min() < -1:
        raise RetrievalError("exact ids must be >= 0 and approximate ones >= -1 (-1 pads)")
    a, e = a.reshape(-1, a.shape[-1]).astype(np.int64), e.reshape(-1, e.shape[-1]).astype(np.int64)
    span = int(max(a.max(), e.max())) + 2
    rows = np.arange(a.shape[0])[:, None] * span
    found = np.isin(e + rows, np.where(a >= 0, a + rows, -1))
    return float(found.sum() / e.size)


@dataclass(frozen=True)
class IVFSweep:
    """Recall@k and fraction of the corpus scanned per nprobe (ours or FAISS's).

    Attributes
    ----------
    nlist : int
    k : int
    nprobe : tuple[int, ...]
    recall : tuple[float, ...] — recall@k against exact search, per nprobe.
    fraction_scanned : tuple[float, ...] — vectors scored / (queries · N), per nprobe.
    source : str — ``"core"`` or ``"faiss"``.
    """

    nlist: int
    k: int
    nprobe: tuple
    recall: tuple
    fraction_scanned: tuple
    source: str = "core"


def ivf_sweep(E, Q, nlist: int, nprobes: Sequence[int] = DEFAULT_NPROBES, k: int = 10, *,
              seed: int = 0, index: IVFIndex | None = None, exact=None) -> IVFSweep:
    """Build (or reuse) an :class:`~core.retrieval.ivf.IVFIndex` and measure it per nprobe.

    Cost: one exact search (O(Q·N·d), skipped when ``exact`` is given), the build when no
    ``index`` is given, and one IVF search per nprobe; the loop runs over ``nprobes``.

    Parameters
    ----------
    E : (N, d) float ndarray
    Q : (Q, d) float ndarray
    nlist : int
    nprobes : sequence of int — each >= 1.
    k : int — >= 1; more than the corpus holds is taken as ``N``.
    seed : int — k-means seed when building.
    index : IVFIndex, optional — an index already built on ``E`` with ``nlist`` cells.
    exact : (Q, k) int ndarray, optional — exact ids, when already computed.

    Raises
    ------
    RetrievalError
        As :class:`~core.retrieval.ivf.IVFIndex` and :func:`~core.retrieval.exact.top_k`,
        ``nprobes`` not a non-empty sequence of whole numbers >= 1, an ``index`` that is not
        an IVFIndex or has another ``nlist`` or corpus size, or ``exact`` not integer ids of
        the shape the search gives.
    """
    nprobes = whole_numbers("nprobes", nprobes)
    if index is not None and not isinstance(index, IVFIndex):
        raise RetrievalError(f"index must be an IVFIndex (or None), got {type(index).__name__}")
    index = IVFIndex(E, nlist, seed=seed) if index is None else index
    if index.nlist != nlist or index.n != np.shape(E)[0]:
        raise RetrievalError(f"the index has {index.nlist} cells over {index.n} vectors, "
                             f"not {nlist} over {np.shape(E)[0]}")
    k = min(whole_number("k", k), index.n)  # as exact and IVF search take it
    exact = top_k(E, Q, k) if exact is None else as_ids(exact, "exact")
    recall, scanned = [], []
    for p in nprobes:
        ids, n = index.search(Q, k, p)
        recall.append(recall_at_k(ids, exact))
        scanned.append(float(np.mean(n) / index.n))
    return IVFSweep(nlist, k, nprobes, tuple(recall), tuple(scanned))
