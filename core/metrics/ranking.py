"""Which cells of a languages × tokenizers table are fair to rank by cost, and the ranking.

A tokenizer that writes a text as unknown tokens spends few tokens on it because it drops
it: BERT-uncased "costs" Thai 0.19× English with 96 % of the characters inside ``[UNK]``.
A cell whose unknown share (:attr:`EncodingMetrics.unknown_share`, characters inside
unknown tokens or dropped in no token / characters) exceeds :data:`UNKNOWN_LIMIT` is *unreliable*: views mark it,
and a ranking by a cost (:data:`COSTS`) never names it cheapest or dearest — the orders here
put it after every reliable cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.errors import SubwordScopeError
from core.metrics.table import CompareTable

#: A cell leaving more than this share of its characters unknown is not ranked by cost.
UNKNOWN_LIMIT = 0.01

#: Cost metrics of :data:`core.metrics.table.METRICS`: +1 when a lower value is cheaper,
#: -1 when a higher one is (bytes per token: more text per token).
COSTS: dict[str, int] = {
    "fertility": 1, "premium": 1, "adjusted_fertility": 1, "adjusted_premium": 1, "tokens": 1,
    "adjusted_tokens": 1, "tokens_per_character": 1, "adjusted_tokens_per_character": 1,
    "bytes_per_token": -1, "tokens_per_byte": 1, "tokens_per_word": 1,
}
_RELATIVE = ("premium", "adjusted_premium")  # the reference language is 1 by definition
#: Costs per word, except for a script written without spaces, where they are per grapheme
#: cluster (``words_are_characters``): a ranking compares only languages of one unit.
PER_WORD = ("fertility", "adjusted_fertility")


def unreliable(table: CompareTable, limit: float = UNKNOWN_LIMIT) -> np.ndarray:
    """``marked : (n_languages, n_tokenizers) bool ndarray`` — cells whose unknown share is
    above ``limit`` (a cell without characters is not marked)."""
    share = table.values("unknown_share")
    return np.where(np.isfinite(share), share, 0.0) > limit


@dataclass(frozen=True)
class Extremes:
    """Cheapest and dearest language of one tokenizer among the cells ranked.

    ``cheapest`` / ``dearest`` are indices into ``table.languages`` (``None`` when no cell
    is ranked); ``excluded`` the languages left out for their unknown share; ``unit`` what
    the cost is counted per for a :data:`PER_WORD` cost ("word", or "character" when every
    language is written without spaces; "" for the other costs) and ``other_unit`` the
    languages left out because theirs is counted in the other unit.
    """

    tokenizer: str
    cheapest: int | None
    dearest: int | None
    excluded: tuple[int, ...]
    unit: str = ""
    other_unit: tuple[int, ...] = ()


def extremes(table: CompareTable, metric: str, *, limit: float = UNKNOWN_LIMIT) -> list[Extremes]:
    """Per tokenizer, the cheapest and dearest language by ``metric`` among cells under
    ``limit`` unknown (the reference language left out of a premium; for a :data:`PER_WORD`
    cost, the languages written without spaces, counted per character, unless all are).
    O(cells).

    Raises
    ------
    SubwordScopeError
        If ``metric`` is not a cost (a key of :data:`COSTS`).
    """
    if metric not in COSTS:
        raise SubwordScopeError(f"{metric!r} is not a cost; rank by one of {', '.join(COSTS)}")
    cost = COSTS[metric] * table.values(metric)
    marked = unreliable(table, limit)
    candidate = np.isfinite(cost) & ~marked
    if metric in _RELATIVE and table.reference in table.languages:
        candidate[table.languages.index(table.reference)] = False
    unit, other = "", ()
    if metric in PER_WORD:
        per_char = np.asarray(table.words_are_characters(), bool).reshape(-1)
        unit = "character" if per_char.all() else "word"
        if unit == "word":
            candidate[per_char] = False
            other = tuple(int(i) for i in np.flatnonzero(per_char))
    out = []
    for j, name in enumerate(table.tokenizers):
        rows = np.flatnonzero(candidate[:, j])
        excluded = tuple(int(i) for i in np.flatnonzero(marked[:, j]))
        if len(rows) == 0:
            out.append(Extremes(name, None, None, excluded, unit, other))
            continue
        col = cost[rows, j]
        out.append(Extremes(name, int(rows[np.argmin(col)]), int(rows[np.argmax(col)]), excluded, unit, other))
    return out


def descending(values: np.ndarray, last: np.ndarray) -> list[int]:
    """Indices of ``values : (n,) float`` largest first, those with ``last : (n,) bool`` set
    after all others (largest first among them too), ``nan`` at the very end; ties keep
    index order. O(n log n)."""
    v = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(v)
    group = np.where(finite, np.where(last, 1, 0), 2)
    return [int(i) for i in np.lexsort((np.where(finite, -v, 0.0), group))]


def row_order(table: CompareTable, metric: str, column: str | None,
              *, limit: float = UNKNOWN_LIMIT) -> tuple[list[int], int]:
    """Rows (languages) by ``metric``, largest first, in tokenizer ``column`` or (``None``)
    by the mean over tokenizers; and how many rows come before the unranked ones.

    For a cost metric, cells above ``limit`` unknown are not ranked: by one column, their
    rows follow every ranked row; by the mean, a row's mean is over its ranked cells, and a
    row with none follows the others. Other metrics sort every row (the count is all rows).
    O(cells + n log n).

    Raises
    ------
    SubwordScopeError
        If ``column`` is not one of ``table.tokenizers``.
    """
    values = table.values(metric)
    marked = unreliable(table, limit) if metric in COSTS else np.zeros(values.shape, dtype=bool)
    if column is not None:
        if column not in table.tokenizers:
            raise SubwordScopeError(f"no tokenizer named {column!r} in this table")
        j = table.tokenizers.index(column)
        col, last = values[:, j], marked[:, j]
    else:
        col, last = _ranked_mean(values, marked)
    order = descending(col, last)
    return order, int(np.count_nonzero(~last & np.isfinite(col)))


def _ranked_mean(values: np.ndarray, marked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the mean of the finite unmarked cells (all finite cells when every one is
    marked), and whether every finite cell is marked."""
    finite = np.isfinite(values)
    use = finite & ~marked
    none = ~use.any(axis=1) & finite.any(axis=1)
    use[none] = finite[none]
    counts = use.sum(axis=1)
    sums = np.where(use, values, 0.0).sum(axis=1)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan), none
