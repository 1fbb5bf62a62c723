"""The Positions pane: sinusoidal, RoPE, ALiBi and context-extension schemes plotted live.

``PositionsPane`` (in :mod:`app.panes.positions.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.positions.state` loads no Qt. Run alone: ``python -m app.panes.positions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.panes import lazy_pane

if TYPE_CHECKING:
    from app.panes.positions.pane import PositionsPane

__all__ = ["PositionsPane"]
__getattr__ = lazy_pane(__name__, "PositionsPane")
