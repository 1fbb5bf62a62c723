"""Chat mode's widgets: the messages editor, the band of message spans, the notes.

:class:`ChatPanel` holds a message list (``[{"role": …, "content": …}, …]``, other keys kept)
and edits it: a table with one row per message (role, the content's first line, its span on
the rendered prompt and its tokens), a role box and a content editor for the selected row,
buttons to add, remove and move messages, the ``add_generation_prompt`` box, a JSON menu
(paste, copy, open, save), a :class:`ChatBand` drawing each message's tokens as a coloured
band (the assistant-mask tokens hatched), and a notes line (warnings, errors, the mask).
No rendering here: :mod:`app.panes.alignment.chat_mode` renders on a worker and calls
:meth:`ChatPanel.show_tokens` / :meth:`ChatPanel.show_note`.

Signals
-------
sig_messages_changed()
    The message list or the generation box changed (by the user or by JSON in).
sig_message_clicked(int)
    The user selected message ``index`` (a row or its part of the band).
sig_json_requested(str)
    An item of the JSON menu was chosen: ``"paste"``, ``"copy"``, ``"open"`` or ``"save"``.
sig_mask_requested()
    "Select mask" was pressed: the assistant-mask tokens should be highlighted.
sig_shown()
    The panel has just been shown (its splitter may give it room).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QPainter, QPen, QTextDocumentFragment
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.chat import ROLES, ChatTokens

ROLE_COLOURS = {"system": "#e5e7eb", "user": "#dbeafe", "assistant": "#dcfce7", None: "#fef3c7"}
"""Background of a role's rows and band (any other role: the ``None`` colour, as the
prelude and tail)."""
OTHER_ROLE = "#f3e8ff"
COLUMNS = ("Role", "Content", "Span", "Tokens")


def role_colour(role: str | None, index: int | None = 0) -> QColor:
    """The colour of a message of ``role`` (prelude / tail: ``index`` None)."""
    if index is None:
        return QColor(ROLE_COLOURS[None])
    return QColor(ROLE_COLOURS.get(role, OTHER_ROLE))


class ChatBand(QWidget):
    """A horizontal band with one part per span of a chat prompt, as wide as its share of
    the tokens, labelled with its message and role; assistant-mask tokens hatched. Clicking
    a message's part emits :attr:`sig_clicked` with its index. O(spans) to paint."""

    sig_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMinimumHeight(26)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip("Each message's tokens on the rendered prompt (width: its share of the tokens); "
                        "hatched: tokens a trainer's loss mask keeps (the template's {% generation %})")
        self._parts: list[tuple[int | None, str | None, int, int, int]] = []  # index, role, first, stop, masked
        self._total = 0
        self.selected: int | None = None

    @property
    def parts(self) -> list[tuple[int | None, str | None, int, int, int]]:
        """``(message index, role, first token, stop token, masked tokens)`` per span drawn."""
        return list(self._parts)

    def set_tokens(self, tokens: ChatTokens | None) -> None:
        self._parts, self._total = [], 0
        if tokens is not None:
            mask = tokens.assistant_mask
            for span, (a, b) in zip(tokens.prompt.spans, tokens.token_ranges):
                masked = sum(mask[a:b]) if mask is not None else 0
                self._parts.append((span.index, span.role, a, b, masked))
            self._total = len(tokens.encoding.ids)
        self.update()

    def select(self, index: int | None) -> None:
        self.selected = index
        self.update()

    def _rects(self) -> list[QRectF]:
        w, h = max(1, self.width() - 2), self.height() - 2
        total = max(1, self._total)
        return [QRectF(1 + w * a / total, 1, max(2.0, w * (b - a) / total), h)
                for _, _, a, b, _ in self._parts]

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for (index, role, a, b, masked), rect in zip(self._parts, self._rects()):
            p.fillRect(rect, role_colour(role, index))
            if masked:
                p.fillRect(rect, QBrush(QColor("#15803d"), Qt.BrushStyle.BDiagPattern))
            pen = QPen(QColor("#111827" if index == self.selected and index is not None else "#9ca3af"))
            pen.setWidth(2 if index == self.selected and index is not None else 1)
            p.setPen(pen)
            p.drawRect(rect)
            label = f"{index} {role}" if index is not None else "·"
            p.setPen(QColor("#111827"))
            p.drawText(rect.adjusted(3, 0, -2, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                       self.fontMetrics().elidedText(f"{label} ({b - a})", Qt.TextElideMode.ElideRight,
                                                     int(rect.width()) - 4))
        p.end()

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        for (index, *_), rect in zip(self._parts, self._rects()):
            if index is not None and rect.contains(event.position()):
                self.sig_clicked.emit(index)
                return


class ChatPanel(QWidget):
    """The messages editor of Chat mode (see the module docstring)."""

    sig_messages_changed = Signal()
    sig_message_clicked = Signal(int)
    sig_json_requested = Signal(str)
    sig_mask_requested = Signal()
    sig_shown = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._messages: list[dict[str, Any]] = []
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()  # squeezed by its splitter, the panel scrolls: nothing overlaps
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(scroll)
        inner = QWidget()
        scroll.setWidget(inner)
        lay = QVBoxLayout(inner)
        lay.setContentsMargins(0, 4, 0, 0)
        lay.setSpacing(3)
        head = QHBoxLayout()
        title = QLabel("<b>Chat messages</b>")
        title.setToolTip("The messages are rendered with the tokenizer's own chat template (its "
                         "tokenizer_config.json), as transformers' apply_chat_template does; the "
                         "rendered prompt becomes the original text")
        head.addWidget(title)
        self.buttons: dict[str, QToolButton] = {}
        for key, text, tip in (
            ("add", "+", "Add a message after the selected one (the next role in turn)"),
            ("remove", "−", "Remove the selected message"),
            ("up", "↑", "Move the selected message up"),
            ("down", "↓", "Move the selected message down"),
            ("json", "JSON", "The messages as JSON: paste, copy, open or save them"),
            ("mask", "Mask", "Highlight the tokens a trainer's loss mask keeps (the assistant's "
                             "{% generation %} output)"),
        ):
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            self.buttons[key] = b
            head.addWidget(b)
        menu = QMenu(self.buttons["json"])
        self.json_actions: dict[str, QAction] = {}
        for key, text, tip in (
            ("paste", "Paste JSON", "Replace the messages by the JSON list on the clipboard"),
            ("copy", "Copy JSON", "Copy the messages as JSON"),
            ("open", "Open…", "Read the messages from a JSON file ([…] or {\"messages\": […]})"),
            ("save", "Save…", "Write the messages as a JSON file"),
        ):
            action = menu.addAction(text)
            action.setToolTip(tip)
            self.json_actions[key] = action
        self.buttons["json"].setMenu(menu)
        self.buttons["json"].setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.generation = QCheckBox("Generation prompt")
        self.generation.setToolTip("add_generation_prompt: end the prompt with the template's opening "
                                   "of an assistant turn, as for generation")
        head.insertWidget(1, self.generation)
        head.insertStretch(2, 1)
        lay.addLayout(head)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for c in (0, 2, 3):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumHeight(80)
        self.table.setToolTip("One row per message; select one to edit it below and to see its span "
                              "and tokens in every view")
        body = QSplitter(Qt.Orientation.Horizontal)
        body.addWidget(self.table)
        editor = QWidget()
        edit = QVBoxLayout(editor)
        edit.setContentsMargins(0, 0, 0, 0)
        edit.setSpacing(2)
        self.role = QComboBox()
        self.role.setEditable(True)  # templates know tool, developer, ipython …
        self.role.addItems(ROLES)
        self.role.setToolTip("The selected message's role (system, user, assistant or any other the template knows)")
        self.content = QPlainTextEdit()
        self.content.setPlaceholderText("The selected message's content")
        self.content.setMinimumHeight(40)
        self.content.setToolTip("The selected message's content (the prompt is rendered again as you type)")
        edit.addWidget(self.role)
        edit.addWidget(self.content, 1)
        body.addWidget(editor)
        body.setSizes([420, 260])
        self.band = ChatBand()
        lay.addWidget(self.band)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lay.addWidget(self.notes)
        lay.addWidget(body, 1)
        self._connect()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(600, 270)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(300, 100)  # the buttons, the band, the notes, a message; the rest scrolls

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self.sig_shown.emit()  # its splitter may give it room now

    # -- the message list ------------------------------------------------------------------
    @property
    def messages(self) -> list[dict[str, Any]]:
        """The messages as edited (new dicts: changing them changes nothing here)."""
        return [dict(m) for m in self._messages]

    def set_messages(self, messages: list[dict[str, Any]], generation: bool | None = None) -> None:
        """Show ``messages`` (and the generation box when given), the first row selected;
        emits nothing (the caller renders)."""
        self._messages = [dict(m) for m in messages]
        if generation is not None:
            with QSignalBlocker(self.generation):
                self.generation.setChecked(generation)
        self._rebuild_rows()
        self._select_row(0 if self._messages else -1)

    def current_row(self) -> int:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def _rebuild_rows(self) -> None:
        with QSignalBlocker(self.table):
            self.table.setRowCount(len(self._messages))
            for i, m in enumerate(self._messages):
                self._write_row(i, m)

    def _write_row(self, i: int, m: dict[str, Any]) -> None:
        content = m.get("content")
        shown = content if isinstance(content, str) else "[content blocks]" if content else "(no content)"
        first = shown.split("\n", 1)[0] + (" …" if "\n" in shown else "")
        colour = role_colour(m.get("role"))
        for c in range(len(COLUMNS)):
            if self.table.item(i, c) is None:
                self.table.setItem(i, c, QTableWidgetItem(""))
        for c, text in ((0, str(m.get("role", ""))), (1, first)):
            item = self.table.item(i, c)
            item.setText(text)
            item.setBackground(colour)

    def _select_row(self, row: int) -> None:
        with QSignalBlocker(self.table):
            self.table.clearSelection()
            if 0 <= row < self.table.rowCount():
                self.table.selectRow(row)
        self._show_editor(row)

    def _show_editor(self, row: int) -> None:
        m = self._messages[row] if 0 <= row < len(self._messages) else None
        content = m.get("content") if m else None
        with QSignalBlocker(self.role), QSignalBlocker(self.content):
            self.role.setCurrentText(str(m.get("role", "")) if m else "")
            self.content.setPlainText(content if isinstance(content, str) else "")
        editable = m is not None and (content is None or isinstance(content, str))
        self.content.setReadOnly(not editable)
        self.content.setPlaceholderText("The selected message's content" if editable or m is None else
                                        "Content blocks: edit them as JSON (Copy JSON, then Paste JSON)")
        self.role.setEnabled(m is not None)
        for key in ("remove", "up", "down"):
            self.buttons[key].setEnabled(m is not None)

    def _connect(self) -> None:
        self.table.itemSelectionChanged.connect(self._on_row_selected)
        self.role.currentTextChanged.connect(self._on_role_edited)
        self.content.textChanged.connect(self._on_content_edited)
        self.generation.toggled.connect(self.sig_messages_changed)
        self.buttons["add"].clicked.connect(self._add)
        self.buttons["remove"].clicked.connect(self._remove)
        self.buttons["up"].clicked.connect(lambda: self._move(-1))
        self.buttons["down"].clicked.connect(lambda: self._move(1))
        for key, action in self.json_actions.items():
            action.triggered.connect(lambda _=False, k=key: self.sig_json_requested.emit(k))
        self.buttons["mask"].clicked.connect(self.sig_mask_requested)
        self.band.sig_clicked.connect(self.select_message)

    def select_message(self, index: int) -> None:
        """Select message ``index``'s row (and emit :attr:`sig_message_clicked`)."""
        if 0 <= index < len(self._messages):
            self._select_row(index)
            self.band.select(index)
            self.sig_message_clicked.emit(index)

    def _on_row_selected(self) -> None:
        row = self.current_row()
        self._show_editor(row)
        if row >= 0:
            self.band.select(row)
            self.sig_message_clicked.emit(row)

    def _on_role_edited(self, role: str) -> None:
        row = self.current_row()
        if row >= 0 and role.strip() and self._messages[row].get("role") != role:
            self._messages[row]["role"] = role
            self._write_row(row, self._messages[row])
            self.sig_messages_changed.emit()

    def _on_content_edited(self) -> None:
        row = self.current_row()
        if row >= 0 and not self.content.isReadOnly():
            self._messages[row]["content"] = self.content.toPlainText()
            self._write_row(row, self._messages[row])
            self.sig_messages_changed.emit()

    def _add(self) -> None:
        row = self.current_row()
        at = row + 1 if row >= 0 else len(self._messages)
        before = self._messages[at - 1].get("role") if at > 0 else None
        role = "assistant" if before == "user" else "user"
        self._messages.insert(at, {"role": role, "content": ""})
        self._rebuild_rows()
        self._select_row(at)
        self.content.setFocus()
        self.sig_messages_changed.emit()

    def _remove(self) -> None:
        row = self.current_row()
        if row >= 0:
            del self._messages[row]
            self._rebuild_rows()
            self._select_row(min(row, len(self._messages) - 1))
            self.sig_messages_changed.emit()

    def _move(self, delta: int) -> None:
        row = self.current_row()
        to = row + delta
        if row >= 0 and 0 <= to < len(self._messages):
            self._messages[row], self._messages[to] = self._messages[to], self._messages[row]
            self._rebuild_rows()
            self._select_row(to)
            self.sig_messages_changed.emit()

    # -- what the render shows ---------------------------------------------------------------
    def show_tokens(self, tokens: ChatTokens | None) -> None:
        """Fill each row's span and token columns and the band from a rendered prompt (None:
        clear them). O(messages + tokens)."""
        self.band.set_tokens(tokens)
        by_message = {}
        if tokens is not None:
            mask = tokens.assistant_mask
            for span, (a, b) in zip(tokens.prompt.spans, tokens.token_ranges):
                if span.index is not None:
                    masked = f", {sum(mask[a:b])} in the mask" if mask is not None and sum(mask[a:b]) else ""
                    by_message[span.index] = (f"{span.start}–{span.end}", f"{b - a} ({a}–{b}){masked}")
        with QSignalBlocker(self.table):
            for i in range(self.table.rowCount()):
                span, toks = by_message.get(i, ("", ""))
                self.table.item(i, 2).setText(span)
                self.table.item(i, 3).setText(toks)
        self.buttons["mask"].setEnabled(tokens is not None and tokens.assistant_mask is not None
                                        and any(tokens.assistant_mask))

    def show_note(self, html: str) -> None:
        """The notes line (rich text; "" hides nothing, it just empties)."""
        self.notes.setText(html)

    @property
    def note(self) -> str:
        """The notes line as plain text (for tests and the status)."""
        return QTextDocumentFragment.fromHtml(self.notes.text()).toPlainText()
