"""The pooling pane's controls: the encoder panel on the left (encoder choice, sentences, the
sentence and pooling shown, encode, progress, an inline message) and the inputs of the
Padding, Length sweep and Chunking tabs, placed in those tabs' control rows.

Widgets only: the pane connects their signals and writes its state into them.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.panes.pooling.state import METHOD_NAMES, PoolingState
from core.pooling import METHODS


def _spin(name: str, value: float, tip: str, cls=QSpinBox) -> QSpinBox:
    """A spin box (``cls``: or a QDoubleSpinBox) for :class:`PoolingState` field ``name``
    (the state's range) showing ``value``."""
    box = cls()
    box.setRange(*PoolingState.bounds(name))
    box.setValue(value)
    box.setToolTip(tip)
    return box


class EncoderPanel(QWidget):
    """The left column of the pooling pane; ``shared_available``: the shared MiniLM exists."""

    def __init__(self, shared_available: bool, parent: QWidget | None = None):
        super().__init__(parent)
        self.model_label = QLabel()
        self.model_label.setWordWrap(True)
        self.source_label = QLabel()  # which model runs and where it came from, or the stand-in
        self.source_label.setWordWrap(True)
        self.source_label.setStyleSheet("color: #555555;")
        self.choose_button = QPushButton("Choose model folder…")
        self.choose_button.setToolTip("A folder with config.json, model.safetensors and tokenizer.json "
                                      "of a BERT-family encoder (Ctrl+Shift+M)")
        self.shared_button = QPushButton("Shared MiniLM")
        self.shared_button.setToolTip("Use the all-MiniLM-L6-v2 encoder found in the shared data folder")
        self.shared_button.setEnabled(shared_available)
        self.standin_button = QPushButton("Stand-in")
        self.standin_button.setToolTip("Use the synthetic stand-in: no model, a fixed random vector per word")
        buttons = QHBoxLayout()  # two rows of buttons: the column stays narrow in presentation mode
        for b in (self.shared_button, self.standin_button):
            buttons.addWidget(b)
        model_box = QGroupBox("Encoder")
        mlay = QVBoxLayout(model_box)
        mlay.addWidget(self.model_label)
        mlay.addWidget(self.source_label)
        mlay.addWidget(self.choose_button)
        mlay.addLayout(buttons)

        self.text_edit = QPlainTextEdit()
        self.text_edit.setPlaceholderText("Type or paste a sentence… (one per line)")
        self.text_edit.setToolTip("One sentence per line; the whole text is also the document that "
                                  "the Chunking tab splits into windows")
        self.sentence_box = QComboBox()
        self.sentence_box.setToolTip("The sentence shown in the Tokens and Padding tabs")
        self.method_box = QComboBox()
        for m in METHODS:
            self.method_box.addItem(METHOD_NAMES[m], m)
        self.method_box.setToolTip("Pooling method highlighted in the Tokens tab (Alt+1 … Alt+4)")
        self.encode_button = QPushButton("Encode")
        self.encode_button.setToolTip("Encode now (Ctrl+Return); edits also encode after a short pause")
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setToolTip("Encoding progress (runs in the background)")
        self.progress.hide()
        self.notice = QLabel()  # what of a long text the encoder reads ("first N tokens of M …")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #555555;")
        self.notice.hide()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b91c1c;")
        self.message.hide()
        form = QFormLayout()
        form.addRow("Sentence", self.sentence_box)
        form.addRow("Pooling", self.method_box)

        llay = QVBoxLayout(self)
        llay.addWidget(model_box)
        llay.addWidget(QLabel("Sentences / document"))
        llay.addWidget(self.text_edit, 1)
        llay.addWidget(self.notice)
        llay.addLayout(form)
        llay.addWidget(self.encode_button)
        llay.addWidget(self.progress)
        llay.addWidget(self.message)


class TabInputs:
    """The inputs of the Padding, Length sweep and Chunking tabs, set from ``state`` and added
    to the tabs' ``controls`` rows."""

    def __init__(self, state: PoolingState, padding_view: QWidget, sweep_view: QWidget, chunk_view: QWidget):
        self.pad_spin = _spin("pad_length", state.pad_length, "Pad the sentence with zero rows to this length")
        row = padding_view.controls
        row.addWidget(QLabel("Padded length L"))
        row.addWidget(self.pad_spin)
        row.addStretch(1)
        self.strength_spin = _spin("strength", 3, "Value added on the evidence dimensions of each evidence token",
                                   QDoubleSpinBox)
        self.strength_spin.setSingleStep(0.5)
        self.seed_spin = _spin("seed", state.seed, "Random seed of the stand-in documents")
        row = sweep_view.controls
        for lab, w in (("Evidence strength", self.strength_spin), ("Seed", self.seed_spin)):
            row.addWidget(QLabel(lab))
            row.addWidget(w)
        row.addStretch(1)
        self.content_spin = _spin("content", state.content, "Tokens per window (510 leaves room for [CLS] and [SEP])")
        self.overlap_spin = _spin("overlap", state.overlap, "Tokens each window shares with the previous one")
        self.query_edit = QLineEdit()
        self.query_edit.setToolTip("Each window is scored by the cosine of its mean vector with this query's")
        row = chunk_view.controls
        for lab, w in (("Window content", self.content_spin), ("Overlap", self.overlap_spin)):
            row.addWidget(QLabel(lab))
            row.addWidget(w)
        row.addStretch(1)
        query_row = QHBoxLayout()  # a row of its own: the tab fits 1280 px in presentation mode
        query_row.addWidget(QLabel("Query"))
        query_row.addWidget(self.query_edit, 1)
        chunk_view.layout().insertLayout(1, query_row)
