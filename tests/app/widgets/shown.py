"""Widgets shown on screen for a test (offscreen platform): sized, shown and exposed."""

from __future__ import annotations


def shown(qtbot, widget, width: int, height: int):
    """``widget`` registered with ``qtbot`` (closed after the test), resized to
    ``width`` × ``height`` pixels, shown, and returned once it is exposed."""
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    return widget
