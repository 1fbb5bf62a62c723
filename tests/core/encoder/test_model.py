"""The numpy BERT forward pass: MiniLM reference outputs, a slow reference, load errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

from core.encoder import EncoderLoadError, gelu, load_encoder
from core.errors import Cancelled
from core.errors import SubwordScopeError
from tests.core.encoder.tiny_multilingual import weight_shapes
from core.pooling import cls_pool, cosine_matrix, mean_pool

MODEL = "models/all-MiniLM-L6-v2"


class OracleTokenizer:
    """The reference ``tokenizers`` library behind the ``core.tokenizers`` contract (tests only)."""

    def __init__(self, path):
        from tokenizers import Tokenizer

        self.library = Tokenizer.from_file(str(path))
        self.library.no_padding()
        self.library.no_truncation()

    def encode(self, text, add_special_tokens=False):
        return self.library.encode(text, add_special_tokens=add_special_tokens)

    def token_to_id(self, token):
        return self.library.token_to_id(token)


@pytest.fixture(scope="module")
def model_dir(data_dir) -> Path:
    d = data_dir / MODEL
    if not (d / "model.safetensors").is_file():
        pytest.skip(f"MiniLM model not found at {d}")
    return d


@pytest.fixture(scope="module")
def reference(model_dir) -> dict:
    return json.loads((model_dir / "reference_outputs.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bare_encoder(model_dir):
    return load_encoder(model_dir, tokenizer=False)


@pytest.fixture(scope="module")
def encoder(model_dir, bare_encoder):
    """MiniLM with core.tokenizers when it exists, else with the oracle behind the contract."""
    try:
        return load_encoder(model_dir)
    except EncoderLoadError as exc:
        if "core.tokenizers is not available" not in str(exc):
            raise
    bare_encoder.tokenizer = OracleTokenizer(model_dir / "tokenizer.json")
    return bare_encoder


# -- MiniLM against the reference framework ------------------------------------------------
def test_forward_matches_reference(bare_encoder, reference):
    ids = np.array(reference["input_ids"])
    mask = np.array(reference["attention_mask"])
    H = bare_encoder.forward(ids, mask)
    assert H.dtype == np.float32 and H.shape == (4, 15, 384)
    np.testing.assert_allclose(cls_pool(H, mask), reference["cls"], atol=1e-4, rtol=0)
    mean = mean_pool(H, mask)
    np.testing.assert_allclose(mean, reference["masked_mean"], atol=1e-4, rtol=0)
    unit = mean / np.linalg.norm(mean, axis=1, keepdims=True)
    np.testing.assert_allclose(unit, reference["masked_mean_unit"], atol=1e-4, rtol=0)
    np.testing.assert_allclose(cosine_matrix(mean), reference["cosine_masked_mean_unit"], atol=1e-4)
    first3 = np.array(reference["last_hidden_state_first3"])
    real = mask.astype(bool)
    np.testing.assert_allclose(H[..., :3][real], first3[real], atol=1e-4, rtol=0)


def test_encode_texts_matches_reference(encoder, reference):
    out = encoder.encode(reference["sentences"])
    assert out.input_ids.tolist() == reference["input_ids"]
    assert out.attention_mask.tolist() == reference["attention_mask"]
    np.testing.assert_allclose(mean_pool(out.last_hidden_state, out.attention_mask),
                               reference["masked_mean"], atol=1e-4, rtol=0)
    # the tokens come with original code-point spans for the pane
    text = reference["sentences"][2]
    pieces = [text[s:e] for s, e in out.offsets[2]]
    assert out.tokens[2][7:10] == ("n", "##vid", "##ia") and pieces[7:10] == ["N", "vid", "ia"]
    assert pieces[10:12] == ["\ufb01", "nal"]  # the fi ligature keeps its original character
    assert out.tokens[2][0] == "[CLS]" and out.offsets[2][0] == (0, 0)
    s, e = out.offsets[0][1]
    assert reference["sentences"][0][s:e] == "All"
    assert out.truncated == (0, 0, 0, 0)


def test_encode_batches_agree_with_one_batch(encoder, reference):
    a = encoder.encode(reference["sentences"], batch_size=1)
    b = encoder.encode(reference["sentences"], batch_size=16)
    real = a.attention_mask.astype(bool)
    np.testing.assert_allclose(a.last_hidden_state[real], b.last_hidden_state[real], atol=2e-5)


def test_long_text_is_truncated_to_512(encoder):
    out = encoder.tokenize(["word " * 600])
    assert out.input_ids.shape == (1, 512)
    assert out.tokens[0][-1] == "[SEP]" and out.truncated == (90,)


def test_progress_and_cancel(bare_encoder, reference):
    ids = np.array(reference["input_ids"])
    seen: list[float] = []
    bare_encoder.forward(ids, progress=seen.append)
    assert seen == [(i + 1) / 6 for i in range(6)]
    with pytest.raises(Cancelled):
        bare_encoder.forward(ids, should_stop=lambda: True)


@pytest.mark.parametrize(
    "ids, mask",
    [
        (np.zeros((1, 513), dtype=int), None),
        (np.array([[101, 30522]]), None),
        (np.array([[101, 102]]), np.ones((1, 3), dtype=int)),
        (np.array([101, 102]), None),
    ],
)
def test_forward_rejects_bad_ids(bare_encoder, ids, mask):
    with pytest.raises(SubwordScopeError):
        bare_encoder.forward(ids, mask)


# -- exact GELU ----------------------------------------------------------------------------
def test_gelu_matches_erf():
    x = np.linspace(-12, 12, 20001)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    assert np.abs(gelu(x) - exact).max() < 1e-6


def test_the_forward_pass_gelu_on_scaled_values_matches_erf(monkeypatch):
    """The forward pass's GELU works on ``k·x`` with its bias added block by block; small blocks
    (the last one partial) and the far tails (2^(w²) overflows there) included."""
    from core.encoder import ops

    monkeypatch.setattr(ops, "_GELU_BLOCK", 7 * 16)
    x = np.linspace(-30, 30, 2001 * 16)
    exact = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x])
    bias = np.linspace(-1, 1, 16).astype(np.float32)
    w = (x * ops.GELU_IN).astype(np.float32).reshape(-1, 16) - bias
    got = ops.gelu_of_scaled_(w, bias).reshape(-1) / (2 * ops.GELU_IN)
    assert np.all(np.abs(got - exact) <= 1e-6 + 2e-7 * np.abs(x))


# -- a tiny random BERT against a slow, obviously correct version --------------------------
TINY = dict(model_type="bert", vocab_size=11, hidden_size=8, num_hidden_layers=2,
            num_attention_heads=2, intermediate_size=12, max_position_embeddings=16,
            type_vocab_size=2, layer_norm_eps=1e-12, pad_token_id=0, hidden_act="gelu")


def _tiny_weights(cfg, seed=0):
    rng = np.random.default_rng(seed)
    w = weight_shapes(cfg, token_types=2)
    return {k: rng.normal(size=s).astype(np.float32) for k, s in w.items()}


def _write_model(root: Path, cfg=TINY, weights=None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    save_file(_tiny_weights(cfg) if weights is None else weights, str(root / "model.safetensors"))
    return root


def _slow_forward(w, cfg, ids, mask):
    """Token by token, head by head, float64, straight from the BERT description."""
    def ln(x, g, b):
        return (x - x.mean()) / math.sqrt(x.var() + cfg["layer_norm_eps"]) * g + b

    def lin(x, name):
        return w[name + ".weight"].astype(float) @ x + w[name + ".bias"]

    T, H = len(ids), cfg["num_attention_heads"]
    dh = cfg["hidden_size"] // H
    x = [ln(w["embeddings.word_embeddings.weight"][ids[t]] + w["embeddings.position_embeddings.weight"][t]
            + w["embeddings.token_type_embeddings.weight"][0],
            w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"]) for t in range(T)]
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q = [lin(v, p + "attention.self.query") for v in x]
        k = [lin(v, p + "attention.self.key") for v in x]
        val = [lin(v, p + "attention.self.value") for v in x]
        new = []
        for t in range(T):
            ctx = np.zeros(cfg["hidden_size"])
            for h in range(H):
                sl = slice(h * dh, (h + 1) * dh)
                s = [q[t][sl] @ k[j][sl] / math.sqrt(dh) if mask[j] else -math.inf for j in range(T)]
                e = [math.exp(v - max(s)) for v in s]
                ctx[sl] = sum(e[j] / sum(e) * val[j][sl] for j in range(T))
            a = ln(x[t] + lin(ctx, p + "attention.output.dense"),
                   w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            hid = np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in lin(a, p + "intermediate.dense")])
            new.append(ln(a + lin(hid, p + "output.dense"),
                          w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]))
        x = new
    return np.array(x)


def test_tiny_model_matches_slow_reference(tmp_path):
    root = _write_model(tmp_path / "tiny")
    enc = load_encoder(root, tokenizer=False)
    ids = np.array([[1, 5, 7, 2, 0, 0], [1, 3, 3, 9, 4, 2]])
    mask = (np.arange(6) < np.array([[4], [6]])).astype(int)
    fast = enc.forward(ids, mask)
    w = _tiny_weights(TINY)
    for b in range(2):
        n = mask[b].sum()
        slow = _slow_forward(w, TINY, ids[b], mask[b])
        np.testing.assert_allclose(fast[b, :n], slow[:n], atol=2e-5)


@pytest.mark.parametrize("rescored", ["far rows", "every row"])
def test_rows_far_below_their_heads_top_score_match_the_slow_reference(tmp_path, monkeypatch, rescored):
    """Queries and keys scaled up so that scores span hundreds: rows whose exponentials,
    shifted by their head's top score, underflow are recomputed from their own maximum
    (for "every row" the threshold is raised so that every row takes that path)."""
    from core.encoder import model as model_module

    w = _tiny_weights(TINY)
    for name in ("query", "key"):
        w[f"encoder.layer.0.attention.self.{name}.weight"] *= 12
    if rescored == "every row":
        monkeypatch.setattr(model_module, "_LOW_SUM", np.float32(np.inf))
    calls = []
    real = model_module._rescore_low_rows
    monkeypatch.setattr(model_module, "_rescore_low_rows", lambda *a: (calls.append(1), real(*a)))
    enc = load_encoder(_write_model(tmp_path / "sharp", weights=w), tokenizer=False)
    ids = np.array([[1, 5, 7, 2, 0, 0], [1, 3, 3, 9, 4, 2], [1, 8, 2, 10, 6, 0]])
    mask = (np.arange(6) < np.array([[4], [6], [5]])).astype(int)
    fast = enc.forward(ids, mask)
    assert calls and np.isfinite(fast).all()
    for b in range(3):
        n = mask[b].sum()
        np.testing.assert_allclose(fast[b, :n], _slow_forward(w, TINY, ids[b], mask[b])[:n], atol=2e-5)


def test_bert_prefixed_keys_load(tmp_path):
    weights = {"bert." + k: v for k, v in _tiny_weights(TINY).items()}
    enc = load_encoder(_write_model(tmp_path / "prefixed", weights=weights), tokenizer=False)
    assert enc.dim == 8


# -- bad model directories -----------------------------------------------------------------
def _broken(tmp_path, what):
    root = _write_model(tmp_path / what)
    if what == "no-config":
        (root / "config.json").unlink()
    elif what == "no-weights":
        (root / "model.safetensors").unlink()
    elif what == "gpt2":
        (root / "config.json").write_text(json.dumps({**TINY, "model_type": "gpt2"}))
    elif what == "bad-json":
        (root / "config.json").write_text("{not json")
    elif what == "no-hidden-size":
        (root / "config.json").write_text(json.dumps({k: v for k, v in TINY.items() if k != "hidden_size"}))
    elif what == "missing-key":
        w = _tiny_weights(TINY)
        del w["encoder.layer.1.output.dense.weight"]
        save_file(w, str(root / "model.safetensors"))
    elif what == "wrong-shape":
        w = _tiny_weights(TINY)
        w["encoder.layer.0.intermediate.dense.weight"] = np.zeros((12, 9), np.float32)
        save_file(w, str(root / "model.safetensors"))
    elif what == "garbage-weights":
        (root / "model.safetensors").write_bytes(b"\x00\x01garbage")
    elif what == "no-tokenizer":
        return root, True
    return root, False


@pytest.mark.parametrize(
    "what, needle",
    [
        ("no-config", "config.json"),
        ("no-weights", "model.safetensors"),
        ("gpt2", "[model_type]"),
        ("bad-json", "config.json"),
        ("no-hidden-size", "[hidden_size]"),
        ("missing-key", "[encoder.layer.1.output.dense.weight]"),
        ("wrong-shape", "[encoder.layer.0.intermediate.dense.weight]: shape (12, 9)"),
        ("garbage-weights", "model.safetensors"),
        ("no-tokenizer", "tokenizer.json"),
    ],
)
def test_bad_model_dirs_raise_typed_errors(tmp_path, what, needle):
    root, with_tok = _broken(tmp_path, what)
    with pytest.raises(EncoderLoadError) as info:
        load_encoder(root, tokenizer=with_tok)
    assert needle in str(info.value)
    assert isinstance(info.value, SubwordScopeError)
    assert info.value.path is not None


def test_not_a_directory(tmp_path):
    with pytest.raises(EncoderLoadError, match="not a model directory"):
        load_encoder(tmp_path / "nowhere")


def test_encode_document_windows(encoder, reference):
    text = " ".join(reference["sentences"])
    doc = encoder.encode_document(text, content=8, overlap=2)
    assert doc.windows[0] == (0, 8) and doc.windows[1] == (6, 14) and doc.windows[-1][1] == len(doc.tokens)
    assert doc.char_spans[0][0] == 0 and text[slice(*doc.char_spans[0])].startswith("All human")
    # window 0 equals encoding its tokens framed by [CLS] [SEP]
    ids = [[101] + [encoder.tokenizer.token_to_id(t) for t in doc.tokens[:8]] + [102]]
    np.testing.assert_allclose(doc.vectors[0], encoder.forward(np.array(ids)).mean(axis=1)[0], atol=1e-5)
    with pytest.raises(SubwordScopeError):
        encoder.encode_document(text, content=511)


# -- bad input (tester findings) -----------------------------------------------------------
from core.encoder import EncoderInputError  # noqa: E402


def test_a_bare_string_is_one_text(encoder):
    one = encoder.encode("hello world")
    assert one.input_ids.shape[0] == 1 and one.texts == ("hello world",)
    listed = encoder.encode(["hello world"])
    np.testing.assert_array_equal(one.input_ids, listed.input_ids)
    np.testing.assert_allclose(one.last_hidden_state, listed.last_hidden_state, atol=1e-6)
    assert encoder.tokenize("hello").input_ids.shape[0] == 1


@pytest.mark.parametrize(
    "texts, match",
    [
        (["ok", None], r"text 1 must be a str, got NoneType"),
        ([b"bytes"], r"text 0 must be a str, got bytes"),
        ([3.5], r"text 0 must be a str"),
        ([], r"nothing to encode"),
        (12, r"str or a list of str, got int"),
    ],
)
def test_non_string_texts_are_rejected(encoder, texts, match):
    with pytest.raises(EncoderInputError, match=match):
        encoder.encode(texts)
    with pytest.raises(EncoderInputError, match=match):
        encoder.tokenize(texts)


def test_bad_batch_and_window_settings(encoder):
    for bad in (0, -1, 2.5, None):
        with pytest.raises(EncoderInputError, match="batch_size"):
            encoder.encode(["a"], batch_size=bad)
    with pytest.raises(EncoderInputError, match="document must be a str"):
        encoder.encode_document(["a list"])
    with pytest.raises(EncoderInputError, match="overlap"):
        encoder.encode_document("some words here", content=8, overlap=-1)
    with pytest.raises(EncoderInputError, match="content"):
        encoder.encode_document("some words here", content="8")
