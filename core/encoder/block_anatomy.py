"""Anatomy of one pre-norm transformer block: the shape of every intermediate and where the
parameters are (SPEC §11).

The block is ``x + Attn(LN(x))`` then ``x + FFN(LN(x))`` with a causal mask (the GPT-2 / pre-LN
layout, Xiong et al. 2020). :func:`block_anatomy` derives shapes and parameter counts from the
sizes alone; :func:`block_forward` runs the same block in numpy so the shapes can be checked
against a real computation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.encoder.ops import layer_norm
from core.errors import SubwordScopeError

LN_EPS = 1e-5
"""The layer norms' epsilon in the block experiments (added to the variance)."""


class BlockShapeError(SubwordScopeError):
    """Block sizes that do not fit together (e.g. ``d`` not divisible by ``H``)."""


@dataclass(frozen=True)
class Intermediate:
    """One tensor inside the block: ``name``, its ``shape`` and how it is made (``formula``)."""

    name: str
    shape: tuple[int, ...]
    formula: str


@dataclass(frozen=True)
class ParameterGroup:
    """Weights of one sub-layer: ``name``, ``part`` (attention / ffn / norm) and their shapes."""

    name: str
    part: str
    shapes: tuple[tuple[int, ...], ...]

    @property
    def count(self) -> int:
        return int(sum(np.prod(s) for s in self.shapes))


@dataclass(frozen=True)
class BlockAnatomy:
    """Result of :func:`block_anatomy`.

    Attributes
    ----------
    intermediates : tuple of Intermediate
        In computation order, from the input to the output.
    parameters : tuple of ParameterGroup
        Both layer norms, the fused QKV projection, the output projection, both FFN layers.
    """

    B: int
    T: int
    d: int
    H: int
    d_ff: int
    intermediates: tuple[Intermediate, ...]
    parameters: tuple[ParameterGroup, ...]

    def part_total(self, part: str) -> int:
        """Parameters of ``part`` ("attention", "ffn" or "norm")."""
        return sum(g.count for g in self.parameters if g.part == part)

    @property
    def total(self) -> int:
        return sum(g.count for g in self.parameters)

    @property
    def attention(self) -> int:
        return self.part_total("attention")

    @property
    def ffn(self) -> int:
        return self.part_total("ffn")

    @property
    def ffn_fraction(self) -> float:
        return self.ffn / self.total

    def shape_of(self, name: str) -> tuple[int, ...]:
        """The shape of the intermediate called ``name``."""
        return next(i.shape for i in self.intermediates if i.name == name)


def _check(B: int, T: int, d: int, H: int, d_ff: int) -> None:
    for name, v in (("B", B), ("T", T), ("d", d), ("H", H), ("d_ff", d_ff)):
        if isinstance(v, bool) or int(v) != v or v < 1:
            raise BlockShapeError(f"{name} must be a whole number >= 1, got {v!r}")
    if d % H:
        raise BlockShapeError(f"d={d} is not divisible by H={H}: every head needs d/H dimensions")


def block_anatomy(B: int, T: int, d: int, H: int, d_ff: int) -> BlockAnatomy:
    """Shapes and parameter split of one pre-norm block.

    Parameters
    ----------
    B, T : int
        Batch size and sequence length (tokens).
    d : int
        Model width; must be divisible by ``H``.
    H : int
        Number of attention heads (head width ``d/H``).
    d_ff : int
        FFN hidden width (usually ``4*d``).

    Returns
    -------
    BlockAnatomy
        For B=2, T=8, d=64, H=4, d_ff=256: qkv (2, 8, 192), per head (2, 4, 8, 16), scores
        (2, 4, 8, 8), FFN hidden (2, 8, 256); 49,984 parameters (attention 16,640, FFN 33,088).

    Raises
    ------
    BlockShapeError
        A size is not a positive integer, or ``d`` is not divisible by ``H``.
    """
    _check(B, T, d, H, d_ff)
    hd = d // H
    x, heads, scores = (B, T, d), (B, H, T, hd), (B, H, T, T)
    inter = (
        Intermediate("x", x, "input (token + position embeddings)"),
        Intermediate("ln1", x, "LayerNorm(x)"),
        Intermediate("qkv", (B, T, 3 * d), "ln1 @ W_qkv + b_qkv"),
        Intermediate("q, k, v per head", heads, "split qkv in 3, reshape to H heads, transpose"),
        Intermediate("scores", scores, "q @ k^T / sqrt(d/H) + causal mask"),
        Intermediate("weights", scores, "softmax over keys"),
        Intermediate("context", heads, "weights @ v"),
        Intermediate("merged", x, "transpose back, concatenate heads"),
        Intermediate("attn_out", x, "merged @ W_o + b_o"),
        Intermediate("x1", x, "x + attn_out (residual)"),
        Intermediate("ln2", x, "LayerNorm(x1)"),
        Intermediate("ffn_hidden", (B, T, d_ff), "GELU(ln2 @ W_1 + b_1)"),
        Intermediate("ffn_out", x, "ffn_hidden @ W_2 + b_2"),
        Intermediate("out", x, "x1 + ffn_out (residual)"),
    )
    params = (
        ParameterGroup("ln1 (gain, bias)", "norm", ((d,), (d,))),
        ParameterGroup("W_qkv, b_qkv", "attention", ((d, 3 * d), (3 * d,))),
        ParameterGroup("W_o, b_o", "attention", ((d, d), (d,))),
        ParameterGroup("ln2 (gain, bias)", "norm", ((d,), (d,))),
        ParameterGroup("W_1, b_1", "ffn", ((d, d_ff), (d_ff,))),
        ParameterGroup("W_2, b_2", "ffn", ((d_ff, d), (d,))),
    )
    return BlockAnatomy(B, T, d, H, d_ff, inter, params)


def init_block_weights(d: int, H: int, d_ff: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Random weights for :func:`block_forward`, one array per shape of :func:`block_anatomy`."""
    anatomy = block_anatomy(1, 1, d, H, d_ff)
    rng = np.random.default_rng(seed)
    names = ("ln1_g", "ln1_b", "W_qkv", "b_qkv", "W_o", "b_o", "ln2_g", "ln2_b", "W_1", "b_1", "W_2", "b_2")
    shapes = [s for g in anatomy.parameters for s in g.shapes]
    return {n: rng.normal(scale=0.02, size=s) for n, s in zip(names, shapes)}


def _gelu(x: np.ndarray) -> np.ndarray:  # tanh approximation (Hendrycks & Gimpel 2016)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def block_forward(x: np.ndarray, w: dict[str, np.ndarray], H: int, *, causal: bool = True,
                  norm: str = "pre") -> dict[str, np.ndarray]:
    """Run one block in numpy and return every intermediate by name.

    Parameters
    ----------
    x : (B, T, d) float ndarray
    w : dict
        Weights as made by :func:`init_block_weights`.
    H : int
        Number of heads (``d`` divisible by ``H``).
    causal : bool
        Mask every key after the query (a decoder); ``False``: every token sees every token
        (an encoder).
    norm : {"pre", "post"}
        ``"pre"`` (GPT-2 onwards): ``x1 = x + Attn(LN1(x))``, ``out = x1 + FFN(LN2(x1))``;
        ``"post"`` (Vaswani et al. 2017): ``x1 = LN1(x + Attn(x))``, ``out = LN2(x1 + FFN(x1))``.
        ``"ln1"`` / ``"ln2"`` hold the attention's and the FFN's inputs in both layouts.

    Returns
    -------
    dict of str -> ndarray
        Keyed by the names of :attr:`BlockAnatomy.intermediates`.

    Raises
    ------
    BlockShapeError
        Sizes that do not fit, or ``norm`` not "pre" or "post".
    """
    B, T, d = x.shape
    _check(B, T, d, H, w["W_1"].shape[1])
    if norm not in ("pre", "post"):
        raise BlockShapeError(f"norm must be 'pre' or 'post', got {norm!r}")
    pre = norm == "pre"
    out = {"x": x, "ln1": layer_norm(x, w["ln1_g"], w["ln1_b"], LN_EPS) if pre else x}
    out["qkv"] = out["ln1"] @ w["W_qkv"] + w["b_qkv"]
    q, k, v = (a.reshape(B, T, H, d // H).transpose(0, 2, 1, 3) for a in np.split(out["qkv"], 3, -1))
    out["q, k, v per head"] = q
    mask = np.triu(np.full((T, T), -np.inf), 1) if causal else np.zeros((T, T))
    out["scores"] = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d // H) + mask
    e = np.exp(out["scores"] - out["scores"].max(-1, keepdims=True))
    out["weights"] = e / e.sum(-1, keepdims=True)
    out["context"] = out["weights"] @ v
    out["merged"] = out["context"].transpose(0, 2, 1, 3).reshape(B, T, d)
    out["attn_out"] = out["merged"] @ w["W_o"] + w["b_o"]
    residual = x + out["attn_out"]
    out["x1"] = residual if pre else layer_norm(residual, w["ln1_g"], w["ln1_b"], LN_EPS)
    out["ln2"] = layer_norm(out["x1"], w["ln2_g"], w["ln2_b"], LN_EPS) if pre else out["x1"]
    out["ffn_hidden"] = _gelu(out["ln2"] @ w["W_1"] + w["b_1"])
    out["ffn_out"] = out["ffn_hidden"] @ w["W_2"] + w["b_2"]
    final = out["x1"] + out["ffn_out"]
    out["out"] = final if pre else layer_norm(final, w["ln2_g"], w["ln2_b"], LN_EPS)
    return out
