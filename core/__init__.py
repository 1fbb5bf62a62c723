"""Subword Scope's computing core: pure Python + numpy, never Qt.

Every pane of the app renders what this package returns. Importing ``core`` must not
import PySide6, pyqtgraph or ``app`` (an import-linter contract and a test enforce it).
"""

__all__ = ["errors", "data"]
