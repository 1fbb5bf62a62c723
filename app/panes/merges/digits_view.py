"""The "Digits" tab of the Merges pane: every number of a text cut by the digit-grouping
schemes of :mod:`core.text.digits` (per digit, threes from the right, threes from the left)
beside the cut the current tokenizer makes."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from app.panes.merges.bpe_view import make_table
from app.panes.merges.state import DIGITS_TEXT
from app.panes.stored import MAX_TEXT_CHARS
from app.widgets.rows_model import RowsModel
from core.text.digits import SCHEMES, group_digits, number_spans

PIECES = " · "


def tokenizer_pieces(text: str, offsets, span: tuple[int, int]) -> list[str]:
    """The parts of ``text`` inside ``span`` that each token (``offsets``: code-point spans)
    covers, in order; tokens outside it or empty ones are skipped. O(tokens)."""
    a, b = span
    return [text[max(s, a):min(e, b)] for s, e in offsets if e > a and s < b and e > s]


class DigitsView(QWidget):
    """Type text; each number in it is listed with its pieces under every scheme.

    Signals
    -------
    sig_text_changed(str) : the text typed (the pane stores it).
    """

    sig_text_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tokenizer, self.label = None, ""
        self.text_edit = QLineEdit(DIGITS_TEXT, maxLength=MAX_TEXT_CHARS)
        self.text_edit.setToolTip("Any text: each run of digits in it is a number")
        self.model = RowsModel(("Number", "per digit", "threes from the right",
                                "threes from the left", "tokenizer"),
                               header_tips=("A run of digits in the text",
                                            "One piece per digit: place value is the position",
                                            "Groups of three counted from the units end: the "
                                            "units, thousands… always land in the same slot",
                                            "Groups of three from the left (the \\p{N}{1,3} "
                                            "pre-tokenizers of GPT-4 and Llama 3)",
                                            "How the current tokenizer cuts it"), parent=self)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(self.recompute)
        self.text_edit.textChanged.connect(self._timer.start)
        row = QHBoxLayout()
        row.addWidget(QLabel("Text:"))
        row.addWidget(self.text_edit, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.note)
        layout.addWidget(make_table(self.model, "Pieces of each number, separated by ·",
                                    (110, 170, 170, 170)), 1)
        self.recompute()

    def set_tokenizer(self, tokenizer, label: str) -> None:
        """Cut the numbers with ``tokenizer`` too (``None``: no tokenizer column values)."""
        self.tokenizer, self.label = tokenizer, label
        self.recompute()

    def recompute(self) -> None:
        """One row per number of the text (pieces and their count per scheme)."""
        self._timer.stop()
        text = self.text_edit.text()
        offsets, error = None, ""
        if self.tokenizer is not None:
            try:
                offsets = list(self.tokenizer.encode(text).offsets)
            except Exception as exc:  # noqa: BLE001 - a tokenizer's failure is shown, never raised
                error = f"The tokenizer failed on this text: {exc}"
        rows = []
        for a, b in number_spans(text):
            number = text[a:b]
            cells = [f"{PIECES.join(p)}  ({len(p)})" for p in (group_digits(number, s) for s in SCHEMES)]
            tok = tokenizer_pieces(text, offsets, (a, b)) if offsets is not None else []
            rows.append((number, *cells, f"{PIECES.join(tok)}  ({len(tok)})" if tok else ""))
        self.model.set_rows(rows)
        name = self.label.rstrip("/").rsplit("/", 1)[-1] if self.label else ""
        self.note.setText(error or (f"Tokenizer column: {name}." if name else
                                    "Choose a tokenizer (toolbar) to compare its cut."))
        self.sig_text_changed.emit(text)
