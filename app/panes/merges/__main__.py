"""``python -m app.panes.merges``: the merges pane alone in a window, on the app's settings."""

from __future__ import annotations

import sys

from app.panes.base import run_alone
from app.panes.merges.pane import MergesPane


def main() -> int:
    return run_alone(MergesPane, 1400, 900)


if __name__ == "__main__":
    sys.exit(main())
