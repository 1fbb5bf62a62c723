"""One tokenizer across many languages: how unequal its premiums are.

Per tokenizer (a column of a :class:`core.metrics.table.CompareTable`), over the languages it
leaves under :data:`core.metrics.ranking.UNKNOWN_LIMIT` unknown characters (a cheap cell bought
with unknown tokens is lost text, as in :func:`core.metrics.ranking.extremes`) and with a
premium (Petrov et al. 2023: tokens in language L / tokens of the parallel text in the
reference language):

- the median premium;
- the Gini coefficient of the premiums (:func:`gini`; TokEval's Tokenizer Fairness Gini);
- the shares of those languages over 2× and over 4×;
- the ten worst-served languages (highest premium first).

Definitions and sources are in :data:`core.metrics.measures.SUMMARY_TOOLTIPS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.errors import SubwordScopeError
from core.metrics.ranking import UNKNOWN_LIMIT, unreliable
from core.metrics.table import CompareTable

WORST = 10
"""How many worst-served languages a summary names."""


def gini(values) -> float:
    """Gini coefficient of non-negative ``values : (n,) float``.

    ``G = Σᵢ Σⱼ |xᵢ − xⱼ| / (2 n² x̄)``, computed on the sorted values as
    ``G = 2 Σᵢ i·x₍ᵢ₎ / (n Σ x) − (n + 1) / n`` (i from 1). 0 when all values are equal; at
    most ``(n − 1) / n``. O(n log n).

    Raises
    ------
    SubwordScopeError
        If there is no value, a value is negative or not finite, or all are 0.
    """
    x = np.sort(np.asarray(values, dtype=np.float64).ravel())
    if len(x) == 0 or not np.isfinite(x).all() or x[0] < 0 or x.sum() == 0:
        raise SubwordScopeError("the Gini coefficient needs at least one finite, non-negative, "
                                "non-zero value")
    n = len(x)
    i = np.arange(1, n + 1)
    return float(2.0 * np.dot(i, x) / (n * x.sum()) - (n + 1) / n)


@dataclass(frozen=True)
class Fairness:
    """Summary of one tokenizer's premiums (``nan`` figures when no language is counted).

    ``counted`` languages (indices into ``table.languages``) enter the figures; ``excluded``
    are those over the unknown limit or without a premium. ``worst`` are up to :data:`WORST`
    counted languages, highest premium first, as ``(index, premium)``.
    """

    tokenizer: str
    median_premium: float
    gini: float
    over_2x: float
    over_4x: float
    worst: tuple[tuple[int, float], ...]
    counted: tuple[int, ...]
    excluded: tuple[int, ...]


def fairness(table: CompareTable, *, metric: str = "premium", limit: float = UNKNOWN_LIMIT,
             rows: np.ndarray | None = None) -> list[Fairness]:
    """Per tokenizer, :class:`Fairness` of ``metric`` (``premium`` or ``adjusted_premium``)
    over the languages ``rows`` (indices; all by default). O(cells + n log n per tokenizer).

    Raises
    ------
    SubwordScopeError
        If ``metric`` is not a premium.
    """
    if metric not in ("premium", "adjusted_premium"):
        raise SubwordScopeError(f"fairness is measured on premiums, not {metric!r}")
    values = table.values(metric)
    marked = unreliable(table, limit)
    use = np.zeros(values.shape[0], dtype=bool)
    use[np.arange(values.shape[0]) if rows is None else np.asarray(rows, dtype=np.int64)] = True
    out = []
    for j, name in enumerate(table.tokenizers):
        ok = use & np.isfinite(values[:, j]) & ~marked[:, j]
        counted = np.flatnonzero(ok)
        excluded = tuple(int(i) for i in np.flatnonzero(use & ~ok))
        col = values[counted, j]
        if len(col) == 0 or col.sum() == 0:
            out.append(Fairness(name, np.nan, np.nan, np.nan, np.nan, (), tuple(map(int, counted)), excluded))
            continue
        order = counted[np.lexsort((counted, -col))][:WORST]
        out.append(Fairness(
            name, float(np.median(col)), gini(col), float(np.mean(col > 2.0)), float(np.mean(col > 4.0)),
            tuple((int(i), float(values[i, j])) for i in order), tuple(map(int, counted)), excluded))
    return out
