"""What a vector index costs: bytes per code type and multiply-adds per exact query (SPEC §10).

Sizes are in bytes; the ``mb`` figures use decimal megabytes (10^6 bytes), as the seed prints
them: 100,000 vectors of 384 dimensions take 153.6 MB as float32, 76.8 as float16 and 38.4 as
int8; 10,000,000 take 15,360 / 7,680 / 3,840 MB. int8's per-vector float32 scale (4 bytes a
vector, +1 % at 384 dimensions) is left out unless asked for, as in those figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.retrieval._checks import RetrievalError, whole_number
from core.retrieval.codes import CODE_TYPES

BYTES_PER_COMPONENT = {"float32": 4, "float16": 2, "int8": 1}
SCALE_BYTES = 4
MB = 10**6


def vector_bytes(n: int, dim: int, dtype: str, *, scales: bool = False) -> int:
    """Bytes to store ``n`` vectors of ``dim`` components as ``dtype``.

    Parameters
    ----------
    n : int — vectors, >= 0.
    dim : int — components per vector, >= 1.
    dtype : {"float32", "float16", "int8"}
    scales : bool — add int8's 4-byte scale per vector (ignored for the float types).

    Returns
    -------
    int — ``n * dim * bytes_per_component`` (+ ``4 n`` for int8 with ``scales``), e.g.
    ``vector_bytes(100_000, 384, "float32") == 153_600_000``.

    Raises
    ------
    RetrievalError
        Negative ``n``, ``dim < 1`` or an unknown ``dtype``.
    """
    n, dim = whole_number("n", n, 0), whole_number("dim", dim)
    if not isinstance(dtype, str) or dtype not in BYTES_PER_COMPONENT:
        raise RetrievalError(f"unknown dtype {dtype!r}; choose one of {', '.join(CODE_TYPES)}")
    extra = SCALE_BYTES * n if scales and dtype == "int8" else 0
    return n * dim * BYTES_PER_COMPONENT[dtype] + extra


def exact_query_cost(n: int, dim: int) -> int:
    """Multiply-adds of one exact query: ``n · dim`` (38,400,000 at 100k × 384).

    Raises
    ------
    RetrievalError
        Negative ``n`` or ``dim < 1``.
    """
    return whole_number("n", n, 0) * whole_number("dim", dim)


@dataclass(frozen=True)
class MemoryRow:
    """One code type's storage at ``n`` and at ``scale · n`` vectors (:func:`memory_table`).

    Attributes
    ----------
    dtype : str
    bytes_per_vector : int
    bytes : int — at ``n`` vectors.
    bytes_scaled : int — at ``scale · n`` vectors.
    """

    dtype: str
    bytes_per_vector: int
    bytes: int
    bytes_scaled: int

    @property
    def mb(self) -> float:
        """``bytes`` in decimal MB."""
        return self.bytes / MB

    @property
    def mb_scaled(self) -> float:
        """``bytes_scaled`` in decimal MB."""
        return self.bytes_scaled / MB


def memory_table(n: int, dim: int, *, scale: int = 100, scales: bool = False) -> tuple[MemoryRow, ...]:
    """Storage of every code type at ``n`` and ``scale · n`` vectors (float32, float16, int8).

    Raises
    ------
    RetrievalError
        As for :func:`vector_bytes`, or ``scale < 1``.
    """
    scale = whole_number("scale", scale)
    return tuple(
        MemoryRow(t, vector_bytes(1, dim, t, scales=scales), vector_bytes(n, dim, t, scales=scales),
                  vector_bytes(n * scale, dim, t, scales=scales))
        for t in CODE_TYPES
    )


MATERIAL_SIZES = (100_000, 10_000_000)
"""Corpus sizes the course material prices an index at (100k and 100 × that)."""
BUDGET_DIM = 384
"""The material's budget width: a common sentence-embedding size (all-MiniLM-L6-v2's)."""


@dataclass(frozen=True)
class SizeCost:
    """Storage per code type and the exact query's multiply-adds for ``n`` vectors of ``dim``.

    Attributes
    ----------
    n, dim : int
    bytes : dict[str, int] — per code type of :data:`~core.retrieval.codes.CODE_TYPES`, no int8 scales.
    multiply_adds : int — one exact query, ``n · dim``.
    """

    n: int
    dim: int
    bytes: dict
    multiply_adds: int

    def mb(self, dtype: str) -> float:
        """``bytes[dtype]`` in decimal MB."""
        return self.bytes[dtype] / MB


def size_costs(n: int, dim: int, *, sizes=MATERIAL_SIZES, budget_dim: int = BUDGET_DIM) -> tuple[SizeCost, ...]:
    """What an index of this corpus costs, and what it would at the material's sizes.

    Rows, in order: ``n × dim``; each of ``sizes`` × ``dim``; and, when ``dim != budget_dim``,
    each of ``sizes`` × ``budget_dim`` (so the material's figures are always among them:
    100,000 × 384 → 153.6 / 76.8 / 38.4 MB and 38,400,000 multiply-adds; 10,000,000 × 384 →
    15,360 / 7,680 / 3,840 MB and 3,840,000,000).

    Raises
    ------
    RetrievalError
        As for :func:`vector_bytes`; a size in ``sizes`` or ``budget_dim`` not a whole number >= 1.
    """
    n, dim = whole_number("n", n, 0), whole_number("dim", dim)
    budget_dim = whole_number("budget_dim", budget_dim)
    sizes = tuple(whole_number("size", s) for s in sizes)
    shapes = [(n, dim)] + [(s, dim) for s in sizes] + ([(s, budget_dim) for s in sizes] if dim != budget_dim else [])
    return tuple(SizeCost(m, d, {t: vector_bytes(m, d, t) for t in CODE_TYPES}, exact_query_cost(m, d))
                 for m, d in shapes)
