"""The Retrieval pane's left column: corpus and languages, encoder, embed / cancel, progress.

Widgets only: the pane connects their signals and writes its state into them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.text.scripts import language_name


def _label(text: str = "", *, tip: str = "") -> QLabel:
    lab = QLabel(text)
    lab.setWordWrap(True)
    lab.setToolTip(tip)
    lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab


def _row(*widgets: QWidget) -> QHBoxLayout:
    row = QHBoxLayout()
    for w in widgets:
        row.addWidget(w)
    return row


class CorpusPanel(QWidget):
    """Corpus folder and languages, the encoder, and the embedding job's buttons."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.source_label = _label(tip="The folder of one .txt per language the corpus is read from")
        self.folder_button = QPushButton("Choose folder…")
        self.folder_button.setToolTip("A folder of one UTF-8 .txt file per language, one paragraph a line "
                                      "(Ctrl+Shift+O)")
        self.default_button = QPushButton("Default corpus")
        self.default_button.setToolTip("The shared UDHR when present, else the sample shipped with the app")
        self.language_list = QListWidget()
        self.language_list.setToolTip("Languages searched; the cross-lingual view pairs each with English")
        self.all_button, self.none_button = QPushButton("All"), QPushButton("English only")
        corpus_box = QGroupBox("Corpus")
        clay = QVBoxLayout(corpus_box)
        clay.addWidget(self.source_label)
        clay.addLayout(_row(self.folder_button, self.default_button))
        clay.addWidget(self.language_list, 1)
        clay.addLayout(_row(self.all_button, self.none_button))

        self.model_label = _label()
        self.source_label = _label()  # which model runs and where it came from, or the stand-in
        self.source_label.setStyleSheet("color: #555555;")
        self.source_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                  | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.choose_model_button = QPushButton("Choose model…")
        self.choose_model_button.setToolTip("A folder with config.json, model.safetensors and tokenizer.json "
                                            "of a BERT-family sentence encoder (Ctrl+Shift+M)")
        self.shared_model_button = QPushButton("Shared MiniLM")
        self.shared_model_button.setToolTip("all-MiniLM-L6-v2 from the shared data folder")
        self.standin_button = QPushButton("Stand-in")
        self.standin_button.setToolTip("No model: a fixed random vector per word (fast, meaningless)")
        model_box = QGroupBox("Encoder")
        mlay = QVBoxLayout(model_box)
        mlay.addWidget(self.model_label)
        mlay.addWidget(self.source_label)
        mlay.addWidget(self.choose_model_button)  # two rows: the column stays narrow in presentation mode
        mlay.addLayout(_row(self.shared_model_button, self.standin_button))

        self.embed_button = QPushButton("Embed and index")
        self.embed_button.setToolTip("Embed the chosen languages (cached on disk) and build the indexes (F5)")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop embedding, indexing or the sweep (Escape)")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.hide()
        self.status = _label()
        self.message = _label()
        self.message.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(corpus_box, 1)
        layout.addWidget(model_box)
        layout.addLayout(_row(self.embed_button, self.cancel_button))
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.message)

    def set_languages(self, codes: list[str], chosen: list[str]) -> None:
        """List ``codes`` as checkable items (checked: in ``chosen``), signals blocked by the caller."""
        self.language_list.clear()
        for code in codes:
            item = QListWidgetItem(f"{code} — {language_name(code)}")
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if code in chosen else Qt.CheckState.Unchecked)
            self.language_list.addItem(item)

    def checked_languages(self) -> list[str]:
        """Codes of the checked items, in list order."""
        items = (self.language_list.item(i) for i in range(self.language_list.count()))
        return [it.data(Qt.ItemDataRole.UserRole) for it in items if it.checkState() == Qt.CheckState.Checked]

    def check_only(self, codes: set[str] | None) -> None:
        """Check exactly ``codes`` (None: every item)."""
        for i in range(self.language_list.count()):
            it = self.language_list.item(i)
            on = codes is None or it.data(Qt.ItemDataRole.UserRole) in codes
            it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def show_message(self, text: str, *, error: bool = True) -> None:
        """An inline message (red for errors, grey-brown for notices); empty text hides it."""
        self.message.setStyleSheet("color: #b91c1c;" if error else "color: #8a5a00;")
        self.message.setText(text)
        self.message.setVisible(bool(text))
