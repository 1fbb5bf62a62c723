"""The "BPE vs WordPiece" tab of the Merges pane: both trainers on the same corpus, merge by
merge, and where each stands on the trade-off beside characters and whole words.

:class:`SideBySideView` only renders: the pane passes its BPE trainer, a
:class:`~core.training.wordpiece.WordPieceTrainer` run to the same number of merges (same
marker and tie-break) and the held-out words.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from app.panes.merges.bpe_view import _boxed, make_table
from app.panes.merges.models import show_pair
from app.widgets.rows_model import RowsModel
from core.training.bpe import BpeTrainer
from core.training.heldout import WordLevel, heldout_report
from core.training.wordpiece import WordPieceTrainer


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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)

    def show_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def render(self, bpe: BpeTrainer, wordpiece: WordPieceTrainer | None, counts: dict[str, int],
               heldout: str, curve: tuple[list, list, list]) -> None:
        """Fill both tables. O(merges + word types + held-out length × merges)."""
        bpe_steps = bpe.history
        wp_steps = wordpiece.history if wordpiece is not None else []
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

