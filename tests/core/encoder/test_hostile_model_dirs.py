"""A model folder with a hostile ``config.json`` or ``model.safetensors`` gives an
:class:`EncoderLoadError` naming the file (and the key or weight at fault) — never a
``RecursionError``, ``TypeError`` or a silent NaN encoder."""

from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest
from safetensors.numpy import save_file

from core.encoder import EncoderLoadError, load_encoder
from tests.core.encoder.test_model import TINY, _tiny_weights, _write_model

DEEP = "[" * 100_000 + "]" * 100_000


def _config(**changes) -> str:
    cfg = {k: v for k, v in TINY.items() if changes.get(k, 0) is not ...}
    cfg.update({k: v for k, v in changes.items() if v is not ...})
    return json.dumps(cfg)


# (name, config.json text, words the message must hold besides the file)
CONFIGS = [
    ("deep nesting", DEEP, ["nested deeper than 128"]),
    ("deep nesting in a field", _config(extra=json.loads("[" * 120 + "]" * 120)).replace(
        "[]", "[" * 30 + "]" * 30), ["nested deeper than 128"]),
    ("top-level list", "[1, 2]", ["a JSON object", "[1, 2]"]),
    ("top-level null", "null", ["a JSON object"]),
    ("empty", "", ["not readable JSON"]),
    ("not JSON", "{model_type: bert", ["not readable JSON", "line 1"]),
    ("number of 5,000 digits", _config(vocab_size=0).replace('"vocab_size": 0', '"vocab_size": ' + "9" * 5000),
     ["too long"]),
    ("NaN eps", _config(layer_norm_eps=0).replace('"layer_norm_eps": 0', '"layer_norm_eps": NaN'),
     ["NaN"]),
    ("-Infinity eps", _config(layer_norm_eps=0).replace('"layer_norm_eps": 0',
                                                          '"layer_norm_eps": -Infinity'), ["-Infinity"]),
    ("1e400 eps", _config(layer_norm_eps=0).replace('"layer_norm_eps": 0', '"layer_norm_eps": 1e400'),
     ["[layer_norm_eps]", "Infinity"]),
    ("eps text", _config(layer_norm_eps="x"), ["[layer_norm_eps]", '"x"']),
    ("eps list", _config(layer_norm_eps=[1e-12]), ["[layer_norm_eps]", "[1e-12]"]),
    ("eps negative", _config(layer_norm_eps=-1), ["[layer_norm_eps]", "-1"]),
    ("eps true", _config(layer_norm_eps=True), ["[layer_norm_eps]", "true"]),
    ("pad text", _config(pad_token_id="0"), ["[pad_token_id]", '"0"']),
    ("pad list", _config(pad_token_id=[0]), ["[pad_token_id]", "[0]"]),
    ("pad object", _config(pad_token_id={"id": 0}), ["[pad_token_id]", '{"id": 0}']),
    ("pad negative", _config(pad_token_id=-1), ["[pad_token_id]", "-1"]),
    ("pad past the vocabulary", _config(pad_token_id=11), ["[pad_token_id]", "11"]),
    ("pad float", _config(pad_token_id=1.5), ["[pad_token_id]", "1.5"]),
    ("hidden text", _config(hidden_size="8"), ["[hidden_size]", '"8"']),
    ("hidden float", _config(hidden_size=8.0), ["[hidden_size]", "8.0"]),
    ("hidden true", _config(hidden_size=True), ["[hidden_size]", "true"]),
    ("hidden list", _config(hidden_size=[8]), ["[hidden_size]", "[8]"]),
    ("hidden 0", _config(hidden_size=0), ["[hidden_size]", "0"]),
    ("hidden 2^31", _config(hidden_size=2**31), ["[hidden_size]", str(2**31)]),
    ("hidden 10^30", _config(hidden_size=10**30), ["[hidden_size]"]),
    ("hidden missing", _config(hidden_size=...), ["[hidden_size]", "null"]),
    ("layers 10^9", _config(num_hidden_layers=10**9), ["encoder.layer.2."]),  # no such weight
    ("vocabulary 2^31 - 1", _config(vocab_size=2**31 - 1), ["[embeddings.word_embeddings.weight]"]),
    ("heads do not divide", _config(num_attention_heads=3), ["[num_attention_heads]"]),
    ("model type list", _config(model_type=["bert"]), ["[model_type]", '["bert"]']),
    ("model type object", _config(model_type={"bert": 1}), ["[model_type]", '{"bert": 1}']),
    ("model type missing", _config(model_type=...), ["[model_type]"]),
    ("activation list", _config(hidden_act=["gelu"]), ["[hidden_act]", '["gelu"]']),
    ("positions object", _config(position_embedding_type={}), ["[position_embedding_type]", "{}"]),
]


@pytest.mark.parametrize("name,text,words", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_a_hostile_config_is_a_typed_error_naming_the_file(tmp_path, name, text, words):
    root = _write_model(tmp_path / "model")
    (root / "config.json").write_text(text, encoding="utf-8")
    with pytest.raises(EncoderLoadError) as info:
        load_encoder(root, tokenizer=False)
    message = str(info.value)
    assert info.value.path is not None and message.startswith(info.value.path)
    assert info.value.path.endswith(("config.json", "model.safetensors")), message
    for word in words:
        assert word in message, message
    assert "Traceback" not in message and "object is not" not in message


def test_a_config_that_is_not_utf8_or_binary_is_named(tmp_path):
    root = _write_model(tmp_path / "model")
    (root / "config.json").write_bytes(b'{"model_type": "b\xe9rt"}')
    with pytest.raises(EncoderLoadError, match=r"config\.json: not UTF-8"):
        load_encoder(root, tokenizer=False)


@pytest.mark.parametrize("kind", ["folder", "fifo", "dev-zero link", "too large"])
def test_a_config_that_is_not_a_small_regular_file_is_refused_before_reading(tmp_path, kind):
    root = _write_model(tmp_path / "model")
    config = root / "config.json"
    config.unlink()
    if kind == "folder":
        config.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(config)  # reading it would block forever
    elif kind == "dev-zero link":
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero here")
        config.symlink_to("/dev/zero")
    else:
        config.write_text(" " * (2**20 + 1) + json.dumps(TINY))
    with pytest.raises(EncoderLoadError, match=r"config\.json: .*(folder|FIFO|device|limit)"):
        load_encoder(root, tokenizer=False)


def _safetensors_header(header: dict, data: bytes = b"") -> bytes:
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + data


WEIGHTS = [
    ("garbage", lambda p: p.write_bytes(b"\x00\x01garbage"), ["not a readable safetensors"]),
    ("empty", lambda p: p.write_bytes(b""), ["not a readable safetensors"]),
    ("header longer than the file", lambda p: p.write_bytes(struct.pack("<Q", 2**40) + b"{}"),
     ["not a readable safetensors"]),
    ("header deeply nested", lambda p: p.write_bytes(_safetensors_header({"a": json.loads(
        "[" * 100 + "]" * 100)})), ["not a readable safetensors"]),
    ("offsets past the data", lambda p: p.write_bytes(_safetensors_header({"x": {
        "dtype": "F32", "shape": [1000], "data_offsets": [0, 4000]}}, b"\x00" * 8)),
     ["not a readable safetensors"]),
    ("a folder", lambda p: p.mkdir(), ["folder"]),
    ("no weights at all", lambda p: save_file({"other": np.zeros(2, np.float32)}, str(p)),
     ["[embeddings.word_embeddings.weight]", "missing"]),
    ("integer weights", lambda p: save_file(dict(_tiny_weights(TINY), **{
        "embeddings.LayerNorm.weight": np.ones(8, np.int32)}), str(p)),
     ["[embeddings.LayerNorm.weight]", "int32"]),
    ("NaN weights", lambda p: save_file(dict(_tiny_weights(TINY), **{
        "encoder.layer.1.output.dense.bias": np.full(8, np.nan, np.float32)}), str(p)),
     ["[encoder.layer.1.output.dense.bias]", "NaN"]),
    ("float64 overflowing float32", lambda p: save_file(dict(_tiny_weights(TINY), **{
        "embeddings.LayerNorm.bias": np.full(8, 1e300)}), str(p)),
     ["[embeddings.LayerNorm.bias]", "too large"]),
]


@pytest.mark.parametrize("name,write,words", WEIGHTS, ids=[w[0] for w in WEIGHTS])
def test_hostile_weights_are_a_typed_error_naming_the_file(tmp_path, name, write, words):
    root = _write_model(tmp_path / "model")
    weights = root / "model.safetensors"
    weights.unlink()
    write(weights)
    with pytest.raises(EncoderLoadError) as info:
        load_encoder(root, tokenizer=False)
    message = str(info.value)
    assert message.startswith(str(weights)), message
    for word in words:
        assert word in message, message


def test_float16_weights_and_a_null_pad_id_load(tmp_path):
    weights = {k: v.astype(np.float16) for k, v in _tiny_weights(TINY).items()}
    root = _write_model(tmp_path / "model", cfg=dict(TINY, pad_token_id=None), weights=weights)
    enc = load_encoder(root, tokenizer=False)
    assert enc.config.pad_token_id == 0 and np.isfinite(enc.forward(np.array([[1, 2, 3]]))).all()
