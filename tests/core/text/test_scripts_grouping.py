"""Grouping characters by script (for the views' missing-font notes)."""

from __future__ import annotations

from core.text.scripts import group_by_script, script_label


def test_group_by_script_keeps_first_appearance_order_and_drops_duplicates():
    groups = group_by_script("ሰlaሀ1\U0010FFFDa")
    assert groups == {"Ethiopic": ["ሀ", "ሰ"], "Latin": ["a", "l"], "Common": ["1"], "Unknown": ["\U0010FFFD"]}
    assert list(groups) == ["Ethiopic", "Latin", "Common", "Unknown"]
    assert group_by_script("") == {}


def test_script_label_reads_like_a_name():
    assert script_label("Canadian_Aboriginal") == "Canadian Aboriginal" and script_label("Thai") == "Thai"
