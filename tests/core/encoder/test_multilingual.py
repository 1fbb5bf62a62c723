"""A multilingual encoder (XLM-R-style SentencePiece Unigram tokenizer, ``model_type: bert``)
found in the Hugging Face cache, loaded and run through the same path as all-MiniLM-L6-v2; and
the choice of the second encoder the cross-lingual view compares with. No multilingual model
is in the shared data: the one here is built by the test (tests/core/encoder/tiny_multilingual.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import tokenizers

from core.data import udhr_sample_dir
from core.encoder import load_encoder
from core.encoder.sources import (
    DATA_FOLDER,
    HF_CACHE,
    companion_encoder,
    describe,
    find_encoders,
    is_multilingual,
)
from core.metrics import unknown_of
from tests.core.encoder.test_sources import model, snapshot
from tests.core.encoder.tiny_multilingual import REPO_ID, UNSEEN, unigram_tokenizer_json, write_hub_snapshot


@pytest.fixture(scope="module")
def tokenizer_json():
    return unigram_tokenizer_json()


def sample_lines(code: str) -> list[str]:
    return (udhr_sample_dir() / f"{code}.txt").read_text(encoding="utf-8").splitlines()[:4]


def test_the_multilingual_model_is_found_in_the_cache_and_runs(tmp_path, tokenizer_json):
    snap = write_hub_snapshot(tmp_path / "hub", tokenizer_json)
    found = find_encoders(tmp_path / "no-models", tmp_path / "hub")
    assert [(f.name, f.path, f.source) for f in found] == [(REPO_ID, snap, HF_CACHE)]
    assert is_multilingual(found[0])
    enc = load_encoder(found[0].path)
    oracle = tokenizers.Tokenizer.from_str(tokenizer_json)
    texts = [line for code in ("eng", "cmn_hans", "hin", "tha", "arb") for line in sample_lines(code)]
    out = enc.encode(texts, batch_size=3)
    for i, text in enumerate(texts):  # the app's tokenizer agrees with the reference library
        ref = oracle.encode(text)
        n = int(out.attention_mask[i].sum())
        assert out.input_ids[i, :n].tolist() == ref.ids and list(out.tokens[i]) == ref.tokens
        assert (out.input_ids[i, n:] == enc.config.pad_token_id).all()  # XLM-R's <pad> is id 1
    assert out.tokens[0][0] == "<s>" and out.tokens[0][-1] == "</s>"
    assert out.last_hidden_state.shape == (len(texts), out.input_ids.shape[1], 32)
    assert np.isfinite(out.last_hidden_state).all()
    alone = enc.encode([texts[5]]).last_hidden_state[0]  # padding in a batch changes nothing
    n = int(out.attention_mask[5].sum())
    np.testing.assert_allclose(out.last_hidden_state[5, :n], alone[:n], atol=1e-5)
    unk, unk_id = unknown_of(enc.tokenizer)
    assert (unk, unk_id) == ("<unk>", 3)
    thai = enc.encode(sample_lines(UNSEEN[1]))  # a script the tokenizer never saw: unknown pieces
    assert (thai.input_ids == unk_id).any() and not (enc.encode(sample_lines("eng")).input_ids == unk_id).any()


def test_documents_are_framed_with_the_xlmr_specials(tmp_path, tokenizer_json):
    enc = load_encoder(write_hub_snapshot(tmp_path, tokenizer_json))
    doc = enc.encode_document(" ".join(sample_lines("fra") * 3), content=40, overlap=8)
    assert len(doc.windows) > 1 and doc.vectors.shape == (len(doc.windows), 32)


def test_which_encoder_the_cross_lingual_view_compares_with(tmp_path):
    data, cache = tmp_path / "models", tmp_path / "hub"
    model(data / "my-bert")
    mini = snapshot(cache, "sentence-transformers/all-MiniLM-L6-v2")
    e5 = snapshot(cache, "intfloat/multilingual-e5-small", tokenizer="sentencepiece.bpe.model")
    big = model(tmp_path / "opened")  # a multilingual vocabulary, whatever its name
    (big / "config.json").write_text(json.dumps({"model_type": "bert", "vocab_size": 250037}))
    found = find_encoders(data, cache)
    assert [is_multilingual(f) for f in found] == [False, True, False]
    assert is_multilingual(describe(big)) and not is_multilingual(describe(tmp_path / "missing"))
    assert companion_encoder(found, str(mini)).path == e5  # English-only: the multilingual one
    assert companion_encoder(found, str(data / "my-bert")).path == e5
    assert companion_encoder(found, str(e5)).path == mini  # multilingual: the preferred English one
    assert companion_encoder(found, str(big)).path == mini
    assert companion_encoder(found, None) is None  # the stand-in is compared with nothing
    only_english = [f for f in found if not is_multilingual(f)]
    assert companion_encoder(only_english, str(mini)) is None
    assert companion_encoder([f for f in found if f.source == DATA_FOLDER] + [found[1]], str(e5)).path == data / "my-bert"
