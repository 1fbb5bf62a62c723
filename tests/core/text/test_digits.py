"""Digit grouping schemes (the positional-embedding reading's question on arithmetic: per-digit
and right-to-left groups of three), checked against a real left-to-right pre-tokenizer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.text.digits import DigitSchemeError, group_digits, number_spans


def test_the_readings_numbers():
    assert group_digits("1234", "per-digit") == ["1", "2", "3", "4"]
    assert group_digits("12345", "right-to-left") == ["12", "345"]
    assert group_digits("12345", "left-to-right") == ["123", "45"]
    assert group_digits("1235", "right-to-left") == ["1", "235"]
    assert group_digits("1000000", "right-to-left") == ["1", "000", "000"]


def test_number_spans_take_any_scripts_digits():
    text = "learner 2026 44444 ٢٠٢٦ x"
    assert [text[a:b] for a, b in number_spans(text)] == ["2026", "44444", "٢٠٢٦"]


def test_unknown_scheme():
    with pytest.raises(DigitSchemeError, match="per-digit"):
        group_digits("12", "pairs")


@given(st.text("0123456789", min_size=1, max_size=40))
def test_right_to_left_keeps_place_value_slots(number):
    pieces = group_digits(number, "right-to-left")
    assert "".join(pieces) == number == "".join(group_digits(number, "left-to-right"))
    assert all(len(p) == 3 for p in pieces[1:]) and 1 <= len(pieces[0]) <= 3
    # the digit worth 10^k sits at the same place of the same group from the end, whatever the length
    for k in range(len(number)):
        group, place = divmod(k, 3)
        assert pieces[-1 - group][-1 - place] == number[-1 - k]


@pytest.mark.parametrize("name, scheme", [("cl100k_base", "left-to-right"),
                                          ("llama-3", "left-to-right"), ("gemma-3", "per-digit")])
def test_real_tokenizers_cut_numbers_this_way(data_dir, name, scheme):
    from core.tokenizers import load
    tok = load(data_dir / "tokenizers" / name)
    for number in ("12345", "1234567", "44444", "2026"):
        enc = tok.encode(number)
        pieces = [number[a:b] for a, b in enc.offsets if b > a]
        assert pieces == group_digits(number, scheme), name
