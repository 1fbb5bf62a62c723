"""The Retrieval pane: exact, float16, int8 and IVF search over sentence embeddings of the UDHR,
and whether an English paragraph finds its translation, beside the language's fertility.

``RetrievalPane`` (in :mod:`app.panes.retrieval.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.retrieval.state` loads no Qt. Run alone: ``python -m app.panes.retrieval``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.panes import lazy_pane

if TYPE_CHECKING:
    from app.panes.retrieval.pane import RetrievalPane

__all__ = ["RetrievalPane"]
__getattr__ = lazy_pane(__name__, "RetrievalPane")
