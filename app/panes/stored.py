"""A pane's stored state read back (no Qt here: the panes' state modules use it).

The state dataclasses are written to the settings file as JSON (``app.settings.set_json``)
and rebuilt with ``cls(**dataclass_values(cls, raw))``, so a value a user's old or edited
settings file holds in the wrong type never reaches the pane.
"""

from __future__ import annotations

import dataclasses
from typing import Any


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
