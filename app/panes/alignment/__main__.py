"""``python -m app.panes.alignment``: the alignment pane alone in a window, on the app's settings."""

from __future__ import annotations

import sys

from app.panes.base import run_alone
from app.panes.alignment.pane import AlignmentPane


def main() -> int:
    return run_alone(AlignmentPane, 1300, 800)


if __name__ == "__main__":
    sys.exit(main())
