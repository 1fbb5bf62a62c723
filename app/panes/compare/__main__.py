"""``python -m app.panes.compare``: the compare pane alone in a window, on the app's settings."""

from __future__ import annotations

import sys

from app.panes.base import run_alone
from app.panes.compare.pane import ComparePane


def main() -> int:
    return run_alone(ComparePane, 1400, 900)


if __name__ == "__main__":
    sys.exit(main())
