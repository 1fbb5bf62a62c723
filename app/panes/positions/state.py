"""State of the Positions pane (no Qt here): :class:`PositionsState` is what every sub-view
renders from. How each field is edited is in :mod:`app.panes.positions.controls`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from app.panes.stored import dataclass_values


@dataclass(frozen=True)
class PositionsState:
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
    block_B: int = 2
    block_d_ff: int = 256
    view: str = "sinusoidal"

    @classmethod
    def from_dict(cls, raw: Any) -> "PositionsState":
        """Build from a stored dict, keeping only known keys of the right type."""
        return cls(**dataclass_values(cls, raw))

    def to_dict(self) -> dict:
        return asdict(self)
