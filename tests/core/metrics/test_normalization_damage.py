"""Normalization damage: SPEC §9 form table, hand-counted damage per form and script."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError
from core.metrics.normalization_damage import (
    DAMAGE_FORMS,
    FORM_EXAMPLES,
    apply_form,
    classify,
    form_table,
    normalization_damage,
)
from core.text.scripts import dominant_script, language_name, script_of, writes_without_spaces
from tests.core.strategies import tricky_text


def test_spec_form_table_exactly():
    rows = {r.label: r for r in form_table()}
    got = [(r.raw, r.nfc, r.nfkc) for r in rows.values()]
    assert got == [(4, 4, 4), (3, 3, 4), (1, 1, 2), (1, 2, 2), (2, 2, 2), (2, 2, 2)]
    assert [r.nfkc_text for r in rows.values()] == [e[5] for e in FORM_EXAMPLES]
    assert rows["x superscript two"].nfkc_text == "x2"
    assert rows["Arabic lam-alef U+FEFB"].nfkc_text == "\u0644\u0627"
    assert rows["half-width katakana KANA"].nfkc_text == "\u30ab\u30ca"
    assert rows["Devanagari QA U+0958 (composition exclusion)"].nfc_text == "\u0915\u093c"


def test_strip_accents_drops_hindi_vowel_signs_and_virama():
    text = "\u0928\u092e\u0938\u094d\u0924\u0947"  # नमस्ते: virama U+094D and vowel sign E U+0947 are Mn
    r = normalization_damage(text, "strip_accents")
    assert (r.characters, r.dropped, r.changed, r.split) == (6, 2, 0, 0)
    assert r.length_delta == -2
    assert {c.char for c in r.examples} == {"\u094d", "\u0947"}
    assert all(c.category == "Mn" and c.script == "Devanagari" for c in r.examples)
    assert r.by_script["Devanagari"] == (6, 0, 2, 0)


def test_vietnamese_tone_marks():
    text = "Vi\u1ec7t"  # precomposed ệ: strip accents changes it to e, NFD splits it in three
    assert normalization_damage(text, "strip_accents").changed == 1
    r = normalization_damage(text, "NFD")
    assert r.split == 1 and r.length_delta == 2
    assert r.examples[0].output == "e\u0323\u0302"


def test_nfc_composes_in_context_but_not_per_character():
    r = normalization_damage("e\u0301", "NFC")
    assert r.affected == 0 and r.length_delta == -1


def test_nfkc_hand_counts():
    r = normalization_damage("\ufb01\ufb01 \uff2e x\u00b2", "NFKC")
    assert (r.split, r.changed, r.dropped) == (2, 2, 0)
    assert r.examples[0].char == "\ufb01" and r.examples[0].count == 2


def test_unknown_form_raises():
    with pytest.raises(SubwordScopeError):
        apply_form("x", "NFX")
    with pytest.raises(SubwordScopeError):
        normalization_damage("x", "lower")


@settings(max_examples=100, deadline=None)
@given(tricky_text)
def test_counts_partition_the_text(text):
    for form in DAMAGE_FORMS:
        r = normalization_damage(text, form, max_examples=1000)
        assert r.characters == len(text)
        assert sum(v[0] for v in r.by_script.values()) == len(text)
        assert sum(c.count for c in r.examples) == r.affected
        for i, kind in enumerate(("changed", "dropped", "split")):
            assert sum(v[1 + i] for v in r.by_script.values()) == getattr(r, kind)
        assert all(classify(c.char, form)[0] == c.kind for c in r.examples)


def test_scripts_and_language_names():
    assert script_of("a") == "Latin" and script_of("\u0915") == "Devanagari"
    assert script_of("\u0301") == "Inherited" and script_of("1") == "Common"
    assert dominant_script("\u4eba\u6a29 abc \u3042\u3044\u3046\u3048") == "Hiragana"
    assert writes_without_spaces("\u4eba\u6a29\u3042\u3044 ab") and not writes_without_spaces("\ud55c\uad6d\uc5b4 \ubb38")
    assert language_name("por_PT") == "Portuguese (PT)" and language_name("xyz") == "xyz"


_SCRIPT_MIX = st.text(st.sampled_from(list("ab \u4eba\u3042\u30a2\u0e01\u0e31\u0ead\u1780\u1000\ud55c"
                                           "\u0915\u3005\u30fc\u309d\u2e80\u00bd1.\U00020000\U0001b000")))


@settings(max_examples=300, deadline=None)
@given(st.one_of(_SCRIPT_MIX, tricky_text, st.text(max_size=20)))
def test_writes_without_spaces_counts_letters_by_script_of(text):
    """Counted in one regex pass; the definition is per letter with :func:`script_of`."""
    import regex

    from core.text.scripts import NO_SPACE_SCRIPTS

    letters = regex.findall(r"\p{L}", text)
    spaceless = sum(script_of(c) in NO_SPACE_SCRIPTS for c in letters)
    assert writes_without_spaces(text) == (bool(letters) and spaceless * 2 > len(letters))
