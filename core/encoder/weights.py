"""Reading and checking a BERT-family model directory: ``config.json`` and ``model.safetensors``.

Weights are read with the ``safetensors`` package's numpy API, checked key by key against the
shapes the config implies, converted to float32 and laid out for the forward pass of
:mod:`core.encoder` (linear weights transposed to ``(in, out)``; query, key and value fused
into one ``(d, 3d)`` matrix).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.errors import SubwordScopeError

SUPPORTED_TYPES = ("bert",)
SUPPORTED_ACTS = ("gelu",)


class EncoderLoadError(SubwordScopeError):
    """A model directory is missing, malformed or of an unsupported architecture.

    Attributes
    ----------
    path : str | None — the file (or directory) the error is about.
    key : str | None — the config key or weight name, when there is one.
    """

    def __init__(self, message: str, path=None, key: str | None = None):
        self.path = None if path is None else str(path)
        self.key = key
        where = self.path or ""
        if key:
            where = f"{where} [{key}]" if where else f"[{key}]"
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True)
class EncoderConfig:
    """The fields of ``config.json`` the forward pass uses."""

    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float
    pad_token_id: int
    model_type: str


_INT_KEYS = ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
             "intermediate_size", "max_position_embeddings", "type_vocab_size")


def read_config(path: Path) -> EncoderConfig:
    """Parse and check ``config.json``; raise :class:`EncoderLoadError` naming the bad key."""
    if not path.is_file():
        raise EncoderLoadError("missing; a model directory needs config.json", path=path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise EncoderLoadError(f"not readable JSON ({exc})", path=path) from exc
    if not isinstance(raw, dict):
        raise EncoderLoadError("expected a JSON object", path=path)
    mtype = raw.get("model_type")
    if mtype not in SUPPORTED_TYPES:
        raise EncoderLoadError(f"unsupported architecture {mtype!r}; supported: "
                               f"{', '.join(SUPPORTED_TYPES)} (BERT family)", path=path, key="model_type")
    act = raw.get("hidden_act", "gelu")
    if act not in SUPPORTED_ACTS:
        raise EncoderLoadError(f"unsupported activation {act!r}", path=path, key="hidden_act")
    pos = raw.get("position_embedding_type", "absolute")
    if pos != "absolute":
        raise EncoderLoadError(f"unsupported position embeddings {pos!r}", path=path,
                               key="position_embedding_type")
    values = {}
    for key in _INT_KEYS:
        v = raw.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise EncoderLoadError(f"missing or not a positive integer: {v!r}", path=path, key=key)
        values[key] = v
    if values["hidden_size"] % values["num_attention_heads"]:
        raise EncoderLoadError("hidden_size is not a multiple of num_attention_heads", path=path,
                               key="num_attention_heads")
    return EncoderConfig(**values, layer_norm_eps=float(raw.get("layer_norm_eps", 1e-12)),
                         pad_token_id=int(raw.get("pad_token_id", 0) or 0), model_type=mtype)


@dataclass(frozen=True)
class Layer:
    """One post-norm transformer layer, float32, linear weights as ``(in, out)``.

    ``qkv_w``/``qkv_b`` fuse query, key and value; the query part is pre-multiplied by
    ``1/sqrt(head_dim)`` so the scores need no separate scaling.
    """

    qkv_w: np.ndarray
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1_g: np.ndarray
    ln1_b: np.ndarray
    ff1_w: np.ndarray
    ff1_b: np.ndarray
    ff2_w: np.ndarray
    ff2_b: np.ndarray
    ln2_g: np.ndarray
    ln2_b: np.ndarray


@dataclass(frozen=True)
class Weights:
    """Embedding tables, embedding LayerNorm and the layers."""

    word: np.ndarray
    position: np.ndarray
    token_type: np.ndarray
    ln_gamma: np.ndarray
    ln_beta: np.ndarray
    layers: tuple


class _Reader:
    """Fetch tensors by name with a shape check; accepts a ``bert.`` prefix on every key."""

    def __init__(self, path: Path, tensors: dict):
        self.path, self.tensors = path, tensors
        self.prefix = "bert." if "bert.embeddings.word_embeddings.weight" in tensors else ""

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        key = self.prefix + name
        if key not in self.tensors:
            raise EncoderLoadError("weight missing", path=self.path, key=key)
        arr = self.tensors[key]
        if tuple(arr.shape) != shape:
            raise EncoderLoadError(f"shape {tuple(arr.shape)}, expected {shape}", path=self.path, key=key)
        return np.ascontiguousarray(arr, dtype=np.float32)

    def linear(self, name: str, n_out: int, n_in: int) -> tuple[np.ndarray, np.ndarray]:
        w = self.get(f"{name}.weight", (n_out, n_in))
        return np.ascontiguousarray(w.T), self.get(f"{name}.bias", (n_out,))


def _layer(r: _Reader, i: int, c: EncoderConfig) -> Layer:
    d, f, p = c.hidden_size, c.intermediate_size, f"encoder.layer.{i}."
    q, k, v = (r.linear(f"{p}attention.self.{n}", d, d) for n in ("query", "key", "value"))
    out_w, out_b = r.linear(f"{p}attention.output.dense", d, d)
    ff1_w, ff1_b = r.linear(f"{p}intermediate.dense", f, d)
    ff2_w, ff2_b = r.linear(f"{p}output.dense", d, f)
    ln = lambda n: (r.get(f"{p}{n}.LayerNorm.weight", (d,)), r.get(f"{p}{n}.LayerNorm.bias", (d,)))
    (ln1_g, ln1_b), (ln2_g, ln2_b) = ln("attention.output"), ln("output")
    scale = np.float32(1.0 / np.sqrt(d // c.num_attention_heads))  # folded into the query
    qkv_w = np.ascontiguousarray(np.concatenate([q[0] * scale, k[0], v[0]], axis=1))
    qkv_b = np.concatenate([q[1] * scale, k[1], v[1]])
    return Layer(qkv_w, qkv_b, out_w, out_b, ln1_g, ln1_b, ff1_w, ff1_b, ff2_w, ff2_b, ln2_g, ln2_b)


def read_weights(path: Path, config: EncoderConfig) -> Weights:
    """Load ``model.safetensors`` and check every tensor the config implies."""
    if not path.is_file():
        raise EncoderLoadError("missing; a model directory needs model.safetensors", path=path)
    try:
        from safetensors.numpy import load_file

        tensors = load_file(str(path))
    except Exception as exc:  # the library raises several types for corrupt files
        raise EncoderLoadError(f"not a readable safetensors file ({exc})", path=path) from exc
    r, c = _Reader(path, tensors), config
    d = c.hidden_size
    e = "embeddings."
    return Weights(
        word=r.get(f"{e}word_embeddings.weight", (c.vocab_size, d)),
        position=r.get(f"{e}position_embeddings.weight", (c.max_position_embeddings, d)),
        token_type=r.get(f"{e}token_type_embeddings.weight", (c.type_vocab_size, d)),
        ln_gamma=r.get(f"{e}LayerNorm.weight", (d,)),
        ln_beta=r.get(f"{e}LayerNorm.bias", (d,)),
        layers=tuple(_layer(r, i, c) for i in range(c.num_hidden_layers)),
    )
