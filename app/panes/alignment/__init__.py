"""The alignment pane: text → normalized text → tokens, every span linked across the layers.

``AlignmentPane`` (in :mod:`app.panes.alignment.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.alignment.state` loads no Qt. Run alone: ``python -m app.panes.alignment``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.panes import lazy_pane

if TYPE_CHECKING:
    from app.panes.alignment.pane import AlignmentPane

__all__ = ["AlignmentPane"]
__getattr__ = lazy_pane(__name__, "AlignmentPane")
