"""The Positions pane's plot views (sinusoidal table, RoPE scores, context extension, ALiBi)
and :data:`VIEW_CLASSES`, the tabs in order (see :mod:`app.panes.positions.view_base`).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.panes.positions.cost_views import BlockAnatomyView, EmbeddingCostView
from app.panes.positions.view_base import PositionsView, splitter
from app.widgets.plot_heatmap import SEQUENTIAL, HeatmapPlot
from app.widgets.plot_lines import LinePlot
from core.positional.learned import positions_without_row
from core.positional import (
    alibi_bias,
    alibi_slopes,
    extension_schemes,
    offset_dot_formula,
    offset_dot_products,
    pair_frequencies,
    rope_scores,
    score_vs_distance,
    sinusoidal,
)

MAX_TABLE_CELLS = 2**24  # sinusoidal table shown in full up to this many cells
MAX_MATRIX_T = 2048  # (T, T) matrices are shown for the first 2048 positions at most
MAX_CURVE_POINTS = 4096
MAX_FORMULA_POINTS = 256  # offsets at which the closed form is drawn over the measured curve
SCHEME_COLORS = {"original": "#222222", "pi": "#1f77b4", "ntk": "#d62728", "yarn": "#2ca02c"}


class SinusoidalView(PositionsView):
    key, title = "sinusoidal", "Sinusoidal"
    caption = ("PE[t, 2i] = sin(t·θᵢ), PE[t, 2i+1] = cos(t·θᵢ), θᵢ = base^(−2i/d). Drag the dashed line "
               "(the position cursor); the dot product of its row with later rows depends only on the offset.")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.heatmap = HeatmapPlot("Sinusoidal table PE [T × d]", "sinusoidal_table", x_label="dimension",
                                   y_label="position t", value_label="PE",
                                   integer_axes=("left", "bottom"))
        self.dots = LinePlot("Row dot product vs offset", "sinusoidal_dot_products", x_label="offset k",
                             y_label="PE[t]·PE[t+k]", integer_axes=("bottom",))
        self.cursor_line = self._add_cursor_line(self.heatmap, "Position cursor: drag to choose the reference row t")
        self.pair_lines = [self.heatmap.plot.addLine(x=0, pen={"color": "#00aa00", "width": 1}) for _ in range(2)]
        self.layout_.addWidget(splitter(Qt.Orientation.Vertical, self.heatmap, self.dots, sizes=[600, 300]), 1)

    def plots(self):
        return [self.heatmap, self.dots]

    @staticmethod
    def compute(state) -> dict:
        rows = max(1, min(state.T, MAX_TABLE_CELLS // state.d))
        pe = sinusoidal(rows, state.d, state.base, dtype=np.float32)
        start = min(state.cursor, rows - 1)
        dots = offset_dot_products(pe, start)
        k = np.arange(len(dots))
        k_formula = np.unique(np.linspace(0, len(dots) - 1, min(len(dots), MAX_FORMULA_POINTS)).round().astype(np.int64))
        return {"pe": pe, "start": start, "k": k, "dots": dots, "k_formula": k_formula,
                "formula": offset_dot_formula(k_formula, state.d, state.base), "rows": rows, "T": state.T,
                "pair": state.pair}

    def render(self, data):
        self.heatmap.set_image(data["pe"], levels=(-1.0, 1.0), finite=True)
        shown = data["rows"] < data["T"]
        self.heatmap.set_note(f"Showing the first {data['rows']} of {data['T']} positions." if shown else "")
        self.cursor_line.setValue(data["start"] + 0.5)
        for line, col in zip(self.pair_lines, (2 * data["pair"], 2 * data["pair"] + 2)):
            line.setValue(col)
        self.dots.set_title(f"Row dot product vs offset (row t = {data['start']})")
        self.dots.set_curve("PE[t]·PE[t+k]", data["k"], data["dots"], color="#1f77b4")
        self.dots.set_curve("Σᵢ cos(k·θᵢ)", data["k_formula"], data["formula"], color="#ff7f0e", width=0, symbol="o",
                            symbol_size=4)


class RopeView(PositionsView):
    key, title = "rope", "RoPE scores"
    caption = ("One query q and one key k (normal, seeded) placed at every pair of positions (m, n) and rotated by "
               "RoPE: the score q_m·k_n is constant along each diagonal, it depends only on n − m.")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.heatmap = HeatmapPlot("RoPE score rope(q, m)·rope(k, n)", "rope_scores", x_label="key position n",
                                   y_label="query position m", value_label="score (float64)",
                                   integer_axes=("left", "bottom"))
        self.cursor_line = self._add_cursor_line(self.heatmap, "Position cursor: the query row m drawn below")
        self.curve = LinePlot("Score vs relative distance n − m", "rope_score_vs_distance", x_label="n − m",
                              y_label="score", integer_axes=("bottom",))
        self.layout_.addWidget(splitter(Qt.Orientation.Vertical, self.heatmap, self.curve, sizes=[600, 300]), 1)

    def plots(self):
        return [self.heatmap, self.curve]

    @staticmethod
    def compute(state) -> dict:
        rng = np.random.default_rng(state.seed)
        q, k = rng.normal(size=state.d), rng.normal(size=state.d)
        rows = min(state.T, MAX_MATRIX_T)
        # float64 (2048² × 8 bytes = 32 MiB at most): the hover shows equal offsets as equal scores
        scores = rope_scores(q, k, np.arange(rows), state.base, pairing=state.pairing, dtype=np.float64)
        lim = float(np.abs(scores).max()) or 1.0
        dist = np.arange(-(state.T - 1), state.T)
        theta = pair_frequencies(state.d, state.base)
        ones = np.ones(state.d)
        m = min(state.cursor, rows - 1)
        return {"scores": scores, "levels": (-lim, lim), "rows": rows, "T": state.T, "m": m, "dist": dist,
                "random": score_vs_distance(q, k, dist, theta, pairing=state.pairing),
                "ones": score_vs_distance(ones, ones, dist, theta, pairing=state.pairing),
                "row_x": np.arange(rows) - m, "row": scores[m]}

    def render(self, data):
        self.heatmap.set_image(data["scores"], levels=data["levels"], finite=True)
        shown = data["rows"] < data["T"]
        self.heatmap.set_note(f"Matrix shows the first {data['rows']} of {data['T']} positions." if shown else "")
        self.cursor_line.setValue(data["m"] + 0.5)
        self.curve.set_curve("q·k, formula", data["dist"], data["random"], color="#1f77b4")
        self.curve.set_curve("heatmap row m", data["row_x"], data["row"], color="#ff00ff", width=1, style=Qt.PenStyle.DashLine)
        self.curve.set_curve("q = k = 1 (long-range decay)", data["dist"], data["ones"], color="#999999", width=1)


class ExtensionView(PositionsView):
    key, title = "extension", "Context extension"
    caption = ("Stretching a RoPE model trained on L positions to s·L: position interpolation (θ/s), NTK-aware "
               "base·s^(d/(d−2)), YaRN per-band ramp (α=1, β=32) with logit factor (0.1·ln s + 1)².")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.wavelengths = LinePlot("Wavelength per pair", "extension_wavelengths", x_label="pair i",
                                    y_label="wavelength (positions)", log_y=True, legend_below=4,
                                    integer_axes=("bottom",))
        self.angles = LinePlot("Rotation angle at position s·L", "extension_angles", x_label="pair i",
                               y_label="angle (rad)", log_y=True, legend_below=3,
                               integer_axes=("bottom",))
        self.scores = LinePlot("Score vs distance, q = k = 1", "extension_score_vs_distance", x_label="distance n − m",
                               y_label="score", legend_below=4, integer_axes=("bottom",))
        bottom = splitter(Qt.Orientation.Horizontal, self.angles, self.scores)
        self.learned_note = QLabel()
        self.learned_note.setWordWrap(True)
        self.learned_note.setToolTip("A learned position table has one trained row per position up to L")
        self.layout_.addWidget(self.learned_note)
        self.layout_.addWidget(splitter(Qt.Orientation.Vertical, self.wavelengths, bottom, sizes=[450, 400]), 1)

    def plots(self):
        return [self.wavelengths, self.angles, self.scores]

    @staticmethod
    def compute(state) -> dict:
        schemes = extension_schemes(state.d, state.base, state.s, state.L)
        target = int(round(state.s * state.L))
        dist = np.unique(np.linspace(0, target, min(target + 1, MAX_CURVE_POINTS)).round().astype(np.int64))
        ones = np.ones(state.d)
        return {"schemes": schemes, "pairs": np.arange(state.d // 2), "target": target, "L": state.L, "dist": dist,
                "no_row": positions_without_row(state.L, target),
                "trained_max": state.L * schemes[0].theta, "pair": state.pair,
                "scores": {s.name: s.score_vs_distance(ones, ones, dist, pairing=state.pairing) for s in schemes}}

    def render(self, data):
        pairs = data["pairs"]
        for sch in data["schemes"]:
            color = SCHEME_COLORS[sch.name]
            self.wavelengths.set_curve(sch.label, pairs, sch.wavelengths, color=color)
            self.angles.set_curve(sch.label, pairs, sch.angles_at(data["target"]), color=color)
            self.scores.set_curve(sch.label, data["dist"], data["scores"][sch.name], color=color, width=1)
        self.angles.set_curve("largest angle in training (L·θᵢ)", pairs, data["trained_max"], color="#ff7f0e",
                              width=2, style=Qt.PenStyle.DashLine)
        self.angles.set_title(f"Rotation angle at position s·L = {data['target']}")
        self.wavelengths.set_marker("L", data["L"], angle=0, color="#ff7f0e", label=f"training length L = {data['L']}")
        self.wavelengths.set_marker("sL", data["target"], angle=0, color="#9467bd", label=f"target s·L = {data['target']}")
        self.wavelengths.set_marker("pair", data["pair"], color="#ff00ff", label=f"pair {data['pair']}")
        self.scores.set_marker("L", data["L"], color="#ff7f0e", label="L")
        missing = data["no_row"]
        self.learned_note.setText(
            f"Learned absolute positions trained at L = {data['L']:,} have rows 0 … {data['L'] - 1:,} only: at "
            f"s·L = {data['target']:,}, {missing:,} positions ({100 * missing / data['target']:.0f} %) have no "
            f"embedding at all. RoPE, sinusoidal and ALiBi define every position." if missing else
            f"Learned absolute positions trained at L = {data['L']:,} cover all {data['target']:,} positions.")


class AlibiView(PositionsView):
    key, title = "alibi", "ALiBi"
    caption = ("No position vectors: head h adds −m_h·(i − j) to the score of query i and key j; slopes "
               "m_h = 2^(−8h/H) (H not a power of two: the slopes of the next lower power n, then every other slope of 2n).")

    def __init__(self, parent=None):
        super().__init__(parent)
        self.heatmap = HeatmapPlot("ALiBi bias of one head", "alibi_bias", x_label="key j", y_label="query i",
                                   value_label="bias", integer_axes=("left", "bottom"))
        self.slopes = LinePlot("Slopes per head", "alibi_slopes", x_label="head h (1-based)", y_label="slope m_h",
                               log_y=True, integer_axes=("bottom",))
        self.layout_.addWidget(splitter(Qt.Orientation.Horizontal, self.heatmap, self.slopes, sizes=[650, 350]), 1)

    def plots(self):
        return [self.heatmap, self.slopes]

    @staticmethod
    def compute(state) -> dict:
        rows = min(state.T, MAX_MATRIX_T)
        head = min(state.head, state.H - 1)
        return {"bias": alibi_bias(rows, state.H, causal=state.causal, head=head), "slopes": alibi_slopes(state.H),
                "head": head, "rows": rows, "T": state.T, "causal": state.causal}

    def render(self, data):
        self.heatmap.set_image(data["bias"], colormap=SEQUENTIAL)
        kind = "causal, −inf above the diagonal (blank)" if data["causal"] else "symmetric |i − j|"
        self.heatmap.set_title(f"ALiBi bias of head {data['head'] + 1} (m = {data['slopes'][data['head']]:.6g}; {kind})")
        shown = data["rows"] < data["T"]
        self.heatmap.set_note(f"Matrix shows the first {data['rows']} of {data['T']} positions." if shown else "")
        h = np.arange(1, len(data["slopes"]) + 1)
        self.slopes.set_curve("m_h", h, data["slopes"], color="#1f77b4", symbol="o", width=1)
        self.slopes.set_curve("selected head", h[[data["head"]]], data["slopes"][[data["head"]]], color="#d62728",
                              symbol="o", width=0)
        self.slopes.set_marker("head", data["head"] + 1, color="#d62728")


VIEW_CLASSES = (SinusoidalView, RopeView, ExtensionView, AlibiView, EmbeddingCostView, BlockAnatomyView)
