"""``python -m app.panes.positions``: the positions pane alone in a window, on the app's settings."""

from __future__ import annotations

import sys

from app.panes.base import run_alone
from app.panes.positions.pane import PositionsPane


def main() -> int:
    return run_alone(PositionsPane, 1400, 900)


if __name__ == "__main__":
    sys.exit(main())
