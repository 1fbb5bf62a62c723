"""Issue 30 §5: superseded work gives its worker slot back. A real long core loop (a Unigram
lattice over one 3,000,000-character word, seconds of work) is superseded twice while both
worker slots are busy: the newest result arrives, and the superseded tasks stopped inside
their word (``Cancelled``) instead of finishing it."""

from __future__ import annotations

import threading

from app.workers import TaskRunner
from core.errors import Cancelled
from core.tokenizers.models.unigram import Unigram

MODEL = Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("c", -1.0), ("ab", -1.5), ("abc", -2.0)], 0)


def test_superseded_lattices_stop_before_the_newest_result(qtbot):
    runner = TaskRunner()
    log: dict[str, str] = {}
    started = {name: threading.Event() for name in ("first", "second")}

    def segment(name, word, should_stop=None):
        if name in started:
            started[name].set()
        try:
            pieces = MODEL.tokenize_words([word], should_stop=should_stop)
        except Cancelled:
            log[name] = "cancelled"
            raise
        log[name] = "finished"
        return name, len(pieces[0][0])

    runner.submit(segment, "first", "abcab" * 600_000)
    assert started["first"].wait(10)
    runner.submit(segment, "second", "bcabc" * 600_000)  # supersedes the first
    assert started["second"].wait(10)
    with qtbot.waitSignal(runner.sig_returned, timeout=60_000) as blocker:
        runner.submit(segment, "newest", "abcab")  # supersedes the second; both slots are busy
    assert blocker.args == [("newest", 2)]
    qtbot.waitUntil(lambda: runner.running == 0)
    # stopped inside their word (a word-level check alone would have let them finish it)
    assert log == {"first": "cancelled", "second": "cancelled", "newest": "finished"}
