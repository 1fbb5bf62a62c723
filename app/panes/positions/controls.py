"""The Positions pane's controls: the table of how each :class:`~app.panes.positions.state.PositionsState`
field is edited, and helpers that make, read and write a control whatever its type.

:data:`CONTROLS` are shared (the side panel); :data:`LOCAL_CONTROLS` sit inside the
embedding-cost and block-anatomy views.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QSpinBox, QWidget

from app.panes.positions.state import PositionsState
from core.positional import DTYPE_BYTES


def _range(name: str, step: float) -> tuple:
    """``(min, max, step)`` of a spin box: the range :class:`PositionsState` declares."""
    return (*PositionsState.bounds(name), step)


# (field, label, kind, (min, max, step) or items, tooltip, group)
CONTROLS = (
    ("T", "Length T", "int", _range("T", 1), "Sequence length in positions (tokens)", "Sequence"),
    ("d", "Width d", "int", _range("d", 2), "Model width of the sinusoidal table; head width for RoPE (even)", "Sequence"),
    ("cursor", "Cursor t", "int", _range("cursor", 1), "Position cursor: the reference row (drag the dashed line too)", "Sequence"),
    ("base", "Base", "float", _range("base", 1000.0), "Frequency base: θᵢ = base^(−2i/d) (10000 in the papers)", "Frequencies"),
    ("pair", "Pair i", "int", _range("pair", 1), "Selected dimension pair (dims 2i, 2i+1), marked on the plots", "Frequencies"),
    ("pairing", "RoPE pairs", "combo", (("(2i, 2i+1) interleaved", "interleaved"), ("(i, i+d/2) half split", "half")),
     "Which dimensions RoPE rotates together: RoFormer/GPT-J interleaved or GPT-NeoX/Llama half split", "Frequencies"),
    ("seed", "q, k seed", "int", _range("seed", 1), "Seed of the random query and key of the RoPE score heatmap", "Frequencies"),
    ("s", "Scale s", "float", _range("s", 0.5), "Context-extension factor: target length s·L", "Context extension"),
    ("L", "Training L", "int", _range("L", 256), "Training context length L in positions", "Context extension"),
    ("H", "Heads H", "int", _range("H", 1), "Number of attention heads (ALiBi slopes; block anatomy)", "Heads"),
    ("head", "Head", "int", _range("head", 1), "ALiBi head shown in the bias matrix (0-based)", "Heads"),
    ("causal", "Causal mask", "check", None, "Causal ALiBi (−inf above the diagonal) or symmetric −m·|i − j|", "Heads"),
)
LOCAL_CONTROLS = (
    ("emb_V", "", "int", _range("emb_V", 1000), "Rows of the table: vocabulary size (or maximum positions)", ""),
    ("emb_d", "", "int", _range("emb_d", 256), "Width d of the table", ""),
    ("emb_dtype", "", "combo", tuple((f"{k} ({v} B)", k) for k, v in DTYPE_BYTES.items()), "Storage type per parameter", ""),
    ("emb_tied", "Tied output head", "check", None, "Untied: the output head is a second V×d table", ""),
    ("emb_layers", "", "int", _range("emb_layers", 1), "Number of transformer blocks L for 12·L·d²", ""),
    ("emb_fert_a", "", "float", _range("emb_fert_a", 0.1), "Tokens per word with the first tokenizer", ""),
    ("emb_fert_b", "", "float", _range("emb_fert_b", 0.1), "Tokens per word with the second tokenizer", ""),
    ("block_B", "", "int", _range("block_B", 1), "Batch size B", ""),
    ("block_d_ff", "", "int", _range("block_d_ff", 64), "FFN hidden width (usually 4·d)", ""),
    ("block_causal", "Causal mask", "check", None, "The experiment's block masks later tokens (a decoder) "
     "or lets every token see every token (an encoder)", ""),
    ("block_edit", "", "int", _range("block_edit", 1), "The token the experiment replaces (0-based)", ""),
    ("block_layers", "", "int", _range("block_layers", 1), "Blocks stacked for the residual-stream norms", ""),
)


def make_control(kind: str, spec, tooltip: str, label: str = "") -> QWidget:
    """A spin box, combo box or check box configured from one row of :data:`CONTROLS`."""
    if kind == "int":
        w = QSpinBox()
        w.setRange(spec[0], spec[1])
        w.setSingleStep(spec[2])
        w.setKeyboardTracking(False)
    elif kind == "float":
        w = QDoubleSpinBox()
        w.setDecimals(3)
        w.setRange(spec[0], spec[1])
        w.setSingleStep(spec[2])
        w.setKeyboardTracking(False)
    elif kind == "combo":
        w = QComboBox()
        for text, data in spec:
            w.addItem(text, data)
    else:
        w = QCheckBox(label)
    w.setToolTip(tooltip)
    return w


def control_value(w: QWidget) -> Any:
    if isinstance(w, (QSpinBox, QDoubleSpinBox)):
        return w.value()
    if isinstance(w, QComboBox):
        return w.currentData()
    return w.isChecked()


def set_control_value(w: QWidget, value: Any) -> None:
    """Write ``value`` into ``w`` without emitting its change signal."""
    with QSignalBlocker(w):
        if isinstance(w, (QSpinBox, QDoubleSpinBox)):
            w.setValue(value)
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(max(0, w.findData(value)))
        else:
            w.setChecked(bool(value))


def control_signal(w: QWidget):
    if isinstance(w, (QSpinBox, QDoubleSpinBox)):
        return w.valueChanged
    if isinstance(w, QComboBox):
        return w.currentIndexChanged
    return w.toggled
