"""Positions pane (placeholder until its issue lands)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout

from app.panes.base import Pane


class PositionsPane(Pane):
    title = "Positions"
    key = "positions"

    def __init__(self, settings, parent=None):
        super().__init__(settings, parent)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Positions pane: coming soon."))
