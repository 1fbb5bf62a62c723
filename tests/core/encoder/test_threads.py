"""The encoder's step splitting: every row covered once, errors re-raised, the thread count
set by the environment."""

from __future__ import annotations

import pytest

from core.encoder import threads


@pytest.mark.parametrize("n,k", [(1, 2), (7, 2), (8, 2), (5, 3), (3, 8)])
def test_parts_cover_the_range_once_in_order(n, k):
    got = threads.parts(n, k)
    assert len(got) == min(n, k) and all(e > s for s, e in got)
    assert [i for s, e in got for i in range(s, e)] == list(range(n))
    assert max(e - s for s, e in got) - min(e - s for s, e in got) <= 1


def test_split_run_runs_every_part_and_re_raises(monkeypatch):
    monkeypatch.setattr(threads, "WORKERS", 2)
    seen = []
    threads.split_run(lambda w, s, e: seen.append((w, s, e)), 10, threads.MIN_ELEMENTS)
    assert sorted(seen) == [(0, 0, 5), (1, 5, 10)]
    seen.clear()
    threads.split_run(lambda w, s, e: seen.append((w, s, e)), 10, threads.MIN_ELEMENTS - 1)  # small: inline
    assert seen == [(0, 0, 10)]

    def fail(w, s, e):
        if w == 1:
            raise ValueError("part 1")
    with pytest.raises(ValueError, match="part 1"):
        threads.split_run(fail, 10, threads.MIN_ELEMENTS)


def test_the_thread_count_from_the_environment(monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_ENCODER_THREADS", "1")
    # private: how many threads the encoder would use (read, not set)
    assert threads._workers() == 1
    for bad in ("0", "two", ""):
        monkeypatch.setenv("SUBWORDSCOPE_ENCODER_THREADS", bad)
        assert 1 <= threads._workers() <= 2
