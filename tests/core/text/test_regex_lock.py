"""A one-call regex match keeps the interpreter lock over short texts only."""

from __future__ import annotations

import regex

from core.text.regex_lock import HOLD_UP_TO, concurrency


def test_the_lock_is_kept_up_to_the_limit_and_given_up_above_it():
    assert concurrency("") is False and concurrency("a" * HOLD_UP_TO) is False
    assert concurrency("a" * (HOLD_UP_TO + 1)) is None


def test_either_answer_is_an_argument_regex_takes_and_matches_alike():
    pattern = regex.compile(r"\X")
    for text in ("e\u0301x" * 5, "e\u0301x" * (HOLD_UP_TO // 3 + 1)):
        assert pattern.findall(text, concurrent=concurrency(text)) == pattern.findall(text)
