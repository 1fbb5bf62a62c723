"""The "BPE vs WordPiece" tab of the Merges pane: both trainers on the same corpus, merge by
merge, and where each stands on the trade-off beside characters and whole words.

The pane passes its BPE trainer and the held-out words (:meth:`SideBySideView.follow`); the
view brings its own :class:`~core.training.wordpiece.WordPieceTrainer` to the same number of
merges (same marker and tie-break) on its :class:`~app.workers.TaskRunner` — a copy of the
trainer shown, so what the GUI thread reads is never changed under it (WordPiece rescans
every pair at each merge: O(merges × pairs)); progress and Cancel beside the note. Until
the worker returns, the BPE column is current and the WordPiece column shows the merges
already known.
"""

from __future__ import annotations

import copy

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSplitter, QVBoxLayout, QWidget

from app.panes.merges.bpe_view import _boxed, make_table
from app.panes.merges.models import show_pair
from app.widgets.rows_model import RowsModel
from app.workers import TaskRunner
from core.training.bpe import BpeTrainer
from core.training.heldout import WordLevel, heldout_report
from core.training.wordpiece import WordPieceTrainer

# WordPiece rescans every pair at each merge: the tab trains it on corpora up to this many
# word types and this many merges (on the view's worker)
SIDE_MAX_TYPES, SIDE_MAX_MERGES = 3000, 500


def wordpiece_to(trainer: WordPieceTrainer | None, counts: dict[str, int], tie_break: str, marker: str,
                 k: int, progress=None, should_stop=None) -> WordPieceTrainer:
    """A copy of ``trainer`` (or a new one on ``counts``) brought to exactly ``k`` merges (or
    as many as the corpus allows) — the view's worker task. Undoing is O(merges undone);
    training forward O(merges × pairs), ``should_stop`` asked before every merge."""
    t = copy.deepcopy(trainer) if trainer is not None else WordPieceTrainer(counts, tie_break=tie_break,
                                                                           marker=marker)
    if k < len(t.merges):
        t.run_to(k)
    else:
        t.run(k - len(t.merges), progress=progress, should_stop=should_stop)
    return t


class SideBySideView(QWidget):
    """Merge table of BPE and WordPiece side by side, and the trade-off table."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.merges_model = RowsModel(
            ("Merge", "BPE pair", "Count", "WordPiece pair", "Score"),
            header_tips=("Merge number, from 1", "The most frequent pair (BPE)",
                         "Its frequency", "The pair with the highest count(ab) / (count(a)·count(b))",
                         "Its WordPiece score"), parent=self)
        self.tradeoff_model = RowsModel(
            ("Tokenizer", "Table size", "Corpus tokens", "Held-out words"),
            header_tips=("What the corpus is cut into", "Embedding-table entries: alphabet plus "
                         "one per merge, or word types plus [UNK]",
                         "Tokens to encode the corpus", "The held-out words (Held-out box of the "
                         "BPE tab), segmented"), parent=self)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        merges = make_table(self.merges_model, "Both trainers start from the same characters; "
                            "ties are broken by the same rule", (55, 140, 60, 140))
        tradeoff = make_table(self.tradeoff_model, "From characters to whole words: table size "
                              "against sequence length, and what happens to unseen words",
                              (190, 80, 100))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(_boxed("Merges: BPE (frequency) vs WordPiece (score)", merges))
        split.addWidget(_boxed("Trade-off: characters, merges, words", tradeoff))
        split.setSizes([450, 250])
        self.progress = QProgressBar(maximumWidth=140, maximum=1000)
        self.progress.setToolTip("WordPiece training on a worker")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop training WordPiece; the column keeps the merges it had")
        self.cancel_button.clicked.connect(self.cancel)
        for w in (self.progress, self.cancel_button):
            w.hide()
        row = QHBoxLayout()
        row.addWidget(self.note, 1)
        row.addWidget(self.progress)
        row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(split, 1)
        self.wordpiece: WordPieceTrainer | None = None
        self._key: tuple = ()  # the corpus and settings self.wordpiece was trained with
        self._shown: tuple = ()  # the arguments of the last follow(), to render again on return
        self.runner = TaskRunner(self)
        self.runner.sig_returned.connect(self._on_trained)
        self.runner.sig_errored.connect(lambda exc: self.show_note(f"WordPiece training failed: {exc}"))
        self.runner.sig_progress.connect(lambda f: self.progress.setValue(int(f * 1000)))
        self.runner.sig_busy_changed.connect(self._on_busy)

    @property
    def training(self) -> bool:
        """Whether the worker is bringing WordPiece to the BPE trainer's merges."""
        return self.runner.busy

    def show_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def follow(self, bpe: BpeTrainer, counts: dict[str, int], tie_break: str, marker: str,
               heldout: str, curve: tuple[list, list, list]) -> None:
        """Show ``bpe`` now and bring WordPiece (same corpus, tie-break and marker) to its
        number of merges on the worker; returns at once. O(merges + word types + held-out)
        on the GUI thread."""
        k = len(bpe.merges)
        key = (id(counts), tie_break, marker)
        if key != self._key:
            self.runner.cancel()
            self.wordpiece, self._key = None, key
        self._shown = (bpe, counts, heldout, curve)
        if bpe.n_words > SIDE_MAX_TYPES or k > SIDE_MAX_MERGES:
            self.runner.cancel()
            self.show_note(f"WordPiece is trained here on corpora up to {SIDE_MAX_TYPES:,} word types and "
                           f"{SIDE_MAX_MERGES} merges; this one has {bpe.n_words:,} types at {k:,} merges.")
            self.render(bpe, None, counts, heldout, curve)
            return
        self.show_note("")
        wp = self.wordpiece
        if wp is None or len(wp.merges) > k or (len(wp.merges) < k and wp.pair_counts):
            self.runner.submit(wordpiece_to, self.wordpiece, counts, tie_break, marker, k)
        self.render(bpe, self.wordpiece, counts, heldout, curve)

    def cancel(self) -> None:
        """Stop the WordPiece training; the column keeps what it shows."""
        self.runner.cancel()

    def _on_trained(self, trainer: object) -> None:
        self.wordpiece = trainer if isinstance(trainer, WordPieceTrainer) else None
        if self._shown:  # results of superseded requests never arrive (TaskRunner)
            self.render(*self._shown[:1], self.wordpiece, *self._shown[1:])

    def _on_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.progress.setValue(0)
        self.cancel_button.setVisible(busy)

    def render(self, bpe: BpeTrainer, wordpiece: WordPieceTrainer | None, counts: dict[str, int],
               heldout: str, curve: tuple[list, list, list]) -> None:
        """Fill both tables (the WordPiece column up to BPE's merges; its trade-off row only
        once it has them). O(merges + word types + held-out length × merges)."""
        bpe_steps = bpe.history
        k = len(bpe_steps)
        wp_steps = wordpiece.history[:k] if wordpiece is not None else []
        if wordpiece is not None and len(wordpiece.merges) != k and self.training:
            wordpiece = None  # still training: no trade-off row for it yet
        rows = []
        for i in range(max(len(bpe_steps), len(wp_steps))):
            b = bpe_steps[i] if i < len(bpe_steps) else None
            w = wp_steps[i] if i < len(wp_steps) else None
            rows.append((i + 1, show_pair(b.pair) if b else "", b.count if b else "",
                         show_pair(w.pair) if w else "",
                         f"{float(w.score):.4f}" if w is not None and w.score is not None else ""))
        tips = [f"WordPiece score = {wp_steps[i].score}" if i < len(wp_steps) else None
                for i in range(len(rows))]
        self.merges_model.set_rows(rows, tips, highlight=len(rows) - 1)
        words = heldout.split()

        def split_all(trainer) -> str:
            report = heldout_report(trainer, heldout)
            return "   ".join(" ".join(w.symbols) for w in report.words)

        k = len(bpe.merges)
        table = [("characters (0 merges)", curve[0][0], curve[1][0],
                  "   ".join(" ".join(bpe.segment_steps(w)[0].symbols) for w in words)),
                 (f"BPE, {k} merges", bpe.vocab_size, bpe.n_tokens, split_all(bpe))]
        if wordpiece is not None:
            table.append((f"WordPiece, {len(wordpiece.merges)} merges", wordpiece.vocab_size,
                          wordpiece.n_tokens, split_all(wordpiece)))
        level = WordLevel(counts)
        table.append(("word level (+ [UNK])", level.table_size, level.corpus_tokens,
                      "   ".join(" ".join(level.segment(w)) for w in words)))
        self.tradeoff_model.set_rows(table)

