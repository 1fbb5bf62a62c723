"""One worker type for everything slow: a ``QRunnable`` running a ``core`` callable.

The callable never sees Qt. It may accept ``progress: Callable[[float], None]`` (a fraction
0..1) and ``should_stop: Callable[[], bool]`` keyword arguments; a generator's items are
emitted as ``yielded``. Signals live on a separate ``QObject`` and are delivered on the GUI
thread. :class:`TaskRunner` keeps one task per pane: a new request cancels the old one and
results of stale requests are dropped (each signal carries the request id).
"""

from __future__ import annotations

import inspect
import itertools
import threading
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from core.errors import Cancelled  # the one cancellation exception; a task may raise it


class WorkerSignals(QObject):
    """Signals of one :class:`Worker`; the first argument is always the request id."""

    progress = Signal(int, float)  # request id, fraction done 0..1
    yielded = Signal(int, object)  # request id, one item of a generator
    returned = Signal(int, object)  # request id, the callable's result
    errored = Signal(int, object)  # request id, the exception
    finished = Signal(int)  # request id (always emitted last, also after cancel)


class Worker(QRunnable):
    """Run ``fn(*args, **kwargs)`` on a pool thread and report through :attr:`signals`."""

    def __init__(self, request_id: int, fn: Callable[..., Any], *args: Any, **kwargs: Any):
        super().__init__()
        self.request_id = request_id
        self.signals = WorkerSignals()
        self._fn, self._args, self._kwargs = fn, args, kwargs
        self._stop = threading.Event()
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            params = {}
        if "progress" in params:
            self._kwargs.setdefault("progress", self._report_progress)
        if "should_stop" in params:
            self._kwargs.setdefault("should_stop", self._stop.is_set)

    def cancel(self) -> None:
        """Ask the task to stop; it does so at its next ``should_stop()`` check."""
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

    def run(self) -> None:  # noqa: D401 - Qt override
        rid = self.request_id
        try:
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
            self._emit(self.signals.finished, rid)


class TaskRunner(QObject):
    """One task at a time for its owner: submitting cancels the previous task.

    Signals carry only results of the newest request; stale ones are dropped.
    """

    sig_progress = Signal(float)
    sig_yielded = Signal(object)
    sig_returned = Signal(object)
    sig_errored = Signal(object)
    sig_busy_changed = Signal(bool)

    _ids = itertools.count(1)

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None):
        super().__init__(parent)
        self._pool = pool or QThreadPool.globalInstance()
        self._current: Worker | None = None
        self._workers: dict[int, Worker] = {}

    @property
    def busy(self) -> bool:
        return self._current is not None

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
        """Cancel the running task (if any) and start ``fn``; return the new request id."""
        self.cancel()
        rid = next(self._ids)
        worker = Worker(rid, fn, *args, **kwargs)
        worker.setAutoDelete(False)
        sig = worker.signals
        sig.progress.connect(self._on_progress)
        sig.yielded.connect(self._on_yielded)
        sig.returned.connect(self._on_returned)
        sig.errored.connect(self._on_errored)
        sig.finished.connect(self._on_finished)
        self._workers[rid] = worker
        self._current = worker
        self.sig_busy_changed.emit(True)
        self._pool.start(worker)
        return rid

    def cancel(self) -> None:
        """Cancel the current task; its late results are dropped."""
        if self._current is not None:
            self._current.cancel()
            self._current = None
            self.sig_busy_changed.emit(False)

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
        self._workers.pop(rid, None)
        if self._is_current(rid):
            self._current = None
            self.sig_busy_changed.emit(False)
