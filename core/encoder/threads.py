"""The encoder's own worker threads: the elementwise parts of the forward pass (bias adds,
softmax, LayerNorm, GELU) and the per-sequence attention, split over :data:`WORKERS` threads.

Why: numpy's elementwise functions run on one core, while the big matrix products already
use every core through BLAS. Measured on MiniLM-L6 at 8 × 128 on two cores, those parts were
about 30 % of the forward time; on two threads they take half that. numpy releases the GIL
inside its loops and its BLAS calls, so plain threads run them in parallel. The large products
(QKV, attention output, FFN) stay on the calling thread, one at a time, with BLAS's own
threads: the pool and BLAS never run at once there. The small attention products run inside
the pool, two at a time; no BLAS thread setting is changed (the process may hold other numpy
work; ``OPENBLAS_NUM_THREADS`` set by the user is respected).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

def _workers() -> int:
    """``$SUBWORDSCOPE_ENCODER_THREADS`` when it is a whole number >= 1 (1 keeps every step on
    the calling thread, e.g. on a machine whose cores are busy with other work), else the
    machine's cores, at most 2."""
    value = os.environ.get("SUBWORDSCOPE_ENCODER_THREADS", "").strip()
    if value.isdigit() and int(value) >= 1:
        return int(value)
    return max(1, min(2, os.cpu_count() or 1))


WORKERS = _workers()
"""Threads that share a step (read once, when the module is imported; see :func:`_workers`)."""
MIN_ELEMENTS = 1 << 16
"""Below this many elements a step runs on the calling thread (a hand-off costs ~20 µs)."""

_pool: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=WORKERS - 1, thread_name_prefix="encoder")
        return _pool


def parts(n: int, k: int) -> list[tuple[int, int]]:
    """``range(n)`` cut into at most ``k`` contiguous, non-empty, nearly equal ``(start, stop)``."""
    k = max(1, min(k, n))
    return [(i * n // k, (i + 1) * n // k) for i in range(k)]


def split_run(fn: Callable[[int, int, int], None], n: int, elements: int) -> None:
    """Run ``fn(worker, start, stop)`` over :func:`parts` of ``range(n)``: the first part on the
    calling thread, the others on the pool; returns when all are done and re-raises the first
    exception. ``worker`` (0 .. WORKERS-1) picks the part's own scratch buffers. One part only
    when ``elements`` (the step's total size) is below :data:`MIN_ELEMENTS` or one core."""
    chunks = parts(n, WORKERS if elements >= MIN_ELEMENTS else 1)
    if len(chunks) == 1:
        fn(0, 0, n)
        return
    futures = [_executor().submit(fn, w, s, e) for w, (s, e) in enumerate(chunks) if w]
    try:
        fn(0, *chunks[0])
    finally:
        for f in futures:
            f.result()
