"""Learned absolute positions: a trained table ``P`` of ``T_max`` rows, one per position, added
to the token embeddings (GPT-2, BERT). Position ``T_max`` and beyond have no row at all: unlike
sinusoidal, RoPE or ALiBi, which define every position, the table cannot extrapolate.
"""

from __future__ import annotations

import numpy as np

from core.positional._frequencies import PositionalError


class PositionLimitError(PositionalError):
    """A position at or past the table's ``T_max`` rows."""


def learned_lookup(table: np.ndarray, positions) -> np.ndarray:
    """Rows of the learned table ``table`` (``(T_max, d)``) for ``positions`` (ints).

    Raises
    ------
    PositionLimitError
        A position is negative or ≥ ``T_max``: the table has no row for it (the message names
        the first such position).
    """
    pos = np.asarray(positions, dtype=np.int64)
    t_max = table.shape[0]
    bad = np.flatnonzero((pos < 0) | (pos >= t_max))
    if bad.size:
        p = int(pos.flat[bad[0]])
        raise PositionLimitError(f"position {p} has no learned embedding: the table was trained with "
                                 f"{t_max:,} positions (0 … {t_max - 1:,})")
    return table[pos]


def positions_without_row(t_max: int, length: int) -> int:
    """How many positions of a ``length``-token sequence a ``t_max``-row table cannot encode."""
    return max(0, int(length) - int(t_max))
