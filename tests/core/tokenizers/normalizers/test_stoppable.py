"""A long text is normalized in pieces between ``should_stop`` checks, with the result of one
call: ``normalize_stoppable`` equals ``normalize`` for every normalizer of the shared files
and for the components that cut (per character, the Unicode forms, Precompiled), on UDHR
text and on generated text rich in marks, jamo and ASCII pairs; a stop request lands between
pieces."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings, strategies as st

from core.errors import Cancelled
from core.text.normalize import NormalizedText
from core.tokenizers import load
from core.tokenizers.normalizers import base, build_normalizer
from tests.core.strategies import tricky_text
from tests.core.tokenizers.stops import flips_after

FILES = ["bert-base-uncased", "pegasus-unigram", "qwen3", "llama-3", "gemma-3"]
CUTTING = [{"type": t} for t in ("NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Nmt")] + [
    {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
     "strip_accents": None, "lowercase": True}]

pieces = st.lists(st.one_of(tricky_text, st.sampled_from(
    ["ab", " ", "e\u0301", "\u1100\u1161\u11a8", "\u09c7\u09be", "\x01", "\r\n", "a\u0308\u0301",
     "\u0600a", "\u00af\u200c", "  x"])), max_size=40).map("".join)


def _same(a: NormalizedText, b: NormalizedText) -> None:
    assert (a.text, list(a.starts), list(a.ends)) == (b.text, list(b.starts), list(b.ends))
    ta, tb = a.true_map(), b.true_map()
    assert (ta.text, list(ta.starts), list(ta.ends)) == (tb.text, list(tb.starts), list(tb.ends))


@pytest.fixture(scope="module")
def shared_normalizers(data_dir):
    return {name: load(data_dir / "tokenizers" / name / "tokenizer.json").normalizer
            for name in FILES}


@pytest.fixture(scope="module")
def udhr_text(data_dir):
    return "\n".join(p.read_text("utf-8") for p in sorted((data_dir / "udhr").glob("*.txt")))


def test_a_long_text_is_normalized_in_pieces_as_in_one_call(shared_normalizers, udhr_text,
                                                            monkeypatch):
    monkeypatch.setattr(base, "STOP_PIECE", 4096)
    nt = NormalizedText.identity(udhr_text)
    for name, normalizer in shared_normalizers.items():
        if normalizer is None:
            continue
        stop, calls = flips_after(10**9)
        _same(normalizer.normalize_stoppable(nt, stop), normalizer.normalize(nt))
        assert len(calls) > 10 or name in ("llama-3", "gemma-3"), name  # (a string Replace)


@settings(max_examples=200, deadline=None)
@given(text=pieces, piece=st.integers(1, 8), config=st.sampled_from(CUTTING))
@example(text="ab\u0301cd", piece=1, config={"type": "NFC"})
def test_cut_pieces_join_to_the_whole(text, piece, config):
    from unittest import mock

    normalizer = build_normalizer(config)
    nt = NormalizedText.identity(text)
    with mock.patch.object(base, "STOP_PIECE", piece):
        _same(normalizer.normalize_stoppable(nt, lambda: False), normalizer.normalize(nt))


@settings(max_examples=300, deadline=None)
@given(text=pieces, piece=st.integers(1, 8))
@example(text="\x0bab", piece=1)
def test_pegasus_precompiled_cut_pieces_join_to_the_whole(shared_normalizers, text, piece):
    """The charsmap's quirks never meet a cut: a deletion after a grown replacement needs a
    deleted character next to it (cuts are between printable ASCII), and a text starting
    with deleted characters, whose shift runs to its end, is not cut."""
    from unittest import mock

    normalizer = shared_normalizers["pegasus-unigram"]
    nt = NormalizedText.identity(text)
    with mock.patch.object(base, "STOP_PIECE", piece):
        _same(normalizer.normalize_stoppable(nt, lambda: False), normalizer.normalize(nt))


def test_a_stop_request_lands_between_pieces(shared_normalizers, udhr_text, monkeypatch):
    monkeypatch.setattr(base, "STOP_PIECE", 4096)
    stop, calls = flips_after(3)
    with pytest.raises(Cancelled):
        shared_normalizers["qwen3"].normalize_stoppable(NormalizedText.identity(udhr_text), stop)
    assert len(calls) == 4
