"""Learned absolute positions have a hard limit: nothing past T_max (the positional reading)."""

from __future__ import annotations

import numpy as np
import pytest

from core.positional.learned import PositionLimitError, learned_lookup, positions_without_row


def test_rows_inside_the_table_and_none_past_it():
    table = np.arange(12.0).reshape(4, 3)
    assert np.array_equal(learned_lookup(table, [0, 3]), table[[0, 3]])
    with pytest.raises(PositionLimitError, match="position 4 has no learned embedding.*0 … 3"):
        learned_lookup(table, [2, 4, 5])
    with pytest.raises(PositionLimitError):
        learned_lookup(table, [-1])


def test_positions_without_a_row():
    assert positions_without_row(2048, 8192) == 6144
    assert positions_without_row(512, 512) == 0 == positions_without_row(512, 10)
