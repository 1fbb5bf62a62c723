"""The Alignment pane's Decoded view: ``decode(encode(text))`` beside the text, differences marked.

Two shaping-safe span views (:class:`~app.widgets.span_text_view.SpanTextView`): the
original text and the decoded text, each difference of :func:`core.align.round_trip.
round_trip` painted behind the text in both (background, an underline coloured by cause, a
red frame for unknown text; widened to whole grapheme clusters), a summary line ("3 lost
accents, 1 unknown, share 98.7 % unchanged") and, for the difference under the mouse, its
cause in a tooltip and in the line under the summary, with its counterpart highlighted in
the other view.

The round trip reuses the pane's result (its ids, normalized text and unknown tokens): a
worker decodes the ids and compares, once the pane's result has stayed for
:data:`DELAY_MS` and only while the view is expanded; texts over :data:`AUTO_CHARS` wait for
the Compute button. An edit or a new tokenizer cancels the running comparison.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from PySide6.QtCore import QEventLoop, Qt, QTimer, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from app.widgets.layout_boundary import LayoutBoundary
from app.widgets.span_segments import entity_colour
from app.widgets.span_text_view import SpanTextView
from app.workers import TaskRunner
from core.align.round_trip import Cause, Difference, RoundTrip, decode_kept, round_trip
from core.align.view import AlignmentView
from core.errors import check_stop
from core.text.graphemes import grapheme_bounds
from core.text.normalize import NormalizedText
from core.text.offsets import utf16_table
from core.tokenizers import TokenizerLike

AUTO_CHARS = 20_000  # longer texts are compared on request (Compute), not after every edit
DELAY_MS = 250  # the pane's result must stay this long before the comparison starts
STALE = "(the text changed — updating)"
"""What the summary starts with while the round trip shown is of the text before an edit."""


@dataclass(frozen=True)
class Decoded:
    """What the worker hands back: the round trip and what drawing it needs (O(n) to build)."""

    round_trip: RoundTrip
    original_spans: list[tuple[int, int]]  # one per difference (empty where text was added)
    decoded_spans: list[tuple[int, int]]
    original_utf16: Sequence[int]
    decoded_utf16: Sequence[int]


def unavailable(view: AlignmentView | None, tokenizer: TokenizerLike) -> str | None:
    """Why no round trip can be shown for ``view`` (a sentence), or None when it can."""
    if view is None:
        return "Waiting for the tokens…"
    if view.mode == "align":
        return "A pasted token list has no ids to decode: choose Mode ▸ tokenize to see the round trip."
    if (view.error and not view.rows.ids) or None in view.rows.ids:  # one C scan of the ids
        return "No round trip: the text could not be tokenized (see the message above)."
    if not callable(getattr(tokenizer, "decode", None)):
        return "This tokenizer cannot decode ids back to text."
    return None


def decode_view(tokenizer: TokenizerLike, view: AlignmentView, should_stop: Callable[[], bool] | None = None) -> Decoded:
    """Decode the view's ids and compare with its text (a worker runs this; O(n) plus the
    round trip's cost).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    core.errors.SubwordScopeError
        If the tokenizer cannot decode the ids.
    """
    check_stop(should_stop)
    # the text's own special tokens (a chat prompt's <|im_start|>) are decoded back, so a
    # lossless tokenizer reads 100 % unchanged; those the post-processor added are not
    decoded, kept = decode_kept(tokenizer, view.text, view.rows.ids, view.spans, should_stop)
    unknown = [sp for sp, unk in zip(view.spans, view.rows.unknown) if unk and sp is not None]
    unk = getattr(tokenizer, "unk_token", None)
    normalized = view.normalized if view.normalized is not None else NormalizedText.identity(view.text)
    rt = round_trip(view.text, normalized, decoded, unknown_spans=unknown,
                    unknown_surfaces=(unk,) if isinstance(unk, str) else (), should_stop=should_stop)
    rt = replace(rt, special_tokens_kept=kept)
    diffs = rt.differences
    return Decoded(rt, widened([(d.start, d.end) for d in diffs], rt.original),
                   widened([(d.decoded_start, d.decoded_end) for d in diffs], rt.decoded),
                   utf16_table(rt.original), utf16_table(rt.decoded))


def widened(spans: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Non-empty ``spans`` widened to whole grapheme clusters, for drawing: a lost vowel sign
    marks its cluster, not a boundary inside it (empty spans stay). O(n + spans log n)."""
    bounds = grapheme_bounds(text)
    out = []
    for s, e in spans:
        if e > s:
            s = bounds[bisect.bisect_right(bounds, s) - 1]
            e = bounds[bisect.bisect_left(bounds, e)]
        out.append((s, e))
    return out


# The underline colour of each cause (the three whitespace causes share one), drawn as the
# span view's entity underline: an entity's colour follows its key, so each colour gets a key.
CAUSE_COLOURS = {Cause.LOST_ACCENT: "#7e22ce", Cause.LOST_CASE: "#1d4ed8", Cause.UNKNOWN: "#b91c1c",
                 Cause.COLLAPSED_WHITESPACE: "#a16207", Cause.ADDED_WHITESPACE: "#a16207",
                 Cause.CHANGED_WHITESPACE: "#a16207", Cause.NORMALIZATION_FORM: "#0f766e",
                 Cause.OTHER: "#15803d"}
_KEYS = {colour: next(k for k in map(chr, range(33, 127)) if entity_colour(k) == colour)
         for colour in set(CAUSE_COLOURS.values())}


def cause_key(cause: Cause) -> str:
    """The entity key that draws ``cause``'s underline colour."""
    return _KEYS[CAUSE_COLOURS[cause]]


def legend_html() -> str:
    """One coloured sample per cause (the underline colour both views draw)."""
    whitespace = (Cause.COLLAPSED_WHITESPACE, Cause.ADDED_WHITESPACE, Cause.CHANGED_WHITESPACE)
    items = [(c.value, CAUSE_COLOURS[c]) for c in Cause if c not in whitespace[1:]]
    items = [("whitespace", colour) if label == whitespace[0].value else (label, colour) for label, colour in items]
    return " ".join(f'<span style="color:{colour}"><u>&nbsp;&nbsp;&nbsp;</u>&nbsp;{label}</span>'
                    for label, colour in items) + ' <span style="color:#dc2626">▭ framed: unknown</span>'


class DecodedView(QWidget):
    """The Decoded box: a header that folds it, a summary, and the two span views.

    Signals
    -------
    sig_shown(object)
        A :class:`Decoded` result is now drawn.
    sig_expanded_changed(bool)
        The user folded (False) or unfolded (True) the view.
    """

    sig_shown = Signal(object)
    sig_expanded_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._tokenizer: TokenizerLike | None = None
        self._view: AlignmentView | None = None
        self._stale = True  # the drawn result is not of self._view
        self.result: Decoded | None = None
        self._build()
        self._runner = TaskRunner(self)
        self._runner.sig_returned.connect(self._on_computed)
        self._runner.sig_errored.connect(self._on_failed)
        self._timer = QTimer(self, singleShot=True, interval=DELAY_MS)
        self._timer.timeout.connect(self._start)

    def _build(self) -> None:
        self.toggle = QCheckBox("Decoded — round trip")
        self.toggle.setChecked(True)
        self.toggle.setStyleSheet("QCheckBox { font-weight: bold; }")
        self.toggle.setToolTip("decode(encode(text)) against the text: what the tokenizer gives back. "
                               "Unchecked: folded, nothing is computed")
        self.summary = QLabel()
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.compute = QPushButton("Compute")
        self.compute.setToolTip(f"Texts over {AUTO_CHARS:,} characters are compared on request")
        self.compute.hide()
        self.detail = QLabel()
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setStyleSheet("color:#374151")
        self.legend = QLabel(legend_html())
        self.legend.setToolTip("\n".join(f"{c.value}: {c.explanation}" for c in Cause))
        self.original, self.decoded = SpanTextView(), SpanTextView()
        self.original.setToolTip("The original text; what did not come back is marked")
        self.decoded.setToolTip("decode(encode(text)), special tokens skipped; what differs is marked")
        self._build_layout()
        self.toggle.toggled.connect(self._on_toggled)
        self.compute.clicked.connect(self._start)
        self.original.sig_hovered.connect(lambda pos: self._on_hovered(pos, decoded=False))
        self.decoded.sig_hovered.connect(lambda pos: self._on_hovered(pos, decoded=True))

    def _build_layout(self) -> None:
        self.body = QSplitter(Qt.Orientation.Horizontal)  # side by side, as a diff tool: each box gets the
        for view in (self.original, self.decoded):  # view's whole height (three lines at 1280×720, not one)
            view.setMinimumHeight(view.fontMetrics().height() + 12)  # one line: the pane stays small
            self.body.addWidget(view)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.detail.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.legend.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.legend.setWordWrap(True)  # a narrow window wraps it instead of cutting it off
        self.legend.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        head = QHBoxLayout()
        head.addWidget(self.toggle)
        head.addWidget(LayoutBoundary(self.summary), 1)  # new texts after every edit: no relayout above
        head.addWidget(self.compute)
        notes = QHBoxLayout()
        notes.addWidget(LayoutBoundary(self.detail), 1)
        notes.addWidget(self.legend, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.setSpacing(3)
        lay.addLayout(head)
        lay.addLayout(notes)
        lay.addWidget(self.body, 1)

    # -- the pane's API --------------------------------------------------------------------------
    def set_tokenizer(self, tokenizer: TokenizerLike) -> None:
        """The pane's tokenizer changed: the shown view's ids belong to the old one."""
        self._tokenizer = tokenizer
        self._view = None
        self._runner.cancel()
        self._timer.stop()

    def set_view(self, view: AlignmentView) -> None:
        """The pane shows ``view`` now: compare it after :data:`DELAY_MS` (here: one scan of
        its ids in C, for a missing one)."""
        self._view, self._stale = view, True
        self._runner.cancel()
        self._schedule()

    def text_edited(self) -> None:
        """The text is being edited: the comparison of the shown view would be stale, and
        it must not take the interpreter from the new tokenization. Stops it (the next
        :meth:`set_view` schedules a new one). O(1)."""
        self._runner.cancel()
        self._timer.stop()
        if self.result is not None and self.body.isEnabled():  # greyed until the new one comes
            self.body.setEnabled(False)
            self.summary.setText(f"{STALE} {self.summary.text()}")

    def set_expanded(self, on: bool) -> None:
        self.toggle.setChecked(on)

    def expanded(self) -> bool:
        return self.toggle.isChecked()

    @property
    def busy(self) -> bool:
        return self._runner.busy or self._timer.isActive()

    def wait_until_idle(self, timeout_ms: int = 30_000) -> bool:
        """Start a due comparison now and run the event loop until it is drawn (or
        ``timeout_ms`` passes); return whether it was. For ``--screenshot``, never for a
        user action."""
        if self._timer.isActive():
            self._timer.stop()
            self._start()
        if not self._runner.busy:
            return True
        loop = QEventLoop()
        QTimer.singleShot(timeout_ms, loop.quit)
        self._runner.sig_busy_changed.connect(loop.quit)
        loop.exec()
        self._runner.sig_busy_changed.disconnect(loop.quit)
        return not self._runner.busy

    # -- computing ---------------------------------------------------------------------------
    def _schedule(self) -> None:
        reason = unavailable(self._view, self._tokenizer)
        if not self.expanded():
            return
        if reason is not None:
            self._show_message(reason)
            return
        if len(self._view.text) > AUTO_CHARS:
            self.compute.show()
            self.summary.setText(f"{len(self._view.text):,} characters: press Compute to decode and compare.")
            return
        self._timer.start()

    def _start(self) -> None:
        if self._view is not None and unavailable(self._view, self._tokenizer) is None:
            self.compute.hide()
            self._runner.submit(decode_view, self._tokenizer, self._view)

    def _on_computed(self, decoded: Decoded) -> None:
        self.result, self._stale = decoded, False
        self.body.setEnabled(True)
        rt = decoded.round_trip
        where = "the decoded text equals the normalized text" if rt.matches_normalized else ""
        self.summary.setText(rt.summary() + (f" — {where}" if where and not rt.exact else ""))
        self.detail.setText("Hover a marked place to see why it changed." if rt.differences else "")
        self._draw(self.original, rt.original, decoded.original_spans, decoded.original_utf16, rt.differences)
        self._draw(self.decoded, rt.decoded, decoded.decoded_spans, decoded.decoded_utf16, rt.differences)
        self.sig_shown.emit(decoded)

    @staticmethod
    def _draw(view: SpanTextView, text: str, spans: list[tuple[int, int]], utf16: Sequence[int],
              diffs: Sequence[Difference]) -> None:
        view.set_content(text, spans, utf16=list(utf16), marks=[])
        view.set_unknown([Cause.UNKNOWN in d.causes for d in diffs])
        view.set_entities([(s, e, cause_key(d.causes[0])) for (s, e), d in zip(spans, diffs) if e > s])

    def _on_failed(self, exc: object) -> None:
        self._show_message(f"Could not decode: {exc}")

    def _show_message(self, text: str) -> None:
        self.result = None
        self.body.setEnabled(True)
        self.summary.setText(text)
        self.detail.setText("")
        self.compute.hide()
        for view in (self.original, self.decoded):
            view.set_content("", [], marks=[])

    def _on_toggled(self, on: bool) -> None:
        self.body.setVisible(on)
        self.detail.setVisible(on)
        self.legend.setVisible(on)
        self.sig_expanded_changed.emit(on)
        if on and self._stale:
            self._schedule()
        elif not on:
            self._runner.cancel()
            self._timer.stop()

    # -- hovering ----------------------------------------------------------------------------
    def difference_at(self, pos: int, *, decoded: bool = False) -> int:
        """Index of the difference whose (original or decoded) span holds code point ``pos``,
        or -1. O(log differences)."""
        if self.result is None or pos < 0:
            return -1
        spans = self.result.decoded_spans if decoded else self.result.original_spans
        k = bisect.bisect_right(spans, (pos, float("inf"))) - 1
        return k if k >= 0 and spans[k][0] <= pos < spans[k][1] else -1

    def _on_hovered(self, pos: int, *, decoded: bool) -> None:
        k = self.difference_at(pos, decoded=decoded)
        if k < 0:
            self.original.set_linked([], scroll=False)
            self.decoded.set_linked([], scroll=False)
            QToolTip.hideText()
            return
        d = self.result.round_trip.differences[k]
        text = d.describe()
        self.detail.setText(text)
        self.original.set_linked([(d.start, d.end)], scroll=decoded)
        self.decoded.set_linked([(d.decoded_start, d.decoded_end)], scroll=not decoded)
        tip = text + "\n" + "\n".join(c.explanation for c in d.causes)
        QToolTip.showText(QCursor.pos(), tip, self.decoded if decoded else self.original)
