"""SPEC §1: the teaching normalizer and its offset map."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given, settings, strategies as st

from core.errors import OffsetError
from core.text.normalize import NormalizedText, normalize, normalize_by_units
from tests.core.strategies import any_text, tricky_text


def spec_reference(text: str) -> tuple[str, list[tuple[int, int]]]:
    """SPEC §1 written out literally, one original character at a time (slow, obvious)."""
    out: list[str] = []
    spans: list[list[int]] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
                spans.append([i, i + 1])
            continue
        emitted = 0
        for piece in unicodedata.normalize("NFKD", ch):
            if unicodedata.category(piece) == "Mn":
                continue
            for low in piece.lower():
                out.append(low)
                spans.append([i, i + 1])
                emitted += 1
        if not emitted and spans:
            spans[-1][1] = i + 1
    if out and out[-1] == " ":
        out.pop()
        spans.pop()
    return "".join(out), [tuple(s) for s in spans]


def test_golden_spec_1():
    nt = normalize("Ze\u0301 \ufb01x")
    assert len("Ze\u0301 \ufb01x") == 6
    assert nt.text == "ze fix"
    assert nt.spans == [(0, 1), (1, 3), (3, 4), (4, 5), (4, 5), (5, 6)]


def test_full_example_maps_back():
    text = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
    nt = normalize(text)
    assert nt.text == "zoe flew to istanbul \U0001F600 with nvidia final"
    assert text[slice(*nt.to_original(0, 3))] == "Zoe\u0301"
    i = nt.text.index("istanbul")
    assert text[slice(*nt.to_original(i, i + 8))] == "\u0130stanbul"


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        (dict(form=None, strip_accents=False, lowercase=False, collapse_whitespace=False), "Ze\u0301  \ufb01X"),
        (dict(form="NFC", strip_accents=False, lowercase=False, collapse_whitespace=False), "Z\u00e9  \ufb01X"),
        (dict(form="NFKC", strip_accents=False, lowercase=True, collapse_whitespace=True), "z\u00e9 fix"),
        (dict(form="NFD", strip_accents=True, lowercase=False, collapse_whitespace=True), "Ze \ufb01X"),
        (dict(form=None, strip_accents=False, lowercase=True, collapse_whitespace=True), "ze\u0301 \ufb01x"),
    ],
)
def test_steps_are_selectable(kwargs, expected):
    nt = normalize("Ze\u0301  \ufb01X", **kwargs)
    assert nt.text == expected
    assert len(nt.starts) == len(nt.ends) == len(nt.text)


def test_nfc_composition_spans_whole_run():
    nt = normalize("e\u0301t", form="NFC", strip_accents=False)
    assert nt.text == "\u00e9t"
    assert nt.spans == [(0, 2), (2, 3)]


def test_empty_and_whitespace_only():
    assert normalize("").text == ""
    nt = normalize(" \t\n ")
    assert nt.text == "" and nt.to_original(0, 0) == (4, 4)


def test_lone_mark_at_start_is_dropped():
    nt = normalize("\u0301a")
    assert nt.text == "a" and nt.spans == [(1, 2)]


def test_lone_surrogate_passes_through():
    nt = normalize("a\ud800b")
    assert nt.text == "a\ud800b"


def test_bad_arguments():
    with pytest.raises(OffsetError):
        normalize("x", form="NFX")
    with pytest.raises(TypeError):
        normalize(b"x")  # type: ignore[arg-type]
    nt = normalize("abc")
    with pytest.raises(OffsetError):
        nt.to_original(2, 5)
    with pytest.raises(OffsetError):
        nt.to_normalized(-1, 2)
    with pytest.raises(OffsetError):
        NormalizedText("a", "ab", [0], [1])


def test_to_normalized_inverts_to_original():
    nt = normalize("Ze\u0301 \ufb01x")
    assert nt.to_normalized(4, 5) == (3, 5)  # the ligature produced "fi"
    assert nt.to_normalized(1, 3) == (1, 2)
    assert nt.to_normalized(2, 3) == (1, 2)  # the accent lives inside "e"


def test_replace_segments_keeps_alignment():
    nt = NormalizedText.identity("abcd")
    out = nt.replace_segments([(1, 2, "XYZ"), (3, 3, "_")])
    assert out.text == "aXYZc_d"
    assert out.spans == [(0, 1), (1, 2), (1, 2), (1, 2), (2, 3), (2, 3), (3, 4)]
    with pytest.raises(OffsetError):
        nt.replace_segments([(2, 3, "q"), (1, 2, "r")])


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_matches_spec_reference(text):
    nt = normalize(text)
    assert (nt.text, nt.spans) == spec_reference(text)


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_spans_in_bounds_and_non_decreasing(text):
    for kwargs in (
        {},
        dict(form="NFC", strip_accents=False, lowercase=False),
        dict(form="NFKC", collapse_whitespace=False),
        dict(form=None),
    ):
        nt = normalize(text, **kwargs)
        assert all(0 <= s < e <= len(text) for s, e in nt.spans)
        assert nt.starts == sorted(nt.starts) and nt.ends == sorted(nt.ends)
        for j in range(len(nt.text) + 1):
            s, e = nt.to_original(0, j)
            assert 0 <= s <= e <= len(text)


# The fast path (words no step reshapes, emitted whole) equals the unit-by-unit definition.

_MIXED = st.text(st.sampled_from(
    list("aZ ΣΟΔς\u0e31\u00a0\t\n\u3000éé\u0301\u0308\u0323İıßﬁ\u1100\u1161\u11a8한\u09c7\u09be\u0928\u093c"
         "\u0915\u094d\u0937\u0e01\u0e38\u200d👩\U0001f3fd\u2000\u00a8Å\u212b\ud800")), max_size=40)


@settings(max_examples=400, deadline=None)
@example("ab \u0e31\u0e01 \u0e31\u0e31 x\u0e31", "NFKD", True, True, True)  # words whose first unit has no image
@example(" \u09be\u0301\u093c", "NFC", False, False, True)  # marks reordered after a space
@given(st.one_of(_MIXED, tricky_text, st.text(max_size=30)),
       st.sampled_from([None, "NFC", "NFD", "NFKC", "NFKD"]), st.booleans(), st.booleans(),
       st.booleans())
def test_normalize_equals_the_unit_by_unit_definition(text, form, strip, lower, collapse):
    options = dict(form=form, strip_accents=strip, lowercase=lower, collapse_whitespace=collapse)
    fast, plain = normalize(text, **options), normalize_by_units(text, **options)
    assert (fast.text, list(fast.starts), list(fast.ends)) == (
        plain.text, list(plain.starts), list(plain.ends))


def test_nonspacing_marks_lie_where_the_fast_path_looks():
    import unicodedata
    from core.text.normalize import MARK_PLANES
    looked = set().union(*map(set, MARK_PLANES))
    assert not [c for c in range(0x110000)
                if c not in looked and unicodedata.category(chr(c)) == "Mn"]


def test_combining_characters_lie_where_the_fast_path_looks():
    import unicodedata
    from core.text.normalize import MARK_PLANES
    looked = set().union(*map(set, MARK_PLANES))
    assert not [c for c in range(0x110000) if c not in looked and unicodedata.combining(chr(c))]


def test_greek_final_sigma_is_lowercased_per_character_as_before():
    assert normalize("ΟΔΟΣ ΟΔΟΣ").text == "οδοσ οδοσ" == normalize_by_units("ΟΔΟΣ ΟΔΟΣ").text
