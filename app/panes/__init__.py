"""One package per pane (alignment, merges, positions, pooling, compare), each the same shape:
``__init__`` exports the pane class, ``pane.py`` wires its widgets, ``state.py`` holds its state
with no Qt import, other modules are named by role (views, models, controls, …). Panes never
import each other; what they share is in :mod:`app.panes.base` (the ``Pane`` class),
:mod:`app.panes.stored` (reading stored state back, no Qt) and :mod:`app.widgets`.

Each pane package exports its pane class on first use (:func:`lazy_pane`, PEP 562), so
importing a pane's state loads no Qt; this module imports no Qt either.
"""

from __future__ import annotations

import importlib
from typing import Callable


def lazy_pane(package: str, name: str) -> Callable[[str], type]:
    """The module ``__getattr__`` of pane package ``package``: ``name`` (the pane class) is
    imported from ``package + ".pane"`` when first asked for (PEP 562), so importing the
    package's state module loads no Qt."""

    def __getattr__(attr: str) -> type:
        if attr == name:
            return getattr(importlib.import_module(f"{package}.pane"), name)
        raise AttributeError(f"module {package!r} has no attribute {attr!r}")

    return __getattr__
