"""The one worker type: results, progress, errors, cancellation, stale results dropped,
superseded requests never blocking the newest, a prompt exit with a blocked worker."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from app.workers import TaskRunner, Worker, gc_paused, wait_for_workers

REPO = Path(__file__).resolve().parents[2]


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


def _until_stopped(should_stop=None, started=None):
    """A task that runs until it is told to stop (a long core loop checking should_stop)."""
    if started is not None:
        started.set()
    while not should_stop():
        threading.Event().wait(0.001)
    return "never shown"


def test_runs_on_a_worker_thread_not_the_gui_thread(qtbot):
    runner = TaskRunner()
    with qtbot.waitSignal(runner.sig_returned) as blocker:
        runner.submit(threading.current_thread)
    assert blocker.args[0] is not threading.main_thread()


def test_superseded_requests_stop_and_never_block_the_latest(qtbot):
    """Paste, paste again, type: each request cancels the last; cancelled tasks stop at their
    next should_stop check and the newest result arrives (issue 12: it came after 256 s)."""
    runner = TaskRunner()
    starts = [threading.Event() for _ in range(4)]
    for started in starts:
        runner.submit(_until_stopped, started=started)
    with qtbot.waitSignal(runner.sig_returned) as blocker:
        runner.submit(_square, 5)
    assert blocker.args == [25]
    qtbot.waitUntil(lambda: runner.running == 0)  # every cancelled task has ended
    assert not starts[2].is_set() and not starts[3].is_set()  # replaced while pending: never ran


def test_only_the_latest_pending_request_runs(qtbot):
    """Two tasks that ignore should_stop hold both of the runner's threads: of the requests
    made meanwhile only the newest runs once a thread is free, the others never start."""
    gate = threading.Event()
    ran = []

    def blocked():
        gate.wait(10)

    def record(name):
        ran.append(name)
        return name

    runner = TaskRunner(max_running=2)
    runner.submit(blocked)
    runner.submit(blocked)
    runner.submit(record, "older")
    runner.submit(record, "newer")
    assert runner.running == 2 and runner.busy
    with qtbot.waitSignal(runner.sig_returned) as blocker:
        gate.set()
    assert blocker.args == ["newer"]
    qtbot.waitUntil(lambda: runner.running == 0)
    assert ran == ["newer"]


def test_a_task_cancelled_before_it_starts_never_runs(qtbot):
    ran = []
    worker = Worker(1, ran.append, "x")
    worker.cancel()
    with qtbot.waitSignal(worker.signals.finished):
        worker.start()
    assert ran == []


def test_wait_for_workers_is_bounded(qtbot):
    gate = threading.Event()
    runner = TaskRunner()
    runner.submit(gate.wait, 30)
    assert not wait_for_workers(0.05)  # a blocked worker: the wait gives up
    gate.set()
    assert wait_for_workers(30)


EXIT_SCRIPT = """
import threading
from PySide6.QtCore import QCoreApplication, QTimer
from app.workers import TaskRunner
app = QCoreApplication([])
runner = TaskRunner()
runner.submit(threading.Event().wait)  # blocked for ever, like a read from a FIFO
QTimer.singleShot(50, app.quit)
app.exec()
print("event loop left", flush=True)
"""


def test_the_process_exits_while_a_worker_is_blocked():
    """Qt's thread pools wait for their threads at exit; the workers' daemon threads don't."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", EXIT_SCRIPT], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)  # a hang fails here instead of blocking the suite
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "event loop left"


def test_gc_is_paused_while_any_worker_builds_and_resumed_after():
    assert gc.isenabled()
    with gc_paused():
        with gc_paused():  # a second worker at the same time
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
