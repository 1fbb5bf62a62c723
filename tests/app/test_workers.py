"""The one worker type: results, progress, errors, cancellation, stale results dropped."""

from __future__ import annotations

import sys
import threading

from PySide6.QtCore import QObject, QTimer, Signal

from app.workers import TaskRunner


def test_pyside_signal_emits_do_not_leak_references():
    """PySide6 6.12.0 dropped a reference to True per emit and aborted after a few hundred."""

    class Emitter(QObject):
        sig = Signal()

    e = Emitter()
    timer = QTimer()
    before = sys.getrefcount(True), sys.getrefcount(None)
    for _ in range(1000):
        e.sig.emit()
        timer.start(1000)  # a void method: 6.12.0 dropped a reference to None here
    timer.stop()
    # More references is harmless; fewer means Python will abort on deallocating them.
    assert sys.getrefcount(True) >= before[0] - 10
    assert sys.getrefcount(None) >= before[1] - 10


def _square(x, progress=None):
    if progress:
        progress(0.5)
    return x * x


def test_returns_result_and_progress(qtbot):
    runner = TaskRunner()
    with qtbot.waitSignal(runner.sig_returned) as blocker:
        with qtbot.waitSignal(runner.sig_progress) as prog:
            runner.submit(_square, 7)
    assert blocker.args == [49]
    assert prog.args == [0.5]
    qtbot.waitUntil(lambda: not runner.busy)


def test_errors_are_reported_not_raised(qtbot):
    def boom():
        raise ValueError("bad input")

    runner = TaskRunner()
    with qtbot.waitSignal(runner.sig_errored) as blocker:
        runner.submit(boom)
    assert isinstance(blocker.args[0], ValueError)


def test_a_new_request_drops_the_stale_result(qtbot):
    gate = threading.Event()

    def slow(should_stop=None):
        gate.wait(5)
        return "stale"

    runner = TaskRunner()
    results = []
    runner.sig_returned.connect(results.append)
    runner.submit(slow)
    with qtbot.waitSignal(runner.sig_returned) as blocker:
        runner.submit(_square, 3)
    gate.set()
    assert blocker.args == [9]
    with qtbot.assertNotEmitted(runner.sig_returned, wait=200):
        pass
    assert results == [9]


def test_cancel_stops_a_generator(qtbot):
    gate = threading.Event()

    def gen():
        yield 1
        gate.wait(5)
        yield 2

    runner = TaskRunner()
    items = []
    runner.sig_yielded.connect(items.append)
    with qtbot.waitSignal(runner.sig_yielded):
        runner.submit(gen)
    runner.cancel()
    gate.set()
    assert not runner.busy
    with qtbot.assertNotEmitted(runner.sig_returned, wait=200):
        pass
    assert items == [1]
