"""Finding the encoders a user already has: the data folder and the Hugging Face cache."""

from __future__ import annotations

import json
import os

import pytest

from core.encoder.sources import (
    DATA_FOLDER,
    HF_CACHE,
    OPENED,
    FoundEncoder,
    companion_encoder,
    default_encoder,
    describe,
    find_encoders,
    is_encoder_folder,
    is_multilingual,
)
from core.hf_cache import scan_snapshots


def model(folder, model_type="bert", tokenizer="tokenizer.json"):
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"model_type": model_type}))
    (folder / "model.safetensors").write_bytes(b"")
    if tokenizer:
        (folder / tokenizer).write_text("{}")
    return folder


def snapshot(cache, repo, rev="a" * 40, **kw):
    return model(cache / ("models--" + repo.replace("/", "--")) / "snapshots" / rev, **kw)


def test_what_counts_as_an_encoder_folder(tmp_path):
    assert is_encoder_folder(model(tmp_path / "minilm"))
    assert is_encoder_folder(model(tmp_path / "e5", tokenizer="sentencepiece.bpe.model"))
    assert not is_encoder_folder(model(tmp_path / "gpt2", model_type="gpt2"))
    assert not is_encoder_folder(model(tmp_path / "bare", tokenizer=None))
    bad = model(tmp_path / "bad")
    (bad / "config.json").write_text("{not json")
    assert not is_encoder_folder(bad)
    assert not is_encoder_folder(tmp_path / "missing")


def test_data_folder_then_cache_and_the_preferred_default(tmp_path):
    data, cache = tmp_path / "models", tmp_path / "hub"
    model(data / "zz-local")
    e5 = snapshot(cache, "intfloat/multilingual-e5-small", tokenizer="sentencepiece.bpe.model")
    mini = snapshot(cache, "sentence-transformers/all-MiniLM-L6-v2")
    snapshot(cache, "openai-community/gpt2", model_type="gpt2")
    (cache / "models--broken").mkdir()
    found = find_encoders(data, cache)
    assert [(f.name, f.source) for f in found] == [
        ("zz-local", DATA_FOLDER), ("intfloat/multilingual-e5-small", HF_CACHE),
        ("sentence-transformers/all-MiniLM-L6-v2", HF_CACHE)]
    assert default_encoder(found).path == mini
    assert default_encoder(found).label == "all-MiniLM-L6-v2 — Hugging Face cache"
    assert default_encoder(found[:2]).path == data / "zz-local"
    assert default_encoder([]) is None
    assert describe(e5, found).label == "multilingual-e5-small — Hugging Face cache"
    assert describe(str(mini)).name == "sentence-transformers/all-MiniLM-L6-v2"  # not listed
    assert describe(tmp_path / "elsewhere").source == OPENED
    assert [r for r, _ in scan_snapshots(cache)] == [
        "intfloat/multilingual-e5-small", "openai-community/gpt2",
        "sentence-transformers/all-MiniLM-L6-v2"]


def test_the_newest_snapshot_of_a_model_is_used(tmp_path):
    import os

    old = snapshot(tmp_path, "org/enc", rev="1" * 40)
    new = snapshot(tmp_path, "org/enc", rev="0" * 40)
    os.utime(old, (1, 1))
    found = find_encoders(tmp_path / "none", tmp_path)
    assert [f.path for f in found] == [new]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_a_config_that_is_a_fifo_is_refused_without_blocking(tmp_path):
    """A FIFO (or a link to a device) as config.json would block a read for good: it is
    refused before it is opened, whether the folder is scanned, described or compared."""
    fifo = model(tmp_path / "fifo")
    (fifo / "config.json").unlink()
    os.mkfifo(fifo / "config.json")
    device = model(tmp_path / "device")
    (device / "config.json").unlink()
    (device / "config.json").symlink_to("/dev/zero")
    for folder in (fifo, device):
        assert not is_encoder_folder(folder)
        assert not is_multilingual(FoundEncoder("m", folder, OPENED))  # reads the config
    many = FoundEncoder("multilingual-e5-small", model(tmp_path / "multilingual-e5-small"), DATA_FOLDER)
    assert companion_encoder([many], fifo) == many  # the FIFO folder counts as English-only
