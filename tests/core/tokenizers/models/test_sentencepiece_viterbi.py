"""The SentencePiece Unigram Viterbi (:class:`UnigramViterbi`): its prefix table gives
exactly the pieces a scan of the vocabulary gives, a cached word path is the float32 path
wherever the cache says so, and whole texts long enough for the library's rescaling
(path scores past ``-RESCALE``) encode exactly as ``sentencepiece`` — ids and spans."""

from __future__ import annotations

import io
import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from core.errors import Cancelled
from core.tokenizers.formats.sentencepiece.model import SentencePieceModel
from core.tokenizers.models.sentencepiece import (
    NORMAL, RESCALE, UNKNOWN, USER_DEFINED, UnigramViterbi, _f32)
from tests.core.strategies import tricky_text

spm = pytest.importorskip("sentencepiece")

LANGS = ("eng", "fra", "deu_1996", "rus", "cmn_hans", "hin", "arb", "tur")
FIXTURE_CHECKS = [HealthCheck.function_scoped_fixture]


def _sample(data_dir, n):
    parts = [(data_dir / "udhr" / f"{c}.txt").read_text("utf-8") for c in LANGS]
    text = "".join(p[: n // len(parts)] + "\n" for p in parts)
    while len(text) < n:
        text += text
    return text[:n]


@pytest.fixture(scope="module")
def model_bytes(data_dir):
    lines = [ln for c in LANGS for ln in (data_dir / "udhr" / f"{c}.txt").read_text("utf-8").splitlines()
             if ln.strip()]
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=out, model_type="unigram",
                                   vocab_size=3000, byte_fallback=True, character_coverage=0.9995,
                                   user_defined_symbols=["<sep>"], minloglevel=2, num_threads=1)
    return out.getvalue()


@pytest.fixture(scope="module")
def model(model_bytes):
    return SentencePieceModel.from_bytes(model_bytes)


@pytest.fixture(scope="module")
def processor(model_bytes):
    return spm.SentencePieceProcessor(model_proto=model_bytes)


def _usable(model):
    return {p: i for i, (p, t) in enumerate(zip(model.pieces, model.types)) if t in (NORMAL, USER_DEFINED)}


def _words(model):
    """Strategy: a word of the normalized text — ``▁`` and 1-4 pieces or odd characters."""
    pieces = sorted(p for p in _usable(model) if "\u2581" not in p)
    part = st.one_of(st.sampled_from(pieces), st.sampled_from(["\u0645", "\u4e2d", "\U0001F600", "Q", "\u00e9"]))
    return st.lists(part, min_size=1, max_size=4).map(lambda xs: "\u2581" + "".join(xs))


# -- the prefix table ------------------------------------------------------------------------

@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE_CHECKS)
@given(data=st.data())
def test_property_prefix_table_gives_the_pieces_a_scan_gives(model, data):
    word = data.draw(_words(model))
    i = data.draw(st.integers(0, len(word) - 1))
    usable = _usable(model)
    v = model.viterbi
    scan = [(j, usable[word[i:j]]) for j in range(i + 1, len(word) + 1) if word[i:j] in usable]
    if not scan or scan[0][0] != i + 1:
        scan.append((i + 1, model.unk_id))
    # private: the Viterbi's prefix-table edges, compared with a plain scan
    assert [(j, id_) for j, id_, _ in v._edges(word, i)] == scan


def test_prefix_table_holds_every_prefix_and_no_unused_piece(model):
    v = model.viterbi
    usable = _usable(model)
    assert {p for p, i in v.prefixes.items() if i >= 0} == set(usable)
    assert all(p[:k] in v.prefixes for p in usable for k in range(1, len(p)))
    assert v.cut == "before"
    user = model.vocab["<sep>"]
    assert v.scores[user] == pytest.approx(5 * model.max_score - 0.1, abs=1e-6)


# -- the word cache --------------------------------------------------------------------------

@settings(max_examples=200, deadline=None, suppress_health_check=FIXTURE_CHECKS)
@given(data=st.data())
def test_property_a_cached_path_is_the_float32_path_where_the_cache_says_so(model, data):
    word = data.draw(_words(model))
    base = data.draw(st.one_of(st.floats(-RESCALE + 200, 0.0), st.sampled_from(
        [0.0, -65535.9, -65536.1, -32768.0, -99000.0, -1.0])))
    base = _f32(base)  # path scores are float32
    v = model.viterbi
    # private: the exact-score entries of the Viterbi's fast path, compared with the slow one
    ends, ids, scores, widest, emax = v._exact(word)
    want_ends, want_ids, want_score = v.solve(word, base)
    reach = abs(base) + widest + 2.0
    if emax is not None and reach < RESCALE and math.frexp(reach)[1] <= emax:
        assert (ends, ids) == (want_ends, want_ids)
        chained = base
        for s in scores:
            chained = _f32(s + chained)
        assert chained == want_score


def test_the_cache_serves_almost_every_udhr_word_and_refuses_exact_ties(model, data_dir):
    v = model.viterbi
    words = v.words(model.normalize(_sample(data_dir, 20000)).text)
    # private: the exact-score entries of the Viterbi's fast path, compared with the slow one
    entries = [v._exact(w) for w in words if len(w) <= 64]
    served = [e for e in entries if e[4] is not None and math.frexp(30000.0 + e[3] + 2)[1] <= e[4]]
    assert len(served) > 0.9 * len(entries)
    tiny = UnigramViterbi(_Stub(["<unk>", "I", "II", "\u2581"], [0.0, -1.0, -2.0, -1.0],
                                [UNKNOWN, NORMAL, NORMAL, NORMAL]), "\u2581")
    assert tiny._exact("\u2581III")[4] is None  # I|II and II|I tie exactly
    assert tiny.solve("\u2581III", 0.0)[:2] == ([1, 2, 4], [3, 1, 2])  # the earlier start wins


class _Stub:
    def __init__(self, pieces, scores, types):
        self.pieces, self.scores, self.types = pieces, scores, types
        self.unk_id = types.index(UNKNOWN)
        self.min_score = min(s for s, t in zip(scores, types) if t == NORMAL)
        self.max_score = max(s for s, t in zip(scores, types) if t == NORMAL)


# -- whole texts against the library ---------------------------------------------------------

def _reference(processor, text):
    at, pos = {}, 0
    for i, c in enumerate(text):
        at[pos] = i
        pos += len(c.encode("utf-8", "surrogatepass"))
    at[pos] = len(text)
    return [(p.id, at[p.begin], at[p.end]) for p in processor.encode(text, out_type="proto").pieces]


def _ours(model, text):
    pieces, ids, starts, ends, _ = model.encode_parts(text)
    return list(zip(ids, starts, ends))


def test_a_long_text_past_the_rescaling_encodes_like_the_library(model, processor, data_dir):
    text = _sample(data_dir, 150_000)
    want = _reference(processor, text)
    assert sum(processor.get_score(i) for i, _, _ in want) < -2 * RESCALE  # rescaled twice
    assert _ours(model, text) == want
    assert _ours(model, text + " x") == _reference(processor, text + " x")  # warm cache


def test_rescaling_inside_a_word_matches_the_library(model, processor):
    """A filler brings the path score near ``-RESCALE``; the threshold then falls inside
    the Arabic words at some filler lengths (the library rescales mid-word)."""
    word = " \u0641\u064a \u0623\u0648\u0642\u0627\u062a \u0627\u0644\u0641\u0631\u0627\u063a"
    per = -sum(map(processor.get_score, processor.encode("human")))
    first = int(RESCALE / per) - 6
    for n in range(first, first + 12):
        text = "human " * n + word
        assert _ours(model, text)[-8:] == _reference(processor, text)[-8:], n


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE_CHECKS)
@given(text=st.one_of(tricky_text, st.text(st.sampled_from(" ab\u3000\u200b\t\n\ufb01<sep>"), max_size=40)))
def test_property_normalized_text_and_spans_match_the_library(model, processor, text):
    assert model.normalize(text).text == processor.normalize(text)
    assert _ours(model, text) == _reference(processor, text)


def test_should_stop_cancels_inside_the_segmentation(model, data_dir):
    text = _sample(data_dir, 20000)
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 1

    with pytest.raises(Cancelled):
        model.encode_parts(text, stop)
    assert len(calls) == 2
