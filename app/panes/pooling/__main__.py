"""``python -m app.panes.pooling``: the pooling pane alone in a window, on the app's settings."""

from __future__ import annotations

import sys

from app.panes.base import run_alone
from app.panes.pooling.pane import PoolingPane


def main() -> int:
    return run_alone(PoolingPane, 1300, 850)


if __name__ == "__main__":
    sys.exit(main())
