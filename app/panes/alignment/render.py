"""Rendering an :class:`AlignmentView` into the alignment pane's widgets, and linking
hover / selection across the three layers (original text, normalized text, token table).

:class:`AlignmentRendering` holds these as methods of the pane (the pane class derives from
it), typed on what they read: the pane's widgets (:class:`~app.panes.alignment.ui.AlignmentWidgets`),
its state and the shown result. Positions are code points of the original text unless a
name says normalized. The span views and the linking use :meth:`AlignmentRendering.shown_view`:
the result itself, or its derived spans when the user ticked "Derived spans"; the token table
always lists the tokenizer's spans (with a Derived span column where they differ).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QListWidgetItem

from core.align.modes import SCHEME_NAMES
from core.align.view import AlignmentView
from app.panes.alignment.legend import legend_html
from app.widgets.span_segments import entity_colour
from app.widgets.token_table import TableRows

if TYPE_CHECKING:
    from app.panes.alignment.state import AlignmentState, Prepared, TextCounts
    from app.panes.alignment.ui import AlignmentWidgets

MAP_DEFAULT_CHARS = 120  # offset map shown for the start of the text when nothing is selected


class AlignmentRendering:
    """The Alignment pane's rendering and linking, as methods of the pane.

    What they read and write of the pane is declared here: its widgets ``w``, its ``state``,
    the shown ``result`` with its :class:`~app.panes.alignment.state.Prepared` and how long
    it took (``seconds``), the ``current_token`` (-1: none), and the banner's standing
    messages (a failed tokenizer load, a cut saved text, why Labels mode was left).
    """

    w: AlignmentWidgets
    state: AlignmentState
    result: AlignmentView | None
    prepared: Prepared | None
    seconds: float
    current_token: int
    load_error: str | None = None  # a tokenizer that failed to load (kept until cleared)
    start_notice: str | None = None  # a saved text was cut
    mode_notice: str | None = None  # why Labels mode was left
    show_banner: Callable[..., None]
    select_token: Callable[[int], None]

    def shown_view(self) -> AlignmentView | None:
        """The result as the span views draw it: with derived spans when they are asked for."""
        result = self.result
        if result is None or not self.state.derived_spans:
            return result
        return result.derived_view

    def show_result(self, result: AlignmentView, seconds: float, prepared: Prepared | None = None) -> None:
        """Show ``result`` in every widget; ``seconds`` is how long computing it took;
        ``prepared`` carries what the worker computed for drawing it."""
        w = self.w
        ready = prepared if prepared is not None and prepared.view is result else None
        self.render_spans(result, prepared)
        w.table.token_model.set_tokens(TableRows(result, ready.rows if ready else None,
                                                 ready.specials if ready else None))
        w.table.show_readable(result.rows.token_bytes is not None)
        w.table.show_derived(result.misleading > 0)
        w.entities.clear()
        utf16, utf8 = result.tables.utf16, result.tables.utf8
        for e in result.entities:
            item = QListWidgetItem(f"{e.label}  {e.text!r}  {e.start}–{e.end}  (UTF-16 {utf16[e.start]}–"
                                   f"{utf16[e.end]}, UTF-8 {utf8[e.start]}–{utf8[e.end]})")
            item.setForeground(QColor(entity_colour(e.label)))
            w.entities.addItem(item)
        if result.mode == "labels" and not result.entities and result.error is None:
            w.entities.addItem("(no entities: every label is O)")
        self._show_result_error(result)
        self.current_token = min(self.current_token, len(result.tokens) - 1)
        if self.current_token >= 0:
            self.link_tokens([self.current_token], select=True, scroll=False)
        else:
            w.offset_map.show_span(result.normalized, 0, min(len(result.text), MAP_DEFAULT_CHARS))
        w.status.setText(self._status(result, seconds))
        w.count.setText(count_text(ready.counts if ready else None))
        for view in (w.original, w.normalized):
            view.redraw_if_due()  # one frame with the new text and its spans, not a stale one first

    def clear_views(self) -> None:
        """Empty the span views, the token table, the entities and the offset map (the editor
        keeps its text): nothing of the last result stays referenced by a widget."""
        w = self.w
        for view in (w.original, w.normalized):
            view.set_content("")
        w.table.token_model.set_tokens(TableRows())
        w.entities.clear()
        w.offset_map.show_span(None, 0, 0)
        w.count.setText("")

    def render_spans(self, result: AlignmentView, prepared: Prepared | None = None) -> None:
        """Draw the token spans of ``result`` (or its derived spans, see :meth:`shown_view`)
        in the original and normalized views, the unknown tokens and byte-fallback pieces
        marked; ``prepared`` gives the texts' characters, the normalized view's line breaks
        and Qt position table (else the views compute them, and the normalized view shows no
        breaks)."""
        w, derived = self.w, self.state.derived_spans
        view = result.derived_view if derived else result
        nt = result.normalized
        ready = prepared if prepared is not None and prepared.view is result else None
        marks = ready.marks if ready and ready.marks_derived == derived else None
        w.original.set_content(result.text, view.spans, shown_cover(result, derived),
                               ready.utf16 if ready else result.tables.utf16, chars=ready.chars if ready else None,
                               marks=marks, breaks=ready.breaks if ready else None)
        w.normalized.set_content(nt.text if nt else "", view.layer.norm_spans, None,
                                 ready.norm_utf16 if ready else None, chars=ready.norm_chars if ready else None,
                                 breaks=ready.norm_breaks if ready else None)
        special = ready.specials if ready is not None and ready.specials is not None else ()
        for span_view in (w.original, w.normalized):
            span_view.set_unknown(result.marked)
            span_view.set_special(special)
        self.render_colours()
        w.original.set_entities([(e.start, e.end, e.label) for e in result.entities])
        w.original.set_error(_error_span(result))
        w.derived.setEnabled(result.misleading > 0)

    def render_colours(self) -> None:
        """Colour the span views' tokens by id or alternately, as the state says, and say so
        in the legend. O(1): the views look up the visible tokens' colours when drawing."""
        w, result = self.w, self.result
        ids = result.rows.ids if result is not None and self.state.colour_by_id else None
        if ids is not None and not any(i is not None for i in ids[:1]):
            ids = None  # a pasted token list has no ids: alternate
        for span_view in (w.original, w.normalized):
            span_view.set_colour_ids(ids)
        w.legend.setText(legend_html(ids is not None))

    def set_load_error(self, message: str | None) -> None:
        """Keep ``message`` (a tokenizer that failed to load; None: clear it) in the pane's
        banner until it is cleared: results of the tokenizer still in use do not hide it
        (a result's own error is shown first)."""
        self.load_error = message
        if message is not None:
            self.show_banner(message, "error")
        elif self.w.banner.property("load_error"):
            self.show_banner(None)
        self.w.banner.setProperty("load_error", message is not None)

    def _show_result_error(self, result: AlignmentView) -> None:
        message, kind = result.error or result.notice, "error" if result.error else "info"
        if message is None and self.load_error:
            message, kind = self.load_error, "error"
        if message is None:
            message = self.start_notice or self.mode_notice  # a saved text was cut; Labels mode was left
        elif self.start_notice and kind == "info":  # (a restored prefix too long to tokenize)
            message = f"{self.start_notice} {message}"
        elif self.start_notice and kind == "error":  # (a lone surrogate the editor drops)
            message = f"{message} {self.start_notice}"
        self.show_banner(message, kind)
        if result.mismatch is not None:
            self.w.table.select_token(result.mismatch.token)

    def _status(self, result: AlignmentView, seconds: float) -> str:
        n, t = len(result.text), len(result.tokens)
        parts = [f"{n:,} code points", f"{t:,} tokens"]
        if result.aligned is not None:
            auto = " (detected)" if self.state.scheme == "auto" else ""
            after = " after the teaching normalizer" if result.aligned.after_normalizer else ""
            parts.append(f"aligned as {SCHEME_NAMES[result.aligned.scheme]} tokens{auto}{after}")
        if result.normalized is not None:
            parts.append(f"{len(result.normalized.text):,} normalized characters")
        view = self.w.original
        if t and result.audit is not None:
            a = result.audit
            shared = int((self.shown_view().layer.cover > 1).sum())
            missing = view.mark_count("uncov")
            cuts = int(a.cuts_grapheme.sum())
            parts.append(f"{shared} shared / {missing} uncovered characters / {cuts} tokens cut a grapheme")
        elif not t and n and (result.notice or result.error):  # nothing ran: too long, or failed
            # (the notice's first sentence: "The text has 1,200,000 characters; at most
            # 1,000,000 are tokenized here")
            why = "the banner above says why" if result.error else result.notice.split(". ")[0].rstrip(".")
            parts.append(f"{'not aligned' if result.mode == 'align' else 'not tokenized'}: {why}")
        elif not t and n and result.mode == "tokenize" and not result.text.isspace():
            parts.append("no token at all: the tokenizer dropped every character (it has no "
                         "unknown token for what it cannot encode)")
        parts += _unknown_status(result, self.state.derived_spans)
        parts += self._special_status(result)
        parts.append(f"computed in {seconds * 1000:.0f} ms")
        parts += view.font_notes()  # scripts no installed font draws (once each)
        if n > 2 * 2000:
            parts.append("spans drawn for the visible part only" + (" (capped)" if view.capped else ""))
        return " · ".join(parts)

    def _special_status(self, result: AlignmentView) -> list[str]:
        """Which substrings of the text became special ids (most frequent first, at most
        five), or that they were read as plain text ("Parse special tokens" off)."""
        prepared = self.prepared
        found = prepared.special_texts if prepared is not None and prepared.view is result else ()
        if not self.state.parse_special:
            return ["special tokens in the text read as plain text (Parse special tokens is off)"]
        if not found:
            return []
        listed = ", ".join(f"{content} ×{count}" if count > 1 else content for content, count in found[:5])
        more = f" and {len(found) - 5} more" if len(found) > 5 else ""
        return [f"became special ids: {listed}{more}"]

    def refresh_status(self) -> None:
        """Rewrite the status line for the shown result (e.g. after "Derived spans" changed)."""
        if self.result is not None:
            self.w.status.setText(self._status(self.result, self.seconds))

    # -- linking -------------------------------------------------------------------------
    def link_tokens(self, indices: list[int], *, select: bool = False, scroll: bool = True,
                    source: object = None) -> None:
        """Highlight tokens ``indices`` in all three layers; ``select`` also shows the offset
        map of their span; ``source``: the widget the user is pointing at (not scrolled)."""
        result = self.shown_view()
        if result is None:
            return
        w = self.w
        spans = [result.spans[i] for i in indices if result.spans[i]]
        norm_spans = result.layer.norm_spans
        norm = [norm_spans[i] for i in indices if i < len(norm_spans) and norm_spans[i]]
        w.original.set_linked(spans, scroll=scroll and source is not w.original)
        w.normalized.set_linked(norm, scroll=scroll and source is not w.normalized)
        if indices and source is not w.table:
            w.table.select_token(indices[0])
        w.ids.highlight(indices[0] if indices else -1, scroll=scroll and source is not w.ids)
        if select and spans:
            w.offset_map.show_span(result.normalized, spans[0][0], spans[-1][1])

    def link_span(self, start: int, end: int, source: object = None) -> None:
        """Highlight an original span that no token covers, and its normalized characters."""
        result = self.shown_view()
        w = self.w
        w.original.set_linked([(start, end)], scroll=source is not w.original)
        nt = result.normalized if result else None
        if nt is not None:
            w.normalized.set_linked([nt.to_normalized(start, end)], scroll=source is not w.normalized)

    def link_hover(self, pos: int, *, normalized: bool) -> None:
        """The mouse is over ``pos`` of one text layer (-1: left it): link what it touches."""
        result = self.shown_view()
        source = self.w.normalized if normalized else self.w.original
        if result is None or pos < 0:
            if self.current_token >= 0:
                self.link_tokens([self.current_token], scroll=False)
            return
        tokens = result.tokens_at_normalized(pos) if normalized else result.tokens_at(pos)
        if tokens:
            self.link_tokens(tokens, source=source)
        elif normalized and result.normalized is not None and pos < len(result.normalized.text):
            self.link_span(*result.normalized.to_original(pos, pos + 1), source=source)
        elif not normalized:
            self.link_span(pos, pos + 1, source=source)

    def link_selection(self, start: int, end: int) -> None:
        """The user selected original ``[start, end)`` (a click selects one character)."""
        result = self.shown_view()
        if result is None:
            return
        tokens = result.tokens_in(start, end)
        if end - start == 1 and tokens:
            self.select_token(tokens[0])
            return
        self.link_span(start, end)
        if tokens:
            self.current_token = tokens[0]
            self.w.table.select_token(tokens[0])
        self.w.offset_map.show_span(result.normalized, start, end)


def count_text(counts: TextCounts | None) -> str:
    """The large count above the views (rich text) from a
    :class:`~app.panes.alignment.state.TextCounts`; "" for None."""
    if counts is None:
        return ""
    unit = "character" if counts.words_are_characters else "word"
    per = f"{counts.tokens / counts.words:.2f} tokens per {unit}" if counts.words else f"no {unit}s"
    return (f'<span style="font-size:xx-large; font-weight:600">{counts.tokens:,}</span> '
            f'<span style="font-size:large">tokens · {counts.characters:,} characters · '
            f'{counts.utf8_bytes:,} bytes · {per}</span>')


def shown_cover(result: AlignmentView, derived: bool) -> np.ndarray:
    """``(n,) int``: how many tokens cover each original code point as the span views draw
    it (derived spans or not); after an alignment mismatch the rest counts as covered
    (unaligned, not "in no token"). O(n)."""
    cover = (result.derived_view if derived else result).layer.cover
    if result.mismatch is not None:
        at = result.mismatch.position
        cover = cover.copy()
        cover[at:] = np.maximum(cover[at:], 1)
    return cover


def _error_span(result: AlignmentView) -> tuple[int, int] | None:
    """The original text marked at an alignment mismatch: the word at its position (at most
    40 code points), or the character before it at the end of the text or on a space."""
    if result.mismatch is None:
        return None
    text, pos = result.text, result.mismatch.position
    end = pos
    while end < len(text) and end - pos < 40 and not text[end].isspace():
        end += 1
    if end == pos:
        pos, end = max(0, pos - 1), max(pos, min(len(text), pos + 1))
    return pos, end


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def _unknown_status(result: AlignmentView, derived_shown: bool) -> list[str]:
    """"12 unknown tokens cover 57 characters", the byte-fallback pieces, misleading spans."""
    unknown, unknown_chars, fallback, fallback_chars = result.unknown_summary
    parts = []
    if unknown:
        parts.append(f"{_plural(unknown, 'unknown token covers', 'unknown tokens cover')} "
                     f"{_plural(unknown_chars, 'character', 'characters')}")
    if fallback:
        parts.append(f"{_plural(fallback, 'byte-fallback piece spells', 'byte-fallback pieces spell')} "
                     f"{_plural(fallback_chars, 'character', 'characters')}")
    if result.misleading:
        which = "derived spans shown" if derived_shown else "tick Derived spans to draw them"
        parts.append(f"{_plural(result.misleading, 'token span differs', 'token spans differ')} "
                     f"from the derived span ({which})")
    elif result.mode == "tokenize" and result.audit is not None and result.rows.derived_spans is not None \
            and len(result.tokens):
        parts.append(f"tokenizer's spans = spans rebuilt from the tokens: True ({len(result.tokens):,} of "
                     f"{len(result.tokens):,})")
    return parts
