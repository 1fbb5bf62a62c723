"""core.align.round_trip: decode(encode(x)) against x — hand cases, properties, real data."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.align.round_trip import Cause, RoundTripError, round_trip, round_trip_of
from core.align.text_alignment import align_texts
from core.errors import SubwordScopeError
from core.text.normalize import NormalizedText, normalize
from core.tokenizers import load
from tests.core.strategies import TRICKY, any_text, tricky_text

C = Cause


def identity(text: str, decoded: str, **kw):
    return round_trip(text, NormalizedText.identity(text), decoded, **kw)


def spans_of(rt):
    return [(d.start, d.end, d.decoded_start, d.decoded_end, d.causes) for d in rt.differences]


# -- hand cases -----------------------------------------------------------------------------

def test_identity_and_empty_text_have_no_differences():
    for text in ("", "Zoé flew", "👩\u200d👩\u200d👧 👍🏽"):
        rt = identity(text, text)
        assert rt.differences == () and rt.unchanged_share == 1.0 and rt.exact
    assert identity("", "").summary() == "comes back exactly, share 100 % unchanged"


def test_teaching_normalizer_loses_case_and_accents_in_the_original():
    text = "Zoé  ÉTÉ"
    nt = normalize(text)  # "zoe ete"
    rt = round_trip(text, nt, nt.text)
    assert spans_of(rt) == [(0, 1, 0, 1, (C.LOST_CASE,)), (2, 3, 2, 3, (C.LOST_ACCENT,)),
                            (4, 5, 4, 4, (C.COLLAPSED_WHITESPACE,)),  # the map keeps the first space
                            (5, 6, 4, 5, (C.LOST_ACCENT, C.LOST_CASE)), (6, 7, 5, 6, (C.LOST_CASE,)),
                            (7, 8, 6, 7, (C.LOST_ACCENT, C.LOST_CASE))]
    assert all(d.by_normalization and not d.by_decoding for d in rt.differences)
    assert rt.matches_normalized and not rt.exact
    assert rt.unchanged_share == 2 / 8
    assert rt.summary() == ("3 lost accents, 4 lost case, 1 collapsed whitespace, share 25.0 % unchanged")


def test_decomposed_accent_is_one_lost_mark():
    text = "e\u0301cole"
    rt = round_trip(text, normalize(text), "ecole")
    assert spans_of(rt) == [(1, 2, 1, 1, (C.LOST_ACCENT,))]
    assert rt.differences[0].describe() == "'\u0301' → '': lost accent (by the normalizer)"


def test_spaces_the_decoder_adds_cost_no_original_character():
    rt = identity("l'homme (1948).", "l ' homme ( 1948 ).")
    assert [(d.start, d.end, d.decoded_text) for d in rt.differences] == [
        (1, 1, " "), (2, 2, " "), (9, 9, " "), (13, 13, " ")]
    assert {d.causes for d in rt.differences} == {(C.ADDED_WHITESPACE,)}
    assert rt.unchanged_share == 1.0 and rt.summary() == "4 added whitespace, share 100 % unchanged"


def test_unknown_spans_and_surfaces():
    text = "ok 👍🏽 ภาษา ok"
    rt = identity(text, "ok [UNK] [UNK] ok", unknown_spans=[(3, 5), (6, 10)], unknown_surfaces=["[UNK]"])
    assert [(d.original_text, d.decoded_text, d.causes) for d in rt.differences] == [
        ("👍🏽", "[UNK]", (C.UNKNOWN,)), ("ภาษา", "[UNK]", (C.UNKNOWN,))]
    skipped = identity(text, "ok ok", unknown_spans=[(3, 5), (6, 10)])
    assert [(d.start, d.end) for d in skipped.differences] == [(3, 5), (5, 6), (6, 10), (10, 11)]
    assert [d.causes for d in skipped.differences] == [(C.UNKNOWN,), (C.COLLAPSED_WHITESPACE,)] * 2
    assert identity("a ⁇ b", "a \u2047 b").differences == ()
    assert identity("a x b", "a \u2047 b").differences[0].causes == (C.UNKNOWN,)


def test_normalization_forms_and_whitespace_changes():
    text = "\ufb01sh\tx\u00b2 e\u0301"
    rt = identity(text, "fish x2 é")
    assert [(d.original_text, d.decoded_text, d.causes) for d in rt.differences] == [
        ("\ufb01", "fi", (C.NORMALIZATION_FORM,)), ("\t", " ", (C.CHANGED_WHITESPACE,)),
        ("\u00b2", "2", (C.NORMALIZATION_FORM,)), ("e\u0301", "é", (C.NORMALIZATION_FORM,))]


def test_other_changes_and_mixed_causes():
    rt = identity("cat", "dog")
    assert spans_of(rt) == [(0, 3, 0, 3, (C.OTHER,))]
    assert identity("ab", "").differences[0].causes == (C.OTHER,)
    assert identity("ÉTÉ", "e t e").differences[0].causes == (C.LOST_ACCENT, C.LOST_CASE, C.ADDED_WHITESPACE)


def test_bad_input_raises_typed_errors():
    with pytest.raises(RoundTripError, match="not the normalization"):
        round_trip("abc", NormalizedText.identity("abd"), "abc")
    with pytest.raises(RoundTripError, match="outside the original"):
        round_trip("ab", NormalizedText("ab", "ab", [0, 1], [1, 3]), "ab")
    with pytest.raises(RoundTripError, match="unknown span"):
        identity("ab", "ab", unknown_spans=[(1, 5)])
    with pytest.raises(TypeError):
        round_trip("ab", "ab", "ab")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        identity("ab", None)  # type: ignore[arg-type]
    with pytest.raises(RoundTripError, match="cannot decode"):
        round_trip_of(object(), "ab")
    assert issubclass(RoundTripError, SubwordScopeError)


# -- properties ---------------------------------------------------------------------------

def check_well_formed(rt):
    prev_end = prev_dend = 0
    for d in rt.differences:
        assert 0 <= d.start <= d.end <= len(rt.original)
        assert 0 <= d.decoded_start <= d.decoded_end <= len(rt.decoded)
        assert d.start >= prev_end and d.decoded_start >= prev_dend  # sorted, non-overlapping
        assert (d.start, d.decoded_start) != (d.end, d.decoded_end)
        assert d.original_text == rt.original[d.start:d.end]
        assert d.decoded_text == rt.decoded[d.decoded_start:d.decoded_end]
        assert d.original_text != d.decoded_text and d.causes
        prev_end, prev_dend = d.end, d.decoded_end
    assert rt.unchanged_share == (1 - (len(rt.original) - rt.unchanged_characters) / len(rt.original)
                                  if rt.original else 1.0)
    assert 0.0 <= rt.unchanged_share <= 1.0


def rebuild(original: str, decoded: str, rt) -> str:
    """The decoded text from the original and the differences (they cover every change)."""
    out, pos = [], 0
    for d in rt.differences:
        out.append(original[pos:d.start])
        out.append(d.decoded_text)
        pos = d.end
    out.append(original[pos:])
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(any_text, st.sampled_from([None, "NFC", "NFD", "NFKC", "NFKD"]), st.booleans(), st.booleans(), st.booleans())
def test_normalized_decode_is_well_formed_and_blamed_on_the_normalizer(text, form, strip, lower, collapse):
    nt = normalize(text, form=form, strip_accents=strip, lowercase=lower, collapse_whitespace=collapse)
    rt = round_trip(text, nt, nt.text)
    check_well_formed(rt)
    assert rebuild(text, nt.text, rt) == nt.text
    assert not any(d.by_decoding for d in rt.differences)
    assert Cause.UNKNOWN not in rt.counts()


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_identity_decode_has_no_differences(text):
    rt = identity(text, text)
    assert rt.differences == () and rt.unchanged_share == 1.0


@settings(max_examples=300, deadline=None)
@given(tricky_text, any_text)
def test_any_decoded_text_is_well_formed_and_rebuilds(text, decoded):
    rt = identity(text, decoded)
    check_well_formed(rt)
    assert rebuild(text, decoded, rt) == decoded


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(TRICKY + [" ", "  ", "\t"]), max_size=16).map("".join))
def test_whitespace_only_edits_lose_only_whitespace(text):
    rt = identity(text, " ".join(text.split()))
    check_well_formed(rt)
    assert all(not d.original_text.strip() and not d.decoded_text.strip() for d in rt.differences)
    assert set(rt.counts()) <= {C.COLLAPSED_WHITESPACE, C.CHANGED_WHITESPACE, C.ADDED_WHITESPACE}


@settings(max_examples=300, deadline=None)
@given(any_text, any_text)
def test_alignment_opcodes_cover_both_texts_like_difflib(a, b):
    ops = align_texts(a, b)
    i = j = 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (i, j) and i2 >= i1 and j2 >= j1 and (i2 > i1 or j2 > j1)
        assert (a[i1:i2] == b[j1:j2]) if tag == "equal" else tag == {(1, 1): "replace", (1, 0): "delete",
                                                                       (0, 1): "insert"}[(i2 > i1, j2 > j1)]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    assert (ops == [("equal", 0, len(a), 0, len(a))] if a else ops == []) if a == b else True


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefgh ", min_size=0, max_size=60), st.integers(0, 60), st.text(alphabet="XYZ", min_size=1, max_size=5))
def test_one_insertion_is_found_exactly(a, at, piece):
    at = min(at, len(a))
    ops = [op for op in align_texts(a, a[:at] + piece + a[at:]) if op[0] != "equal"]
    assert len(ops) == 1 and ops[0][0] == "insert" and ops[0][4] - ops[0][3] == len(piece)


def test_alignment_of_long_texts_with_a_few_changes_finds_them():
    rng = random.Random(5)
    a = " ".join("".join(rng.choice("abcdefghij") for _ in range(4)) for _ in range(2000))
    b = a[:3000] + "XYZ" + a[3000:6000] + a[6004:]
    ops = [op for op in align_texts(a, b) if op[0] != "equal"]
    assert ops == [("insert", 3000, 3000, 3000, 3003), ("delete", 6000, 6004, 6003, 6003)]


# -- real tokenizers ----------------------------------------------------------------------

SHARED = {"bert": "bert-base-uncased/tokenizer.json", "gpt2": "gpt2/tokenizer.json",
          "pegasus": "pegasus-unigram/tokenizer.json", "cl100k": "cl100k_base/cl100k_base.tiktoken"}


@pytest.fixture(scope="module")
def shared(data_dir):
    return {k: load(data_dir / "tokenizers" / p) for k, p in SHARED.items()}


def udhr(data_dir, code: str) -> str:
    return (data_dir / "udhr" / f"{code}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("code", ["fra", "vie"])
def test_bert_uncased_loses_accents_and_case(shared, data_dir, code):
    rt = round_trip_of(shared["bert"], udhr(data_dir, code))
    counts = rt.counts()
    assert counts[C.LOST_ACCENT] > 50 and counts[C.LOST_CASE] > 50 and C.UNKNOWN not in counts
    first = rt.differences[0]
    assert (first.start, first.original_text, first.causes) == (
        {"fra": (0, "D", (C.LOST_CASE,)), "vie": (0, "T", (C.LOST_CASE,))}[code])
    assert any(d.original_text == {"fra": "é", "vie": "ê"}[code] and d.causes == (C.LOST_ACCENT,)
               for d in rt.differences)
    check_well_formed(rt)


def test_bert_first_french_line_golden(shared, data_dir):
    line = udhr(data_dir, "fra").splitlines()[0]  # "Déclaration universelle des droits de l’homme"
    rt = round_trip_of(shared["bert"], line)
    assert rt.decoded == "declaration universelle des droits de l ’ homme"
    assert spans_of(rt) == [(0, 1, 0, 1, (C.LOST_CASE,)), (1, 2, 1, 2, (C.LOST_ACCENT,)),
                            (39, 39, 39, 40, (C.ADDED_WHITESPACE,)), (40, 40, 41, 42, (C.ADDED_WHITESPACE,))]
    assert rt.summary() == "1 lost accent, 1 lost case, 2 added whitespace, share 95.6 % unchanged"


@pytest.mark.parametrize("name, code", [("bert", "tha"), ("bert", "amh"), ("pegasus", "amh"), ("pegasus", "tha")])
def test_unknown_scripts_come_back_as_unknowns(shared, data_dir, name, code):
    rt = round_trip_of(shared[name], udhr(data_dir, code))
    assert rt.counts()[C.UNKNOWN] >= 1 and rt.unchanged_share < 0.1
    unknown = sum(d.end - d.start for d in rt.differences if d.causes == (C.UNKNOWN,))
    assert unknown > 0.8 * len(rt.original)
    check_well_formed(rt)


def test_bert_unknown_emoji(shared):
    rt = round_trip_of(shared["bert"], "👩\u200d👩\u200d👧 👍🏽 ok")
    assert [(d.original_text, d.causes) for d in rt.differences] == [
        ("👩\u200d👩\u200d👧", (C.UNKNOWN,)), (" ", (C.COLLAPSED_WHITESPACE,)), ("👍🏽", (C.UNKNOWN,)),
        (" ", (C.COLLAPSED_WHITESPACE,))]


@pytest.mark.parametrize("name", ["gpt2", "cl100k"])
def test_byte_level_tokenizers_come_back_exactly_on_all_udhr_texts(shared, data_dir, name):
    files = sorted((data_dir / "udhr").glob("*.txt"))
    assert len(files) == 29
    for f in files:
        rt = round_trip_of(shared[name], f.read_text(encoding="utf-8"))
        assert rt.exact and rt.unchanged_share == 1.0 and rt.differences == (), f.name


@settings(max_examples=60, deadline=None)
@given(text=tricky_text)
def test_shared_tokenizers_give_well_formed_round_trips(shared, text):
    for name, tok in shared.items():
        rt = round_trip_of(tok, text)
        check_well_formed(rt)
        assert rebuild(text, rt.decoded, rt) == rt.decoded, name
        if name in ("gpt2", "cl100k"):  # byte-level: every string without lone surrogates comes back
            assert rt.exact, (name, text)
