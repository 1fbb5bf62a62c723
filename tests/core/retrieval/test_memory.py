"""Memory and cost arithmetic (SPEC §10 goldens)."""

from __future__ import annotations

import pytest

from core.retrieval import RetrievalError, exact_query_cost, memory_table, vector_bytes


@pytest.mark.parametrize(
    "n, dtype, mb",
    [
        (100_000, "float32", 153.6), (100_000, "float16", 76.8), (100_000, "int8", 38.4),
        (10_000_000, "float32", 15_360), (10_000_000, "float16", 7_680), (10_000_000, "int8", 3_840),
    ],
)
def test_spec_memory_goldens_at_384_dims(n, dtype, mb):
    assert vector_bytes(n, 384, dtype) == round(mb * 10**6)


def test_bytes_per_vector_and_int8_scales():
    assert [vector_bytes(1, 384, t) for t in ("float32", "float16", "int8")] == [1536, 768, 384]
    assert vector_bytes(100_000, 384, "int8", scales=True) == 38_400_000 + 400_000
    assert vector_bytes(100_000, 384, "float16", scales=True) == 76_800_000
    assert vector_bytes(0, 384, "float32") == 0


def test_memory_table_at_n_and_100_n():
    rows = memory_table(100_000, 384)
    assert [r.dtype for r in rows] == ["float32", "float16", "int8"]
    assert [r.mb for r in rows] == [153.6, 76.8, 38.4]
    assert [r.mb_scaled for r in rows] == [15_360, 7_680, 3_840]
    assert [r.bytes_per_vector for r in rows] == [1536, 768, 384]


def test_multiply_adds_per_exact_query():
    assert exact_query_cost(100_000, 384) == 38_400_000
    assert exact_query_cost(10_000_000, 384) == 3_840_000_000


@pytest.mark.parametrize("args", [(-1, 384, "int8"), (10, 0, "int8"), (10, 384, "bfloat16"), (1.5, 3, "int8")])
def test_bad_arguments_are_typed_errors(args):
    with pytest.raises(RetrievalError):
        vector_bytes(*args)


def test_size_costs_list_the_corpus_then_the_materials_sizes():
    from core.retrieval.memory import size_costs

    rows = size_costs(1787, 384)
    assert [(r.n, r.dim) for r in rows] == [(1787, 384), (100_000, 384), (10_000_000, 384)]
    assert [round(rows[1].mb(t), 1) for t in ("float32", "float16", "int8")] == [153.6, 76.8, 38.4]
    assert [round(rows[2].mb(t), 1) for t in ("float32", "float16", "int8")] == [15360.0, 7680.0, 3840.0]
    assert (rows[1].multiply_adds, rows[2].multiply_adds) == (38_400_000, 3_840_000_000)
    assert rows[0].bytes["float32"] == 1787 * 384 * 4
    small = size_costs(192, 32)  # another width: the material's 384-wide rows are added
    assert [(r.n, r.dim) for r in small] == [(192, 32), (100_000, 32), (10_000_000, 32),
                                             (100_000, 384), (10_000_000, 384)]
    assert small[3].bytes == rows[1].bytes
    with pytest.raises(RetrievalError):
        size_costs(10, 0)
    with pytest.raises(RetrievalError):
        size_costs(10, 4, sizes=(0,))
