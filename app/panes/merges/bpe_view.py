"""The BPE tab of the Merges pane: merge table, corpus words, curves, candidates, held-out words.

:class:`BpeView` only renders: :meth:`BpeView.render` takes the pane's trainer and the longest
curve computed so far and updates the models and plot items in place.
"""

from __future__ import annotations

import html
from typing import Callable, Collection, Sequence

import numpy as np
from PySide6.QtCore import QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.panes.merges.models import FILTER_ROLE, MergeTableModel, WordTableModel, show_pair, show_symbol
from app.widgets.plot_lines import LinePlot
from app.widgets.rows_model import RowsModel
from app.widgets.span_line_view import SpanLine, SpanLineView
from app.widgets.span_segments import SegmentStyle
from app.widgets.text_format import plural
from core.training.bpe import BpeTrainer
from core.training.heldout import HeldoutReport, HeldoutWord, heldout_report
from core.training.wordpiece import compare_candidates

N_CANDIDATES = 10
# the words filter searches for at most this many characters of what was typed (code points):
# a longer pattern costs time per keystroke, and one of tens of thousands of characters is
# more than Qt's regular expressions (which the proxy's fixed-string filter builds) accept
MAX_FILTER_CHARS = 256
ANIMATION_MS = 450
UNKNOWN_COLOUR = "#ff9a9a"  # a held-out symbol outside the learned alphabet
_SYMBOL_COLOURS = ("#dbe9f6", "#fde2c8", "#d9f0d3", "#eadcf0", "#f9d5d3", "#fff2b3")


def make_table(model, tip: str, widths: Sequence[int] = ()) -> QTableView:
    """A compact read-only table view for ``model``."""
    view = QTableView()
    view.setModel(model)
    view.setToolTip(tip)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(22)
    view.horizontalHeader().setStretchLastSection(True)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    for i, w in enumerate(widths):
        view.setColumnWidth(i, w)
    return view


def symbols_line(word: str, symbols: Sequence[str], note: str = "",
                 unknown: Collection[str] = ()) -> SpanLine:
    """``word → its symbols``: the symbols' concatenation drawn as one plain text (so it is
    shaped like the word), each symbol's span on its own background colour (red for a symbol
    in ``unknown``: outside the vocabulary) and its boundaries checked for cuts inside a
    grapheme cluster. O(len(symbols))."""
    segments, cuts, at = [], [], 0
    for i, sym in enumerate(symbols):
        colour = UNKNOWN_COLOUR if sym in unknown else _SYMBOL_COLOURS[i % len(_SYMBOL_COLOURS)]
        segments.append((at, at + len(sym), SegmentStyle(background=colour)))
        at += len(sym)
        cuts.append(at)
    return SpanLine("".join(symbols), head=f"{word} →", tail=note, segments=tuple(segments), cuts=tuple(cuts[:-1]))


def symbols_html(symbols: Sequence[str], show: Callable[[str], str] = show_symbol) -> str:
    """Symbols shown by ``show`` as coloured boxes (alternating background colours) in
    HTML."""
    return "".join(
        f'<span style="background-color:{_SYMBOL_COLOURS[i % len(_SYMBOL_COLOURS)]};">'
        f"&nbsp;{html.escape(show(s))}&nbsp;</span>&#8202;" for i, s in enumerate(symbols))


class BpeView(QWidget):
    """Merge table, word list, curves, candidate rankings and held-out replay for one trainer.

    Signals
    -------
    sig_status_requested(str) : messages for the status bar (exports).
    sig_heldout_changed(str) : the held-out words text (the pane stores it).
    """

    sig_status_requested = Signal(str)
    sig_heldout_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.trainer: BpeTrainer | None = None
        self.merge_model = MergeTableModel(self)
        self.word_model = WordTableModel(self)
        self.word_proxy = QSortFilterProxyModel(self)
        self.word_proxy.setSourceModel(self.word_model)
        self.word_proxy.setFilterKeyColumn(0)
        self.word_proxy.setFilterRole(FILTER_ROLE)
        self.word_proxy.setDynamicSortFilter(False)  # words never change, only segmentations
        self.word_proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.bpe_model = RowsModel(("#", "Pair", "Count", "WordPiece score"),
                                   header_tips=("Rank of the candidate", "Symbols", "Pair frequency",
                                                "count(ab) / (count(a)·count(b))"), parent=self)
        self.wp_model = RowsModel(("#", "Pair", "Score", "Count"),
                                  header_tips=("Rank of the candidate", "Symbols",
                                               "count(ab) / (count(a)·count(b))", "Pair frequency"),
                                  parent=self)
        self._frames: list[list] = []
        self.report = HeldoutReport(())
        self._frame = 0
        self._timer = QTimer(self, interval=ANIMATION_MS)
        self._timer.timeout.connect(self._on_animation_tick)
        self._build()

    def set_word_filter(self, text: str) -> None:
        """Show only the word types containing ``text`` as a literal, case-insensitive
        substring (``(``, ``[``, ``\\``, ``*`` mean themselves). Only the first
        :data:`MAX_FILTER_CHARS` code points are searched for; a longer ``text`` says so in
        the note under the box. Never raises."""
        needle = text[:MAX_FILTER_CHARS]
        self.word_proxy.setFilterFixedString(needle)  # escaped by Qt: no regex syntax
        cut = len(text) > len(needle)
        self.filter_note.setVisible(cut)
        self.filter_note.setText(
            f"Filtering on the first {MAX_FILTER_CHARS:,} of the {len(text):,} characters typed"
            if cut else "")

    # -- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        self.merge_view = make_table(self.merge_model, "Merges so far; the newest is highlighted, "
                                     "⚑ marks a tie resolved by the tie-break rule", (48, 150, 60, 120))
        self.word_filter = QLineEdit(placeholderText="Filter words…")
        self.word_filter.setToolTip("Show only word types containing this text")
        self.word_filter.setClearButtonEnabled(True)
        self.word_filter.textChanged.connect(self.set_word_filter)
        self.filter_note = QLabel()
        self.filter_note.setWordWrap(True)
        self.filter_note.hide()
        self.word_view = make_table(self.word_proxy, "Corpus word types with their current "
                                    "segmentation; words the last merge changed are highlighted",
                                    (110, 60, 60))
        self.changed_label = QLabel("")
        self.changed_label.setWordWrap(True)
        words_box = _boxed("Corpus words", self.word_filter, self.filter_note, self.word_view,
                           self.changed_label)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(_boxed("Merges", self.merge_view))
        left.addWidget(words_box)

        self.tokens_plot = LinePlot("Corpus tokens vs vocabulary size", "bpe_tokens",
                                    x_label="vocabulary size", y_label="corpus tokens")
        self.avg_plot = LinePlot("Average symbols per word type", "bpe_avg_symbols",
                                 x_label="vocabulary size", y_label="symbols / word type")
        for plot in (self.tokens_plot, self.avg_plot):
            plot.sig_status_requested.connect(self.sig_status_requested)
            plot.setToolTip("The whole run computed so far; the dot and dashed line mark the "
                            "current step. Right-click to export.")
        plots = QWidget()
        row = QHBoxLayout(plots)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.tokens_plot)
        row.addWidget(self.avg_plot)

        self.bpe_view = make_table(self.bpe_model, "BPE picks the most frequent pair",
                                   (30, 140, 60))
        self.wp_view = make_table(self.wp_model, "WordPiece picks the pair with the highest "
                                  "count(ab) / (count(a)·count(b))", (30, 140, 70))
        cands = QWidget()
        row = QHBoxLayout(cands)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(_boxed("Next merge by BPE (frequency)", self.bpe_view))
        row.addWidget(_boxed("Next merge by WordPiece score", self.wp_view))

        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(plots)
        right.addWidget(cands)
        right.addWidget(self._build_heldout())
        right.setSizes([330, 230, 170])
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([520, 880])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    def _build_heldout(self) -> QWidget:
        self.heldout_edit = QLineEdit("lowest newer lowlow")
        self.heldout_edit.setToolTip("Words not (necessarily) in the corpus, separated by spaces: "
                                     "each is split by replaying the current merges in order")
        self.heldout_edit.textChanged.connect(self._on_heldout_changed)
        self.animate_button = QPushButton("Animate")
        self.animate_button.setToolTip("Show the held-out words merge by merge")
        self.animate_button.setCheckable(True)
        self.animate_button.toggled.connect(self._on_animate_toggled)
        self.totals_label = QLabel("")
        self.totals_label.setWordWrap(True)
        self.totals_label.setToolTip("Over all held-out words: tokens, characters (code points, "
                                     "spaces excluded), tokens per character, and symbols outside "
                                     "the vocabulary (red: they would have no id)")
        self.heldout_view = SpanLineView()
        self.heldout_view.setToolTip("Held-out words and their segmentation with the current merges: "
                                     "each symbol has its own background behind the word's own "
                                     "glyphs; a red caret marks a symbol boundary inside a grapheme "
                                     "cluster")
        row = QHBoxLayout()
        row.addWidget(QLabel("Words:"))
        row.addWidget(self.heldout_edit, 1)
        row.addWidget(self.animate_button)
        box = QGroupBox("Held-out words")
        lay = QVBoxLayout(box)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(row)
        lay.addWidget(self.heldout_view)
        lay.addWidget(self.totals_label)
        return box

    # -- rendering -----------------------------------------------------------------------
    def render(self, trainer: BpeTrainer, curve: tuple[list, list, list]) -> None:
        """Show ``trainer``'s state; ``curve`` is the longest (sizes, tokens, avg) computed."""
        self.trainer = trainer
        history = trainer.history
        self.merge_model.set_steps(history)
        if history:
            self.merge_view.scrollTo(self.merge_model.index(len(history) - 1, 0))
        changed = history[-1].changed_words if history else ()
        self.word_model.set_trainer(trainer, changed)
        self.changed_label.setText(
            f"{plural(trainer.n_words, 'word type')}; the last merge changed {len(changed):,} "
            f"(highlighted)" if history else f"{plural(trainer.n_words, 'word type')}; no merge yet")
        self._render_curves(trainer, curve)
        self._render_candidates(trainer)
        self._render_heldout()

    def _render_curves(self, trainer: BpeTrainer, curve) -> None:
        sizes, tokens, avg = (np.asarray(c, dtype=float) for c in curve)
        k = len(trainer.merges)
        for plot, ys, name in ((self.tokens_plot, tokens, "corpus tokens"),
                               (self.avg_plot, avg, "symbols per word type")):
            plot.set_curve(name, sizes, ys, color="#1f77b4")
            plot.set_curve("current step", sizes[k:k + 1], ys[k:k + 1], color="#d62728",
                           width=0, symbol="o")
            line = plot.set_marker("current", sizes[k], label=f"merge {k}", color="#d62728")
            line.label.setPosition(0.5)  # clear of the legend in the top corner

    def _render_candidates(self, trainer: BpeTrainer) -> None:
        comp = compare_candidates(trainer, N_CANDIDATES)
        self.bpe_model.set_rows([(i + 1, show_pair(c.pair), c.count, f"{float(c.score):.4f}")
                                 for i, c in enumerate(comp.bpe)], highlight=0 if comp.bpe else -1)
        self.wp_model.set_rows([(i + 1, show_pair(c.pair), f"{float(c.score):.4f}", c.count)
                                for i, c in enumerate(comp.wordpiece)],
                               [f"score = {c.score}" for c in comp.wordpiece],
                               highlight=0 if comp.wordpiece else -1)

    def heldout_words(self) -> list[str]:
        return self.heldout_edit.text().split()

    def _render_heldout(self) -> None:
        if self.trainer is None:
            return
        self._frames = [self.trainer.segment_steps(w) for w in self.heldout_words()]
        self.report = heldout_report(self.trainer, self.heldout_edit.text())
        if self._timer.isActive():
            return
        self._show_frame(None)

    def _show_frame(self, frame: int | None) -> None:
        lines = []
        for i, (word, steps) in enumerate(zip(self.heldout_words(), self._frames)):
            st = steps[-1] if frame is None else steps[min(frame, len(steps) - 1)]
            note = ""
            if st.rank is not None and (frame is None or frame < len(steps)):
                note = (f"{'last merge used' if frame is None else 'after'}: "
                        f"merge {st.rank + 1}, {show_pair(st.pair)}")
            unknown = set(self.report.words[i].unknown) if frame is None else set()
            if frame is None:
                note = f"{_counts_note(self.report.words[i])}{' · ' + note if note else ''}"
            lines.append(symbols_line(word, st.symbols, note, unknown))
        self.heldout_view.set_lines(lines, "Type words to segment.")
        self.totals_label.setText(_totals_note(self.report))

    def heldout_segmentations(self) -> list[list[str]]:
        """The current segmentation of each held-out word (what the box shows when idle)."""
        return [list(steps[-1].symbols) for steps in self._frames]

    def _on_heldout_changed(self, text: str) -> None:
        self._render_heldout()
        self.sig_heldout_changed.emit(text)

    def _on_animate_toggled(self, on: bool) -> None:
        if on and self._frames:
            self._frame = 0
            self._show_frame(0)
            self._timer.start()
        else:
            self._timer.stop()
            self.animate_button.setChecked(False)
            self._show_frame(None)

    def _on_animation_tick(self) -> None:
        self._frame += 1
        if self._frame >= max((len(s) for s in self._frames), default=0):
            self.animate_button.setChecked(False)
            return
        self._show_frame(self._frame)


def _counts_note(word: HeldoutWord) -> str:
    """``5 tokens / 7 chars = 0.71 tok/char`` and the symbols with no id, for one word."""
    note = (f"{plural(word.n_tokens, 'token')} / {plural(word.n_chars, 'char')} = "
            f"{word.n_tokens / word.n_chars:.2f} tok/char")
    if word.unknown:
        note += " · not in alphabet: " + " ".join(show_symbol(s) for s in dict.fromkeys(word.unknown))
    return note


def _totals_note(report: HeldoutReport) -> str:
    """The held-out words' totals as the box's last line ("" when there are none)."""
    if not report.words:
        return ""
    note = (f"All: {plural(report.n_tokens, 'token')}, {plural(report.n_chars, 'character')}, "
            f"{report.tokens_per_char:.2f} tokens per character")
    if report.n_unknown:
        note += f"; {plural(report.n_unknown, 'symbol')} outside the alphabet (red)"
    return note


def _boxed(title: str, *widgets: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    lay = QVBoxLayout(box)
    lay.setContentsMargins(4, 4, 4, 4)
    lay.setSpacing(3)
    for w in widgets:
        lay.addWidget(w)
    return box
