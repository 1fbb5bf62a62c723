"""Token-table rows built from plain lists, for tests of the table alone."""

from __future__ import annotations

from app.widgets.token_table import RowArrays, TableRows
from core.align.audit import Audit
from core.align.view import AlignmentView, SpanLayer, TextTables, TokenRows
from core.text.offsets import offset_arrays


def table_rows(text: str, tokens: list[str], ids: list, spans: list, *, audit: Audit | None = None,
               unknown=(), derived=None, arrays: RowArrays | None = None, specials=None) -> TableRows:
    """A :class:`TableRows` of ``tokens`` at ``spans`` of ``text`` (real UTF-16 / UTF-8 tables)."""
    utf16, utf8 = (table.tolist() for table in offset_arrays(text))
    view = AlignmentView(text, "tokenize", rows=TokenRows(list(tokens), list(ids), list(unknown), derived_spans=derived),
                         layer=SpanLayer(spans), tables=TextTables(None, utf16, utf8), audit=audit)
    return TableRows(view, arrays, specials)
