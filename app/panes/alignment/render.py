"""Rendering an :class:`AlignmentView` into the alignment pane's widgets, and linking
hover / selection across the three layers (original text, normalized text, token table).

Functions take the pane (duck-typed: ``pane.w`` widgets, ``pane.result``, ``pane.state``)
so the pane module stays small. Positions are code points of the original text unless a
name says normalized.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QListWidgetItem

from core.align.modes import SCHEME_NAMES
from core.align.view import AlignmentView
from app.widgets.span_segments import entity_colour

MAP_DEFAULT_CHARS = 120  # offset map shown for the start of the text when nothing is selected


def render(pane: Any, result: AlignmentView, seconds: float) -> None:
    """Show ``result`` in every widget; ``seconds`` is how long computing it took."""
    w = pane.w
    nt = result.normalized
    cover = result.cover
    if result.error_pos is not None:  # text after a mismatch is unaligned, not "in no token"
        cover = cover.copy()
        cover[result.error_pos:] = np.maximum(cover[result.error_pos:], 1)
    w.original.set_content(result.text, result.spans, cover, result.utf16)
    w.normalized.set_content(nt.text if nt else "", result.norm_spans)
    w.table.token_model.set_tokens(
        result.text, result.tokens, result.ids, result.spans, result.utf16, result.utf8,
        labels=result.labels, audit=result.audit, token_bytes=result.token_bytes,
        error_row=-1 if result.error_token is None else result.error_token,
    )
    w.table.show_readable(result.token_bytes is not None)
    w.original.set_entities([(e.start, e.end, e.label) for e in result.entities])
    w.entities.clear()
    for e in result.entities:
        item = QListWidgetItem(f"{e.label}  {e.text!r}  {e.start}–{e.end}  (UTF-16 {result.utf16[e.start]}–"
                           f"{result.utf16[e.end]}, UTF-8 {result.utf8[e.start]}–{result.utf8[e.end]})")
        item.setForeground(QColor(entity_colour(e.label)))
        w.entities.addItem(item)
    if result.mode == "labels" and not result.entities and result.error is None:
        w.entities.addItem("(no entities: every label is O)")
    _render_error(pane, result)
    pane.current_token = min(pane.current_token, len(result.tokens) - 1)
    if pane.current_token >= 0:
        link_tokens(pane, [pane.current_token], select=True, scroll=False)
    else:
        w.offset_map.show_span(nt, 0, min(len(result.text), MAP_DEFAULT_CHARS))
    w.status.setText(_status(pane, result, seconds))


def _render_error(pane: Any, result: AlignmentView) -> None:
    w = pane.w
    message = result.error or result.notice
    pane.show_banner(message, "error" if result.error else "info")
    if result.error_pos is None:
        w.original.set_error(None)
        return
    text, pos = result.text, result.error_pos
    end = pos
    while end < len(text) and end - pos < 40 and not text[end].isspace():
        end += 1
    if end == pos:  # at the end of the text or on a space: mark the character before
        pos, end = max(0, pos - 1), max(pos, min(len(text), pos + 1))
    w.original.set_error((pos, end))
    if result.error_token is not None:
        w.table.select_token(result.error_token)


def _status(pane: Any, result: AlignmentView, seconds: float) -> str:
    n, t = len(result.text), len(result.tokens)
    parts = [f"{n:,} code points", f"{t:,} tokens"]
    if result.mode == "align" and result.scheme:
        auto = " (detected)" if pane.state.scheme == "auto" else ""
        parts.append(f"aligned as {SCHEME_NAMES[result.scheme]} tokens{auto}")
    if result.normalized is not None:
        parts.append(f"{len(result.normalized.text):,} normalized characters")
    if t and result.audit is not None:
        a = result.audit
        shared = int((a.cover > 1).sum())
        missing = pane.w.original.mark_count("uncov")
        cuts = int(a.cuts_grapheme.sum())
        parts.append(f"{shared} shared / {missing} uncovered characters / {cuts} tokens cut a grapheme")
    parts.append(f"computed in {seconds * 1000:.0f} ms")
    view = pane.w.original
    if n > 2 * 2000:
        parts.append("spans drawn for the visible part only" + (" (capped)" if view.capped else ""))
    return " · ".join(parts)


# -- linking -----------------------------------------------------------------------------
def link_tokens(pane: Any, indices: list[int], *, select: bool = False, scroll: bool = True,
                source: Any = None) -> None:
    """Highlight tokens ``indices`` in all three layers; ``select`` also makes the first current."""
    result: AlignmentView | None = pane.result
    if result is None:
        return
    w = pane.w
    spans = [result.spans[i] for i in indices if result.spans[i]]
    norm = [result.norm_spans[i] for i in indices if i < len(result.norm_spans) and result.norm_spans[i]]
    w.original.set_linked(spans, scroll=scroll and source is not w.original)
    w.normalized.set_linked(norm, scroll=scroll and source is not w.normalized)
    if indices and source is not w.table:
        w.table.select_token(indices[0])
    if select and spans:
        w.offset_map.show_span(result.normalized, spans[0][0], spans[-1][1])
    pane.linked_tokens = list(indices)


def link_span(pane: Any, start: int, end: int, source: Any = None) -> None:
    """Highlight an original span that no token covers, and its normalized characters."""
    result = pane.result
    w = pane.w
    w.original.set_linked([(start, end)], scroll=source is not w.original)
    nt = result.normalized if result else None
    if nt is not None:
        w.normalized.set_linked([nt.to_normalized(start, end)], scroll=source is not w.normalized)
    pane.linked_tokens = []


def link_hover(pane: Any, pos: int, *, normalized: bool) -> None:
    """The mouse is over ``pos`` of one text layer (-1: left it): link what it touches."""
    result = pane.result
    source = pane.w.normalized if normalized else pane.w.original
    if result is None or pos < 0:
        if pane.current_token >= 0:
            link_tokens(pane, [pane.current_token], scroll=False)
        return
    tokens = result.tokens_at_normalized(pos) if normalized else result.tokens_at(pos)
    if tokens:
        link_tokens(pane, tokens, source=source)
    elif normalized and result.normalized is not None and pos < len(result.normalized.text):
        link_span(pane, *result.normalized.to_original(pos, pos + 1), source=source)
    elif not normalized:
        link_span(pane, pos, pos + 1, source=source)


def link_selection(pane: Any, start: int, end: int) -> None:
    """The user selected original ``[start, end)`` (a click selects one character)."""
    result = pane.result
    if result is None:
        return
    tokens = result.tokens_in(start, end)
    if end - start == 1 and tokens:
        pane.select_token(tokens[0])
        return
    link_span(pane, start, end)
    if tokens:
        pane.current_token = tokens[0]
        pane.w.table.select_token(tokens[0])
        pane.linked_tokens = tokens
    pane.w.offset_map.show_span(result.normalized, start, end)
