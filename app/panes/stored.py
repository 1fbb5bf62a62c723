"""One way to keep a pane's state: the :class:`StoredState` protocol (no Qt here).

Every pane's state is a dataclass that inherits :class:`StoredState` and declares, as class
attributes, what a stored value may be:

- ``RANGES = {field: (lo, hi)}``: the inclusive bounds of every ``int`` and ``float`` field
  (required for each of them: :func:`dataclass_values` refuses a class that leaves one
  out). The pane's spin boxes and sliders take their minimum and maximum from here
  (:meth:`StoredState.bounds`), so a value read back always fits its widget — a
  ``QSpinBox`` raises ``OverflowError`` beyond 32 bits.
- ``CLAMP = True``: a number out of its range is moved to the nearest bound instead of
  keeping the default (a count the user pushed past a limit stays at the limit).
- ``CHOICES = {field: collection}``: the values a field may take (a combo box's items).
- ``LENGTHS = {field: max}``: the most code points a ``str`` field may hold (``None``:
  no cap); a ``str`` field not named here holds at most :data:`MAX_TEXT_CHARS`.

The state is saved as JSON with :meth:`StoredState.to_dict` (``app.settings.write_state``,
one ``state.json`` for every pane with a ``state_class``, see :class:`app.panes.base.Pane`)
and rebuilt with :meth:`StoredState.from_dict`: a value a user's old or edited file holds in
the wrong type, out of its range, outside its choices, too long, NaN or infinite never
reaches the pane: the field keeps its default, or with ``CLAMP`` a number its nearest bound
(and :func:`app.settings.bad_fields` names it in the status bar). Rules between fields (an even
width, an overlap below the window) go in :meth:`StoredState.checked`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar, Collection, TypeVar

MAX_TEXT_CHARS = 4096
"""Most code points of a stored ``str`` field the state class gives no length of (paths,
queries, words): a longer one keeps the default."""

S = TypeVar("S", bound="StoredState")


class StoredState:
    """The protocol of a pane's state dataclass (see the module notes): ranges, choices and
    lengths declared on the class, :meth:`from_dict` / :meth:`to_dict` for the store."""

    RANGES: ClassVar[dict[str, tuple[float, float]]] = {}
    CLAMP: ClassVar[bool] = False
    CHOICES: ClassVar[dict[str, Collection[Any]]] = {}
    LENGTHS: ClassVar[dict[str, int | None]] = {}

    @classmethod
    def from_dict(cls: type[S], raw: Any) -> S:
        """The state stored as ``raw`` (parsed JSON): every field checked by
        :func:`dataclass_values`, then :meth:`checked`; never raises for any ``raw``."""
        return cls(**cls.checked(dataclass_values(cls, raw)))

    @classmethod
    def checked(cls, values: dict[str, Any]) -> dict[str, Any]:
        """Rules between fields, applied to the values read (default: none)."""
        return values

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON-ready values (what :meth:`from_dict` reads back)."""
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    @classmethod
    def bounds(cls, name: str) -> tuple[Any, Any]:
        """``(minimum, maximum)`` of number field ``name``, for its spin box or slider."""
        return cls.RANGES[name]


class StateValueError(ValueError):
    """A value :func:`merged_state` was asked to set that the state class refuses (the
    message names the field)."""


def merged_state(current: S, values: dict[str, Any]) -> S:
    """``current`` with the fields in ``values`` replaced, read through
    :meth:`StoredState.from_dict` (the same checks as a stored file: ranges, choices, lengths,
    rules between fields). O(number of fields + length of the strings).

    Raises
    ------
    StateValueError
        If a key is not a field of the state, or a value is refused (out of range, not one of
        the choices, of the wrong type): unlike a stored file, a value asked for explicitly is
        never silently replaced.
    """
    cls = type(current)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(values) - names)
    if unknown:
        raise StateValueError(f"{cls.__name__} has no field {', '.join(unknown)}")
    state = cls.from_dict({**current.to_dict(), **values})
    kept = state.to_dict()
    refused = [k for k, v in values.items() if kept[k] != v]
    if refused:
        raise StateValueError(f"{cls.__name__} refuses {', '.join(f'{k}={values[k]!r}' for k in refused)}")
    return state


def _typed(default: Any, value: Any) -> tuple[bool, Any]:
    """Whether ``value`` has the type of ``default`` (ints accepted for floats, as floats)."""
    if value is None:
        return False, value
    if default is None:
        return True, value
    if isinstance(default, bool):
        return isinstance(value, bool), value
    if isinstance(default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return False, value
        try:
            number = float(value)
        except OverflowError:  # an int beyond a float's range (JSON allows 10**400): as infinite
            return False, value
        return math.isfinite(number), number if math.isfinite(number) else value
    return isinstance(value, type(default)) and not isinstance(value, bool), value


def _is_number(default: Any) -> bool:
    return isinstance(default, (int, float)) and not isinstance(default, bool)


def dataclass_values(cls: type, raw: Any) -> dict[str, Any]:
    """The fields of dataclass ``cls`` read from stored JSON ``raw``, each checked against
    the type of its default (a bool only for a bool field, an int or finite float for a float
    field, anything non-None for a field whose default is None), ``cls.RANGES`` (clamped
    into the range when ``cls.CLAMP``),
    ``cls.CHOICES`` and ``cls.LENGTHS``; a missing or bad entry keeps the default. Unknown
    keys are ignored. O(number of fields + length of the strings).

    Raises
    ------
    TypeError
        If ``cls`` declares no range for one of its number fields (a programming error:
        every stored number is bounded at both ends).
    """
    defaults = cls()
    ranges: dict = getattr(cls, "RANGES", {})
    choices: dict = getattr(cls, "CHOICES", {})
    lengths: dict = getattr(cls, "LENGTHS", {})
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        default = getattr(defaults, f.name)
        if _is_number(default) and f.name not in ranges:
            raise TypeError(f"{cls.__name__}.{f.name} is a number with no range in {cls.__name__}.RANGES")
        ok, value = _typed(default, raw.get(f.name) if isinstance(raw, dict) else None)
        if ok and f.name in ranges:
            lo, hi = ranges[f.name]
            if getattr(cls, "CLAMP", False):
                value = type(default)(min(max(value, lo), hi))
            ok = lo <= value <= hi
        if ok and f.name in choices:
            ok = value in choices[f.name]
        if ok and isinstance(value, str):
            cap = lengths.get(f.name, MAX_TEXT_CHARS)
            ok = cap is None or len(value) <= cap
        out[f.name] = value if ok else default
    return out
