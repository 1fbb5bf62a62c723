"""The Cross-lingual tab: does an English paragraph find its own translation, per language?

Two scatter plots — the share of paired English paragraphs whose translation is in the top k
against the language's fertility under the encoder's tokenizer, and against its ``[UNK]``
share — each point labelled with its language code, with the chance level ``k / m`` drawn
as a dashed line; and a table of every language (how it was paired, pairs, mean rank,
fertility, unknown share). When a second encoder of the other kind is present (a multilingual
one beside an English-only one), its points join the plots in orange, each linked to the same
language's point (same paragraph pairs, two models), its share, rank, fertility and unknown
share join the table, and the summary gives the rank correlation of fertility and share for
both. Renders :class:`~app.panes.retrieval.corpus.CrossLingualRow` rows.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.panes.retrieval.corpus import Companion, CrossLingualRow
from app.panes.retrieval.state import REFERENCE, RetrievalState
from app.widgets.plot_lines import LinePlot
from app.widgets.rows_model import CsvButton, RowsModel
from core.retrieval import rank_correlation
from core.text.scripts import language_name

HEADER = ("language", "name", "paired by", "pairs", "searched", "top-k share", "chance", "mean rank",
          "fertility", "[UNK] share", "how")
CURVE = "languages"
Y_NAMES = {"share": "share of translations in the top k", "rank": "mean rank of the translation (1 = first)"}


def label_groups(x: np.ndarray, y: np.ndarray, x_span: float, y_span: float, tol: float = 0.04) -> list[list[int]]:
    """Points that share one label: a point joins the first group whose first point is within
    ``tol`` of the x span and of the y span of it, else starts a group (greedy, in order of x).

    Cost: O(n·g) for n points and g groups (n = languages, ~30).
    """
    groups: list[list[int]] = []
    for i in np.argsort(x, kind="stable").tolist():
        home = next((g for g in groups if abs(x[g[0]] - x[i]) <= tol * x_span
                     and abs(y[g[0]] - y[i]) <= tol * y_span), None)
        if home is None:
            groups.append([i])
        else:
            home.append(i)
    return groups


def _wrap(names: list[str], per_line: int = 4) -> str:
    return "\n".join(", ".join(names[i:i + per_line]) for i in range(0, len(names), per_line))


BASE_COLOR, COMPANION_COLOR = "#1f77b4", "#e8710a"
COMPANION = "companion"


class LabelledScatter(LinePlot):
    """Markers with a text label each (the language code) and a dashed chance line; with a
    companion encoder, its points in orange joined to the same language's point by a thin
    line (same paragraph pairs, two models)."""

    def __init__(self, title: str, name: str, x_label: str):
        super().__init__(title, name, x_label=x_label, y_label=Y_NAMES["share"])
        self.legend.hide()  # the labels name the points, the summary the colours
        self.labels: dict[str, list[pg.TextItem]] = {CURVE: [], COMPANION: []}
        self.links = pg.PlotDataItem(pen=pg.mkPen("#999999", width=1), connect="pairs")
        self.plot.addItem(self.links)
        self.points: tuple | None = None  # (x, y, names, y_key) as drawn, both series
        self.companion_points: tuple | None = None  # (x, y) of the companion, as drawn

    def _label(self, series: str, x, y, names, span_x: float, top: float, color: str) -> None:
        groups = label_groups(x, y, span_x, top) if len(x) else []
        labels = self.labels[series]
        while len(labels) < len(groups):  # text items are kept and reused
            label = pg.TextItem("", color=color, anchor=(-0.08, 0.5))
            self.plot.addItem(label)
            labels.append(label)
        for label, group in zip(labels, groups):
            label.setText(_wrap([names[i] for i in group]))
            label.setPos(float(x[group[0]]), float(y[group[0]]))
            label.show()
        for label in labels[len(groups):]:
            label.hide()

    def show_points(self, x: np.ndarray, y: np.ndarray, names: list[str], chance: float, y_key: str,
                    other: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """Draw the points ``(x, y)`` named ``names`` and the chance level (a share or a rank);
        ``other`` = the companion encoder's ``(x, y)`` for the same languages, or None."""
        self.set_labels(self.x_label, Y_NAMES[y_key])
        ox, oy = (np.asarray(v, dtype=float) for v in other) if other is not None else (np.array([]), np.array([]))
        all_x, all_y = np.r_[np.asarray(x, dtype=float), ox], np.r_[np.asarray(y, dtype=float), oy]
        self.set_curve(CURVE, x, y, width=0, symbol="o", symbol_size=9, color=BASE_COLOR)
        self.set_curve(COMPANION, ox, oy, width=0, symbol="s", symbol_size=8, color=COMPANION_COLOR)
        self.links.setData(np.ravel(np.c_[x, ox]) if other is not None else [],
                           np.ravel(np.c_[y, oy]) if other is not None else [])
        top = 1.05 if y_key == "share" else max(1.0, float(np.nanmax(all_y, initial=1.0)) * 1.08)
        self.plot.setYRange(0, top)
        lo, hi = float(np.nanmin(all_x, initial=0.0)), float(np.nanmax(all_x, initial=1.0))
        span_x = (hi - lo) or 1.0
        self.plot.setXRange(lo - 0.04 * span_x, hi + 0.15 * span_x, padding=0)  # room for the labels
        self.points = (all_x, all_y, list(names) * (2 if other is not None else 1), y_key)
        self.companion_points = None if other is None else (ox, oy)
        self._label(CURVE, np.asarray(x, dtype=float), np.asarray(y, dtype=float), names, span_x, top, "#333333")
        self._label(COMPANION, ox[:0], oy[:0], [], span_x, top, COMPANION_COLOR)  # one label per language:
        # the blue point's; the line joins it to its orange one (two labels per language overlap)
        if math.isfinite(chance):
            line = self.set_marker("chance", chance, angle=0, label=f"chance {chance:.2f}" if y_key == "share"
                                   else f"chance {chance:.1f}")
            line.label.setPosition(0.12)

    def readout_at(self, x: float, y: float) -> str:
        """The language nearest the pointer (distance in shares of the axes' spans)."""
        if self.points is None or not len(self.points[0]):
            return ""
        xs, ys, names, y_key = self.points
        (x0, x1), (y0, y1) = self.plot.viewRange()
        d = ((xs - x) / ((x1 - x0) or 1)) ** 2 + ((ys - y) / ((y1 - y0) or 1)) ** 2
        i = int(np.argmin(d))
        what = "share in the top k" if y_key == "share" else "mean rank"
        model = " (second model)" if self.companion_points is not None and i >= len(xs) // 2 else ""
        return f"{names[i]}{model}: {self.x_label.split(' (')[0]} {xs[i]:.4g}, {what} {ys[i]:.4g}"


class CrossLingualView(QWidget):
    """Plots and table of the cross-lingual rows; ``k_spin`` sets the k they are measured at."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.k_spin = QSpinBox()
        self.k_spin.setRange(*RetrievalState.bounds("cross_k"))
        self.k_spin.setToolTip("A translation counts when it ranks within the top k of its English paragraph")
        self.y_box = QComboBox()
        for key, name in Y_NAMES.items():
            self.y_box.addItem(name, key)
        self.y_box.setToolTip("What the plots show on the vertical axis")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.by_fertility = LabelledScatter("Translation found vs fertility", "retrieval_crosslingual_fertility",
                                            "fertility (tokens per word; per character without spaces)")
        self.by_unknown = LabelledScatter("Translation found vs [UNK] share", "retrieval_crosslingual_unknown",
                                          "share of tokens that are [UNK]")
        self.model = RowsModel(HEADER, formatted=True)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.csv_button = CsvButton(self.model, "retrieval_crosslingual")
        top = QHBoxLayout()
        top.addWidget(QLabel("top k"))
        top.addWidget(self.k_spin)
        top.addWidget(QLabel("plot"))
        top.addWidget(self.y_box)
        top.addWidget(self.summary, 1)
        top.addWidget(self.csv_button)
        plots = QSplitter(Qt.Orientation.Horizontal)
        plots.addWidget(self.by_fertility)
        plots.addWidget(self.by_unknown)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(plots)
        split.addWidget(self.table)
        split.setSizes([420, 240])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.set_placeholder("Embedding the corpus…")

    def set_placeholder(self, text: str) -> None:
        """Stand-in text for both plots until the table is computed."""
        for plot in (self.by_fertility, self.by_unknown):
            plot.set_placeholder(text)

    def render(self, rows: tuple[CrossLingualRow, ...], k: int, y_key: str = "share", *,
               model: str = "", companion: Companion | None = None) -> None:
        """Show ``rows`` measured at ``k`` (from the stored ranks: no scoring again); the plots'
        vertical axis is the top-k share or the mean rank (``y_key``). ``model`` names the
        pane's encoder; ``companion`` the second one, whose points, columns and summary
        appear once its figures are in the rows."""
        measured = [(r, r.recall.at(k)) for r in rows if r.recall is not None]
        if not measured:
            self.set_placeholder(f"No language could be paired with {language_name(REFERENCE)} "
                                 "(the corpus needs eng.txt and a translation).")
            self.model.set_rows([])
            return
        self.set_placeholder("")
        both = companion is not None and all(r.compared is not None for r, _ in measured)
        pick = (lambda m: m.hit_share) if y_key == "share" else (lambda m: m.mean_rank)
        y = np.array([pick(m) for _, m in measured])
        names = [r.code for r, _ in measured]
        m_mean = float(np.mean([r.alignment.corpus_lines.size for r, _ in measured]))
        chance = min(1.0, k / m_mean) if y_key == "share" else (m_mean + 1) / 2
        pairs = [r.compared.at(k) for r, _ in measured] if both else []
        for plot, metric in ((self.by_fertility, "fertility"), (self.by_unknown, "unknown_rate")):
            xs = np.array([getattr(r.metrics, metric) for r, _ in measured])
            other = None if not both else (
                np.array([getattr(r.companion_metrics, metric) for r, _ in measured]),
                np.array([pick(c.other) for c in pairs]))
            plot.show_points(xs, y, names, chance, y_key, other)
        header = HEADER if not both else (HEADER[:5] + ("top-k share ●", "chance", "mean rank ●", "fertility ●",
                                                        "[UNK] share ●") + COMPANION_HEADER + HEADER[10:])
        tips = [t.replace("●", f"({model})").replace("■", f"({companion.label})") for t in header] if both else []
        self.model.set_rows([self._row(r, k, both) for r in rows], header=header, header_tips=tips)
        self.table.resizeColumnsToContents()
        left_out = [r.code for r in rows if r.recall is None]
        high = " k is large for so few paragraphs: lower it." if k / m_mean > 0.25 else ""
        self.summary.setText(
            f"{len(measured)} languages paired with English; a random ranking finds a translation in the "
            f"top {k} with probability k / m ≈ {min(1.0, k / m_mean):.2f} (m ≈ {m_mean:.0f} searched "
            f"paragraphs), mean rank ≈ {(m_mean + 1) / 2:.0f}.{high}"
            + (f" Not paired: {', '.join(left_out)}." if left_out else "")
            + self._companion_text(model, companion, measured, pairs, k))

    @staticmethod
    def _companion_text(model: str, companion: Companion | None, measured, pairs, k: int) -> str:
        if companion is None:
            return ""
        kind = "multilingual" if companion.multilingual else "English-only"
        if companion.status == "pending":
            return f" Embedding the corpus with {companion.label} ({kind}) to compare…"
        if companion.status != "done":
            return f" {companion.label} {companion.status}"
        fert = [r.metrics.fertility for r, _ in measured]
        fert_b = [r.companion_metrics.fertility for r, _ in measured]
        rho_a = rank_correlation(fert, [r.recall.at(k).hit_share for r, _ in measured])
        rho_b = rank_correlation(fert_b, [c.other.hit_share for c in pairs])
        better = sum(c.share_gain > 0 for c in pairs)
        gain = float(np.mean([c.share_gain for c in pairs]))
        return (f"<br><span style='color:{BASE_COLOR}'>●</span> {model} against "
                f"<span style='color:{COMPANION_COLOR}'>■</span> {companion.label} ({kind}, "
                f"{companion.source}) on the same pairs: the second finds more translations in {better} of "
                f"{len(pairs)} languages, mean change of the top-{k} share {gain:+.2f}. Spearman ρ of "
                f"fertility and top-{k} share: {_rho(rho_a)} / {_rho(rho_b)}.")

    @staticmethod
    def _row(r: CrossLingualRow, k: int, both: bool = False) -> tuple:
        m = r.recall.at(k) if r.recall is not None else None
        row = (r.code, language_name(r.code), r.alignment.method, len(r.alignment),
               int(r.alignment.corpus_lines.size), m.hit_share if m else math.nan,
               min(1.0, k / r.alignment.corpus_lines.size) if r.alignment.corpus_lines.size else math.nan,
               m.mean_rank if m else math.nan, r.metrics.fertility, r.metrics.unknown_rate)
        if both:
            c = r.compared.at(k) if r.compared is not None else None
            cm = r.companion_metrics
            row += ((c.other.hit_share, c.other.mean_rank, cm.fertility, cm.unknown_rate,
                     f"{c.improved} / {c.worsened}") if c is not None and cm is not None
                    else (math.nan,) * 4 + ("",))
        return row + (r.alignment.note,)


COMPANION_HEADER = ("top-k share ■", "mean rank ■", "fertility ■", "[UNK] share ■", "pairs ranked better / worse ■")
"""The companion encoder's columns (■, its marker in the plots; ● is the pane's encoder)."""


def _rho(value: float) -> str:
    return "n/a" if not math.isfinite(value) else f"{value:+.2f}"
