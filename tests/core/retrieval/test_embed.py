"""embed_corpus: pooled unit vectors, the on-disk cache, progress and cancel; the real MiniLM."""

from __future__ import annotations

import faulthandler
import json
import os
import zlib

import numpy as np
import pytest

from core.errors import Cancelled
from core.retrieval import RetrievalError, cache_key, embed_corpus


class FakeOutput:
    def __init__(self, H, mask):
        self.last_hidden_state, self.attention_mask = H, mask


class FakeEncoder:
    """Per-word random vectors (no context), padded per call; counts the texts it encodes."""

    dim = 6

    def __init__(self, path=None):
        self.path, self.encoded, self.calls = path, 0, 0

    def encode(self, texts, *, progress=None, should_stop=None):
        self.calls += 1
        self.encoded += len(texts)
        rows = [["[CLS]", *t.lower().split(), "[SEP]"] for t in texts]
        T = max(len(r) for r in rows)
        H = np.full((len(rows), T, self.dim), 99.0, dtype=np.float32)  # padding: garbage
        mask = np.zeros((len(rows), T), dtype=np.int64)
        for b, r in enumerate(rows):
            for i, w in enumerate(r):
                H[b, i] = np.random.default_rng(zlib.crc32(w.encode())).standard_normal(self.dim)
            mask[b, : len(r)] = 1
        if progress is not None:
            progress(1.0)
        return FakeOutput(H, mask)


@pytest.fixture
def model_dir(tmp_path):
    d = tmp_path / "model"
    d.mkdir()
    (d / "config.json").write_text('{"hidden_size": 6}')
    (d / "model.safetensors").write_bytes(b"weights")
    (d / "tokenizer.json").write_text("{}")
    return d


TEXTS = ["the cat sat", "a much longer text about the cat and the dog", "", "dog", "the cat sat"]


def test_vectors_are_masked_pools_of_unit_length_in_input_order(model_dir, tmp_path):
    enc = FakeEncoder(model_dir)
    E = embed_corpus(enc, TEXTS, cache_dir=tmp_path / "cache", batch_size=2)
    assert E.shape == (5, 6) and E.dtype == np.float32
    assert np.allclose(np.linalg.norm(E, axis=1), 1, atol=1e-6)
    assert np.array_equal(E[0], E[4])  # same text, different batches: padding never counts
    one = FakeEncoder().encode(["dog"])
    ref = one.last_hidden_state[0].mean(axis=0)
    assert np.allclose(E[3], ref / np.linalg.norm(ref), atol=1e-6)
    assert enc.calls == 3  # batches of 2 texts


def test_second_call_reads_the_cache_and_keys_change_with_inputs(model_dir, tmp_path):
    cache = tmp_path / "cache"
    enc = FakeEncoder(model_dir)
    first = embed_corpus(enc, TEXTS, cache_dir=cache)
    assert enc.encoded == 5 and len(list(cache.glob("*.npy"))) == 1
    seen = []
    again = embed_corpus(enc, TEXTS, cache_dir=cache, progress=seen.append)
    assert enc.encoded == 5 and np.array_equal(first, again) and seen == [1.0]
    embed_corpus(enc, TEXTS, cache_dir=cache, pooling="max")
    embed_corpus(enc, TEXTS[:4], cache_dir=cache)
    embed_corpus(enc, TEXTS, cache_dir=cache, cache=False)
    assert enc.encoded == 5 + 5 + 4 + 5 and len(list(cache.glob("*.npy"))) == 3
    key = cache_key(model_dir, TEXTS, "mean")
    assert key != cache_key(model_dir, ["the cat", "sat", *TEXTS[1:]], "mean")  # texts length-prefixed
    (model_dir / "model.safetensors").write_bytes(b"other weights")
    assert cache_key(model_dir, TEXTS, "mean") != key
    embed_corpus(enc, TEXTS, cache_dir=cache)
    assert enc.encoded == 24


def test_a_corrupt_cache_file_is_recomputed(model_dir, tmp_path):
    cache = tmp_path / "cache"
    enc = FakeEncoder(model_dir)
    E = embed_corpus(enc, TEXTS, cache_dir=cache)
    next(cache.glob("*.npy")).write_bytes(b"not an array")
    assert np.array_equal(embed_corpus(enc, TEXTS, cache_dir=cache), E) and enc.encoded == 10


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_fifo_in_place_of_a_cache_file_is_never_opened(model_dir, tmp_path):
    """Issue 30 §4: a FIFO planted where the cache file goes would block the reading worker
    forever; it is looked at first, left alone and the vectors recomputed."""
    cache = tmp_path / "cache"
    enc = FakeEncoder(model_dir)
    E = embed_corpus(enc, TEXTS, cache_dir=cache)
    path = next(p for p in cache.glob("*.npy") if not p.name.endswith(".norms.npy"))
    path.unlink()
    os.mkfifo(path)
    faulthandler.dump_traceback_later(60, exit=True)  # a blocked read fails the run, never hangs it
    try:
        assert np.array_equal(embed_corpus(enc, TEXTS, cache_dir=cache), E) and enc.encoded == 10
    finally:
        faulthandler.cancel_dump_traceback_later()


def test_an_encoder_without_a_folder_is_not_cached(tmp_path):
    enc = FakeEncoder(None)
    embed_corpus(enc, TEXTS, cache_dir=tmp_path)
    embed_corpus(enc, TEXTS, cache_dir=tmp_path)
    assert enc.encoded == 10 and not list(tmp_path.iterdir())


def test_progress_rises_to_one_and_should_stop_cancels(model_dir, tmp_path):
    seen = []
    embed_corpus(FakeEncoder(model_dir), TEXTS, batch_size=1, cache=False, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 5
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 2

    enc = FakeEncoder(model_dir)
    with pytest.raises(Cancelled):
        embed_corpus(enc, TEXTS, batch_size=1, cache_dir=tmp_path / "c", should_stop=stop)
    assert enc.encoded == 2 and not (tmp_path / "c").exists()


class TokenizingEncoder(FakeEncoder):
    """Also has ``tokenize`` (as ``core.encoder.Encoder`` does): batches follow token counts."""

    def tokenize(self, texts):
        return FakeEncoder().encode(texts)


def test_batches_follow_token_counts_and_a_stop_before_encoding_encodes_nothing(model_dir):
    enc = TokenizingEncoder(model_dir)
    texts = ["a b c d e f", "x", "p q r s t u", "y"]
    seen = []
    real = enc.encode
    enc.encode = lambda batch, **kw: (seen.append(list(batch)), real(batch, **kw))[1]
    E = embed_corpus(enc, texts, batch_size=2, cache=False)
    assert seen == [["x", "y"], ["a b c d e f", "p q r s t u"]]
    assert np.array_equal(E, embed_corpus(FakeEncoder(), texts, cache=False))
    with pytest.raises(Cancelled):
        embed_corpus(TokenizingEncoder(model_dir), texts, cache=False, should_stop=lambda: True)


@pytest.mark.parametrize("texts, kwargs, message", [
    ([], {}, "empty"), ("one text", {}, "not one str"), (["a", 3], {}, "str"),
    (["a"], {"pooling": "sum"}, "unknown pooling"), (["a"], {"batch_size": 0}, "whole number"),
])
def test_bad_arguments_are_typed_errors(texts, kwargs, message):
    with pytest.raises(RetrievalError, match=message):
        embed_corpus(FakeEncoder(), texts, **kwargs)


def test_real_minilm_matches_the_reference_sentence_embeddings(data_dir, tmp_path):
    model = data_dir / "models" / "all-MiniLM-L6-v2"
    if not (model / "model.safetensors").is_file():
        pytest.skip(f"MiniLM not found at {model}")
    from core.encoder import load_encoder

    ref = json.loads((model / "reference_outputs.json").read_text(encoding="utf-8"))
    enc = load_encoder(model)
    E = embed_corpus(enc, ref["sentences"], cache_dir=tmp_path, batch_size=2)
    assert np.allclose(E, np.array(ref["masked_mean_unit"]), atol=2e-4)
    assert np.allclose(E @ E.T, np.array(ref["cosine_masked_mean_unit"]), atol=2e-4)
    assert np.array_equal(embed_corpus(enc, ref["sentences"], cache_dir=tmp_path), E)


def test_norms_are_the_pooled_lengths_and_are_cached_beside_the_vectors(model_dir, tmp_path):
    cache = tmp_path / "cache"
    enc = FakeEncoder(model_dir)
    E, norms = embed_corpus(enc, TEXTS, cache_dir=cache, return_norms=True)
    pooled = [FakeEncoder().encode([t]).last_hidden_state[0].mean(axis=0) for t in TEXTS]
    assert norms.dtype == np.float32 and norms.shape == (5,)
    assert np.allclose(norms, [np.linalg.norm(p) for p in pooled], rtol=1e-5)
    assert np.allclose(E * norms[:, None], pooled, atol=1e-5)
    again_E, again_norms = embed_corpus(enc, TEXTS, cache_dir=cache, return_norms=True)
    assert enc.encoded == 5 and np.array_equal(again_norms, norms) and np.array_equal(again_E, E)
    assert len(list(cache.glob("*.norms"))) == 1 and len(list(cache.glob("*.npy"))) == 1
    next(cache.glob("*.norms")).unlink()  # vectors cached without their lengths: computed again
    assert np.array_equal(embed_corpus(enc, TEXTS, cache_dir=cache), E) and enc.encoded == 5
    embed_corpus(enc, TEXTS, cache_dir=cache, return_norms=True)
    assert enc.encoded == 10


def test_a_none_text_is_refused_by_index_and_a_lone_surrogate_embeds(tmp_path):
    from core.encoder import StandInEncoder

    with pytest.raises(RetrievalError, match="text 1 is NoneType"):
        embed_corpus(StandInEncoder(), ["ok", None], cache_dir=tmp_path)
    E = embed_corpus(StandInEncoder(d=8), ["a\ud800b", "\U0001F600" * 50], cache_dir=tmp_path)
    assert E.shape == (2, 8) and np.allclose(np.linalg.norm(E, axis=1), 1.0)
