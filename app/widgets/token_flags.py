"""What the token table says about a token's flags: the symbols, the byte notes, and the
per-row bits the table compares to find the rows an edit changed (no widgets)."""

from __future__ import annotations

import re
import unicodedata
from typing import Sequence

import numpy as np

from app.widgets.token_badges import visible
from core.align.audit import Audit

__all__ = ["BYTE_FALLBACK_FLAG", "FLAG_TEXTS", "MISLEADING_FLAG", "UNKNOWN_FLAG", "flag_bits",
           "marks", "short_note"]

FLAG_TEXTS = {
    "✂": "cuts a grapheme cluster (a user-perceived character)",
    "⧉": "shares characters with another token",
    "∅": "empty span",
}
UNKNOWN_FLAG = "⍰ unknown"
BYTE_FALLBACK_FLAG = "byte fallback"
MISLEADING_FLAG = "≠ span"

_NOTE = re.compile(r"(.*) of (.) \(U\+[0-9A-F]+\)", re.DOTALL)


def short_note(note: str) -> str:
    """``"bytes 1–2 of <ZWJ> (U+200D)"`` → ``"bytes 1–2 of ⟨ZWJ⟩"``: the character made
    visible (a combining mark on ◌), the code point left to the tooltip."""
    m = _NOTE.fullmatch(note)
    if m is None:
        return note
    ch = m.group(2)
    shown = "\u25cc" + ch if unicodedata.category(ch) in ("Mn", "Mc", "Me") else visible(ch)
    return f"{m.group(1)} of {shown}"


def flag_bits(audit: Audit | None, rows: int, marks: np.ndarray) -> np.ndarray:
    """``(2 * rows,) int64``: per row the flag bits and the owned byte start (or derived
    start), interleaved (-1 where the audit has no entry), to find the first row whose Flags,
    Original or Derived cell changed. ``marks``: ``(rows,)`` unknown / byte-fallback bits."""
    out = np.full(2 * rows, -1, np.int64)
    out[0::2] = np.where(marks > 0, 16 * marks, -1)
    if audit is None:
        return out
    k = min(rows, len(audit))
    bits = (audit.cuts_grapheme.astype(np.int64) + 2 * audit.shares_chars + 4 * audit.empty
            + 8 * audit.partial + 64 * audit.misleading)
    out[0 : 2 * k : 2] = bits[:k] + 16 * marks[:k]
    if audit.byte_starts is not None:
        out[1 : 2 * k : 2] = audit.byte_starts[:k]
    if audit.derived_starts is not None:
        out[1 : 2 * k : 2] += (1 << 32) * audit.derived_starts[:k]
    return out


def marks(rows: int, unknown: Sequence[bool], byte_fallback: Sequence[bool]) -> np.ndarray:
    """``(rows,) int64``: 1 for the unknown token, 2 for a byte-fallback piece, else 0."""
    out = np.zeros(rows, np.int64)
    for bit, mask in ((1, unknown), (2, byte_fallback)):
        k = min(rows, len(mask))
        if k:
            out[:k] += bit * np.fromiter(mask, bool, len(mask))[:k]
    return out
