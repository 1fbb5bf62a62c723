"""Issue 30 §3: every stored value of every pane is bounded on read, at both ends. Each field
of each pane's state is fed the extremes a hostile or corrupted file can hold (0, negative,
2³¹, 10²⁰, NaN, infinity, the wrong type, a huge string): the value read back is in its
range and choices (clamped or the default), and the main window starts with such a file."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from PySide6.QtWidgets import QApplication

from app.main_window import PANES, TEACHING, MainWindow
from app.panes.merges.state import UnigramInputs
from app.panes.stored import MAX_TEXT_CHARS, StoredState
from app.settings import STATE_FILE, open_settings, set_json

STATE_CLASSES = [cls.state_class for _, cls in PANES if cls.state_class] + [UnigramInputs]
EXTREMES = {"zero": 0, "negative": -(2**31) - 1, "2^31": 2**31, "10^20": 10**20, "10^400": 10**400, "-10^20": -(10**20),
            "1e300": 1e300, "nan": math.nan, "inf": math.inf, "-inf": -math.inf, "wrong type": [[{}]],
            "huge string": "9" * 100_001, "true": True}


def _cap(cls: type[StoredState], name: str) -> int | None:
    return cls.LENGTHS.get(name, MAX_TEXT_CHARS)


def _assert_in_bounds(cls: type[StoredState], state, default) -> None:
    """Every field of ``state`` is its default or within the class's range, choices, length."""
    for f in dataclasses.fields(cls):
        value, fallback = getattr(state, f.name), getattr(default, f.name)
        if f.name in cls.RANGES:
            lo, hi = cls.RANGES[f.name]
            assert type(value) is type(fallback) and lo <= value <= hi, (cls.__name__, f.name, value)
        if f.name in cls.CHOICES:
            assert value in cls.CHOICES[f.name], (cls.__name__, f.name, value)
        if isinstance(fallback, str):
            cap = _cap(cls, f.name)
            assert isinstance(value, str) and (cap is None or len(value) <= cap), (cls.__name__, f.name)
        if isinstance(fallback, bool):
            assert isinstance(value, bool), (cls.__name__, f.name, value)


def test_every_number_field_of_every_pane_state_declares_its_range():
    for cls in STATE_CLASSES:
        numbers = {f.name for f in dataclasses.fields(cls)
                   if isinstance(getattr(cls(), f.name), (int, float)) and not isinstance(getattr(cls(), f.name), bool)}
        assert numbers and numbers == set(cls.RANGES) or not numbers and not cls.RANGES, cls.__name__
        for name, (lo, hi) in cls.RANGES.items():
            assert lo <= getattr(cls(), name) <= hi and abs(lo) < 2**31 and abs(hi) < 2**31, (cls.__name__, name)


@pytest.mark.parametrize("cls", STATE_CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("extreme", list(EXTREMES), ids=str)
def test_every_field_fed_an_extreme_reads_back_bounded(cls, extreme):
    default = cls()
    for f in dataclasses.fields(cls):
        state = cls.from_dict({f.name: EXTREMES[extreme]})
        _assert_in_bounds(cls, state, default)
        if f.name in cls.RANGES and not getattr(cls, "CLAMP", False):
            value = EXTREMES[extreme]
            lo, hi = cls.RANGES[f.name]
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and lo <= value <= hi
                  and (isinstance(value, int) or isinstance(getattr(default, f.name), float)))
            if not ok:  # out of range, NaN, infinite or not a number: the default
                assert getattr(state, f.name) == getattr(default, f.name), (cls.__name__, f.name)


def test_clamped_numbers_go_to_the_nearest_bound():
    from app.panes.retrieval.state import RetrievalState  # noqa: PLC0415 - one pane's rule

    s = RetrievalState.from_dict({"nprobe": 3_000_000_000, "rerank": 10**20, "k": -5, "cross_k": math.nan})
    assert (s.nprobe, s.rerank, s.k, s.cross_k) == (RetrievalState.bounds("nprobe")[1],
                                                    RetrievalState.bounds("rerank")[1], 1, RetrievalState.cross_k)


def _hostile(cls: type[StoredState], extreme: str) -> dict:
    """Every field of ``cls`` set to ``extreme`` (a huge string only where a cap applies: a
    field with no cap, the alignment text, would keep it, and computing it is another test's)."""
    out = {}
    for f in dataclasses.fields(cls):
        if extreme == "huge string" and _cap(cls, f.name) is None:
            continue
        out[f.name] = EXTREMES[extreme]
    return out


@pytest.mark.parametrize("extreme", ["negative", "2^31", "10^20", "nan", "inf", "wrong type", "huge string"])
def test_the_window_starts_with_every_field_at_an_extreme(qtbot, extreme):
    settings = open_settings()
    settings.setValue("tokenizer/current", TEACHING)  # no tokenizer to load: a fast start
    states = {f"{name}/state": _hostile(cls.state_class, extreme) for name, cls in PANES if cls.state_class}
    states["merges/state"]["unigram"] = _hostile(UnigramInputs, extreme)
    in_ini = extreme in ("2^31", "nan", "wrong type")  # older versions kept them in settings.ini
    for key, obj in states.items():
        if in_ini:
            set_json(settings, key, obj)
    settings.sync()
    if not in_ini:
        with open(settings.fileName().replace("settings.ini", STATE_FILE), "w", encoding="utf-8") as f:
            json.dump(states, f)  # NaN and Infinity as Python's json writes them
    window = MainWindow()
    qtbot.addWidget(window)
    QApplication.processEvents()  # the start-up timers: restore, the status line
    message = window.statusBar().currentMessage()
    for i in range(window.tabs.count()):  # every pane shows its restored state
        window.tabs.setCurrentIndex(i)
        QApplication.processEvents()
    for name, cls in PANES:
        if cls.state_class:
            _assert_in_bounds(cls.state_class, window.panes[name].state, cls.state_class())
    assert any(d.startswith("retrieval/state.") for d in window.dropped_settings)
    assert message.startswith("Ignored unreadable settings") and "\n" not in message


def test_a_stored_nprobe_beyond_32_bits_stops_at_its_spin_box_top(qtbot):
    """``[retrieval] state="{\\"nprobe\\": 3000000000}"`` stopped every start with an
    OverflowError; the value is now kept at the spin box's top, in the file too (named once)."""
    from app.panes.retrieval.state import RetrievalState  # noqa: PLC0415 - one pane's rule
    from app.settings import get_json  # noqa: PLC0415

    settings = open_settings()
    settings.setValue("tokenizer/current", TEACHING)
    set_json(settings, "retrieval/state", {"nprobe": 3_000_000_000, "rerank": 10**20, "query": "kept"})
    settings.sync()
    window = MainWindow()
    qtbot.addWidget(window)
    top = RetrievalState.bounds("nprobe")[1], RetrievalState.bounds("rerank")[1]
    hits = window.panes["retrieval"].hits_view
    assert (hits.nprobe_spin.value(), hits.rerank_spin.value()) == top
    assert hits.query_edit.text() == "kept"
    assert window.dropped_settings == ["retrieval/state.nprobe", "retrieval/state.rerank"]
    stored = get_json(window.settings, "retrieval/state", {})
    assert (stored["nprobe"], stored["rerank"], stored["query"]) == (*top, "kept")
