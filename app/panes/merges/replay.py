"""The real-merge replay tab: step through the merges a byte-level BPE encoder applies.

The pane builds a :class:`~core.training.replay.MergeTable` off the GUI thread — from a file
read with :func:`core.tokenizers.load` (GPT-2 files, a byte-level ``tokenizer.json`` or a
tiktoken rank file) or from the byte-level BPE tokenizer the main window broadcasts (only
once this tab is shown) — and hands it to :meth:`ReplayView.set_table`; this view pre-tokenizes the typed text with the
tokenizer's pre-tokenizer, replays each piece and lets the user walk through the merges one
at a time.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.panes.merges.bpe_view import make_table, symbols_html
from app.panes.merges.models import readable_symbol, show_pair, show_symbol, show_symbols
from app.panes.merges.state import REPLAY_TEXT
from app.widgets.rows_model import RowsModel
from app.widgets.text_format import plural
from app.widgets.token_badges import visible
from core.errors import SubwordScopeError
from core.training.replay import MergeTable, encode_piece

REPLAY_MAX_CHARS = 128
"""Longest text replayed, in UTF-16 units (Qt's length): the replay runs on the GUI thread
and costs O(n²) in a word's n bytes — at most 384 bytes here (128 three-byte characters;
an emoji is 2 units and 4 bytes), about 30 ms."""
FILE_FILTER = ("Byte-level BPE (*.tiktoken merges.txt vocab.json tokenizer.json *.json);;"
               "All files (*)")


class ReplayView(QWidget):
    """Typed text → pieces → every merge with its rank → final tokens and ids.

    Signals
    -------
    sig_open_requested(str) : the user chose a file to load (the pane loads it in a worker).
    sig_text_changed(str) : the typed text (the pane stores it).
    sig_readable_changed(bool) : the Readable toggle (the pane stores it).
    """

    sig_open_requested = Signal(str)
    sig_text_changed = Signal(str)
    sig_readable_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.table: MergeTable | None = None
        self.frames: list[tuple[int, list[tuple[str, ...]]]] = []  # (row, symbols per piece)
        self.open_button = QPushButton("Open merges…")
        self.open_button.setToolTip("Load GPT-2 vocab.json + merges.txt, a byte-level BPE "
                                    "tokenizer.json, or a tiktoken rank file (merged by token rank)")
        self.open_button.clicked.connect(self._on_open_clicked)
        self.source_label = QLabel("No merge table loaded yet.")
        self.source_label.setWordWrap(True)
        self.text_edit = QLineEdit(REPLAY_TEXT)
        self.text_edit.setMaxLength(REPLAY_MAX_CHARS)
        self.text_edit.setToolTip(f"Text to encode (up to {REPLAY_MAX_CHARS} UTF-16 units); it is "
                                  "pre-tokenized by the tokenizer's pre-tokenizer, then each "
                                  "piece's merges are replayed")
        self.message = QLabel("")
        self.message.setStyleSheet("color: #b00020;")
        self.message.setWordWrap(True)
        self.message.hide()
        self.note = QLabel("")
        self.note.setStyleSheet("color: #555555;")
        self.note.setWordWrap(True)
        self.note.hide()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Step through the merges (0 = raw bytes)")
        self.slider.valueChanged.connect(self._on_frame_changed)
        self.back_button = QPushButton("◀ Back")
        self.back_button.setToolTip("Previous merge (Alt+Left)")
        self.back_button.setShortcut("Alt+Left")
        self.back_button.clicked.connect(lambda: self.slider.setValue(self.slider.value() - 1))
        self.next_button = QPushButton("Next ▶")
        self.next_button.setToolTip("Next merge (Alt+Right)")
        self.next_button.setShortcut("Alt+Right")
        self.next_button.clicked.connect(lambda: self.slider.setValue(self.slider.value() + 1))
        self.frame_label = QLabel("")
        self.readable_box = QCheckBox("Readable")
        self.readable_box.setChecked(True)
        self.readable_box.setToolTip(
            "Show each symbol's bytes decoded from UTF-8 (न, not à¤¨); bytes that are only "
            "part of a character in a symbol show as ⟨E0 A4⟩. Off: GPT-2's byte alphabet, "
            "as the file stores the symbols (Ctrl+R)")
        self.readable_box.setShortcut("Ctrl+R")
        self.readable_box.toggled.connect(self.recompute)
        self.readable_box.toggled.connect(self.sig_readable_changed)
        self.symbols_view = QTextBrowser()
        self.symbols_view.setToolTip("The symbols of every piece at the current step")
        self.result_label = QLabel("")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.steps_model = RowsModel(
            ("Piece", "Step", "Rank", "Pair", "Symbols after"),
            header_tips=("Pre-tokenized piece (␣ is a space)", "Merge number within the piece",
                         "Merge rank: lower ranks merge first", "The two symbols merged",
                         "The piece's symbols after this merge"), parent=self)
        self.steps_view = make_table(self.steps_model, "Every merge the encoder applies, in order")
        self.steps_view.clicked.connect(lambda idx: self.slider.setValue(idx.row() + 1))
        self._timer = QTimer(self, singleShot=True, interval=150)
        self._timer.timeout.connect(self.recompute)
        self.text_edit.textChanged.connect(self._timer.start)
        self.text_edit.textChanged.connect(self.sig_text_changed)
        self._layout()

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.open_button)
        top.addWidget(self.source_label, 1)
        text_row = QHBoxLayout()
        text_row.addWidget(QLabel("Text:"))
        text_row.addWidget(self.text_edit, 1)
        text_row.addWidget(self.readable_box)
        hint = QLabel("Readable shows each symbol's bytes as text (⟨E0 A4⟩: part of a character); "
                      "off, GPT-2's byte alphabet: Ġ is a space, Ċ a newline, other bytes of "
                      "multi-byte characters Latin-1 look-alikes.")
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #555555;")
        step_row = QHBoxLayout()
        step_row.addWidget(self.back_button)
        step_row.addWidget(self.slider, 1)
        step_row.addWidget(self.next_button)
        step_row.addWidget(self.frame_label)
        right = QWidget()
        lay = QVBoxLayout(right)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel("Symbols at this step:"))
        lay.addWidget(self.symbols_view, 1)
        lay.addWidget(self.result_label)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.steps_view)
        split.addWidget(right)
        split.setSizes([700, 600])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(text_row)
        layout.addWidget(hint)
        layout.addWidget(self.message)
        layout.addWidget(self.note)
        layout.addLayout(step_row)
        layout.addWidget(split, 1)

    def _on_open_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open byte-level BPE merges", "", FILE_FILTER)
        if path:
            self.sig_open_requested.emit(path)

    def set_loading(self, what: str) -> None:
        self.source_label.setText(f"Loading {what}…")

    def end_loading(self) -> None:
        """A load was cancelled: name the table in use again."""
        self.source_label.setText(self._source_text())

    def _source_text(self) -> str:
        table = self.table
        if table is None:
            return "No merge table loaded yet."
        rule = (f"{plural(table.n_merges, 'merge')}, " if table.n_merges is not None
                else "merged by token rank (tiktoken), ")
        return (f"<b>{html.escape(table.name)}</b>: {rule}{plural(len(table.vocab), 'token')}"
                f" — {html.escape(self.source_label.toolTip())}")

    def set_error(self, message: str) -> None:
        """Show ``message`` inline (empty hides it)."""
        self.message.setText(message)
        self.message.setVisible(bool(message))

    def set_note(self, text: str) -> None:
        """Show a neutral note (e.g. a broadcast tokenizer that replay does not use)."""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def set_table(self, table: MergeTable, source: str) -> None:
        """Use ``table`` (loaded from ``source``) for replay."""
        self.table = table
        self.source_label.setToolTip(source)
        self.source_label.setText(self._source_text())
        self.set_error("")
        self.recompute()

    def recompute(self) -> None:
        """Pre-tokenize the text, replay every piece, rebuild the step table."""
        self._timer.stop()
        if self.table is None:
            return
        pieces = self.table.pretokenize(self.text_edit.text())
        show = self.show_symbol
        rows, tips, frames = [], [], []
        state = [(w,) if w in self.table.added else tuple(w) for w, _ in pieces]
        frames.append((-1, list(state)))
        tokens, ids = [], []
        try:
            for k, (word, surface) in enumerate(pieces):
                for n, step in enumerate(self.table.steps(word), 1):
                    rows.append((visible(surface) if n == 1 else "", n, step.rank,
                                 show_pair(step.pair, show),
                                 show_symbols(step.symbols, show=show)))
                    tips.append(f"piece {k}: {surface!r} = {word}")
                    state[k] = step.symbols
                    frames.append((len(rows) - 1, list(state)))
                t, i = encode_piece(word, self.table)
                tokens += t
                ids += i
        except SubwordScopeError as exc:
            self.set_error(str(exc))
        else:
            self.set_error("")
        self.frames = frames
        self.steps_model.set_rows(rows, tips)
        self.result_label.setText(
            f"<b>{plural(len(tokens), 'token')}</b>: {html.escape(show_symbols(tokens, 200, show))}<br>"
            f"<b>ids</b>: {' '.join(map(str, ids))}")
        self.slider.setRange(0, len(frames) - 1)
        self.slider.setValue(len(frames) - 1)
        self._on_frame_changed(self.slider.value())

    def show_symbol(self, symbol: str) -> str:
        """How a symbol is shown: readable (:func:`readable_symbol`) or in the byte
        alphabet (:func:`show_symbol`), as the Readable toggle says."""
        return readable_symbol(symbol) if self.readable_box.isChecked() else show_symbol(symbol)

    def final_tokens(self) -> list[str]:
        return [s for syms in (self.frames[-1][1] if self.frames else []) for s in syms]

    def _on_frame_changed(self, value: int) -> None:
        if not self.frames:
            return
        row, state = self.frames[max(0, min(value, len(self.frames) - 1))]
        self.steps_model.set_highlight(row)
        if row >= 0:
            self.steps_view.scrollTo(self.steps_model.index(row, 0))
            r = self.steps_model.row(row)
            self.frame_label.setText(f"merge {value} of {len(self.frames) - 1} (rank {r[2]})")
        else:
            self.frame_label.setText(f"raw bytes (0 of {len(self.frames) - 1})")
        show = self.show_symbol
        self.symbols_view.setHtml("".join(f"<p>{symbols_html(s, show)}</p>" for s in state))
