"""The control strip of the Merges pane: corpus, marker, tie-break, step / undo / reset,
run-to slider and spin box, cancel and progress, the pasted-text box and an inline message.

:class:`TrainingControls` only holds and arranges the widgets and writes values into them
under ``QSignalBlocker``; the pane connects their signals.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.panes.merges.state import MARKER_LABELS, SOURCE_LABELS, SOURCES, TIE_LABELS, MergesState
from core.training.symbols import MARKERS, TIE_BREAKS

MAX_SLIDER = MergesState.bounds("target")[1]  # the slider's and spin box's top
STEP_KEYS, UNDO_KEYS, RESET_KEYS = "Ctrl+Right", "Ctrl+Left", "Ctrl+Home"


def _combo(labels: tuple[str, ...], tip: str) -> QComboBox:
    combo = QComboBox()
    combo.addItems(list(labels))
    combo.setToolTip(tip)
    return combo


class TrainingControls(QWidget):
    """Widgets that drive BPE training (see the module docstring)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.source_combo = _combo(SOURCE_LABELS, "Where the training words come from")
        self.choose_button = QPushButton("Choose…")
        self.choose_button.setToolTip("Pick the text file or folder to train on")
        self.corpus_label = QLabel("")
        self.corpus_label.setWordWrap(True)  # wraps rather than widen the pane (presentation mode)
        self.corpus_label.setToolTip("The corpus in use")
        self.marker_combo = _combo(MARKER_LABELS, "How words are split before the first merge: "
                                   "end-of-word symbol, ## continuation prefix, or UTF-8 bytes")
        self.tie_combo = _combo(TIE_LABELS, "Which pair wins when several are equally frequent")
        self.undo_button = _button("◀ Undo", f"Take back the last merge ({UNDO_KEYS})")
        self.step_button = _button("Step ▶", f"Perform the next merge ({STEP_KEYS})")
        self.reset_button = _button("Reset", f"Back to no merges ({RESET_KEYS})")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Run to merge N (the view follows after a short pause)")
        self.target_spin = QSpinBox(minimum=MergesState.bounds("target")[0], maximum=MAX_SLIDER)
        self.target_spin.setToolTip("Run to exactly this many merges")
        self.cancel_button = _button("Cancel", "Stop the running task; the pane keeps what it showed")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar(maximumWidth=140, maximum=1000)
        self.progress.setToolTip("Progress of the running task")
        self.progress.hide()
        self.text_edit = QPlainTextEdit()
        self.text_edit.setToolTip("Training text; words are counted after a short pause in typing")
        self.text_edit.setMaximumHeight(70)
        self.message = QLabel("")
        self.message.setStyleSheet("color: #b00020;")
        self.message.setWordWrap(True)
        self.message.hide()
        self._layout()

    def _layout(self) -> None:
        row1 = QHBoxLayout()
        for w in (QLabel("Corpus:"), self.source_combo, self.choose_button):
            row1.addWidget(w)
        row1.addWidget(self.corpus_label, 1)
        for w in (QLabel("Marker:"), self.marker_combo, QLabel("Ties:"), self.tie_combo):
            row1.addWidget(w)
        row2 = QHBoxLayout()
        for w in (self.undo_button, self.step_button, self.reset_button, QLabel("Run to merge:")):
            row2.addWidget(w)
        row2.addWidget(self.slider, 1)
        for w in (self.target_spin, self.cancel_button, self.progress):
            row2.addWidget(w)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row1)
        layout.addWidget(self.text_edit)
        layout.addLayout(row2)
        layout.addWidget(self.message)

    def write_state(self, state: MergesState) -> None:
        """Show ``state``'s corpus source, marker, tie-break and text (no signals)."""
        with QSignalBlocker(self.source_combo), QSignalBlocker(self.marker_combo), \
                QSignalBlocker(self.tie_combo), QSignalBlocker(self.text_edit):
            self.source_combo.setCurrentIndex(SOURCES.index(state.source))
            self.marker_combo.setCurrentIndex(MARKERS.index(state.marker))
            self.tie_combo.setCurrentIndex(TIE_BREAKS.index(state.tie_break))
            if self.text_edit.toPlainText() != state.text:
                self.text_edit.setPlainText(state.text)
        self.show_source(state.source)

    def show_source(self, source: str) -> None:
        """Show the text box for pasted text, the Choose button for files and folders."""
        self.text_edit.setVisible(source == "text")
        self.choose_button.setVisible(source in ("file", "folder"))

    def set_merges(self, k: int, maximum: int | None = None) -> None:
        """Move slider and spin box to ``k`` merges (and set their range), without signals."""
        with QSignalBlocker(self.slider), QSignalBlocker(self.target_spin):
            if maximum is not None:
                self.slider.setRange(0, max(1, min(MAX_SLIDER, maximum)))
                self.target_spin.setRange(0, max(1, min(MAX_SLIDER, maximum)))
            self.slider.setValue(k)
            self.target_spin.setValue(k)
        self.undo_button.setEnabled(k > 0 and self.step_button.isEnabled())

    def set_busy(self, busy: bool, *, lock_steps: bool = True) -> None:
        """While a task runs: progress and Cancel shown; stepping controls disabled when
        ``lock_steps`` (a training task)."""
        self.progress.setVisible(busy)
        self.progress.setValue(0)
        self.cancel_button.setEnabled(busy)
        for w in (self.step_button, self.undo_button, self.reset_button, self.slider,
                  self.target_spin):
            w.setEnabled(not (busy and lock_steps))

    def show_message(self, text: str) -> None:
        """An inline message under the controls (empty hides it)."""
        self.message.setText(text)
        self.message.setVisible(bool(text))


def _button(text: str, tip: str) -> QPushButton:
    button = QPushButton(text)
    button.setToolTip(tip)
    return button
