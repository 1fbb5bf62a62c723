"""The alignment pane computes on its worker, always: nothing that grows with the text runs
on the GUI thread; a slow computation shows a busy indicator with Cancel; a new edit or
Cancel stops the old request, and superseded requests never hold up the newest (issue 12)."""

from __future__ import annotations

import inspect
import threading

from core.align.view import alignment_view
from core.errors import Cancelled
from core.tokenizers import demo_tokenizer
from tests.app.panes.alignment.support import set_mode


class ThreadRecordingTokenizer:
    """The demo tokenizer, noting the thread every encode runs on."""

    def __init__(self):
        self.inner = demo_tokenizer()
        self.threads: list[threading.Thread] = []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def encode(self, text, **kwargs):
        self.threads.append(threading.current_thread())
        return self.inner.encode(text, **kwargs)


class SlowTokenizer(ThreadRecordingTokenizer):
    """Blocks in encode until released (or until ``should_stop`` when it is passed)."""

    def __init__(self):
        super().__init__()
        self.release = threading.Event()
        self.entered = threading.Event()
        self.stopped = threading.Event()

    def encode(self, text, *, should_stop=None, **kwargs):
        self.entered.set()
        while not self.release.wait(0.005):
            if should_stop is not None and should_stop():
                self.stopped.set()
                raise Cancelled()
        return super().encode(text, **kwargs)


def _use(qtbot, pane, tokenizer):
    set_mode(qtbot, pane, "tokenize")
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000):
        pane.set_tokenizer(tokenizer, "test tokenizer")


def _use_slow(qtbot, pane) -> "SlowTokenizer":
    """A :class:`SlowTokenizer` in ``pane``, shown once, then holding its next encode."""
    tok = SlowTokenizer()
    tok.release.set()
    _use(qtbot, pane, tok)
    tok.release.clear()
    tok.entered.clear()
    return tok


def test_even_one_keystroke_of_a_short_text_is_computed_off_the_gui_thread(qtbot, pane):
    tok = ThreadRecordingTokenizer()
    _use(qtbot, pane, tok)
    pane.w.editor.setFocus()
    with qtbot.waitSignal(pane.sig_encoding_changed):
        qtbot.keyClicks(pane.w.editor, "x")
        assert pane.busy  # the keystroke returned before the tokens were computed
    assert pane.result.text == pane.state.text
    assert tok.threads and all(t is not threading.main_thread() for t in tok.threads)


def test_a_slow_computation_shows_cancel_and_cancel_stops_it(qtbot, pane):
    tok = _use_slow(qtbot, pane)
    pane.set_text("a slow text")
    qtbot.waitUntil(tok.entered.is_set)
    qtbot.waitUntil(lambda: pane.busy_shown)  # after busy_after_ms, still running
    assert "Tokenizing 11 characters" in pane.w.busy_label.text()
    with qtbot.assertNotEmitted(pane.sig_encoding_changed, wait=100):
        pane.w.cancel_button.click()
    assert not pane.busy and not pane.busy_shown
    assert "Cancelled" in pane.w.status.text() and pane.w.editor.toPlainText() == "a slow text"
    if _passes_should_stop():
        qtbot.waitUntil(tok.stopped.is_set)  # cancel means stop: the encode itself ended
    tok.release.set()


def test_a_new_edit_cancels_the_running_request_and_its_result_is_dropped(qtbot, pane):
    tok = _use_slow(qtbot, pane)
    pane.set_text("first text")
    qtbot.waitUntil(tok.entered.is_set)
    tok.release.set()
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=20000) as blocker:
        pane.set_text("second text")
    assert blocker.args[0].text == "second text" and pane.result.text == "second text"
    with qtbot.assertNotEmitted(pane.sig_encoding_changed, wait=200):
        pass


def test_superseded_pastes_do_not_hold_up_the_last_one(qtbot, pane):
    """Paste 100k "a", then 100k "b", then real text: only the real text's result is shown,
    and the two superseded requests end (issue 12: it took 256 s)."""
    set_mode(qtbot, pane, "tokenize")
    real = "Zoe flew to Istanbul"
    with qtbot.waitSignal(pane.sig_encoding_changed, timeout=60000) as blocker:
        pane.set_text("a" * 100_000)
        pane.set_text("b" * 100_000)
        pane.set_text(real)
    assert blocker.args[0].text == real
    # private: cancelled tasks winding down count too (TaskRunner.running)
    qtbot.waitUntil(lambda: pane._runner.running == 0, timeout=60000)
    assert pane.result.text == real


def _passes_should_stop() -> bool:
    """Whether the alignment compute hands ``should_stop`` to the tokenizer's encode."""
    return "should_stop" in inspect.signature(alignment_view).parameters
