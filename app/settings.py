"""Where the app remembers things between runs (an INI file in the user's config dir).

``$SUBWORDSCOPE_CONFIG_DIR`` overrides the folder (tests point it at a temporary one). The
panes' state modules read their stored values back with :mod:`app.panes.stored` (no Qt).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import platformdirs
from PySide6.QtCore import QSettings


def config_dir() -> Path:
    env = os.environ.get("SUBWORDSCOPE_CONFIG_DIR")
    return Path(env) if env else Path(platformdirs.user_config_dir("subwordscope", "subwordscope"))


def open_settings() -> QSettings:
    """The app's settings file (``settings.ini`` in :func:`config_dir`)."""
    path = config_dir() / "settings.ini"
    path.parent.mkdir(parents=True, exist_ok=True)
    return QSettings(str(path), QSettings.Format.IniFormat)


def get_json(settings: QSettings, key: str, default: Any) -> Any:
    """Read a JSON value stored under ``key``; ``default`` when absent or unreadable."""
    raw = settings.value(key)
    if raw is None:
        return default
    try:
        return json.loads(str(raw))
    except ValueError:
        return default


def set_json(settings: QSettings, key: str, value: Any) -> None:
    """Store ``value`` as JSON (keeps types and unicode exact across INI round trips)."""
    settings.setValue(key, json.dumps(value, ensure_ascii=True))
