"""NFC/NFD/NFKC/NFKD (core.text.unicode_forms, UnicodeForm): text equal to unicodedata on
every code point and on generated text rich in Indic vowel signs, nuktas, Hangul jamo and
stacked marks; offsets equal to ``tokenizers``' (a hand-built tokenizer.json per form that
makes one token of every normalized character); the teaching normalizer's units."""

from __future__ import annotations

import json
import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.text.normalize import NormalizedText, normalize
from core.text.unicode_forms import FORMS, SCAN_END, aligned, changed_segments, normalize_form
from core.tokenizers.normalizers import Compose, Decompose
from core.tokenizers.normalizers.unicode import UnicodeForm

# Pieces whose normal forms interact with their neighbours.
PIECES = [
    "a", "e", "o", "x", " ", "A",
    "\u0301", "\u0300", "\u0308", "\u0302", "\u030a",  # class 230 marks
    "\u0316", "\u0323", "\u0327", "\u0328",  # classes 220, 220, 202, 202
    "\u0345", "\u0313", "\u03b1", "\u1fb7",  # Greek: ypogegrammeni (240), psili, alpha
    "\u1e09", "\u00e9", "\u00c5", "\u212b", "\u0344", "\u0340",  # composites and singletons
    "\u0f71", "\u0f72", "\u0f73", "\u0f80",  # Tibetan vowels (classes 129, 130, 132)
    "\u0995", "\u09bc", "\u09be", "\u09c7", "\u09d7", "\u09cb", "\u09dc",  # Bengali
    "\u0b95", "\u0bbe", "\u0bc6", "\u0bc7", "\u0bd7",  # Tamil two-part vowel signs
    "\u0d15", "\u0d3e", "\u0d46", "\u0d47", "\u0d57",  # Malayalam
    "\u0928", "\u093c", "\u0929", "\u0958", "\u094d",  # Devanagari nukta, exclusion, virama
    "\u1100", "\u1112", "\u1161", "\u1173", "\u11a8", "\u11ab", "\u11af",  # jamo L, V, T
    "\uac00", "\ud55c", "\ub098",  # LV and LVT syllables
    "\ufb01", "\u3300", "\uff76\uff9e", "\u2460", "\u1e9b\u0323",  # compatibility
]
rich_text = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


def _transformed(text: str, form: str) -> NormalizedText:
    """The offsets by the plain rule: the whole text's aligned pairs through ``transform``."""
    return NormalizedText.identity(text).transform(aligned(text, form))


# -- text ---------------------------------------------------------------------------------

@pytest.mark.parametrize("form", FORMS)
def test_every_code_point_equals_unicodedata(form):
    changed = [chr(c) for c in range(sys.maxunicode + 1)
               if not unicodedata.is_normalized(form, chr(c))]
    assert changed  # every form changes some code point
    wrong = [c for c in changed if normalize_form(c, form) != unicodedata.normalize(form, c)]
    assert not wrong, [f"U+{ord(c):04X}" for c in wrong[:10]]
    # and after a base letter with a mark, where composition and reordering can reach them
    wrong = [c for c in changed[::7] if normalize_form("a\u0316" + c, form)
             != unicodedata.normalize(form, "a\u0316" + c)]
    assert not wrong, [f"U+{ord(c):04X}" for c in wrong[:10]]


def test_no_code_point_past_the_scanned_range_decomposes_or_combines():
    for code in range(SCAN_END, sys.maxunicode + 1):
        c = chr(code)
        assert not unicodedata.decomposition(c) and not unicodedata.combining(c), hex(code)


@settings(max_examples=400, deadline=None)
@given(text=rich_text)
def test_generated_text_equals_unicodedata_and_segments_equal_the_whole(text):
    for form in FORMS:
        want = unicodedata.normalize(form, text)
        assert "".join(c for c, _ in aligned(text, form)) == want
        assert normalize_form(text, form) == want
        nt = UnicodeForm(form).normalize(NormalizedText.identity(text))
        slow = _transformed(text, form)
        assert (nt.text, list(nt.starts), list(nt.ends)) == (slow.text, list(slow.starts), list(slow.ends))


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(rich_text, st.lists(st.sampled_from(PIECES + ["\n", "\u0301\u0323"]),
                                          max_size=20).map("".join)))
def test_segments_are_those_of_the_one_regex_scan(text):
    """The scan for runs (and the code point before each, added after the match) finds
    the segments the definition's single regex finds: a run of non-boundary code points
    with the one before it, or a lone code point the form changes."""
    import re

    from core.text.unicode_forms import _segment, _tables

    for form in FORMS:
        body, also = _tables().classes[form]
        defined = [(m.start(), m.end()) for m in re.finditer(f"(?s:.)?[{body}]+|[{also}]", text)
                   if _segment(m.group(), form) is not None]
        assert [(a, b) for a, b, _ in changed_segments(text, form)] == defined


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(PIECES + ["\n", "\n", "\u0301\u0323"]), max_size=30).map("".join))
def test_a_text_cut_at_line_feeds_gives_the_segments_of_the_whole(text):
    """With ranges of two code points, the text is cut at nearly every line feed and only
    the pieces that are not normalized are scanned: the segments and the text are those of
    the whole (a piece left out, or a cut that split a segment, would differ)."""
    import re
    from unittest import mock

    from core.text import unicode_forms
    from core.text.unicode_forms import _segment, _tables

    with mock.patch.object(unicode_forms, "_RANGE", 2):
        for form in FORMS:
            body, also = _tables().classes[form]
            defined = [(m.start(), m.end()) for m in re.finditer(f"(?s:.)?[{body}]+|[{also}]", text)
                       if _segment(m.group(), form) is not None]
            assert [(a, b) for a, b, _ in changed_segments(text, form)] == defined
            assert normalize_form(text, form) == unicodedata.normalize(form, text)


@pytest.mark.parametrize("text, form, want", [
    ("\u09c7\u09be", "NFC", "\u09cb"),  # Bengali o: the second part has class 0
    ("\u0bc6\u0bbe", "NFC", "\u0bca"), ("\u0d46\u0d57", "NFC", "\u0d4c"),
    ("\u1112\u1161\u11ab\u1100\u1173\u11af", "NFC", "\ud55c\uae00"),  # 한글 from jamo
    ("\u1112\u1161\u11ab", "NFKC", "\ud55c"),  # tokenizers#1201
    ("a\u0301\u0316", "NFD", "a\u0316\u0301"),  # canonical order
    ("a\u0316\u0301", "NFC", "\u00e1\u0316"),  # 220 does not block 230
    ("a\u0301\u0301", "NFC", "\u00e1\u0301"),  # the same class blocks
    ("\u09c7\u09bc\u09be", "NFC", "\u09c7\u09bc\u09be"),  # a nukta blocks a class-0 part
    ("\u0928\u093c", "NFC", "\u0929"), ("\u0958", "NFC", "\u0915\u093c"),  # an exclusion
])
def test_known_cases(text, form, want):
    assert unicodedata.normalize(form, text) == want
    assert UnicodeForm(form).normalize(NormalizedText.identity(text)).text == want


def test_a_composed_character_takes_its_first_sources_span():
    nt = Compose("NFC").normalize(NormalizedText.identity("xe\u0301\u1112\u1161\u11abx"))
    assert nt.text == "x\u00e9\ud55cx"
    assert nt.spans == [(0, 1), (1, 2), (3, 4), (6, 7)]
    nt = Decompose("NFD").normalize(NormalizedText.identity("\u00e9a\u0301\u0316"))
    assert nt.text == "e\u0301a\u0316\u0301"  # the marks swap; spans stay by position
    assert nt.spans == [(0, 1), (0, 1), (1, 2), (2, 3), (3, 4)]


def test_long_text_takes_the_segment_path():
    text = ("e\u0301 \u09c7\u09be \u1100\u1161 plain " * 3000)
    nt = Compose("NFC").normalize(NormalizedText.identity(text))
    assert nt.text == unicodedata.normalize("NFC", text)
    slow = _transformed(text, "NFC")
    assert list(nt.starts) == list(slow.starts) and list(nt.ends) == list(slow.ends)
    assert len(list(changed_segments(text, "NFC"))) == 3 * 3000


def test_a_normalized_text_is_returned_as_is():
    nt = NormalizedText.identity("déjà vu")
    assert Compose("NFC").normalize(nt) is nt


def test_an_unknown_form_is_refused():
    with pytest.raises(ValueError, match="NFX"):
        UnicodeForm("NFX")
    with pytest.raises(ValueError, match="NFX"):
        aligned("a", "NFX")


# -- offsets against tokenizers -------------------------------------------------------------

def _one_token_per_character(form: str):
    tokenizers = pytest.importorskip("tokenizers")
    cfg = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
           "normalizer": {"type": form},
           "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "[\\s\\S]"},
                             "behavior": "Isolated", "invert": False},
           "post_processor": None, "decoder": None,
           "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
    return tokenizers.Tokenizer.from_str(json.dumps(cfg))


_REFERENCE: dict[str, object] = {}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=rich_text)
def test_offsets_equal_the_reference(text):
    """Each normalized character's span, as ``Tokenizer.encode(...).offsets`` gives it."""
    for form in FORMS:
        ref = _REFERENCE.get(form) or _REFERENCE.setdefault(form, _one_token_per_character(form))
        nt = UnicodeForm(form).normalize(NormalizedText.identity(text))
        want = [tuple(o) for o in ref.encode(text).offsets]
        assert len(nt.text) == len(want)
        assert nt.spans == want, form


# -- the teaching normalizer ------------------------------------------------------------------

def test_teaching_normalizer_uses_the_same_forms():
    plain = dict(strip_accents=False, lowercase=False, collapse_whitespace=False)
    nt = normalize("a\u09c7\u09be\u1100\u1161", form="NFC", **plain)
    assert nt.text == "a\u09cb\uac00" and nt.spans == [(0, 1), (1, 3), (3, 5)]
    nt = normalize("a\u0301\u0316b", form="NFD", **plain)
    assert nt.text == "a\u0316\u0301b" and nt.spans == [(0, 3)] * 3 + [(3, 4)]
    nt = normalize("\u00e9", form="NFD", **plain)  # one code point, its own unit (SPEC §1)
    assert nt.spans == [(0, 1), (0, 1)]


@settings(max_examples=200, deadline=None)
@given(text=rich_text, form=st.sampled_from(FORMS))
def test_teaching_normalizer_text_is_the_form(text, form):
    nt = normalize(text, form=form, strip_accents=False, lowercase=False, collapse_whitespace=False)
    assert nt.text == unicodedata.normalize(form, text)
