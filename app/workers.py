"""One worker type for everything slow: a daemon thread running a ``core`` callable.

The callable never sees Qt. It may accept ``progress: Callable[[float], None]`` (a fraction
0..1) and ``should_stop: Callable[[], bool]`` keyword arguments; a generator's items are
emitted as ``yielded``. Signals live on a separate ``QObject`` and are delivered on the GUI
thread (queued: the emitting thread is not the receiver's). :class:`TaskRunner` keeps one
task per owner: a new request cancels the old one, results of stale requests are dropped
(each signal carries the request id), and cancelled tasks never crowd out the newest.

Workers run on Python daemon threads, not a ``QThreadPool``: Qt's pools wait for their
threads when they are destroyed (the global one at process exit), so one task blocked in a
read would keep the process alive forever; a daemon thread dies with the process.
:func:`wait_for_workers` waits (bounded) for the running ones, e.g. before a window closes.
"""

from __future__ import annotations

import _thread
import gc
import inspect
import itertools
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer, Signal

from core.collector import freeze as freeze_objects
from core.errors import Cancelled  # the one cancellation exception; a task may raise it

_live: set["Worker"] = set()  # started workers whose thread has not ended
_live_lock = threading.Lock()


GUI_SWITCH_INTERVAL = 0.001  # seconds; Python's default is 0.005


def favour_the_gui_thread() -> None:
    """Ask a thread that holds the interpreter to hand it over after 1 ms instead of
    Python's 5 ms (``sys.setswitchinterval``), so the GUI thread waits less each time it
    needs the interpreter while a worker computes.

    Painting and laying out a pane calls into Python many times (event filters, paint
    overrides, item models), and every call waits for a busy worker's next hand-over: with
    the default 5 ms, re-laying out the Alignment pane while a 1,000,000-character text was
    tokenized took 270 ms. Set once, at start; the workers lose a little throughput to the
    more frequent hand-overs."""
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)


def wait_for_workers(timeout: float = 3.0) -> bool:
    """Wait up to ``timeout`` seconds for every running worker thread to end; return
    whether they all did. Never blocks longer (a blocked worker is left to die with the
    process)."""
    end = time.monotonic() + timeout
    while True:
        with _live_lock:
            workers = list(_live)
        if not workers:
            return True
        left = end - time.monotonic()
        if left <= 0 or not workers[0].ended.wait(left):
            return not any(w for w in workers if not w.ended.is_set())


_gc_lock = threading.Lock()
_gc_state = {"depth": 0, "was_enabled": True}


@contextmanager
def gc_paused(freeze: bool = True) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a worker builds a result, then (with
    ``freeze``: for a large result) freeze what exists (:func:`core.collector.freeze`) and resume it.

    A collection holds the interpreter lock: while a worker allocates millions of objects
    (1,000,000 characters give ~5 M), full collections of 0.1 s each would freeze the GUI
    thread; once frozen, the result is skipped by later collections too (it is still freed
    by reference counting). Nested and concurrent uses share one pause."""
    with _gc_lock:
        if _gc_state["depth"] == 0:
            _gc_state["was_enabled"] = gc.isenabled()
            gc.disable()
        _gc_state["depth"] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_state["depth"] -= 1
            _gc_state["freeze"] = _gc_state.get("freeze", False) or freeze
            if _gc_state["depth"] == 0:
                if _gc_state.pop("freeze"):
                    freeze_objects()  # frozen objects are never collected: only for huge results
                if _gc_state["was_enabled"]:
                    gc.enable()


class WorkerSignals(QObject):
    """Signals of a :class:`Worker` (a :class:`TaskRunner` shares one set among its
    workers); the first argument is always the request id."""

    progress = Signal(int, float)  # request id, fraction done 0..1
    yielded = Signal(int, object)  # request id, one item of a generator
    returned = Signal(int, object)  # request id, the callable's result
    errored = Signal(int, object)  # request id, the exception
    finished = Signal(int)  # request id (always emitted last, also after cancel)


class Worker:
    """Run ``fn(*args, **kwargs)`` on a daemon thread (:meth:`start`) and report through
    :attr:`signals`. ``progress`` and ``should_stop`` are passed when ``fn`` accepts them."""

    def __init__(self, request_id: int, fn: Callable[..., Any], *args: Any, **kwargs: Any):
        self._setup(request_id, WorkerSignals(), fn, args, kwargs)

    @classmethod
    def sharing(cls, signals: WorkerSignals, request_id: int, fn: Callable[..., Any],
                args: tuple, kwargs: dict) -> "Worker":
        """A worker reporting through ``signals``, which other workers share (each emission
        carries its request id): a runner connects them once, not per task (five
        connections cost ~1 ms of the GUI thread per keystroke)."""
        worker = cls.__new__(cls)
        worker._setup(request_id, signals, fn, args, kwargs)
        return worker

    def _setup(self, request_id: int, signals: WorkerSignals, fn: Callable[..., Any],
               args: tuple, kwargs: dict) -> None:
        self.request_id = request_id
        self.signals = signals
        self._fn, self._args, self._kwargs = fn, args, kwargs
        self._stop = threading.Event()
        self.ended = threading.Event()  # set when the thread is done with the task
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            params = {}
        if "progress" in params:
            self._kwargs.setdefault("progress", self._report_progress)
        if "should_stop" in params:
            self._kwargs.setdefault("should_stop", self._stop.is_set)

    def start(self) -> None:
        """Run on a new daemon thread (once). The low-level start does not wait for the
        thread to be scheduled (``threading.Thread.start`` does: milliseconds on the GUI
        thread while another worker holds the interpreter lock), and nothing waits for the
        thread at exit."""
        with _live_lock:
            _live.add(self)
        _thread.start_new_thread(self._run_tracked, ())

    def cancel(self) -> None:
        """Ask the task to stop; it does so at its next ``should_stop()`` check (a task
        not started yet never runs)."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    def _report_progress(self, fraction: float) -> None:
        if not self._stop.is_set():
            self._emit(self.signals.progress, self.request_id, float(fraction))

    @staticmethod
    def _emit(signal, *args: Any) -> None:
        """Emit, unless the receiver side is already gone (the app is shutting down)."""
        try:
            signal.emit(*args)
        except RuntimeError:  # "Signal source has been deleted"
            pass

    def _run_tracked(self) -> None:
        try:
            self.run()
        finally:
            with _live_lock:
                _live.discard(self)
            self.ended.set()

    def run(self) -> None:
        """Call the function here and now, reporting through the signals."""
        rid = self.request_id
        try:
            if self._stop.is_set():
                raise Cancelled()
            result = self._fn(*self._args, **self._kwargs)
            if inspect.isgenerator(result):
                last = None
                for item in result:
                    if self._stop.is_set():
                        raise Cancelled()
                    last = item
                    self._emit(self.signals.yielded, rid, item)
                result = last
            if not self._stop.is_set():
                self._emit(self.signals.returned, rid, result)
        except Cancelled:
            pass
        except Exception as exc:  # reported to the GUI thread, never raised there
            if not self._stop.is_set():
                exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
                self._emit(self.signals.errored, rid, exc)
        finally:
            self._fn = self._args = self._kwargs = None  # release the inputs (big texts) now
            self._emit(self.signals.finished, rid)


class TaskRunner(QObject):
    """One task at a time for its owner: submitting cancels the previous task.

    Signals carry only results of the newest request; stale ones are dropped. Cancelled
    tasks that are still winding down (until their next ``should_stop`` check) do not queue
    the newest request behind them: it starts at once while fewer than ``max_running``
    tasks run; otherwise it waits as the one pending request, replaced by any newer one
    (so at most ``max_running`` threads and one waiting request per runner, whatever the
    number of requests).

    Signals
    -------
    sig_busy_changed(bool)
        True when a request is submitted, False when the newest has ended or is cancelled.
    """

    sig_progress = Signal(float)
    sig_yielded = Signal(object)
    sig_returned = Signal(object)
    sig_errored = Signal(object)
    sig_busy_changed = Signal(bool)

    _ids = itertools.count(1)

    def __init__(self, parent: QObject | None = None, *, max_running: int = 2):
        super().__init__(parent)
        self.max_running = max(1, max_running)
        self._current: Worker | None = None
        self._pending: Worker | None = None  # the newest request, waiting for a free thread
        self._running: dict[int, Worker] = {}
        # every task's, told apart by request id; no parent: the tasks' references keep it
        # alive while one still runs, whatever becomes of the runner
        self._signals = WorkerSignals()
        self._signals.progress.connect(self._on_progress)
        self._signals.yielded.connect(self._on_yielded)
        self._signals.returned.connect(self._on_returned)
        self._signals.errored.connect(self._on_errored)
        self._signals.finished.connect(self._on_finished)

    @property
    def busy(self) -> bool:
        return self._current is not None

    @property
    def running(self) -> int:
        """How many of this runner's tasks still run (cancelled ones winding down included)."""
        return len(self._running)

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
        """Cancel the current task (if any) and start ``fn``; return the new request id."""
        self.cancel()
        rid = next(self._ids)
        worker = Worker.sharing(self._signals, rid, fn, args, kwargs)
        self._current = worker
        self.sig_busy_changed.emit(True)
        if len(self._running) < self.max_running:
            self._start(worker)
        else:
            self._pending = worker  # a replaced pending request was never started: dropped
        return rid

    def cancel(self) -> None:
        """Cancel the current task; its late results are dropped."""
        self._pending = None
        if self._current is not None:
            self._current.cancel()
            self._current = None
            self.sig_busy_changed.emit(False)

    def _start(self, worker: Worker) -> None:
        self._running[worker.request_id] = worker
        worker.start()

    def _is_current(self, rid: int) -> bool:
        return self._current is not None and self._current.request_id == rid

    def _on_progress(self, rid: int, fraction: float) -> None:
        if self._is_current(rid):
            self.sig_progress.emit(fraction)

    def _on_yielded(self, rid: int, item: object) -> None:
        if self._is_current(rid):
            self.sig_yielded.emit(item)

    def _on_returned(self, rid: int, result: object) -> None:
        if self._is_current(rid):
            self.sig_returned.emit(result)

    def _on_errored(self, rid: int, exc: object) -> None:
        if self._is_current(rid):
            self.sig_errored.emit(exc)

    def _on_finished(self, rid: int) -> None:
        self._running.pop(rid, None)
        if self._is_current(rid):
            self._current = None
            self.sig_busy_changed.emit(False)
        if self._pending is not None and len(self._running) < self.max_running:
            worker, self._pending = self._pending, None
            self._start(worker)


def is_working(widget: QObject) -> bool:
    """Whether one of ``widget``'s :class:`TaskRunner` s (its children, at any depth) has a
    task running or waiting. O(children)."""
    return any(r.busy for r in widget.findChildren(TaskRunner))


def wait_until_settled(widget: QObject, timeout_ms: int = 120_000) -> bool:
    """Run the event loop until none of ``widget``'s :class:`TaskRunner` s runs and none of
    its one-shot timers (debounces, deferred starts) is pending, for 200 ms in a row (a
    worker's result may start the next one), or ``timeout_ms`` passes; return whether it
    settled. For screenshots, lessons and tests, never for a user's action."""
    app = QCoreApplication.instance()
    deadline = time.monotonic() + timeout_ms / 1000
    quiet_since = None
    while time.monotonic() < deadline:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        busy = is_working(widget) or any(
            t.isActive() and t.isSingleShot() for t in widget.findChildren(QTimer))
        if busy:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= 0.2:
            return True
        time.sleep(0.01)
    return False
