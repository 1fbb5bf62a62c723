"""What more tokens cost a model: output layer per token, sequence length and attention.

Figures of SPEC §9: the output (unembedding) layer does ``2·V·d`` FLOPs per token (one
multiply-add per weight of a ``V × d`` matrix) and holds ``V·d`` parameters; a fertility
ratio r means r times the sequence length and r² times the attention scores (self-attention
is quadratic in length; Vaswani et al. 2017).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import SubwordScopeError


@dataclass(frozen=True)
class OutputLayerCost:
    """Cost of a ``V × d`` output layer: ``params`` = V·d weights, ``flops_per_token`` = 2·V·d."""

    vocab_size: int
    d_model: int
    params: int
    flops_per_token: int


@dataclass(frozen=True)
class FertilityCost:
    """``length_ratio`` = f_b / f_a (tokens for the same text), ``attention_ratio`` = its square."""

    length_ratio: float
    attention_ratio: float


def output_layer_cost(vocab_size: int, d_model: int) -> OutputLayerCost:
    """Parameters and FLOPs per token of the output layer.

    Raises
    ------
    SubwordScopeError
        If either size is not a positive integer.
    """
    if vocab_size <= 0 or d_model <= 0:
        raise SubwordScopeError("vocabulary size and model width must be positive")
    params = int(vocab_size) * int(d_model)
    return OutputLayerCost(int(vocab_size), int(d_model), params, 2 * params)


def fertility_cost(fertility_a: float, fertility_b: float) -> FertilityCost:
    """How much longer (and how much more attention) language b costs than language a.

    Raises
    ------
    SubwordScopeError
        If a fertility is not positive.
    """
    if not (fertility_a > 0 and fertility_b > 0):
        raise SubwordScopeError("fertilities must be positive (tokens per word)")
    r = fertility_b / fertility_a
    return FertilityCost(r, r * r)
