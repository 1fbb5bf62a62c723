"""Where the app remembers things between runs (an INI file in the user's config dir).

``$SUBWORDSCOPE_CONFIG_DIR`` overrides the folder (tests point it at a temporary one).
"""

from __future__ import annotations

import dataclasses
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


def dataclass_values(cls: type, raw: Any) -> dict[str, Any]:
    """The fields of dataclass ``cls`` read from stored JSON ``raw``, each checked against
    the type of its default: a bool only for a bool field, an int or float for a float
    field (as float), anything non-None for a field whose default is None; a missing or
    ill-typed entry keeps the default. Unknown keys are ignored."""
    defaults = cls()
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        default = getattr(defaults, f.name)
        value = raw.get(f.name) if isinstance(raw, dict) else None
        if value is None:
            ok = False
        elif default is None:
            ok = True
        elif isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            value = float(value) if ok else value
        else:
            ok = isinstance(value, type(default)) and not isinstance(value, bool)
        out[f.name] = value if ok else default
    return out
