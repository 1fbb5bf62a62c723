"""The Compare pane: several tokenizers across many languages, and where they differ.

``ComparePane`` (in :mod:`app.panes.compare.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.compare.state` loads no Qt. Run alone: ``python -m app.panes.compare``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.panes import lazy_pane

if TYPE_CHECKING:
    from app.panes.compare.pane import ComparePane

__all__ = ["ComparePane"]
__getattr__ = lazy_pane(__name__, "ComparePane")
