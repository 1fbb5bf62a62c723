"""The pooling pane's tabs: tokens, similarity, padding, length sweep, chunking (the worked
examples tab is in :mod:`app.panes.pooling.figures_view`).

Each view owns its plots (built once, updated with ``setImage`` / ``setData``) and renders
from a :class:`~app.panes.pooling.state.PoolingResult`; none computes anything ``core`` does.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from app.panes.pooling.figures_view import SweepTable
from app.panes.pooling.state import METHOD_NAMES, STANDIN_LABEL, PoolingResult, window_cover, window_image
from app.widgets.plot_heatmap import SEQUENTIAL, HeatmapPlot
from app.widgets.plot_lines import LinePlot
from app.widgets.span_text_view import SpanTextView
from app.widgets.text_format import plural
from core.pooling import METHODS
from core.pooling.compare import PaddingDemo

METHOD_COLOURS = {"cls": "#9467bd", "mean": "#1f77b4", "max": "#d62728", "attention": "#2ca02c"}
CONDITION_COLOURS = {"sparse": "#1f77b4", "dense": "#2ca02c", "junk": "#d62728", "noise": "#7f7f7f"}


def _label(text: str = "") -> QLabel:
    lab = QLabel(text)
    lab.setWordWrap(True)
    lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab


def sentence_ticks(n: int, most: int = 12) -> list[list[tuple[int, str]]]:
    """Ticks for sentences 1..n: every one up to ``most``, else 1 and the multiples of the
    smallest 1-2-5 step that keeps at most ``most`` labels (no overlap with 64 sentences)."""
    step = next((s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500) if n / s <= most), 1000)
    shown = [1] + [k for k in range(step, n + 1, step) if k != 1]
    return [[(k, str(k)) for k in shown], [(k, "") for k in range(1, n + 1) if k not in shown]]


TOKEN_LABELS = 16
"""Token labels on a plot's axis at most (a plot about 700 px wide: ~45 px each)."""


def _token_ticks(plot, tokens) -> None:
    """Every ``step``-th token as a label (at most :data:`TOKEN_LABELS`, each cut to 8
    characters with ``…``), a bare tick for the others: 55 tokens no longer smear into one
    unreadable line."""
    step = -(-len(tokens) // TOKEN_LABELS) or 1
    shown = [(i, t if len(t) <= 8 else t[:7] + "…") for i, t in enumerate(tokens) if i % step == 0]
    plot.plot.getAxis("bottom").setTicks([shown, [(i, "") for i in range(len(tokens))
                                                  if i % step]])


class TokensView(QWidget):
    """One sentence: its text with token spans, a heat strip of the vectors, contributions."""

    sig_token_hovered = Signal(int)  # token index, -1 for none

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.text_view = SpanTextView()
        self.text_view.setMaximumHeight(70)
        self.text_view.setToolTip("The sentence with its tokens' original spans; hover a character "
                                  "to mark its token in the plots")
        self.strip = HeatmapPlot("Token vectors (last layer)", "pooling-token-vectors",
                                 x_label="token", y_label="dimension", value_label="value")
        self.contrib = LinePlot("Contribution of each token to the pooled vector", "pooling-contributions",
                                x_label="token", y_label="share")
        self.contrib.plot.setYRange(0, 1)
        self.summary = _label()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.strip)
        split.addWidget(self.contrib)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text_view)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        self._spans: list[tuple[int, int]] = []
        self._strip_line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#111111", width=1.5))
        self._strip_line.setVisible(False)
        self.strip.plot.addItem(self._strip_line, ignoreBounds=True)
        self.text_view.sig_hovered.connect(self._on_char_hovered)
        self.contrib.graphics.scene().sigMouseMoved.connect(self._on_plot_hovered)

    def render(self, result: PoolingResult, b: int, method: str) -> None:
        out = result.output
        b = min(max(b, 0), len(out.tokens) - 1)
        tokens, n = out.tokens[b], len(out.tokens[b])
        text = result.texts[b] if result.texts else out.texts[b]  # bounded: what the model read
        self._spans = [(min(s, len(text)), min(e, len(text))) for s, e in out.offsets[b]]
        self.text_view.set_content(text, [s if s[1] > s[0] else None for s in self._spans])
        H = np.asarray(out.last_hidden_state[b, :n], dtype=np.float64)
        self.strip.set_image(H.T, x0=-0.5, y0=-0.5, symmetric=True)
        _token_ticks(self.strip, tokens)
        x = np.arange(n)
        for m in METHODS:
            item = self.contrib.set_curve(METHOD_NAMES[m], x, result.comparison.contributions[m][b, :n],
                                          color=METHOD_COLOURS[m], symbol="o")
            item.setPen(METHOD_COLOURS[m], width=3.5 if m == method else 1)
            item.setSymbolSize(9 if m == method else 5)
        _token_ticks(self.contrib, tokens)
        cut = out.truncated[b] if out.truncated else 0
        note = f" First {n:,} tokens of {n + cut:,} — the model reads at most {n:,}." if cut else ""
        self.summary.setText(
            f"{plural(n, 'token')} (specials included). Mean: 1/{n} each; max: share of the {H.shape[1]} "
            f"dimensions each token wins; attention: softmax of h·w with w = the sentence's unit "
            f"mean vector; CLS: the first token only.{note}")

    def _on_char_hovered(self, cp: int) -> None:
        hit = next((i for i, (s, e) in enumerate(self._spans) if s <= cp < e), -1) if cp >= 0 else -1
        self.mark_token(hit)

    def _on_plot_hovered(self, scene_pos) -> None:
        vb = self.contrib.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return
        i = int(round(vb.mapSceneToView(scene_pos).x()))
        self.mark_token(i if 0 <= i < len(self._spans) else -1)

    def mark_token(self, i: int) -> None:
        """Mark token ``i`` in both plots and link its span in the text (-1 clears)."""
        self.contrib.set_marker("token", max(i, 0)).setVisible(i >= 0)
        self._strip_line.setValue(i)
        self._strip_line.setVisible(i >= 0)
        span = self._spans[i] if 0 <= i < len(self._spans) else (0, 0)
        self.text_view.set_linked([span], scroll=False)
        self.sig_token_hovered.emit(i)


class SimilarityView(QWidget):
    """Cosine similarity matrices of the pooled sentence vectors, one per method."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.plots: dict[str, HeatmapPlot] = {}
        for i, m in enumerate(METHODS):
            plot = HeatmapPlot(METHOD_NAMES[m], f"pooling-cosine-{m}", x_label="sentence",
                               y_label="sentence", value_label="cosine")
            self.plots[m] = plot
            grid.addWidget(plot, i // 2, i % 2)
        self.summary = _label()
        grid.addWidget(self.summary, 2, 0, 1, 2)

    def render(self, result: PoolingResult) -> None:
        B = len(result.output.texts)
        for m, plot in self.plots.items():
            C = result.comparison.cosine[m]
            plot.set_image(C, x0=0.5, y0=0.5, levels=(-1.0, 1.0))
            ticks = sentence_ticks(B)
            plot.plot.getAxis("bottom").setTicks(ticks)
            plot.plot.getAxis("left").setTicks(ticks)
        standin = result.model_label == STANDIN_LABEL
        self.plots["cls"].set_note("Stand-in: [CLS] is one fixed vector, so every pair scores 1 — "
                                   "CLS pooling needs a trained model." if standin else "")
        off = ~np.eye(B, dtype=bool)
        parts = [f"{METHOD_NAMES[m]} {result.comparison.cosine[m][off].mean():.3f}" for m in METHODS] if B > 1 else []
        self.summary.setText("Sentences are numbered by line. Mean off-diagonal cosine: " + "; ".join(parts)
                             if parts else "Enter two or more sentences (one per line) to compare them.")


class PaddingView(QWidget):
    """One sentence padded to a chosen length: masked vs unmasked mean and max."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.values = LinePlot("Pooled values per dimension (first 48)", "pooling-padding-values",
                               x_label="dimension", y_label="value")
        self.ratio = LinePlot("Unmasked / masked as the padding grows", "pooling-padding-ratio",
                              x_label="padded length L", y_label="ratio")
        self.summary = _label()
        self.controls = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.controls)
        layout.addWidget(self.summary)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.values)
        split.addWidget(self.ratio)
        layout.addWidget(split, 1)

    def render(self, demo: PaddingDemo) -> None:
        k = min(48, len(demo.masked_mean))
        x = np.arange(k)
        self.values.set_curve("masked mean", x, demo.masked_mean[:k], color=METHOD_COLOURS["mean"], width=3)
        self.values.set_curve("unmasked mean", x, demo.unmasked_mean[:k], color="#17becf", width=2)
        self.values.set_curve("masked max", x, demo.masked_max[:k], color=METHOD_COLOURS["max"], width=3)
        self.values.set_curve("unmasked max", x, demo.unmasked_max[:k], color="#ff7f0e", width=1)
        self.ratio.set_curve("‖unmasked mean‖ / ‖masked mean‖", demo.lengths, demo.norm_ratio,
                             color=METHOD_COLOURS["mean"])
        self.ratio.set_curve("share of dims where unmasked max ≠ masked", demo.lengths, demo.max_changed,
                             color="#ff7f0e")
        self.ratio.set_marker("L", demo.length, label=f"L = {demo.length}").label.setPosition(0.5)
        i = int(np.searchsorted(demo.lengths, demo.length))
        self.summary.setText(
            f"{demo.n} real tokens padded with zero rows to L = {demo.length}: the masked mean is "
            f"unchanged; the unmasked mean is n/L = {demo.shrink:.4f} of it. The masked max is "
            f"unchanged; the unmasked max differs in {100 * demo.max_changed[i]:.0f} % of "
            "dimensions (padding zeros beat columns whose real values are all negative).")


class SweepView(QWidget):
    """The synthetic stand-in's pooled signal against document length."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.controls = QHBoxLayout()
        self.note = _label(
            "Synthetic stand-in, drawn as in the course material: every token is 4 random normal "
            "numbers; an evidence token gets the strength added to dimension 0. Sparse = 3 evidence "
            "tokens at any length; dense = a quarter of the tokens; junk = no evidence, one token "
            "pushed up by 8; noise = nothing. Signal = the pooled value on dimension 0, averaged "
            "over 200 documents per length; attention scores tokens with w = (2, 0, 0, 0).")
        self.table = SweepTable()
        row = QHBoxLayout()
        self.plots = {m: LinePlot(f"{METHOD_NAMES[m]} pooling", f"pooling-sweep-{m}",
                                  x_label="document length (tokens)", y_label="signal", log_x=True,
                                  legend_below=4)
                      for m in ("mean", "max", "attention")}
        for p in self.plots.values():
            row.addWidget(p)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.controls)
        layout.addWidget(self.note)
        layout.addLayout(row, 1)
        layout.addWidget(self.table)

    def render(self, result: PoolingResult) -> None:
        sw = result.sweep
        if sw is None:  # still being computed; keep the previous curves
            return
        for m, plot in self.plots.items():
            for cond, curves in sw.signal.items():
                plot.set_curve(cond, sw.lengths, curves[m], color=CONDITION_COLOURS[cond], symbol="o")
        strength, seed = result.sweep_key
        self.table.render(sw, strength, seed)


class ChunkView(QWidget):
    """Windows over the document's tokens, their spans in the text, per-window scores."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.controls = QHBoxLayout()
        self.windows = HeatmapPlot("Windows on the token axis (colour = window score)", "pooling-windows",
                                   x_label="token", y_label="window", value_label="score")
        self.scores = LinePlot("Per-window scores and the document score", "pooling-chunk-scores",
                               x_label="window", y_label="score")
        self.scores.plot.setYRange(0, 1)
        self.scores.legend.hide()  # one curve; the markers carry their own labels
        self.text_view = SpanTextView()
        self.text_view.setToolTip("Each window's span in the text; characters in two windows "
                                  "(the overlap) are shaded purple")
        self.summary = _label()
        plots = QSplitter(Qt.Orientation.Vertical)  # stacked: the tab fits 1280 px in presentation mode
        plots.addWidget(self.windows)
        plots.addWidget(self.scores)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(plots)
        split.addWidget(self.text_view)
        split.setSizes([300, 150])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.controls)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)

    def render(self, result: PoolingResult) -> None:
        doc, sc = result.document, result.chunk_scores
        if doc is None or sc is None:
            self.summary.setText(f"<span style='color:#b91c1c'>Cannot chunk: {result.chunk_error}</span>")
            return
        n, k = len(doc.tokens), len(doc.windows)
        wi = result.window_image  # built (and binned to a bounded size) in the worker
        if wi is None:
            wi = window_image(doc.windows, sc.probabilities, n)
        self.windows.set_image(wi.image, x0=-0.5, y0=-0.5, dx=wi.dx, dy=wi.dy, levels=(0.0, 1.0),
                               colormap=SEQUENTIAL)
        step = max(1, k // 20)
        self.windows.plot.getAxis("left").setTicks([[(j, str(j)) for j in range(0, k, step)], []])
        self.scores.plot.getAxis("bottom").setTicks([[(j, str(j)) for j in range(0, k, step)], []])
        x = np.arange(k)
        self.scores.set_curve("window score", x, sc.probabilities, color="#1f77b4", symbol="o")
        agg = sc.aggregate
        marks = (("mean", agg.mean, "#1f77b4"), ("mean of logits", agg.mean_logit, "#17becf"),
                 ("max", agg.max, "#d62728"), ("noisy-OR", agg.noisy_or, "#2ca02c"))
        for j, (name, v, colour) in enumerate(marks):
            line = self.scores.set_marker(name, v, angle=0, color=colour, label=f"{name} {v:.3f}")
            line.label.setPosition(0.12 + 0.25 * j)
        cover = result.cover if result.cover is not None else window_cover(len(doc.text), doc.char_spans)
        self.text_view.set_content(doc.text, list(doc.char_spans), cover=cover)
        binned = (f" Each cell of the image is {wi.dx} token{'s' * (wi.dx > 1)} × {wi.dy} "
                  f"window{'s' * (wi.dy > 1)} (the highest score shown)." if wi.dx > 1 or wi.dy > 1 else "")
        self.summary.setText(
            f"{plural(n, 'token')} → {plural(k, 'window')}.{binned} Score = cosine of the window's mean vector "
            "with the query "
            f"(clipped to 0..1). Document: mean {agg.mean:.3f}, mean of logits {agg.mean_logit:.3f}, "
            f"max {agg.max:.3f}, noisy-OR {agg.noisy_or:.3f}.")
