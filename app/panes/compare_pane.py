"""Compare pane (placeholder until its issue lands)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout

from app.panes.base import Pane


class ComparePane(Pane):
    title = "Compare"
    key = "compare"

    def __init__(self, settings, parent=None):
        super().__init__(settings, parent)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Compare pane: coming soon."))
