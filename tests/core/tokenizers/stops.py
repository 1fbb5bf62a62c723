"""A ``should_stop`` that says stop after a given number of questions (the cancel tests)."""

from __future__ import annotations


def flips_after(n: int):
    """``(stop, calls)``: ``stop()`` answers False ``n`` times, then True; ``calls`` grows by
    one per question."""
    calls: list[int] = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > n

    return stop, calls
