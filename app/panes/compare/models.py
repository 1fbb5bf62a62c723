"""What the Compare pane's tables hold: rows built from ``core`` results (no Qt here).

Each ``*_rows`` function returns ``(header, rows)`` for an
:class:`~app.widgets.rows_model.RowsModel`; the values are raw (numbers stay numbers).
"""

from __future__ import annotations

import unicodedata

from core.metrics.normalization_damage import DamageReport, form_table
from core.text.scripts import language_name
from core.text.unicode_forms import FORMS


def codepoints(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text)


def form_rows() -> tuple[list[str], list[list]]:
    header = ["example", "text", "code points", "raw", *FORMS, "NFKC text"]
    rows = [[r.label, r.text, codepoints(r.text), r.raw, r.nfc, r.nfd, r.nfkc, r.nfkd,
             f"{r.nfkc_text}  ({codepoints(r.nfkc_text)})"] for r in form_table()]
    return header, rows


def damage_rows(damage: dict[tuple[str, str], DamageReport], languages: list[str], form: str) -> tuple[list[str], list[list]]:
    header = ["language", "code", "characters", "changed", "dropped", "split", "affected %", "length Δ", "most affected"]
    rows = []
    for code in languages:
        r = damage.get((code, form))
        if r is None:
            continue
        top = ", ".join(f"{show_marks(c.char)}→{show_marks(c.output) or '∅'} ×{c.count}" for c in r.examples[:4])
        share = 100.0 * r.affected / r.characters if r.characters else float("nan")
        rows.append([language_name(code), code, r.characters, r.changed, r.dropped, r.split, share, r.length_delta, top])
    return header, rows


def example_rows(report: DamageReport | None) -> tuple[list[str], list[list]]:
    header = ["char", "code point", "name", "category", "script", "kind", "becomes", "count"]
    if report is None:
        return header, []
    return header, [[show_marks(c.char), f"U+{ord(c.char):04X}", c.name, c.category, c.script, c.kind,
                     f"{show_marks(c.output) or '∅'} ({codepoints(c.output) or 'nothing'})", c.count]
                    for c in report.examples]


def script_rows(report: DamageReport | None) -> tuple[list[str], list[list]]:
    header = ["script", "characters", "changed", "dropped", "split"]
    if report is None:
        return header, []
    return header, [[s, *v] for s, v in report.by_script.items()]


def show_marks(text: str) -> str:
    """A combining mark is shown on a dotted circle so it is visible alone."""
    return "".join(("\u25cc" + c) if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me") else c for c in text)
