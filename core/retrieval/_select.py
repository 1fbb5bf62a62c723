"""Top-k selection on score rows: ``argpartition``, then sorting only the k (ties by id)."""

from __future__ import annotations

import numpy as np


def _order(scores: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Column order of each row by descending score, ties by ascending id (``lexsort``)."""
    return np.lexsort((ids, -scores), axis=-1)


def select_top(S: np.ndarray, k: int, ids: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best columns of every row of ``S``, best first; equal scores by smaller id.

    Equals ``np.argsort(-S, kind="stable")[:, :k]`` when ``ids`` is None (column = id).
    ``argpartition`` finds the k largest in O(M) per row; only a row whose k-th score is tied
    with a score left outside the partition is redone (its boundary ties by id), then the k
    are sorted.

    Cost: O(Q·M + Q·k log k); the Python loop runs only over rows with a tie at the boundary.

    Parameters
    ----------
    S : (Q, M) float ndarray
        Scores, finite or ``-inf`` (``-inf`` marks padding).
    k : int
        >= 1. When ``k >= M`` every column is returned, fully sorted.
    ids : (Q, M) or (M,) int ndarray, optional
        The id of each column (default: the column index).

    Returns
    -------
    ids : (Q, min(k, M)) int64 ndarray
    scores : (Q, min(k, M)) ndarray, ``S.dtype``
    """
    M = S.shape[1]
    col_ids = np.broadcast_to(np.arange(M) if ids is None else np.asarray(ids), S.shape)
    if k >= M:
        cols = _order(S, col_ids)
    else:
        cols = np.argpartition(S, M - k, axis=1)[:, M - k:]
        kth = np.take_along_axis(S, cols, axis=1).min(axis=1)
        tied_out = (S >= kth[:, None]).sum(axis=1) > k
        for r in np.flatnonzero(tied_out):  # only rows whose boundary ties cross the partition
            above = np.flatnonzero(S[r] > kth[r])
            tied = np.flatnonzero(S[r] == kth[r])
            tied = tied[np.argsort(col_ids[r, tied], kind="stable")[: k - above.size]]
            cols[r] = np.concatenate([above, tied])
        sub = _order(np.take_along_axis(S, cols, axis=1), np.take_along_axis(col_ids, cols, axis=1))
        cols = np.take_along_axis(cols, sub, axis=1)
    return (np.take_along_axis(col_ids, cols, axis=1).astype(np.int64, copy=False),
            np.take_along_axis(S, cols, axis=1))
