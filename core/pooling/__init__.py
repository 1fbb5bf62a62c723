"""Pooling: many token vectors into one (CLS, masked mean, masked max, attention), long
documents as overlapping windows, and per-window scores combined (SPEC §7).

Layer: beside :mod:`core.positional`, below :mod:`core.encoder` (which pools its outputs).
The synthetic documents of the pooling pane's length sweep are in :mod:`core.pooling.standin`
(not re-exported here); side-by-side comparisons in :mod:`core.pooling.compare`.
"""

from core.pooling.chunks import (
    MAX_WINDOWS, ChunkAggregate, PoolingError, aggregate_chunks, chunk_windows, noisy_or,
    window_spans,
)
from core.pooling.pool import (
    METHODS, AttentionPool, MaxPool, attention_pool, cls_pool, contributions, cosine_matrix,
    max_pool, mean_pool, pad_rows, pool, unmasked_mean,
)

__all__ = [
    "METHODS", "PoolingError", "MaxPool", "AttentionPool", "ChunkAggregate",
    "cls_pool", "mean_pool", "unmasked_mean", "max_pool", "attention_pool", "contributions",
    "pool", "pad_rows", "cosine_matrix", "chunk_windows", "MAX_WINDOWS", "window_spans",
    "noisy_or", "aggregate_chunks",
]
