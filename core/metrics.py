"""Cross-language tokenizer metrics: one import for the Compare pane and for scripts.

- per text (:mod:`core.text_stats`): :func:`count_words`, :func:`grapheme_interior`,
  :func:`text_stats`;
- per encoding (:mod:`core.encoding_metrics`): :func:`fertility`, :func:`encoding_metrics`
  → :class:`EncodingMetrics` (tokens, words, characters, UTF-8 bytes, fertility, tokens per
  character, bytes per token, unknown and byte-fallback rates, grapheme-cut share),
  :func:`premium`;
- languages × tokenizers (:mod:`core.metric_table`): :func:`load_corpus`,
  :func:`compare_table` → :class:`CompareTable`, :data:`METRICS`;
- sampling (:mod:`core.sampling`): :func:`temperature_shares`, :func:`exponent_shares`,
  :func:`passes`, :func:`temperature_curve`;
- costs (:mod:`core.token_cost`): :func:`output_layer_cost`, :func:`fertility_cost`;
- span diff (:mod:`core.span_diff`): :func:`span_diff`, :func:`boundaries`,
  :func:`differing_boundaries`;
- normalization damage lives in :mod:`core.normalization_damage`.
"""

from __future__ import annotations

from core.encoding_metrics import (
    BYTE_FALLBACK_RE,
    EncodingLike,
    EncodingMetrics,
    count_unknown,
    coverage,
    covered_count,
    cutting_tokens,
    encoding_metrics,
    fertility,
    premium,
)
from core.metric_table import (
    METRICS,
    Cancelled,
    CompareTable,
    CorpusFile,
    compare_table,
    load_corpus,
    unknown_of,
)
from core.sampling import exponent_shares, passes, temperature_curve, temperature_shares
from core.span_diff import SpanDiff, boundaries, differing_boundaries, span_diff
from core.text_stats import TextStats, count_words, grapheme_interior, text_stats
from core.token_cost import fertility_cost, output_layer_cost

__all__ = [
    "BYTE_FALLBACK_RE", "EncodingLike", "EncodingMetrics", "count_unknown", "count_words",
    "coverage", "covered_count", "Cancelled", "unknown_of",
    "cutting_tokens", "encoding_metrics", "fertility", "grapheme_interior", "premium",
    "METRICS", "CompareTable", "CorpusFile", "compare_table", "load_corpus",
    "exponent_shares", "passes", "temperature_curve", "temperature_shares",
    "SpanDiff", "boundaries", "differing_boundaries", "span_diff",
    "fertility_cost", "output_layer_cost", "TextStats", "text_stats",
]
