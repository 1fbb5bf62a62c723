"""Export the alignment pane's token table as CSV or JSON (offsets in all three units)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from app.widgets.token_table import TokenTableModel

FIELDS = ("index", "token", "id", "start", "end", "utf16_start", "utf16_end",
          "utf8_start", "utf8_end", "original", "label", "readable", "flags", "unknown",
          "byte_fallback", "derived_start", "derived_end")


def token_rows(model: TokenTableModel) -> list[dict]:
    """Every token as a dict of :data:`FIELDS` (``start``/``end`` in code points)."""
    return [model.row_values(r) for r in range(model.rowCount())]


def write_tokens(path: str | Path, model: TokenTableModel, text: str) -> int:
    """Write the table to ``path`` (``.json`` → JSON with the text, else CSV); return rows written.

    Raises
    ------
    OSError
        If the file cannot be written.
    """
    rows = token_rows(model)
    path = Path(path)
    if path.suffix.lower() == ".json":
        payload = {"text": text, "offsets": "half-open; start/end in code points", "tokens": rows}
        path.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        with path.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=FIELDS)
            writer.writeheader()
            writer.writerows(rows)
    return len(rows)
