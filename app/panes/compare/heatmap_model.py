"""What the Compare heatmap draws, as data (no Qt): values in row order, the text of every
cell, which cells are marked, the colour levels, the legend and the ranking summary.

Every number comes from :mod:`core.metrics` (values, unknown and byte-fallback shares, the
cells over :data:`~core.metrics.UNKNOWN_LIMIT` unknown, the ranked order and extremes); this
module only arranges and words them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.metrics import COSTS, METRICS, UNKNOWN_LIMIT, CompareTable, extremes, row_order, unreliable
from core.metrics.ranking import Extremes
from core.text.scripts import language_name

#: The colour scale is clipped to these percentiles of the cells under the unknown limit.
PERCENTILES = (5.0, 95.0)
_SHARES = {"unknown_share", "unknown_rate", "byte_fallback_share", "byte_fallback_rate",
           "grapheme_cut_share", "split_character_share", "round_trip_share"}
_COUNTS = {"tokens", "adjusted_tokens", "words", "characters", "utf8_bytes"}
LIMIT = f"{100 * UNKNOWN_LIMIT:g} %"  # "1 %"
_ADJUSTED_OF = {"fertility": "adjusted_fertility", "premium": "adjusted_premium",
                "tokens": "adjusted_tokens", "tokens_per_character": "adjusted_tokens_per_character"}


@dataclass(frozen=True)
class HeatmapModel:
    """One metric of a :class:`CompareTable` as the heatmap shows it (rows top to bottom).

    ``values``, ``unknown``, ``fallback`` and ``marked`` are ``(rows, cols)`` arrays (the
    metric, the unknown and byte-fallback character shares, cells over the unknown limit);
    ``texts`` / ``short_texts`` the text of each cell (the short one for narrow cells);
    ``order`` the table row of each shown row; ``ranked`` how many rows precede the unranked
    ones (``None`` when rows are sorted by language); ``levels`` the clipped colour range;
    ``adjusted`` the unknown-adjusted counterpart of a plain cost (else ``None``); ``log``
    whether the colour follows ``log10`` of the values (:func:`log_scale`).
    """

    metric: str
    order: list[int]
    row_labels: list[str]
    col_labels: list[str]
    values: np.ndarray
    unknown: np.ndarray
    fallback: np.ndarray
    marked: np.ndarray
    texts: list[list[str]]
    short_texts: list[list[str]]
    levels: tuple[float, float]
    ranked: int | None
    adjusted: np.ndarray | None = None
    log: bool = False


def format_value(value: float, metric: str) -> str:
    """A cell's number: shares in %, counts with thousands separators (``12.3k``, ``1.2M`` from 10,000),
    ratios to 3 significant digits; ``–`` where undefined."""
    if not math.isfinite(value):
        return "–"
    if metric in _SHARES:
        return percent(value)
    if metric in _COUNTS:
        if abs(value) < 10_000:
            return f"{value:,.0f}"
        return f"{value / 1e3:.3g}k" if abs(value) < 999_500 else f"{value / 1e6:.3g}M"
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def percent(share: float) -> str:
    """``0.956`` → ``"96 %"``; below 10 % three significant digits (``0.015`` → ``"1.5 %"``,
    ``0.0104`` → ``"1.04 %"``: a share just over the 1 % limit does not read "1 %"); ``"0 %"``."""
    p = 100.0 * share
    if p == 0:
        return "0 %"
    return f"{p:.3g} %" if p < 9.95 else f"{p:.0f} %"


def cell_texts(value: float, metric: str, unknown: float, fallback: float, marked: bool) -> tuple[str, str]:
    """``(full, short)`` text of one cell: the value, ``⚠ 82 % unk`` on a marked cell, and
    the byte-fallback share where there is any (``bf 3 %``)."""
    v = format_value(value, metric)
    full, short = v, v
    if marked:
        full, short = f"{v} ⚠ {percent(unknown)} unk", f"{v} ⚠"
    if math.isfinite(fallback) and fallback > 0:
        full += f" · bf {percent(fallback)}"
    return full, short


def robust_levels(values: np.ndarray, marked: np.ndarray, *, log: bool = False) -> tuple[float, float]:
    """Colour range: the :data:`PERCENTILES` of the finite unmarked values (of all finite
    values when none is unmarked) — of their ``log10`` when ``log`` (the positive ones; the
    range is returned in data units) — widened by ±0.5 (a factor √10 in log) when they
    coincide; ``(0, 1)`` (``(1, 10)`` in log) without values."""
    ok = np.isfinite(values) & (values > 0 if log else True)
    pool = values[ok & ~marked]
    if pool.size == 0:
        pool = values[ok]
    if pool.size == 0:
        return (1.0, 10.0) if log else (0.0, 1.0)
    lo, hi = (float(x) for x in np.percentile(np.log10(pool) if log else pool, PERCENTILES))
    lo, hi = (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)
    return (10.0 ** lo, 10.0 ** hi) if log else (lo, hi)


def log_scale(values: np.ndarray, metric: str) -> bool:
    """Costs are coloured on a log scale (equal ratios, equal steps: 2× apart is the same
    step at 1 and at 10) when every finite value is positive."""
    finite = values[np.isfinite(values)]
    return metric in COSTS and finite.size > 0 and bool((finite > 0).all())


def heatmap_model(table: CompareTable, metric: str, sort_by: str) -> HeatmapModel:
    """The heatmap of ``metric`` with rows by language code, by ``"mean"`` or by one
    tokenizer's column (largest first; cells over the unknown limit after the ranked ones,
    see :func:`core.metrics.row_order`)."""
    if sort_by == "language" or not table.tokenizers or not table.languages:
        order, ranked = sorted(range(len(table.languages)), key=lambda i: table.languages[i]), None
    else:
        column = sort_by if sort_by in table.tokenizers else None
        order, ranked = row_order(table, metric, column)
    values = table.values(metric)[order]
    unknown = table.values("unknown_share")[order]
    fallback = table.values("byte_fallback_share")[order]
    marked = unreliable(table)[order]
    pairs = [[cell_texts(values[r, c], metric, unknown[r, c], fallback[r, c], bool(marked[r, c]))
              for c in range(values.shape[1])] for r in range(values.shape[0])]
    per_char = table.words_are_characters()
    star = metric in ("fertility", "adjusted_fertility")
    labels = [language_name(table.languages[i]) + (" *" if star and per_char[i] else "") for i in order]
    log = log_scale(values, metric)
    levels = robust_levels(values, marked if metric in COSTS else np.zeros_like(marked), log=log)
    adjusted = table.values(_ADJUSTED_OF[metric])[order] if metric in _ADJUSTED_OF else None
    return HeatmapModel(metric, order, labels, list(table.tokenizers), values, unknown, fallback, marked,
                        [[p[0] for p in row] for row in pairs], [[p[1] for p in row] for row in pairs],
                        levels, ranked, adjusted, log)


def card_text(model: HeatmapModel, r: int, c: int) -> str:
    """The hover read-out of cell ``(r, c)``: names, the exact value, its unknown-adjusted
    counterpart, and the unknown and byte-fallback shares."""
    label = METRICS[model.metric][0]
    lines = [f"{model.row_labels[r]} × {model.col_labels[c]}", f"{label} = {model.values[r, c]:.10g}"]
    if model.adjusted is not None:
        lines.append(f"unknown-adjusted = {model.adjusted[r, c]:.4g}")
    unk = f"unknown: {percent(model.unknown[r, c])} of the characters" if np.isfinite(model.unknown[r, c]) else "unknown: –"
    if model.marked[r, c]:
        unk += f" (over {LIMIT}" + (": not ranked)" if model.metric in COSTS else ")")
    lines.append(unk)
    if np.isfinite(model.fallback[r, c]):
        lines.append(f"byte fallback: {percent(model.fallback[r, c])} of the characters")
    return "\n".join(lines)


def legend(model: HeatmapModel) -> str:
    """How to read the heatmap: the numbers, the clipped colour scale, the marks and (for an
    unknown-adjusted metric) how it is computed."""
    lo, hi = model.levels
    pool = f"cells under {LIMIT} unknown" if model.metric in COSTS else "cells"
    scale = "logarithmic (equal ratios, equal steps)" if model.log else "linear"
    parts = [f"Numbers: each cell's value (hover for the exact one). Colour: {scale}, clipped to the {PERCENTILES[0]:g}th–"
             f"{PERCENTILES[1]:g}th percentile of the {pool} ({format_value(lo, model.metric)} – "
             f"{format_value(hi, model.metric)}); values beyond take the end colours."]
    if model.marked.any():
        parts.append(f"⚠ hatched, red outline: the tokenizer leaves more than {LIMIT} of the "
                     "characters inside unknown tokens (share shown as “unk”)" +
                     ("; its cost counts lost text as saved tokens, so it is not ranked." if model.metric in COSTS
                      else "."))
    if model.fallback[np.isfinite(model.fallback)].any():
        parts.append("“bf”: share of the characters written as <0xNN> byte pieces.")
    if model.metric.startswith("adjusted_"):
        parts.append("Unknown-adjusted: each unknown token counts as one token per UTF-8 byte of the "
                     "characters it covers (what byte-level fallback would need): tokens − unknown tokens "
                     "+ unknown bytes.")
    if model.metric == "round_trip_share":
        parts.append("Round trip: share of each language's characters that decode(encode(line)) gives back "
                     "unchanged (lost accents and case, unknown text and changed whitespace count as lost; "
                     "spaces the decoder adds do not); the Alignment pane's Decoded view shows where.")
    if model.ranked is not None and model.ranked < len(model.order):
        parts.append("Rows under the dashed line are not ranked (over the unknown limit).")
    return " ".join(parts)


def summary(table: CompareTable, metric: str) -> str:
    """Cheapest and dearest language per tokenizer among cells under the unknown limit
    (:func:`core.metrics.extremes`); empty for a metric that is not a cost."""
    if metric not in COSTS or not table.languages:
        return ""
    values, label = table.values(metric), METRICS[metric][0]
    parts, found = [], extremes(table, metric)
    for j, e in enumerate(found):
        left_out = f" ({len(e.excluded)} not ranked)" if e.excluded else ""
        if e.cheapest is None:
            parts.append(f"{e.tokenizer}: no language under {LIMIT} unknown{left_out}")
            continue
        cheap, dear = (f"{language_name(table.languages[i])} {format_value(values[i, j], metric)}"
                       for i in (e.cheapest, e.dearest))
        parts.append(f"{e.tokenizer}: cheapest {cheap}, dearest {dear}{left_out}")
    unit = _unit_note(table, found[0]) if found else ""
    return f"{label}{unit}, among cells with < {LIMIT} unknown characters — " + "; ".join(parts)


def _unit_note(table: CompareTable, e: Extremes) -> str:
    """Which unit a per-word ranking compares, and which languages it leaves out for theirs."""
    if not e.unit:
        return ""
    if not e.other_unit:
        return f" (ranked per {e.unit})"
    names = ", ".join(language_name(table.languages[i]) for i in e.other_unit)
    return f" (ranked per word; not ranked, as counted per character: {names})"
