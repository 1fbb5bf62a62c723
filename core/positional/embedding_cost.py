"""What a learned embedding table costs: parameters, bytes, and its share of the model.

A learned table has one ``d``-wide row per entry -- ``V`` vocabulary entries for token
embeddings, or the maximum number of positions for learned absolute position embeddings
(GPT-2, BERT). The transformer blocks are counted with the usual ``12 * L * d^2`` estimate
(4 d^2 attention + 8 d^2 FFN with d_ff = 4d, biases and norms ignored; Kaplan et al. 2020).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.positional._frequencies import PositionalError, check_positive_int

DTYPE_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1}
GIB = 2**30


@dataclass(frozen=True)
class EmbeddingCost:
    """Result of :func:`embedding_cost`.

    Attributes
    ----------
    parameters : int
        ``V*d``, doubled when the output head is untied.
    bytes : int
        ``parameters * bytes_per_parameter``.
    block_parameters : int
        ``12 * L * d^2``.
    fraction_of_blocks : float
        ``parameters / block_parameters``.
    """

    V: int
    d: int
    dtype: str
    tied: bool
    layers: int
    parameters: int
    bytes: int
    block_parameters: int
    fraction_of_blocks: float

    @property
    def gib(self) -> float:
        """Size in GiB (2^30 bytes)."""
        return self.bytes / GIB

    @property
    def fraction_of_total(self) -> float:
        """Share of ``parameters + block_parameters``."""
        return self.parameters / (self.parameters + self.block_parameters)


def embedding_cost(V: int, d: int, dtype: str = "fp16", *, tied: bool = True, layers: int = 32) -> EmbeddingCost:
    """Parameters and memory of an embedding table (and untied output head).

    Parameters
    ----------
    V : int
        Rows of the table (vocabulary size, or positions for a learned position table).
    d : int
        Model width.
    dtype : {"fp32", "fp16", "bf16", "fp8", "int8"}
        Storage type (4, 2, 2, 1, 1 bytes per parameter).
    tied : bool
        Whether the output head shares the table; untied doubles the parameters.
    layers : int
        Number of transformer blocks ``L`` for the ``12*L*d^2`` comparison.

    Returns
    -------
    EmbeddingCost
        e.g. V=32,000, d=4096, fp16: 131,072,000 parameters, 0.244 GiB; blocks at L=32:
        6,442,450,944.

    Raises
    ------
    PositionalError
        Non-positive sizes or an unknown dtype.
    """
    V, d, layers = (check_positive_int(n, v) for n, v in (("V", V), ("d", d), ("layers", layers)))
    if dtype not in DTYPE_BYTES:
        raise PositionalError(f"unknown dtype {dtype!r}; choose one of {', '.join(DTYPE_BYTES)}")
    params = V * d * (1 if tied else 2)
    blocks = 12 * layers * d * d
    return EmbeddingCost(V, d, dtype, bool(tied), layers, params, params * DTYPE_BYTES[dtype], blocks, params / blocks)
