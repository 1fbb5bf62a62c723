"""Reading and checking a BERT-family model directory: ``config.json`` and ``model.safetensors``.

Both files are checked before they are opened (regular files only, ``config.json`` at most
:data:`MAX_CONFIG_BYTES`, weights at most :data:`MAX_WEIGHTS_BYTES`), ``config.json`` is parsed
with a nesting limit and no ``NaN``/``Infinity``, and every field the forward pass uses is
checked for its JSON kind and range; every refusal is an :class:`EncoderLoadError` naming the
file and the key. Weights are read with the ``safetensors`` package's numpy API, checked key by
key against the shapes the config implies and for non-finite values, converted to float32 and
laid out for the forward pass of :mod:`core.encoder` (linear weights transposed to
``(in, out)``; query, key and value fused into one ``(d, 3d)`` matrix; the scores and the
FFN's values rescaled for the elementwise steps, see :class:`Layer`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.encoder.ops import GELU_IN, LOG2_E
from core.errors import SubwordScopeError
from core.text.files import TextFileError, check_regular_file, read_file_bytes
from core.tokenizers.formats._json import MAX_JSON_DEPTH, nesting_depth, shown

SUPPORTED_TYPES = ("bert",)
SUPPORTED_ACTS = ("gelu",)

MAX_CONFIG_BYTES = 2**20
"""Largest ``config.json`` read: 1 MiB (published ones are about 1 KB)."""

MAX_WEIGHTS_BYTES = 16 * 2**30
"""Largest ``model.safetensors`` read: 16 GiB (the whole file is read into memory)."""

MAX_DIM = 2**31 - 1
"""Largest size a config may give (vocabulary, width, layers, positions): ids and shapes
stay within int32."""


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


class _NonFinite(ValueError):
    """``NaN``/``Infinity`` in ``config.json`` (JSON has neither)."""


def _refuse_constant(spelling: str) -> float:
    raise _NonFinite(spelling)


def _checked_file(path: Path, max_bytes: int, role: str, *, read: bool) -> bytes | None:
    """Check, before opening it, that ``path`` is a regular file of at most ``max_bytes``
    (``role`` names it when missing); its bytes when ``read``, else None."""
    if not path.exists() and not path.is_symlink():
        raise EncoderLoadError(f"missing; a model directory needs {role}", path=path)
    try:
        if read:
            return read_file_bytes(path, max_bytes)
        check_regular_file(path, max_bytes)
    except TextFileError as exc:
        raise EncoderLoadError(str(exc).removeprefix(f"{exc.path}: "), path=path) from None
    return None


def parse_config(path: Path) -> dict:
    """``config.json`` parsed as an object, not checked further (:func:`read_config` checks
    it): a regular file of at most :data:`MAX_CONFIG_BYTES`, checked before it is opened.

    Raises
    ------
    EncoderLoadError
        Naming the file: missing, not a regular file, too large, not UTF-8 JSON, nested
        deeper than ``MAX_JSON_DEPTH``, holding ``NaN``/``Infinity``, or not an object.
    """
    data = _checked_file(path, MAX_CONFIG_BYTES, "config.json", read=True)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EncoderLoadError(f"not UTF-8 text (bad byte at position {exc.start})",
                               path=path) from None
    if nesting_depth(text) > MAX_JSON_DEPTH:
        raise EncoderLoadError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels; is this "
                               "really a model's config.json?", path=path)
    try:
        raw = json.loads(text, parse_constant=_refuse_constant)
    except _NonFinite as exc:
        raise EncoderLoadError(f"{exc} is not a number JSON allows (no NaN or infinity)",
                               path=path) from None
    except json.JSONDecodeError as exc:
        raise EncoderLoadError(f"not readable JSON (line {exc.lineno}, column {exc.colno}: "
                               f"{exc.msg})", path=path) from None
    except (ValueError, RecursionError):  # an integer of more than 4,300 digits
        raise EncoderLoadError("not readable JSON (a whole number too long to read)",
                               path=path) from None
    if not isinstance(raw, dict):
        raise EncoderLoadError(f"expected a JSON object, not {shown(raw)}", path=path)
    return raw


def _choice(raw: dict, key: str, default: str, allowed: tuple[str, ...], what: str,
            path: Path) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or value not in allowed:
        raise EncoderLoadError(f"unsupported {what} {shown(value)}; supported: "
                               f"{', '.join(allowed)}", path=path, key=key)
    return value


def _number(raw: dict, key: str, default: float, path: Path) -> float:
    value = raw.get(key, default)
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or not 0 <= value <= 1):
        raise EncoderLoadError(f"must be a finite number from 0 to 1, not {shown(value)}",
                               path=path, key=key)
    return float(value)


def read_config(path: Path) -> EncoderConfig:
    """Parse and check ``config.json``.

    Raises
    ------
    EncoderLoadError
        Naming the file, and the key when one is at fault: the file is missing, not a
        regular file or larger than :data:`MAX_CONFIG_BYTES`; not UTF-8 JSON, nested deeper
        than ``MAX_JSON_DEPTH`` or holding ``NaN``/``Infinity``; not an object; an
        unsupported ``model_type``, ``hidden_act`` or ``position_embedding_type``; a size
        that is missing or not a whole number from 1 to :data:`MAX_DIM`; ``hidden_size`` not
        a multiple of ``num_attention_heads``; ``layer_norm_eps`` not a finite number in
        [0, 1]; ``pad_token_id`` not null or an id below ``vocab_size``.
    """
    raw = parse_config(path)
    mtype = _choice(raw, "model_type", "", SUPPORTED_TYPES, "architecture", path)
    _choice(raw, "hidden_act", "gelu", SUPPORTED_ACTS, "activation", path)
    _choice(raw, "position_embedding_type", "absolute", ("absolute",), "position embeddings",
            path)
    values: dict[str, Any] = {}
    for key in _INT_KEYS:
        v = raw.get(key)
        if type(v) is not int or not 1 <= v <= MAX_DIM:
            raise EncoderLoadError(f"missing or not a whole number from 1 to {MAX_DIM:,}: "
                                   f"{shown(v)}", path=path, key=key)
        values[key] = v
    if values["hidden_size"] % values["num_attention_heads"]:
        raise EncoderLoadError("hidden_size is not a multiple of num_attention_heads", path=path,
                               key="num_attention_heads")
    pad = raw.get("pad_token_id", 0)
    pad = 0 if pad is None else pad
    if type(pad) is not int or not 0 <= pad < values["vocab_size"]:
        raise EncoderLoadError(f"must be null or an id from 0 to vocab_size - 1 "
                               f"({values['vocab_size'] - 1:,}), not {shown(pad)}",
                               path=path, key="pad_token_id")
    return EncoderConfig(**values, layer_norm_eps=_number(raw, "layer_norm_eps", 1e-12, path),
                         pad_token_id=pad, model_type=mtype)


@dataclass(frozen=True)
class Layer:
    """One post-norm transformer layer, float32, linear weights as ``(in, out)``.

    ``qkv_w`` fuses query, key and value; the query part (and its bias ``q_b``) is
    pre-multiplied by ``log₂e/sqrt(head_dim)``, so the scores need no separate scaling and
    their softmax is taken with powers of two (``numpy.exp2``). The key bias is left out (it
    adds one constant per query row to the scores, which softmax ignores) and the value bias
    is folded into ``out_b`` (softmax rows sum to one, so ``P (V + 1 b_v) W_o = P V W_o +
    b_v W_o``): the attention adds one bias instead of three. ``ff1_w``/``ff1_b`` are
    multiplied by ``k`` = :data:`core.encoder.ops.GELU_IN` and ``ff2_w`` by ``1/(2k)``: the
    activation works on ``k·x`` (:func:`core.encoder.ops.gelu_of_scaled_`, fewer passes).
    """

    qkv_w: np.ndarray
    q_b: np.ndarray
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
        if not np.issubdtype(arr.dtype, np.floating):
            raise EncoderLoadError(f"holds {arr.dtype} values, not floating-point weights",
                                   path=self.path, key=key)
        with np.errstate(over="ignore"):  # too large for float32: inf, refused below
            out = np.ascontiguousarray(arr, dtype=np.float32)
        if not np.isfinite(out).all():
            raise EncoderLoadError("holds NaN or infinite values (or values too large for "
                                   "float32)", path=self.path, key=key)
        return out

    def linear(self, name: str, n_out: int, n_in: int) -> tuple[np.ndarray, np.ndarray]:
        w = self.get(f"{name}.weight", (n_out, n_in))
        return np.ascontiguousarray(w.T), self.get(f"{name}.bias", (n_out,))


def _layer(r: _Reader, i: int, c: EncoderConfig) -> Layer:
    d, f, p = c.hidden_size, c.intermediate_size, f"encoder.layer.{i}."
    q, k, v = (r.linear(f"{p}attention.self.{n}", d, d) for n in ("query", "key", "value"))
    out_w, out_b = r.linear(f"{p}attention.output.dense", d, d)
    ff1_w, ff1_b = (a * GELU_IN for a in r.linear(f"{p}intermediate.dense", f, d))
    ff2_w, ff2_b = r.linear(f"{p}output.dense", d, f)
    ff2_w = ff2_w * np.float32(0.5 / GELU_IN)
    ln = lambda n: (r.get(f"{p}{n}.LayerNorm.weight", (d,)), r.get(f"{p}{n}.LayerNorm.bias", (d,)))
    (ln1_g, ln1_b), (ln2_g, ln2_b) = ln("attention.output"), ln("output")
    scale = np.float32(LOG2_E / np.sqrt(d // c.num_attention_heads))  # folded into the query
    qkv_w = np.ascontiguousarray(np.concatenate([q[0] * scale, k[0], v[0]], axis=1))
    out_b = (out_b + v[1].astype(np.float64) @ out_w).astype(np.float32)
    return Layer(qkv_w, q[1] * scale, out_w, out_b, ln1_g, ln1_b, ff1_w, ff1_b, ff2_w, ff2_b, ln2_g, ln2_b)


def read_weights(path: Path, config: EncoderConfig) -> Weights:
    """Load ``model.safetensors`` and check every tensor the config implies.

    Raises
    ------
    EncoderLoadError
        Naming the file (and the weight): missing, not a regular file or larger than
        :data:`MAX_WEIGHTS_BYTES` (checked before reading), not a readable safetensors file,
        or a weight that is missing, of another shape, not floating-point or not finite.
    """
    _checked_file(path, MAX_WEIGHTS_BYTES, "model.safetensors", read=False)
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
