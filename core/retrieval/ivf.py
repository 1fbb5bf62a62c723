"""An inverted-file (IVF) index: k-means cells, search of the ``nprobe`` nearest cells.

Build: :func:`~core.retrieval.clustering.kmeans` on the corpus gives ``nlist`` centroids; every
vector goes to the cell of its nearest centroid (squared Euclidean) and the vectors are stored
cell by cell, so a cell is one contiguous slice. Search: the query's ``nprobe`` nearest
centroids by the same distance, then exact inner-product scores on those cells' vectors only.
The share of the corpus scanned is about ``nprobe / nlist`` (more when the probed cells are
the big ones — queries fall where the vectors are).
"""

from __future__ import annotations

import numpy as np

from core.retrieval._checks import (
    MAX_SCORE_BYTES,
    as_corpus,
    as_queries,
    whole_number,
)
from core.retrieval._select import select_top
from core.retrieval.clustering import assign, kmeans


class IVFIndex:
    """IVF over float32 vectors (FAISS's ``IndexIVFFlat`` idea, in numpy).

    Parameters
    ----------
    E : (N, d) float ndarray — unit-length vectors.
    nlist : int — number of cells, 1 .. N.
    seed : int — seeds k-means (sample and k-means++ draws).
    iters : int — Lloyd iterations, at most.

    Attributes
    ----------
    centroids : (nlist, d) float32 ndarray
    labels : (N,) int64 ndarray — each vector's cell.
    sizes : (nlist,) int64 ndarray — vectors per cell.
    n : int — corpus size.

    Raises
    ------
    RetrievalError
        As :func:`~core.retrieval.clustering.kmeans`. The index holds a float32 copy of ``E``
        sorted by cell (``4·N·d`` bytes: 25.6 MB at 100k × 64).

    Notes
    -----
    Build cost: k-means on at most ``256·nlist`` vectors plus O(N·nlist·d) to assign all of
    them.
    """

    def __init__(self, E, nlist: int, *, seed: int = 0, iters: int = 10):
        E = as_corpus(E).astype(np.float32, copy=False)
        self.n, self.dim = E.shape
        self.nlist = whole_number("nlist", nlist)
        km = kmeans(E, self.nlist, seed=seed, iters=iters)
        self.centroids = km.centroids
        self.labels, _ = assign(E, self.centroids)
        self.sizes = np.bincount(self.labels, minlength=self.nlist)
        self._order = np.argsort(self.labels, kind="stable")  # ids grouped by cell, ascending inside
        self._starts = np.concatenate([[0], np.cumsum(self.sizes)[:-1]])
        self._vectors = E[self._order]

    def probe(self, q, nprobe: int) -> np.ndarray:
        """The ``nprobe`` nearest cells of each query, nearest first (ties by cell index).

        Cost: O(Q·nlist·d).

        Returns
        -------
        (Q, nprobe) or (nprobe,) int64 ndarray
        """
        Qm, single = as_queries(q, self.dim, np.dtype(np.float32))
        nprobe = min(whole_number("nprobe", nprobe), self.nlist)
        c2 = (self.centroids * self.centroids).sum(axis=1)
        D = 2 * (Qm @ self.centroids.T) - c2  # larger = nearer
        cells, _ = select_top(D, nprobe)
        return cells[0] if single else cells

    def search(self, q, k: int, nprobe: int, *, cap: int = MAX_SCORE_BYTES) -> tuple[np.ndarray, np.ndarray]:
        """Approximate top-``k``: exact scores over the vectors of the ``nprobe`` nearest cells.

        Each probed cell is scored against all the queries of a chunk that probe it with one
        matrix product on its contiguous slice; the scores land in a padded ``(chunk, width)``
        grid (``width`` = most vectors any query scans) and the best ``k`` of each row are
        selected as in exact search.

        Cost: O(Q·nlist·d) to probe plus O(scanned·d) to score. The loop runs over query
        chunks whose grid (12 bytes a slot: score and id) stays within ``cap`` bytes, and
        inside over the distinct probed cells (at most ``nlist``), never over vectors.

        Parameters
        ----------
        q : (d,) or (Q, d) float ndarray
        k : int — >= 1; more than the corpus holds is taken as ``n``, as in exact search.
        nprobe : int — cells to search, >= 1 (more than ``nlist`` means all).

        Returns
        -------
        ids : (k,) or (Q, k) int64 ndarray
            Best first, ties by smaller id; ``-1`` pads when the probed cells hold fewer than
            ``k`` vectors. ``k`` here is ``min(k, n)``.
        scanned : int, or (Q,) int64 ndarray
            Vectors scored for each query (divide by ``n`` for the fraction scanned).

        Raises
        ------
        RetrievalError
            Bad query shape or non-finite values, ``k``, ``nprobe`` or ``cap`` below 1.
        """
        k, cap = min(whole_number("k", k), self.n), whole_number("cap", cap)
        Qm, single = as_queries(q, self.dim, np.dtype(np.float32))
        cells = self.probe(Qm, nprobe)
        scanned = self.sizes[cells].sum(axis=1)
        ids = np.full((Qm.shape[0], k), -1, dtype=np.int64)
        step = max(1, cap // (12 * max(int(scanned.max(initial=0)), 1)))
        for s in range(0, Qm.shape[0], step):
            found = self._search_chunk(Qm[s:s + step], cells[s:s + step], k)
            ids[s:s + step, : found.shape[1]] = found
        return (ids[0], int(scanned[0])) if single else (ids, scanned)

    def _search_chunk(self, Qm: np.ndarray, cells: np.ndarray, k: int) -> np.ndarray:
        """Score the probed cells of a chunk of queries and select the best ``k`` of each.

        Cost: O(scanned·d + q·width); the loop runs over the distinct probed cells (at most
        ``nlist``), one matrix product each.
        """
        sizes = self.sizes[cells]  # (q, nprobe)
        width = max(int(sizes.sum(axis=1).max()), 1)
        offsets = (np.cumsum(sizes, axis=1) - sizes).ravel()  # grid column of each probe
        S = np.full((Qm.shape[0], width), -np.inf, dtype=np.float32)
        cand = np.full((Qm.shape[0], width), -1, dtype=np.int64)
        flat = cells.ravel()
        by_cell = np.argsort(flat, kind="stable")
        uniq, first = np.unique(flat[by_cell], return_index=True)
        bounds = np.append(first, flat.size)
        for j, c in enumerate(uniq):
            probes = by_cell[bounds[j]:bounds[j + 1]]
            queries = probes // cells.shape[1]
            a, n = self._starts[c], self.sizes[c]
            cols = offsets[probes][:, None] + np.arange(n)
            S[queries[:, None], cols] = Qm[queries] @ self._vectors[a:a + n].T
            cand[queries[:, None], cols] = self._order[a:a + n]
        ids, scores = select_top(S, min(k, width), ids=cand)
        ids[np.isneginf(scores)] = -1
        return ids
