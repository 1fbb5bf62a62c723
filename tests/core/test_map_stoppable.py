"""``core.errors.map_stoppable``: ``list(map(...))`` with a stop check every so many items."""

from __future__ import annotations

import pytest

from core.errors import Cancelled, map_stoppable
from tests.core.tokenizers.stops import flips_after


@pytest.mark.parametrize("n", [0, 1, 4, 5, 9, 12])
def test_it_maps_all_items_asking_before_every_chunk(n):
    stop, calls = flips_after(10**9)
    items = list(range(n))
    assert map_stoppable(str, items, stop, every=4) == list(map(str, items))
    assert len(calls) == (0 if n <= 4 else -(-n // 4))


def test_a_stop_request_lands_before_the_next_chunk():
    seen = []
    stop, calls = flips_after(2)
    with pytest.raises(Cancelled):
        map_stoppable(seen.append, list(range(20)), stop, every=4)
    assert len(seen) == 8 and len(calls) == 3
