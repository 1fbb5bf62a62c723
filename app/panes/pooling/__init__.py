"""The Pooling pane: CLS, masked mean, max and attention pooling, padding and chunking.

``PoolingPane`` (in :mod:`app.panes.pooling.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.pooling.state` loads no Qt. Run alone: ``python -m app.panes.pooling``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.panes import lazy_pane

if TYPE_CHECKING:
    from app.panes.pooling.pane import PoolingPane

__all__ = ["PoolingPane"]
__getattr__ = lazy_pane(__name__, "PoolingPane")
