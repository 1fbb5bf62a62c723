"""The Positions pane's cost views: what a learned table costs (embedding cost) and where the
parameters of one transformer block are (block anatomy). Both hold local inputs (controls
made by the pane) besides the shared ones.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.panes.positions.families import CHOICE_COLUMNS, CHOICE_NOTE, CHOICE_ROWS
from app.panes.positions.view_base import PositionsView, splitter
from app.widgets.plot_lines import LinePlot
from core.encoder.block_anatomy import block_anatomy
from core.encoder.block_experiments import FAMILIES, causal_experiment, family_masks, residual_norms

MAX_EXPERIMENT_T = 64  # the causal-mask experiment runs on the first positions only
FAMILY_MASK_T = 4  # tokens in the families' mask patterns
from core.metrics.token_cost import fertility_cost, output_layer_cost
from core.positional import embedding_cost


class EmbeddingCostView(PositionsView):
    key, title = "embedding", "Embedding cost"
    caption = ("A learned table (token embeddings, or learned absolute positions) has V·d parameters; an untied "
               "output head doubles it. Compared with the 12·L·d² parameters of L transformer blocks. The output "
               "layer scores all V rows for every token; fewer tokens per word shorten every sequence.")

    def __init__(self, controls: dict, parent=None):
        super().__init__(parent)
        form = QFormLayout()
        for name, label in (("emb_V", "Rows V"), ("emb_d", "Width d"), ("emb_dtype", "Data type"),
                            ("emb_tied", ""), ("emb_layers", "Layers L")):
            form.addRow(label, controls[name])
        self.result = QLabel()
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top = QHBoxLayout()
        top.addLayout(form)
        top.addWidget(self.result, 1)
        self.layout_.addLayout(top)
        fert = QHBoxLayout()
        fert.addWidget(QLabel("Tokens per word"))
        fert.addWidget(controls["emb_fert_a"])
        fert.addWidget(QLabel("→"))
        fert.addWidget(controls["emb_fert_b"])
        self.fertility = QLabel()
        self.fertility.setWordWrap(True)
        self.fertility.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        fert.addWidget(self.fertility, 1)
        self.layout_.addLayout(fert)
        self.share = LinePlot("Embedding share of all parameters vs V", "embedding_share", x_label="rows V",
                              y_label="table / (table + blocks) (%)", log_x=True, legend_offset=(60, 10))
        self.share.plot.getAxis("bottom").setTicks([[(3, "1k"), (4, "10k"), (5, "100k"), (6, "1M")], []])
        self.layout_.addWidget(self.share, 1)

    def plots(self):
        return [self.share]

    @staticmethod
    def compute(state) -> dict:
        cost = embedding_cost(state.emb_V, state.emb_d, state.emb_dtype, tied=state.emb_tied, layers=state.emb_layers)
        vs = np.unique(np.geomspace(1000, 1_000_000, 61).round().astype(np.int64))
        shares = np.array([embedding_cost(int(v), state.emb_d, state.emb_dtype, tied=state.emb_tied,
                                          layers=state.emb_layers).fraction_of_total for v in vs]) * 100
        return {"cost": cost, "vs": vs, "shares": shares, "output": output_layer_cost(state.emb_V, state.emb_d),
                "fertility": fertility_cost(state.emb_fert_a, state.emb_fert_b),
                "fert": (state.emb_fert_a, state.emb_fert_b)}

    def render(self, data):
        c = data["cost"]
        self.result.setText(
            f"<table cellpadding=3>"
            f"<tr><td>Parameters</td><td align=right><b>{c.parameters:,}</b> ({c.parameters / 1e6:.0f} M)</td></tr>"
            f"<tr><td>Memory ({c.dtype})</td><td align=right><b>{c.gib:.3f} GiB</b> ({c.bytes:,} bytes)</td></tr>"
            f"<tr><td>Blocks 12·L·d²</td><td align=right>{c.block_parameters:,} ({c.block_parameters / 1e9:.2f} B)</td></tr>"
            f"<tr><td>Table / blocks</td><td align=right>{100 * c.fraction_of_blocks:.2f} %</td></tr>"
            f"<tr><td>Table / (table + blocks)</td><td align=right>{100 * c.fraction_of_total:.2f} %</td></tr>"
            f"<tr><td>Output layer 2·V·d</td><td align=right>{data['output'].flops_per_token:,} FLOPs per token "
            f"({data['output'].flops_per_token / 1e6:,.1f} M; V·d multiply-adds)</td></tr></table>")
        f, (a, b) = data["fertility"], data["fert"]
        self.fertility.setText(
            f"{a:.2f} → {b:.2f} tokens per word: every sequence ×{f.length_ratio:.2f} "
            f"({_change(f.length_ratio)}), attention scores (T²) ×{f.attention_ratio:.2f} "
            f"({_change(f.attention_ratio)}); the output layer's cost per word follows the length.")
        self.share.set_curve("share", data["vs"], data["shares"], color="#1f77b4")
        self.share.set_curve("current V", [c.V], [100 * c.fraction_of_total], color="#d62728", symbol="o", width=0)


class BlockAnatomyView(PositionsView):
    key, title = "anatomy", "Block anatomy"
    caption = ("One pre-norm block, x + Attn(LN(x)) then x + FFN(LN(x)), causal mask; T, d and H come from the "
               "shared controls. Shapes of every intermediate and where the parameters are. Post-norm (2017) "
               "normalizes after each residual add instead: LN(x + Attn(x)). RoPE, when used, rotates q and k "
               "after the projection, before the scores; v is never rotated.")

    def __init__(self, controls: dict, parent=None):
        super().__init__(parent)
        form = QHBoxLayout()
        for name, label in (("block_B", "Batch B"), ("block_d_ff", "FFN width d_ff")):
            form.addWidget(QLabel(label))
            form.addWidget(controls[name])
        form.addStretch(1)
        self.totals = QLabel()
        self.layout_.addLayout(form)
        self.shapes_model = QStandardItemModel(0, 4, self)
        self.shapes_model.setHorizontalHeaderLabels(["intermediate", "shape", "elements", "how it is made"])
        self.params_model = QStandardItemModel(0, 4, self)
        self.params_model.setHorizontalHeaderLabels(["weights", "part", "shapes", "parameters"])
        views = []
        for model in (self.shapes_model, self.params_model):
            view = QTableView()
            view.setModel(model)
            view.verticalHeader().hide()
            view.horizontalHeader().setStretchLastSection(True)
            view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
            views.append(view)
        self.shapes_view, self.params_view = views
        experiments = self._build_experiments(controls)
        self.layout_.addWidget(splitter(Qt.Orientation.Vertical, *views, experiments, sizes=[400, 200, 300]), 1)
        self.layout_.addWidget(self.totals)

    def _build_experiments(self, controls: dict) -> QTabWidget:
        """The causal-mask experiment, pre- vs post-norm, the model families and choosing one,
        as tabs."""
        self.edit_model = QStandardItemModel(0, 3, self)
        self.edit_model.setHorizontalHeaderLabels(["position", "largest |Δ output|", "after the edit"])
        self.norms_model = QStandardItemModel(0, 3, self)
        self.norms_model.setHorizontalHeaderLabels(["after block", "pre-norm mean ‖x‖", "post-norm mean ‖x‖"])
        self.families_model = QStandardItemModel(0, 5, self)
        self.families_model.setHorizontalHeaderLabels(
            ["family", "attention", f"mask ({FAMILY_MASK_T} tokens, ■ = may attend)", "trained to", "examples"])
        self.edit_note = QLabel()
        self.edit_note.setWordWrap(True)
        row = QHBoxLayout()
        for name, label in (("block_causal", ""), ("block_edit", "Edit token t")):
            if label:
                row.addWidget(QLabel(label))
            row.addWidget(controls[name])
        row.addStretch(1)
        edit_page = QWidget()
        lay = QVBoxLayout(edit_page)
        lay.addLayout(row)
        lay.addWidget(self.edit_note)
        lay.addWidget(_table(self.edit_model), 1)
        norms_row = QHBoxLayout()
        norms_row.addWidget(QLabel("Blocks stacked"))
        norms_row.addWidget(controls["block_layers"])
        norms_row.addStretch(1)
        norms_page = QWidget()
        lay = QVBoxLayout(norms_page)
        lay.addLayout(norms_row)
        note = QLabel("Random blocks stacked on the same input: post-norm ends every block with LayerNorm "
                      "(each row's norm ≈ √d); pre-norm keeps an unnormalized path through the residual "
                      "adds, so the stream grows with depth (pre-norm models add a final LayerNorm).")
        note.setWordWrap(True)
        lay.addWidget(note)
        lay.addWidget(_table(self.norms_model), 1)
        self.experiment_tabs = QTabWidget()
        self.experiment_tabs.addTab(edit_page, "Causal mask: edit one token")
        self.experiment_tabs.addTab(norms_page, "Pre-norm vs post-norm")
        self.choice_model = QStandardItemModel(0, len(CHOICE_COLUMNS), self)
        self.choice_model.setHorizontalHeaderLabels(list(CHOICE_COLUMNS))
        self._fill(self.choice_model, [list(r) for r in CHOICE_ROWS])
        self.choice_view = _table(self.choice_model)
        self.choice_view.setToolTip(CHOICE_NOTE)
        self.choice_view.setWordWrap(True)
        header = self.choice_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)  # cells wrap to the width shown
        header.sectionResized.connect(lambda *_: self.choice_view.resizeRowsToContents())
        self.experiment_tabs.addTab(_table(self.families_model), "Model families")
        self.experiment_tabs.addTab(self.choice_view, "Choosing a family")
        return self.experiment_tabs

    @staticmethod
    def compute(state) -> dict:
        anatomy = block_anatomy(state.block_B, state.T, state.d, state.H, state.block_d_ff)
        T = min(state.T, MAX_EXPERIMENT_T)
        edit = min(state.block_edit, T - 1)
        moved = causal_experiment(T, state.d, state.H, state.block_d_ff, edit, causal=state.block_causal)
        norms = {n: residual_norms(state.block_layers, T, state.d, state.H, state.block_d_ff, norm=n)
                 for n in ("pre", "post")}
        return {"anatomy": anatomy, "moved": moved, "edit": edit, "T": state.T, "causal": state.block_causal,
                "norms": norms, "masks": family_masks(FAMILY_MASK_T)}

    @staticmethod
    def _fill(model: QStandardItemModel, rows: list[list[str]]) -> None:
        model.setRowCount(0)
        for row in rows:
            items = [QStandardItem(str(v)) for v in row]
            for it in items:
                it.setEditable(False)
            model.appendRow(items)

    def render(self, data):
        a = data["anatomy"]
        self._fill(self.shapes_model, [[i.name, str(i.shape), f"{int(np.prod(i.shape)):,}", i.formula]
                                       for i in a.intermediates])
        self._fill(self.params_model, [[g.name, g.part, " + ".join(str(s) for s in g.shapes), f"{g.count:,}"]
                                       for g in a.parameters])
        for view in (self.shapes_view, self.params_view):
            view.resizeColumnsToContents()
        self._render_experiments(data)
        self.totals.setText(f"<b>{a.total:,}</b> parameters: attention {a.attention:,} "
                            f"({100 * a.attention / a.total:.0f} %), FFN {a.ffn:,} ({100 * a.ffn_fraction:.0f} %), "
                            f"layer norms {a.part_total('norm'):,}")

    def _render_experiments(self, data: dict) -> None:
        moved, t = data["moved"], data["edit"]
        self._fill(self.edit_model, [[str(p), f"{m:.3g}", "bit-identical" if m == 0.0 else "changed"]
                                     for p, m in enumerate(moved)])
        same = int(np.sum(moved == 0.0))
        cut = f" (the first {len(moved)} of {data['T']} positions)" if len(moved) < data["T"] else ""
        self.edit_note.setText(
            f"Token {t} replaced{cut}: {same} position(s) bit-identical, {len(moved) - same} changed. "
            + ("Under the causal mask no position sees a later token, so one forward pass yields "
               f"{len(moved)} next-token predictions at once, one training example per position."
               if data["causal"] else "Without the mask every position sees the edited token."))
        pre, post = data["norms"]["pre"], data["norms"]["post"]
        self._fill(self.norms_model, [["input" if i == 0 else str(i), f"{a:.4f}", f"{b:.4f}"]
                                      for i, (a, b) in enumerate(zip(pre, post))])
        self._fill(self.families_model, [
            [f.name, f.attention, "  |  ".join(f"{label}: " + " ".join(
                "".join("■" if v else "□" for v in row) for row in mask) for label, mask in data["masks"][f.name]),
             f.objective, f.examples] for f in FAMILIES])
        for view in self.findChildren(QTableView):
            if view is not self.choice_view:
                view.resizeColumnsToContents()


def _change(ratio: float) -> str:
    """``0.70`` → ``"30 % fewer"``, ``2.0`` → ``"100 % more"``."""
    pct = round(abs(1 - ratio) * 100)
    return "unchanged" if pct == 0 else f"{pct} % {'fewer' if ratio < 1 else 'more'}"


def _table(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.verticalHeader().hide()
    view.horizontalHeader().setStretchLastSection(True)
    view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    return view
