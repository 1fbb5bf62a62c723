"""``core.collector.collector_paused``: the collector's state is restored, the block's
survivors leave generation 0 without a collection, cyclic garbage made inside the block is
still found by ``gc.collect()``, and objects frozen beforehand stay frozen."""

from __future__ import annotations

import gc
import weakref

from core.collector import collector_paused


class _Node:
    pass


def test_state_is_restored_and_nesting_keeps_it_paused():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block does not re-enable it
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_state_is_restored_after_an_exception():
    try:
        with collector_paused():
            raise KeyError("x")
    except KeyError:
        pass
    assert gc.isenabled()


def test_survivors_leave_generation_zero_and_cycles_are_still_collected(monkeypatch):
    import core.collector as collector

    gc.unfreeze()  # earlier tests in this process (the app's workers) may have frozen objects
    monkeypatch.setattr(collector, "_frozen", False)  # private: what freeze() remembers
    gc.collect()
    assert gc.get_freeze_count() == 0
    with collector_paused():
        kept = [[k] for k in range(20_000)]  # containers that survive the block
        node = _Node()
        node.self = node  # a reference cycle, garbage once ``node`` is dropped
        ref = weakref.ref(node)
        del node
    # without the move, generation 0 would count ~20,000 allocations and the next
    # allocation would traverse all of them
    assert gc.get_count()[0] < gc.get_threshold()[0]
    assert gc.get_freeze_count() == 0  # nothing is left frozen
    assert ref() is not None  # reference counting alone cannot free a cycle
    gc.collect()
    assert ref() is None
    assert len(kept) == 20_000


def test_objects_frozen_before_stay_frozen(monkeypatch):
    import core.collector as collector

    monkeypatch.setattr(collector, "_frozen", False)  # private: what freeze() remembers
    gc.collect()
    collector.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with collector_paused():
            kept = [[k] for k in range(1_000)]
        # not thawed by the block (thawing empties the permanent generation; a frozen
        # object that another thread of the test process frees meanwhile leaves it)
        assert gc.get_freeze_count() > 0.9 * frozen
        assert len(kept) == 1_000
    finally:
        gc.unfreeze()


def test_release_freed_memory_calls_the_allocators_trim_and_is_a_no_op_without_it(monkeypatch):
    import core.collector as collector

    calls = []
    monkeypatch.setattr(collector, "_MALLOC_TRIM", lambda pad: calls.append(pad) or 1)
    collector.release_freed_memory()
    assert calls == [0]
    monkeypatch.setattr(collector, "_MALLOC_TRIM", None)
    collector.release_freed_memory()  # no C library trim: nothing happens
    assert calls == [0]


def test_the_check_for_frozen_objects_walks_none_of_them(monkeypatch):
    """``gc.get_freeze_count()`` walks every frozen object (32 ms for 5,000,000); it ran after
    every encode and alignment, and slowed a test process that had frozen millions 60-fold."""
    def walk():
        raise AssertionError("the frozen objects were counted")

    monkeypatch.setattr(gc, "get_freeze_count", walk)
    with collector_paused():
        kept = [[k] for k in range(100)]
    assert len(kept) == 100
