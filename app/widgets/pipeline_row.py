"""The loaded tokenizer's own pipeline in one wrapping line, a tooltip per stage.

``Pipeline: Normalizer NFC → Pre-tokenizer Split regex › ByteLevel → Model BPE 151,643
byte-level → Post-processor ByteLevel → Decoder ByteLevel`` — each stage a link whose
hover shows every setting of that stage (:func:`core.tokenizers.pipeline_steps.pipeline_steps`);
the line wraps in a narrow window instead of widening it.
"""

from __future__ import annotations

import html
from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolTip, QWidget

from core.tokenizers.pipeline_steps import PipelineStep

__all__ = ["PipelineRow"]

_STEP = ('<span style="color:#6b7280">{title}</span> '
         '<a href="{k}" style="text-decoration:none; color:{colour}"><b>{label}</b></a>')


class PipelineRow(QLabel):
    """Rich text naming each stage; hovering a stage shows its settings as a tooltip."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.steps: list[PipelineStep] = []
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.linkHovered.connect(self._on_hovered)
        self.setToolTip("The tokenizer's own pipeline, as its file declares it; hover a stage "
                        "for its settings")

    def set_steps(self, steps: Sequence[PipelineStep]) -> None:
        """Show ``steps`` (O(steps))."""
        self.steps = list(steps)
        colour = self.palette().link().color().name()
        self.setText("<b>Pipeline:</b> " + " → ".join(
            _STEP.format(title=html.escape(s.title), k=k, label=html.escape(s.label),
                         colour="#9ca3af" if s.label == "none" else colour)
            for k, s in enumerate(self.steps)))

    def stage_tooltip(self, k: int) -> str:
        """The tooltip of stage ``k``: its title and every setting."""
        step = self.steps[k]
        return f"{step.title}: {step.label}\n\n{step.detail}"

    def _on_hovered(self, link: str) -> None:
        if link.isdigit() and int(link) < len(self.steps):
            QToolTip.showText(QCursor.pos(), self.stage_tooltip(int(link)), self)
        else:
            QToolTip.hideText()
