"""The Compare pane's Vocabulary tab: the audit of one compared tokenizer's vocabulary.

Pick a tokenizer (those of the last comparison) and press Audit: the worker runs
:func:`core.tokenizers.vocab_audit` on it with the comparison's corpus (a progress bar while
it runs, and Cancel). The left list shows every category with its count; the right table the
examples of the selected one — the entry shown legibly (``␣`` for a space, escapes for
controls, ``◌`` under a lone mark, names of zero-width characters) and what is wrong with it
(the segmentation an unreachable entry gets instead). Double-click (or Enter on) an example
to see its text in the Alignment pane (``sig_text_requested``). Never computes on the GUI
thread; rendering is at most ``max_examples`` rows.
"""

from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
    QProgressBar, QPushButton, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.workers import TaskRunner
from core.tokenizers import TokenizerLike, VocabAudit, vocab_audit

HINT = "Pick a tokenizer and press Audit: which entries can never be produced, and which look broken."


class VocabTab(QWidget):
    """Vocabulary audit of one tokenizer of the comparison.

    Signals
    -------
    sig_text_requested(str) : an example was activated; its text, for the Alignment pane.
    sig_audit_changed() : a new audit is shown.
    """

    sig_text_requested = Signal(str)
    sig_audit_changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.audit: VocabAudit | None = None
        self._tokenizers: list[tuple[str, Any]] = []
        self._corpus: list[str] = []
        self._waiting = ""
        self._runner = TaskRunner(self)
        self._runner.sig_returned.connect(self._on_audit_returned)
        self._runner.sig_errored.connect(self._on_audit_errored)
        self._runner.sig_progress.connect(lambda f: self.progress.setValue(int(f * 1000)))
        self._runner.sig_busy_changed.connect(self._on_busy_changed)
        self._build()

    def _build(self) -> None:
        self.tokenizer = QComboBox()
        self.tokenizer.setToolTip("The compared tokenizer whose vocabulary is audited")
        self.audit_button = QPushButton("Audit")
        self.cancel_button = QPushButton("Cancel", enabled=False)
        self.progress = QProgressBar(maximum=1000, textVisible=False)
        self.progress.setMaximumWidth(160)
        self.progress.hide()  # shown while an audit runs only: a full bar afterwards said nothing
        self.message = QLabel(HINT, wordWrap=True)
        self.audit_button.clicked.connect(self.start_audit)
        self.cancel_button.clicked.connect(self.cancel)
        self.categories = QListWidget()
        self.categories.currentRowChanged.connect(self._on_category_changed)
        self.note = QLabel(wordWrap=True)
        self.examples = QTableWidget(0, 3)
        self.examples.setHorizontalHeaderLabels(["id", "entry", "what happens"])
        self.examples.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.examples.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.examples.verticalHeader().setVisible(False)
        self.examples.horizontalHeader().setStretchLastSection(True)
        self.examples.setToolTip("Double-click an example to see its text in the Alignment pane")
        self.examples.itemActivated.connect(self._on_example_activated)
        top = QHBoxLayout()
        for w in (QLabel("Tokenizer:"), self.tokenizer, self.audit_button, self.cancel_button, self.progress):
            top.addWidget(w)
        top.addStretch(1)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.note)
        rl.addWidget(self.examples, 1)
        split = QSplitter()
        split.addWidget(self.categories)
        split.addWidget(right)
        split.setSizes([260, 740])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.message)
        layout.addWidget(split, 1)

    # -- inputs ---------------------------------------------------------------------------
    def set_tokenizers(self, labelled: list[tuple[str, Any]], corpus: Sequence[str | Sequence[str]], *,
                       waiting: str = "") -> None:
        """The comparison's ``(label, tokenizer)`` pairs and its corpus: one text per language,
        or its lines (joined by newlines in the worker: O(1) here). ``waiting``: the
        tokenizers are not loaded yet; Audit waits and the message says this."""
        current = self.tokenizer.currentText()
        self._tokenizers, self._corpus = list(labelled), list(corpus)
        self.tokenizer.blockSignals(True)
        self.tokenizer.clear()
        self.tokenizer.addItems([label for label, _ in labelled])
        self.tokenizer.setCurrentIndex(max(0, self.tokenizer.findText(current)))
        self.tokenizer.blockSignals(False)
        self.set_waiting(waiting)

    def set_waiting(self, message: str) -> None:
        """Say ``message`` and keep Audit off while it is not empty (tokenizers loading)."""
        self._waiting = message
        if message:
            self.message.setText(message)
        elif self.message.text().startswith(("Loading", "Could not load")):
            self.message.setText(HINT)
        self.audit_button.setEnabled(not message and not self._runner.busy and bool(self._tokenizers))

    def start_audit(self) -> None:
        """Audit the chosen tokenizer in the worker (cancels a running audit)."""
        k = self.tokenizer.currentIndex()
        if self._waiting:
            self.message.setText(self._waiting)
            return
        if not 0 <= k < len(self._tokenizers):
            self.message.setText("No tokenizer to audit yet: the comparison has not finished.")
            return
        label, tok = self._tokenizers[k]
        self.progress.setValue(0)
        self.message.setText(f"Auditing {label}…")
        self._runner.submit(_run_audit, tok, label, self._corpus)

    def cancel(self) -> None:
        if self._runner.busy:
            self._runner.cancel()
            self.message.setText("Audit cancelled." + (" Showing the previous audit." if self.audit else ""))

    @property
    def busy(self) -> bool:
        return self._runner.busy

    # -- results --------------------------------------------------------------------------
    def _on_busy_changed(self, busy: bool) -> None:
        self.progress.setVisible(busy)  # finished, failed or cancelled: the message says which
        self.cancel_button.setEnabled(busy)
        self.audit_button.setEnabled(not busy and not self._waiting and bool(self._tokenizers))

    def _on_audit_errored(self, exc: object) -> None:
        self.message.setText(f"Could not audit: {exc}")

    def _on_audit_returned(self, result: tuple[str, VocabAudit]) -> None:
        label, audit = result
        self.audit = audit
        self.progress.setValue(1000)
        n = len(self._corpus)
        corpus = f" on {n:,} corpus text{'' if n == 1 else 's'}" if n else ""
        self.message.setText(f"{label}: {audit.vocab_size:,} entries{corpus}. "
                             "Double-click an example to open it in the Alignment pane.")
        self.categories.clear()
        for c in audit.categories:
            count = f"{c.count:,}" if c.applicable else "n/a"
            item = QListWidgetItem(f"{c.title}: {count}")
            item.setData(Qt.ItemDataRole.UserRole, c.key)
            self.categories.addItem(item)
        self.categories.setCurrentRow(0)
        self.sig_audit_changed.emit()

    def select_category(self, key: str) -> None:
        """Show the examples of category ``key`` (see ``core.tokenizers.vocab_audit.CATEGORIES``)."""
        for row in range(self.categories.count()):
            if self.categories.item(row).data(Qt.ItemDataRole.UserRole) == key:
                self.categories.setCurrentRow(row)

    def _on_category_changed(self, row: int) -> None:
        if self.audit is None or not 0 <= row < len(self.audit.categories):
            return
        cat = self.audit.categories[row]
        shown = f" ({len(cat.examples)} shown)" if len(cat.examples) < cat.count else ""
        self.note.setText((cat.note or cat.title) + shown)
        self.examples.setRowCount(len(cat.examples))
        for r, ex in enumerate(cat.examples):
            cells = ("" if ex.id is None else str(ex.id), ex.shown, ex.detail)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, ex.text)
                item.setToolTip(f"stored as {ex.token!r}" + (f"\ntext: {ex.text!r}" if ex.text else ""))
                self.examples.setItem(r, c, item)
        self.examples.resizeColumnToContents(0)
        self.examples.setColumnWidth(1, min(320, max(120, self.examples.sizeHintForColumn(1))))

    def _on_example_activated(self, item: QTableWidgetItem) -> None:
        text = item.data(Qt.ItemDataRole.UserRole)
        if text:
            self.sig_text_requested.emit(text)
        else:
            self.message.setText("This example has no text of its own to show (a byte or a partial character).")


def _run_audit(tokenizer: TokenizerLike, label: str, corpus: Sequence[str | Sequence[str]], *, progress=None,
               should_stop=None):
    """The worker's call: ``(label, audit)``; a language given as lines is joined here."""
    texts = [t if isinstance(t, str) else "\n".join(t) for t in corpus]
    return label, vocab_audit(tokenizer, texts or None, progress=progress, should_stop=should_stop)
