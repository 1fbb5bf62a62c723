"""The Positions pane: sinusoidal, RoPE, ALiBi and context-extension schemes plotted live.

``PositionsPane`` (in :mod:`app.panes.positions.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.positions.state` loads no Qt. Run alone: ``python -m app.panes.positions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.panes.positions.pane import PositionsPane

__all__ = ["PositionsPane"]


def __getattr__(name: str) -> Any:
    if name == "PositionsPane":
        from app.panes.positions.pane import PositionsPane  # lazy: keeps the state module free of Qt

        return PositionsPane
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
