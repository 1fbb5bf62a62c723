"""Stored pane state is read back field by field, type-checked against the defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.panes.stored import dataclass_values


@dataclass
class Sample:
    name: str = "x"
    n: int = 3
    scale: float = 1.5
    on: bool = False
    extra: dict | None = None

    RANGES: ClassVar[dict] = {"n": (-10, 10), "scale": (-100.0, 100.0)}


def test_good_values_are_kept_and_ints_widen_to_float():
    got = dataclass_values(Sample, {"name": "y", "n": 7, "scale": 2, "on": True, "extra": {"a": 1}})
    assert got == {"name": "y", "n": 7, "scale": 2.0, "on": True, "extra": {"a": 1}}
    assert isinstance(got["scale"], float)


def test_ill_typed_missing_and_unknown_values_keep_the_defaults():
    got = dataclass_values(Sample, {"name": 5, "n": True, "scale": "big", "on": 1, "zzz": 9})
    assert got == {"name": "x", "n": 3, "scale": 1.5, "on": False, "extra": None}
    assert dataclass_values(Sample, ["not", "a", "dict"]) == dataclass_values(Sample, {})
