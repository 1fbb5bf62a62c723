"""Batches for :class:`core.encoder.Encoder`: result records, padding and document windows.

Texts are padded to the longest of their batch (:func:`pad_ids`), long documents are split
into ``[CLS] window [SEP]`` rows (:func:`frame_windows`), and batches shrink so that one
layer's attention scores stay within :data:`SCORE_BUDGET` bytes (:func:`fit_batch`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

SCORE_BUDGET = 64 * 2**20  # bytes of float32 attention scores per batch and layer
Progress = Callable[[float], None] | None
ShouldStop = Callable[[], bool] | None


@dataclass(frozen=True)
class EncoderOutput:
    """The encoder's outputs for a batch of texts (padded to the batch's longest).

    Attributes
    ----------
    input_ids : (B, T) int64 ndarray — token ids, padded with the pad id.
    attention_mask : (B, T) int64 ndarray — 1 for real tokens (specials included), 0 for pad.
    last_hidden_state : (B, T, d) float32 ndarray — last-layer token vectors.
    tokens : tuple of tuple[str, ...] — per text, its token strings (no padding).
    offsets : tuple of tuple[(int, int), ...] — per text, half-open code-point spans of each
        token in the original text (``(0, 0)`` for special tokens).
    texts : tuple[str, ...] — the texts as given.
    truncated : tuple[int, ...] — per text, how many tokens were cut to fit
        ``max_position_embeddings`` (0 when nothing was cut).
    """

    input_ids: np.ndarray
    attention_mask: np.ndarray
    last_hidden_state: np.ndarray
    tokens: tuple = ()
    offsets: tuple = ()
    texts: tuple = ()
    truncated: tuple = ()


@dataclass(frozen=True)
class ChunkedDocument:
    """A long text split into overlapping token windows, each encoded and mean-pooled.

    Attributes
    ----------
    text : str
    tokens : tuple[str, ...] — the text's tokens, no special tokens.
    offsets : tuple[(int, int), ...] — their code-point spans in ``text``.
    windows : tuple[(int, int), ...] — half-open token ranges (:func:`core.pooling.chunk_windows`).
    char_spans : tuple[(int, int), ...] — each window's span in ``text`` (code points).
    vectors : (k, d) float ndarray — masked mean of each window's last hidden state.
    """

    text: str
    tokens: tuple
    offsets: tuple
    windows: tuple
    char_spans: tuple
    vectors: np.ndarray


def fit_batch(batch_size: int, T: int, n_heads: int) -> int:
    """Shrink ``batch_size`` so one layer's attention scores (``n_heads · T · T`` float32 per
    sequence) stay within :data:`SCORE_BUDGET` bytes; at least 1."""
    per_sequence = 4 * n_heads * T * T
    return max(1, min(batch_size, SCORE_BUDGET // per_sequence))


def pad_ids(rows: Sequence[Sequence[int]], pad_id: int) -> tuple[np.ndarray, np.ndarray]:
    """Token id rows padded to the longest: ``(B, T)`` int64 ids and the 0/1 attention mask."""
    T = max(len(r) for r in rows)
    ids = np.full((len(rows), T), pad_id, dtype=np.int64)
    mask = np.zeros((len(rows), T), dtype=np.int64)
    for b, row_ids in enumerate(rows):
        ids[b, : len(row_ids)] = row_ids
        mask[b, : len(row_ids)] = 1
    return ids, mask


def frame_windows(ids: Sequence[int], windows: Sequence[tuple[int, int]], cls: int, sep: int,
                  pad_id: int) -> tuple[np.ndarray, np.ndarray]:
    """One ``[CLS] ids[s:e] [SEP]`` row per window ``(s, e)`` (token indices, half-open),
    padded: ``(k, max(e - s) + 2)`` int64 ids and the 0/1 attention mask."""
    T = max(e - s for s, e in windows) + 2
    all_ids = np.full((len(windows), T), pad_id, dtype=np.int64)
    mask = np.zeros_like(all_ids)
    for k, (s, e) in enumerate(windows):
        all_ids[k, : e - s + 2] = [cls, *ids[s:e], sep]
        mask[k, : e - s + 2] = 1
    return all_ids, mask


def batch_progress(progress: Progress, j: int, n: int) -> Progress:
    """Map a batch's own progress (0..1) to the whole run's for batch ``j`` of ``n``."""
    return (lambda f: progress((j + f) / n)) if progress else None
