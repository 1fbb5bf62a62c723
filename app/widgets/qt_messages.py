"""Qt's own console messages that say nothing to a user of the app.

Without fonts that support OpenType shaping for a script (a bare machine with only the
DejaVu fonts), Qt's font database logs "OpenType support missing for …" for every font at
start; the offscreen platform (used by ``--screenshot``) warns that it "does not support
propagateSizeHints()". The app reports missing fonts itself, per script, in the pane that
draws them (:mod:`app.widgets.font_coverage`), so these lines are dropped. A user who sets
``QT_LOGGING_RULES`` keeps whatever those rules ask for.
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QLoggingCategory, QtMsgType, qInstallMessageHandler

_DROPPED = ("This plugin does not support propagateSizeHints()",)
_previous = None


def quiet_qt_messages() -> None:
    """Drop the font-database info/warnings and the offscreen plugin's size-hint warning;
    every other message goes on to Qt's handler. Call once, before the QApplication."""
    global _previous
    if not os.environ.get("QT_LOGGING_RULES"):
        QLoggingCategory.setFilterRules("qt.text.font.db.info=false\nqt.text.font.db.warning=false")
    if _previous is None:
        _previous = qInstallMessageHandler(_handler) or _print


def _handler(kind: QtMsgType, context, message: str) -> None:
    if message in _DROPPED:
        return
    _previous(kind, context, message)


def _print(kind: QtMsgType, context, message: str) -> None:
    print(message, file=sys.stderr)
