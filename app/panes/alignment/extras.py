"""The Alignment pane's extra views, built and wired in one place (:func:`wire_extras`):
the tokenizer picker, the side-by-side rows, the token-id view, the special-tokens and
whitespace toggles with the file's truncation/padding line, markers for zero-width
characters, and the fixed info strip that replaces tooltips over the text.

The widgets are made by :func:`app.panes.alignment.ui.build` with the others; the pane calls
:func:`wire_extras` once after building them and
:meth:`Extras.set_tokenizer` when its tokenizer changes; everything else follows the pane's
``sig_encoding_changed``. Per result, the GUI thread does O(1) work here: the special-token
encoding runs on a worker only while its toggle is on (an edit cancels it), the token-id text
is built on a worker while its view is visible (a frame after the result; an edit cancels
it), the side-by-side rows are encoded only when rows were added (after a pause, on a
worker), and the tokenizers are found once, on a worker.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget

from app.panes.alignment.state import TOKENIZER_FILE_FILTER
from app.settings import get_json
from app.widgets.info_strip import suppress_tooltips
from app.workers import TaskRunner
from core.data import builtin_name
from core.hf_cache import hub_cache_dir
from core.text.invisibles import zero_width_name
from core.tokenizers import DEMO_NAME, TokenizerLike, demo_tokenizer
from core.tokenizers.special import encoding_specials, limits_line

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings, SignalInstance

    from app.panes.alignment.ui import AlignmentWidgets
    from core.align.view import AlignmentView


class ExtrasHost(Protocol):
    """What the extras use of their pane (:class:`~app.panes.alignment.pane.AlignmentPane`)."""

    w: AlignmentWidgets
    settings: QSettings
    result: AlignmentView | None
    sig_encoding_changed: SignalInstance
    sig_status_requested: SignalInstance

    def shown_view(self) -> AlignmentView | None: ...
    def set_tokenizer(self, tokenizer: TokenizerLike | None, label: str) -> None: ...
    def link_tokens(self, indices: list[int], *, select: bool = False, scroll: bool = True,
                    source: object = None) -> None: ...
    def link_hover(self, pos: int, *, normalized: bool) -> None: ...
    def select_token(self, index: int) -> None: ...
    def window(self) -> QWidget: ...



def encode_with_specials(tokenizer: TokenizerLike, text: str, should_stop=None) -> tuple[list[int], list[tuple[int, str]]]:
    """Ids with the post-processor's special tokens, and ``(code point, token)`` of each
    special token (a worker runs this: one encode of the whole text, O(n)).

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    enc = tokenizer.encode(text, add_special_tokens=True, should_stop=should_stop)
    return list(enc.ids), [(m.position, m.token) for m in encoding_specials(enc)]


def char_info(text: str, pos: int) -> str:
    """``"U+200D ZERO WIDTH JOINER (ZWJ) at 7, in no token"`` for code point ``pos``."""
    ch = text[pos]
    short = zero_width_name(ch)
    name = unicodedata.name(ch, "unnamed") + (f" ({short})" if short else "")
    return f"U+{ord(ch):04X} {name} at {pos}, in no token"


class Extras:
    """The behaviour of the pane's extra views (see the module docstring); the widgets are
    made by :func:`app.panes.alignment.ui.build` and only wired here."""

    def __init__(self, pane: ExtrasHost):
        self.pane = pane
        w = pane.w
        self._tokenizer: TokenizerLike | None = None
        self._demo = demo_tokenizer()
        self._label = DEMO_NAME
        self.picker, self.special, self.whitespace = w.picker, w.special_tokens, w.whitespace
        self.limits, self.strip, self.ids, self.side = w.limits, w.strip, w.ids, w.side
        self.markers, self.norm_markers = w.markers, w.norm_markers
        self.special_runner = TaskRunner(pane)
        self.special_runner.sig_returned.connect(self._on_specials)
        suppress_tooltips(w.table.viewport())
        self._connect(w)
        self.set_tokenizer(None, self._label)
        self.picker.scan()

    def _connect(self, w: AlignmentWidgets) -> None:
        self.pane.sig_encoding_changed.connect(self._on_encoding)
        self.special.toggled.connect(self._on_special_toggled)
        self.whitespace.toggled.connect(self.markers.set_whitespace_visible)
        self.whitespace.toggled.connect(self.norm_markers.set_whitespace_visible)
        w.table.sig_token_hovered.connect(self._on_row_hovered)
        w.original.sig_hovered.connect(self._on_text_hovered)
        self.ids.sig_copied.connect(lambda n: self.pane.sig_status_requested.emit(f"Copied {n:,} token ids"))
        self.ids.sig_id_hovered.connect(self._on_id_hovered)
        self.ids.sig_id_clicked.connect(self.pane.select_token)
        w.editor.textChanged.connect(self.special_runner.cancel)  # its text is stale now
        w.editor.textChanged.connect(self.ids.text_edited)
        self.picker.sig_cache_scanned.connect(self._on_sources)
        self.picker.sig_teaching_requested.connect(self._on_teaching_requested)
        self.picker.sig_more_requested.connect(self._on_more_requested)

    # -- the pane's events -------------------------------------------------------------------
    def set_tokenizer(self, tokenizer: TokenizerLike, label: str) -> None:
        """The pane's tokenizer changed (None: the demo vocabulary)."""
        self._tokenizer, self._label = tokenizer, label
        shown = DEMO_NAME if tokenizer is None else getattr(tokenizer, "name", label)
        self.picker.set_current(shown)
        self.picker.set_recent(get_json(self.pane.settings, "tokenizer/recent", []))
        self._on_sources()
        self.limits.setText(limits_line(tokenizer))
        self.side.set_primary(builtin_name(label) or shown if tokenizer is not None else shown,
                              self._current())

    def _current(self) -> TokenizerLike:
        return self._tokenizer if self._tokenizer is not None else self._demo

    def _on_encoding(self, result: AlignmentView) -> None:
        view = self.pane.shown_view() or result
        self.markers.set_cover(result.text, view.layer.cover)
        self.side.set_text(result.text)
        if self.special.isChecked() and result.mode == "tokenize":  # the ids come with them
            self.special_runner.submit(encode_with_specials, self._current(), result.text)
            return
        self.special_runner.cancel()
        self.markers.set_specials([])
        self.ids.set_ids(result.rows.ids)

    def _on_special_toggled(self, on: bool) -> None:
        self.limits.setVisible(on)
        if self.pane.result is not None:
            self._on_encoding(self.pane.result)

    def _on_specials(self, value: tuple[list[int], list[tuple[int, str]]]) -> None:
        ids, marks = value
        self.ids.set_ids(ids, linked=False)  # the template's specials shift the ids: not token i's
        self.markers.set_specials(marks)

    def _on_sources(self, _cached: int = 0) -> None:
        """Offer side by side every tokenizer the picker offers (built in, data folder,
        recent, Hugging Face cache; "Open file…" for any other)."""
        sources = self.picker.sources
        recent = [(p, p) for p in get_json(self.pane.settings, "tokenizer/recent", [])]
        if sources is None:
            self.side.set_choices([("Recent", recent)])
            return
        self.side.set_choices([("Built-in", sources.builtin), ("Data folder", sources.data),
                               ("Recent", recent), ("Hugging Face cache", sources.cache)])

    def _on_teaching_requested(self) -> None:
        """The picker's teaching example: what File ▸ Teaching Example does when the pane
        sits in the main window (every pane follows), else this pane's tokenizer only."""
        show = getattr(self.pane.window(), "show_teaching_example", None)
        if callable(show):
            show()
        else:
            self.pane.set_tokenizer(None, DEMO_NAME)

    def _on_more_requested(self) -> None:
        """"More…": pick any tokenizer file in the Hugging Face cache folder."""
        path, _ = QFileDialog.getOpenFileName(self.pane, "Open from the Hugging Face cache", str(hub_cache_dir()),
                                              TOKENIZER_FILE_FILTER)
        if path:
            self.picker.sig_path_chosen.emit(path)

    def _on_row_hovered(self, row: int) -> None:
        model = self.pane.w.table.token_model
        if row < 0 or row >= model.rowCount():
            self.strip.show_info("")
            return
        self.strip.show_info(str(model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole) or ""))

    def _on_id_hovered(self, index: int) -> None:
        """The mouse is over token ``index``'s id in the ids box (-1: left it): highlight the
        token everywhere, say what it is in the strip."""
        result = self.pane.result
        if index < 0 or result is None or index >= len(result.tokens):
            self.pane.link_hover(-1, normalized=False)
            self.strip.show_info("")
            return
        self.pane.link_tokens([index], source=self.ids)
        self._on_row_hovered(index)

    def _on_text_hovered(self, pos: int) -> None:
        result = self.pane.shown_view()
        if result is None or not 0 <= pos < len(result.text):
            self.strip.show_info("")
            return
        tokens = result.tokens_at(pos)
        if tokens:
            self._on_row_hovered(tokens[0])
        else:
            self.strip.show_info(char_info(result.text, pos))


def wire_extras(pane: ExtrasHost) -> Extras:
    """Connect the extra views of ``pane`` (made by ``ui.build``)."""
    return Extras(pane)
