"""``python -m app.panes.retrieval``: the retrieval pane alone in a window, on the app's settings."""

from __future__ import annotations

import sys

from app.panes.base import run_alone
from app.panes.retrieval.pane import RetrievalPane


def main() -> int:
    return run_alone(RetrievalPane, 1400, 900)


if __name__ == "__main__":
    sys.exit(main())
