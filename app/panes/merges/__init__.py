"""The Merges pane: BPE training step by step, WordPiece scores, Unigram Viterbi, real-merge replay.

``MergesPane`` (in :mod:`app.panes.merges.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.merges.state` loads no Qt. Run alone: ``python -m app.panes.merges``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.panes import lazy_pane

if TYPE_CHECKING:
    from app.panes.merges.pane import MergesPane

__all__ = ["MergesPane"]
__getattr__ = lazy_pane(__name__, "MergesPane")
