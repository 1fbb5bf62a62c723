"""A pane's stored state read back (no Qt here: the panes' state modules use it).

The state dataclasses are saved as JSON (``app.settings.write_state``) and rebuilt with
``cls(**dataclass_values(cls, raw))``, so a value a user's old or edited settings file holds
in the wrong type, out of range or outside its choices never reaches the pane: it keeps the
field's default (and :func:`app.settings.bad_fields` names it in the status bar).

A state class may declare, as class attributes, ``RANGES = {field: (lo, hi)}`` (inclusive
bounds of a number, e.g. a spin box's range) and ``CHOICES = {field: collection}`` (the
values a string may take).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any


def _typed(default: Any, value: Any) -> tuple[bool, Any]:
    """Whether ``value`` has the type of ``default`` (ints accepted for floats, as floats)."""
    if value is None:
        return False, value
    if default is None:
        return True, value
    if isinstance(default, bool):
        return isinstance(value, bool), value
    if isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        return ok, float(value) if ok else value
    return isinstance(value, type(default)) and not isinstance(value, bool), value


def dataclass_values(cls: type, raw: Any) -> dict[str, Any]:
    """The fields of dataclass ``cls`` read from stored JSON ``raw``, each checked against
    the type of its default (a bool only for a bool field, an int or finite float for a float
    field, anything non-None for a field whose default is None), ``cls.RANGES`` and
    ``cls.CHOICES``; a missing or bad entry keeps the default. Unknown keys are ignored."""
    defaults = cls()
    ranges: dict = getattr(cls, "RANGES", {})
    choices: dict = getattr(cls, "CHOICES", {})
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        default = getattr(defaults, f.name)
        ok, value = _typed(default, raw.get(f.name) if isinstance(raw, dict) else None)
        if ok and f.name in ranges:
            lo, hi = ranges[f.name]
            ok = lo <= value <= hi
        if ok and f.name in choices:
            ok = value in choices[f.name]
        out[f.name] = value if ok else default
    return out
