"""Qwen3 (the shared tokenizer.json with an NFC normalizer; no other shared file uses a
Unicode form) equals ``tokenizers`` on the 29 UDHR texts, on them decomposed (NFD, so NFC
has everything to compose) and on two-part vowel signs and conjoining jamo; derived spans
cover every source of a composed character."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings

from benchmarks.parity import _hf_from_file, compare_case
from tests.core.tokenizers.normalizers.test_unicode_forms import rich_text
from tests.core.tokenizers.loaded import shared_tokenizer

pytest.importorskip("tokenizers")

QWEN3 = "qwen3/tokenizer.json"
COMPOSING = [
    "\u09c7\u09be \u0995\u09c7\u09be\u09b0 \u0995\u09c7\u09d7",  # Bengali o / au in two parts
    "\u0b95\u0bc6\u0bbe \u0b95\u0bc6\u0bd7 \u0b95\u0bc7\u0bbe",  # Tamil
    "\u0d15\u0d46\u0d3e \u0d15\u0d46\u0d57 \u0d15\u0d47\u0d3e",  # Malayalam
    "\u1112\u1161\u11ab\u1100\u1173\u11af \u110b\u1175\u11af\u1100\u1175",  # 한글 일기 as jamo
    "cafe\u0301 na\u0308ive \u0928\u093c\u0940 a\u0301\u0316 x\u0316\u0301\u0323y",
]


@pytest.fixture(scope="module")
def pair(data_dir):
    path = data_dir / "tokenizers" / QWEN3
    return shared_tokenizer(data_dir, QWEN3), _hf_from_file(path)


def test_udhr_texts_equal_reference(pair, udhr_texts):
    ours, ref = pair
    failures = []
    for code, text in sorted(udhr_texts.items()):
        diff = compare_case(ours, ref, text, False)
        if not diff.equal:
            failures.append(f"{code}: {diff.first_difference}")
    assert len(udhr_texts) == 29 and not failures, "\n".join(failures)


def test_decomposed_udhr_lines_and_composing_cases_equal_reference(pair, udhr_texts):
    ours, ref = pair
    lines = [ln for t in udhr_texts.values() for ln in t.splitlines()[:6]]
    failures = []
    for text in [unicodedata.normalize("NFD", ln) for ln in lines] + COMPOSING:
        for special in (False, True):
            diff = compare_case(ours, ref, text, special)
            if not diff.equal:
                failures.append(f"{text[:20]!r}: {diff.first_difference}")
    assert not failures, "\n".join(failures[:10])


def test_jamo_compose_to_as_many_tokens_as_syllables(pair):
    ours, ref = pair
    jamo = "\u1112\u1161\u11ab\u1100\u1173\u11af"
    syllables = ours.encode("\ud55c\uae00").ids
    assert ours.encode(jamo).ids == ref(jamo, False)[1] == syllables and len(syllables) < 6


@pytest.mark.parametrize("text, derived", [
    ("cafe\u0301 x", (2, 5)),  # tokens "ca", "fé"
    ("\u09c7\u09be\u0995", (0, 2)),
    ("\u1112\u1161\u11ab\u1100\u1173\u11af", (0, 3)),
    ("\u0928\u093c", (0, 2)),
])
def test_derived_spans_cover_every_source_of_a_composed_character(pair, text, derived):
    ours, _ = pair
    enc = ours.encode(text)
    spans = enc.derived_offsets
    # the tokens that hold the composed character (byte-level: maybe several)
    held = [j for j in range(len(enc)) if enc.offsets[j][0] == derived[0]]
    assert held and all(spans[j] == derived for j in held), (enc.tokens, list(enc.offsets), list(spans))
    assert all(enc.offsets[j][1] < derived[1] for j in held)  # the reference's span is shorter


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=rich_text)
def test_derived_spans_cover_every_code_point_of_generated_text(pair, text):
    """Qwen3 drops nothing and marks nothing unknown, so every code point with content lies
    in some token's derived span, the sources a composition absorbed included."""
    ours, ref = pair
    enc = ours.encode(text)
    assert enc.ids == ref(text, False)[1]
    covered = bytearray(len(text))
    for a, b in enc.derived_offsets:
        covered[a:b] = b"\x01" * (b - a)
    missed = [i for i, c in enumerate(text) if not covered[i] and not c.isspace()]
    assert not missed, (text, missed, list(enc.offsets), list(enc.derived_offsets))
