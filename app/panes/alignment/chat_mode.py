"""Chat mode of the Alignment pane: messages rendered with the loaded tokenizer's own chat
template, the prompt made the pane's text, each message linked to its span and tokens.

:class:`ChatMode` wires the :class:`~app.panes.alignment.chat_panel.ChatPanel` (made by
:func:`app.panes.alignment.ui.build`) to its pane: while the toolbar's Chat button is on,
every change of the messages, of the generation box or of the tokenizer renders the prompt
on a worker (:func:`render_prompt`: reading ``tokenizer_config.json``, rendering, encoding —
never on the GUI thread), then the prompt replaces the pane's text as one undoable edit, so
every view of the pane tokenizes it. Selecting a message highlights its tokens in the
pane's views; "Select mask" the assistant-mask tokens. Warnings (a doubled BOS, a prompt the
tokenizer cannot give back, special strings that are not one token), the missing template
(naming the file looked in) and bad JSON show in the panel's notes line. The messages and
the generation box are part of the pane's stored state (``chat``, ``chat_messages``,
``chat_generation`` of :class:`~app.panes.alignment.state.AlignmentState`).
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QSplitter, QWidget

from app.workers import TaskRunner
from core.chat import (ChatError, ChatTokens, MessagesError, chat_tokens, check_messages, load_chat_template,
                       messages_json, parse_messages, render_chat, template_strings)
from core.errors import SubwordScopeError, check_stop
from core.text.files import read_text_file
from core.tokenizers import TokenizerLike

if TYPE_CHECKING:
    from app.panes.alignment.state import AlignmentState
    from app.panes.alignment.ui import AlignmentWidgets
    from core.align.view import AlignmentView

DEFAULT_MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "How many tokens is this sentence?"},
    {"role": "assistant", "content": "Ask the tokenizer: it depends on the model."},
]
NO_TEMPLATE_TEACHING = ("The teaching vocabulary has no chat template: open a tokenizer whose folder "
                        "holds a tokenizer_config.json with a chat_template (Llama 3, Qwen3, Gemma 3…)")
RENDER_DELAY_MS = 120  # a burst of keystrokes in the content editor renders once it settles


class ChatHost(Protocol):
    """What Chat mode uses of its pane (:class:`~app.panes.alignment.pane.AlignmentPane`)."""

    w: AlignmentWidgets
    state: AlignmentState
    result: AlignmentView | None
    save_ms: int

    def save_state(self, delay: float = 0.0) -> None: ...
    def replace_text(self, text: str) -> None: ...
    def shown_view(self) -> AlignmentView | None: ...
    def link_tokens(self, indices: list[int], *, select: bool = False, scroll: bool = True,
                    source: object = None) -> None: ...
    def link_span(self, start: int, end: int, source: object = None) -> None: ...


def template_folder(tokenizer: TokenizerLike, label: str) -> str:
    """Where the chat template of ``tokenizer`` is looked for: the folder of the file it was
    loaded from (its ``source["path"]``), else ``label`` (the path the app loaded)."""
    path = (getattr(tokenizer, "source", None) or {}).get("path")
    return str(Path(path).parent) if path else label


def render_prompt(folder: str, messages: list[dict[str, Any]], generation: bool, tokenizer: TokenizerLike,
                  should_stop: Callable[[], bool] | None = None) -> ChatTokens:
    """Read the chat template beside the tokenizer, render ``messages`` and encode the prompt
    (:mod:`core.chat`; a worker runs this: reading the config, rendering, one encoding).

    Raises
    ------
    core.chat.ChatError
        No template there (:class:`~core.chat.NoChatTemplateError`, naming the file), a
        template that fails, a malformed message list.
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    template = load_chat_template(folder)
    check_stop(should_stop)
    prompt = render_chat(template, messages, add_generation_prompt=generation)
    check_stop(should_stop)
    return chat_tokens(prompt, tokenizer, special_tokens=template_strings(template),
                       bos_token=template.bos_token, should_stop=should_stop)


def stored_messages(text: str) -> list[dict[str, Any]]:
    """The messages of the stored state's JSON; the default list when it is empty or bad."""
    try:
        return parse_messages(text) if text else [dict(m) for m in DEFAULT_MESSAGES]
    except MessagesError:
        return [dict(m) for m in DEFAULT_MESSAGES]


def _note(kind: str, text: str) -> str:
    colour = {"error": "#b91c1c", "warning": "#b45309", "info": "#4b5563"}[kind]
    return f'<span style="color:{colour}">{html.escape(text)}</span>'


class ChatMode:
    """The behaviour of Chat mode (see the module docstring)."""

    def __init__(self, pane: ChatHost):
        self.pane = pane
        self.panel, self.toggle = pane.w.chat, pane.w.chat_toggle
        self.shown: ChatTokens | None = None  # the last rendered prompt
        self._tokenizer: TokenizerLike | None = None
        self._label = ""
        self.runner = TaskRunner(pane)
        self.runner.sig_returned.connect(self._on_rendered)
        self.runner.sig_errored.connect(self._on_failed)
        self._timer = QTimer(pane, singleShot=True, interval=RENDER_DELAY_MS)
        self._timer.timeout.connect(self.render)
        s = pane.state
        self.panel.set_messages(stored_messages(s.chat_messages), s.chat_generation)
        self.toggle.setChecked(s.chat)
        self.panel.setVisible(s.chat)
        self.panel.sig_shown.connect(lambda: QTimer.singleShot(0, self._make_room))  # once laid out
        self.toggle.toggled.connect(self._on_toggled)
        self.panel.sig_messages_changed.connect(self._on_messages_changed)
        self.panel.sig_message_clicked.connect(self.select_message)
        self.panel.sig_json_requested.connect(self._on_json_requested)
        self.panel.sig_mask_requested.connect(self.select_mask)
        if s.chat:
            self.render()  # the teaching vocabulary's note until the main window's tokenizer arrives

    @property
    def on(self) -> bool:
        return self.pane.state.chat

    @property
    def busy(self) -> bool:
        """A render is waiting or running."""
        return self.runner.busy or self._timer.isActive()

    # -- the pane's events -------------------------------------------------------------------
    def set_tokenizer(self, tokenizer: TokenizerLike | None, label: str) -> None:
        """The pane's tokenizer changed (None: the teaching vocabulary): render again."""
        self._tokenizer, self._label = tokenizer, label
        if self.on:
            self.render()

    def set_on(self, on: bool) -> None:
        """Turn Chat mode on (render the messages into the text) or off (the text stays)."""
        self.toggle.setChecked(on)

    def _on_toggled(self, on: bool) -> None:
        self.pane.state.chat = on
        self.panel.setVisible(on)
        self.pane.save_state(self.pane.save_ms / 1000)
        if on:
            self.render()
        else:
            self.runner.cancel()
            self._timer.stop()

    def _make_room(self) -> None:
        """Give the shown panel its wanted height in its splitter, taken from the tallest
        views first (each keeps at least 60 px); nothing before the splitter is laid out."""
        splitter = self.panel.parentWidget()
        if not isinstance(splitter, QSplitter) or not self.panel.isVisible():
            return
        sizes = splitter.sizes()
        k = splitter.indexOf(self.panel)
        need = self.panel.sizeHint().height() - sizes[k]
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
            if need <= 0:
                break
            if i != k:
                give = max(0, min(need, sizes[i] - 60))
                sizes[i] -= give
                sizes[k] += give
                need -= give
        splitter.setSizes(sizes)

    def _on_messages_changed(self) -> None:
        s = self.pane.state
        s.chat_messages = messages_json(self.panel.messages)
        s.chat_generation = self.panel.generation.isChecked()
        self.pane.save_state(self.pane.save_ms / 1000)
        if self.on:
            self._timer.start()

    # -- rendering ---------------------------------------------------------------------------
    def render(self) -> None:
        """Render the messages on the worker (cancelling a running render)."""
        self._timer.stop()
        if self._tokenizer is None:
            self.runner.cancel()
            self._show_failure(NO_TEMPLATE_TEACHING)
            return
        try:
            messages = check_messages(self.panel.messages)
        except MessagesError as exc:
            self.runner.cancel()
            self._show_failure(f"The messages cannot be rendered: {exc}")
            return
        folder = template_folder(self._tokenizer, self._label)
        self.runner.submit(render_prompt, folder, messages, self.panel.generation.isChecked(), self._tokenizer)

    def _show_failure(self, message: str) -> None:
        self.shown = None
        self.panel.show_tokens(None)
        self.panel.show_note(_note("error", message))

    def _on_failed(self, exc: object) -> None:
        if isinstance(exc, ChatError):
            self._show_failure(str(exc))
        else:
            self._show_failure(f"Could not render the chat ({type(exc).__name__}): {exc}")

    def _on_rendered(self, tokens: ChatTokens) -> None:
        self.shown = tokens
        self.panel.show_tokens(tokens)
        n, mask = len(tokens.encoding.ids), tokens.assistant_mask
        parts = [_note("info", f"{len(tokens.prompt.text):,} characters, {n:,} tokens")]
        if mask is not None:
            parts.append(_note("info", f"loss mask: {sum(mask):,} of {n:,} tokens (the template's "
                                       "{% generation %} blocks, as return_assistant_tokens_mask)"))
        else:
            parts.append(_note("info", f"no mask: {tokens.mask_note}"))
        parts += [_note("warning", f"⚠ {w.message}") for w in tokens.warnings]
        self.panel.show_note(" · ".join(parts[:2]) + "".join(f"<br>{p}" for p in parts[2:]))
        self.pane.replace_text(tokens.prompt.text)

    # -- linking -----------------------------------------------------------------------------
    def _current_view(self) -> AlignmentView | None:
        """The pane's shown result when it is of the rendered prompt (else None)."""
        view = self.pane.shown_view()
        if self.shown is None or view is None or view.text != self.shown.prompt.text:
            return None
        return view

    def message_tokens(self, index: int) -> list[int]:
        """The pane's tokens of message ``index``: those whose first code point lies in its
        span, as :func:`core.chat.chat_tokens` assigns them (empty when the shown result is not
        of the rendered prompt). O(tokens)."""
        view = self._current_view()
        span = next((s for s in self.shown.prompt.spans if s.index == index), None) if self.shown else None
        if view is None or span is None:
            return []
        return [i for i, sp in enumerate(view.spans) if sp and span.start <= sp[0] < span.end]

    def mask_tokens(self) -> list[int]:
        """The pane's tokens that overlap the template's ``{% generation %}`` output (the
        assistant mask on the pane's tokenization). O(tokens × generation blocks)."""
        view = self._current_view()
        if view is None:
            return []
        out: set[int] = set()
        for s, e in self.shown.prompt.generation_spans:
            out.update(view.tokens_in(s, e))
        return sorted(out)

    def select_message(self, index: int) -> None:
        """Highlight message ``index``'s tokens (or its span) in every view of the pane."""
        if self._current_view() is None:
            if self.shown is not None:
                self.panel.show_note(_note("warning", "The text was edited after the prompt was rendered: "
                                                      "edit a message to render it again"))
            return
        tokens = self.message_tokens(index)
        if tokens:
            self.pane.link_tokens(tokens, select=True)
        else:
            span = next(s for s in self.shown.prompt.spans if s.index == index)
            self.pane.link_span(span.start, span.end)

    def select_mask(self) -> None:
        """Highlight the assistant-mask tokens in every view of the pane."""
        tokens = self.mask_tokens()
        if tokens:
            self.pane.link_tokens(tokens)

    # -- JSON in and out ---------------------------------------------------------------------
    def load_json(self, text: str, source: str = "the JSON") -> bool:
        """Replace the messages by those of a JSON text; a bad one leaves them and says why
        in the notes. Return whether it was read."""
        try:
            messages = parse_messages(text)
        except MessagesError as exc:
            self.panel.show_note(_note("error", f"Could not read the messages from {source}: {exc}"))
            return False
        self.panel.set_messages(messages)
        self._on_messages_changed()
        return True

    def open_json(self, path: str) -> bool:
        """Read the messages from a JSON file (a failure is told in the notes)."""
        try:
            text = read_text_file(path)  # a regular file only (a FIFO would block), size-capped
        except SubwordScopeError as exc:
            self.panel.show_note(_note("error", f"Could not read {exc}"))
            return False
        return self.load_json(text, os.path.basename(path))

    def save_json(self, path: str) -> bool:
        """Write the messages as JSON (a failure is told in the notes)."""
        try:
            Path(path).write_text(messages_json(self.panel.messages) + "\n", encoding="utf-8")
        except (OSError, ValueError) as exc:
            self.panel.show_note(_note("error", f"Could not save the messages: {exc}"))
            return False
        self.panel.show_note(_note("info", f"Saved {len(self.panel.messages)} messages to {path}"))
        return True

    def _on_json_requested(self, kind: str) -> None:
        clipboard = QApplication.clipboard()
        parent: QWidget = self.panel
        if kind == "paste":
            self.load_json(clipboard.text(), "the clipboard")
        elif kind == "copy":
            clipboard.setText(messages_json(self.panel.messages))
        elif kind == "open":
            path, _ = QFileDialog.getOpenFileName(parent, "Open Messages", "", "JSON (*.json);;All files (*)")
            if path:
                self.open_json(path)
        elif kind == "save":
            path, _ = QFileDialog.getSaveFileName(parent, "Save Messages", "messages.json", "JSON (*.json)")
            if path:
                self.save_json(path)


def wire_chat(pane: ChatHost) -> ChatMode:
    """Connect Chat mode's panel (made by ``ui.build``) to ``pane``."""
    return ChatMode(pane)
