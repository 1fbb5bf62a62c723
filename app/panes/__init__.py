"""One package per pane (alignment, merges, positions, pooling, compare), each the same shape:
``__init__`` exports the pane class, ``pane.py`` wires its widgets, ``state.py`` holds its state
with no Qt import, other modules are named by role (views, models, controls, …). Panes never
import each other; what they share is in :mod:`app.panes.base` (the ``Pane`` class),
:mod:`app.panes.stored` (reading stored state back, no Qt) and :mod:`app.widgets`.

This module imports nothing, so importing a pane's state loads no Qt.
"""
