"""State of the Positions pane (no Qt here): :class:`PositionsState` is what every sub-view
renders from. How each field is edited is in :mod:`app.panes.positions.controls`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.panes.stored import StoredState
from core.positional import DTYPE_BYTES

VIEWS = ("sinusoidal", "rope", "extension", "alibi", "embedding", "anatomy")  # the views' keys


@dataclass(frozen=True)
class PositionsState(StoredState):
    """Everything the Positions pane shows is computed from this (sizes in positions/tokens)."""

    T: int = 512
    d: int = 64
    base: float = 10000.0
    pairing: str = "interleaved"
    pair: int = 8
    cursor: int = 100
    seed: int = 0
    s: float = 4.0
    L: int = 2048
    H: int = 8
    head: int = 0
    causal: bool = True
    emb_V: int = 32000
    emb_d: int = 4096
    emb_dtype: str = "fp16"
    emb_tied: bool = True
    emb_layers: int = 32
    emb_fert_a: float = 2.0  # tokens per word before (the fertility comparison)
    emb_fert_b: float = 1.4  # tokens per word after
    block_B: int = 2
    block_d_ff: int = 256
    block_causal: bool = True  # the block experiments' mask
    block_edit: int = 5  # the token the causal-mask experiment edits
    block_layers: int = 12  # blocks stacked for the pre- vs post-norm residual norms
    view: str = "sinusoidal"

    # The controls' ranges (app/panes/positions/controls.py takes them from here).
    RANGES: ClassVar[dict[str, tuple[float, float]]] = {
        "T": (1, 16384), "d": (2, 4096), "cursor": (0, 16383), "base": (2.0, 1e8), "pair": (0, 2047),
        "seed": (0, 2**31 - 1), "s": (1.0, 256.0), "L": (1, 1_048_576), "H": (1, 256), "head": (0, 255),
        "emb_V": (1, 100_000_000), "emb_d": (1, 65536), "emb_layers": (1, 1000), "emb_fert_a": (0.01, 100.0),
        "emb_fert_b": (0.01, 100.0), "block_B": (1, 4096),
        "block_d_ff": (1, 262144), "block_edit": (0, 16383), "block_layers": (1, 96)}
    CHOICES: ClassVar[dict[str, Any]] = {
        "pairing": ("interleaved", "half"), "emb_dtype": tuple(DTYPE_BYTES),
        "view": VIEWS}

    @classmethod
    def checked(cls, values: dict[str, Any]) -> dict[str, Any]:
        """An odd width ``d`` keeps the default (the tables need pairs)."""
        if values["d"] % 2:
            values["d"] = cls.d
        return values
