"""Pasted lists: JSON only when the text starts as a JSON array does, so bracketed special
tokens (``[CLS]``, ``[UNK]``) are whitespace-separated items — in ``parse_list`` and in the
Alignment pane's *align a token list* mode (``alignment_view``), which uses it."""

from __future__ import annotations

import pytest

from core.align.modes import looks_like_json_list, parse_list
from core.align.view import AlignRequest, alignment_view
from core.errors import SubwordScopeError

OPTIONS = {"form": "NFKD", "strip_accents": True, "lowercase": True, "collapse_whitespace": True}


@pytest.mark.parametrize("raw, expected", [
    ("[CLS] un ##able [SEP]", ["[CLS]", "un", "##able", "[SEP]"]),
    ("[UNK]", ["[UNK]"]),
    (" [CLS]un ", ["[CLS]un"]),
    ("[ CLS ]", ["[", "CLS", "]"]),
    ('["un", "##able"]', ["un", "##able"]),
    ('[\n  "un",\n  "able"\n]', ["un", "able"]),
    ("[]", []),
    ("[ ]", []),
    ("un ##able", ["un", "##able"]),
])
def test_parse_list(raw, expected):
    assert parse_list(raw, "tokens") == expected


@pytest.mark.parametrize("raw, message", [
    ('["un", "able"', "look like JSON but do not parse"),
    ("[", "look like JSON but do not parse"),
    ("['un', 'able']", "JSON strings take double quotes"),
    ('[["un"]]', "must be a list of strings"),
    ("[1, 2]", "must be a list of strings"),
    ("[-1]", "must be a list of strings"),
    ('[{"a": 1}]', "must be a list of strings"),
])
def test_broken_or_wrong_json_keeps_the_json_message(raw, message):
    with pytest.raises(SubwordScopeError, match=message):
        parse_list(raw, "tokens")


def test_looks_like_json_list():
    assert looks_like_json_list('  ["a"]') and looks_like_json_list("[") and looks_like_json_list("[[")
    assert not looks_like_json_list("[CLS]") and not looks_like_json_list("[٣]")
    assert not looks_like_json_list("un [SEP]")


def test_align_mode_takes_bracketed_special_tokens():
    view = alignment_view("unable", request=AlignRequest(mode="align", tokens_text="[CLS] un ##able [SEP]",
                                                         normalizer_options=OPTIONS))
    assert view.error is None
    assert view.tokens == ["[CLS]", "un", "##able", "[SEP]"]
    assert list(view.spans)[1:3] == [(0, 2), (2, 6)]
    view = alignment_view("é", request=AlignRequest(mode="align", tokens_text="[UNK]", normalizer_options=OPTIONS))
    assert view.error is None and view.rows.unknown == [True]


def test_align_mode_reports_a_broken_json_list():
    view = alignment_view("unable", request=AlignRequest(mode="align", tokens_text='["un", "able"', normalizer_options=OPTIONS))
    assert view.error.startswith("Token list: the tokens look like JSON but do not parse")
