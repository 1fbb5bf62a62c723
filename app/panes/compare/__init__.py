"""The Compare pane: several tokenizers across many languages, and where they differ.

``ComparePane`` (in :mod:`app.panes.compare.pane`) is imported on first use (PEP 562), so
importing :mod:`app.panes.compare.state` loads no Qt. Run alone: ``python -m app.panes.compare``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.panes.compare.pane import ComparePane

__all__ = ["ComparePane"]


def __getattr__(name: str) -> Any:
    if name == "ComparePane":
        from app.panes.compare.pane import ComparePane  # lazy: keeps the state module free of Qt

        return ComparePane
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
