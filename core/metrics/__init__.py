"""Cross-language tokenizer metrics: one import for the Compare pane and for scripts.

- per text (:mod:`core.metrics.text_stats`): :func:`count_words`, :func:`grapheme_interior`,
  :func:`text_stats`;
- per encoding (:mod:`core.metrics.per_encoding`): :func:`fertility`, :func:`encoding_metrics`
  → :class:`EncodingMetrics` (tokens, words, characters, UTF-8 bytes, fertility, tokens per
  character, bytes per token, unknown and byte-fallback rates and character shares,
  unknown-adjusted tokens, grapheme-cut share), :func:`premium`;
- what a tokenizer did not encode (:mod:`core.metrics.unknown_cost`): :func:`adjusted_tokens`
  (each unknown token counted as the UTF-8 bytes it covers), :func:`utf8_lengths`;
- languages × tokenizers (:mod:`core.metrics.table`): :func:`load_corpus`,
  :func:`compare_table` → :class:`CompareTable`, :data:`METRICS`;
- fair ranking (:mod:`core.metrics.ranking`): :data:`UNKNOWN_LIMIT`, :data:`COSTS`,
  :func:`unreliable` (cells over 1 % unknown characters), :func:`extremes` (cheapest and
  dearest per tokenizer among the others), :func:`row_order`;
- sampling (:mod:`core.metrics.sampling`): :func:`temperature_shares`, :func:`exponent_shares`,
  :func:`passes`, :func:`temperature_curve`;
- costs (:mod:`core.metrics.token_cost`): :func:`output_layer_cost`, :func:`fertility_cost`;
- round trip (:mod:`core.metrics.round_trip_share`): :class:`RoundTripCount` (characters
  ``decode(encode(line))`` gives back unchanged), :func:`round_trip_count`,
  :func:`lines_round_trip`; the table's ``round_trip_share`` metric;
- span diff (:mod:`core.align.span_diff`, re-exported): :func:`span_diff`, :func:`boundaries`,
  :func:`differing_boundaries`;
- the atlas (:mod:`core.metrics.atlas`): :func:`atlas_table` (the whole UDHR collection ×
  tokenizer files on all cores, cells cached on disk), :func:`collection_corpus`;
- fairness across languages (:mod:`core.metrics.fairness`): :func:`gini`, :func:`fairness`
  (median premium, Gini, shares over 2× and 4×, ten worst-served languages);
- sources and units (:mod:`core.metrics.measures`): :data:`TOOLTIPS`, :data:`SUMMARY_TOOLTIPS`;
- normalization damage lives in :mod:`core.metrics.normalization_damage`.

Layer: above :mod:`core.align`, :mod:`core.tokenizers` and :mod:`core.text`. A cancelled
:func:`compare_table` raises :class:`core.errors.Cancelled`.
"""

from __future__ import annotations

from core.align.span_diff import SpanDiff, boundaries, differing_boundaries, span_diff
from core.metrics.per_encoding import (
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
from core.metrics.table import (
    METRICS,
    CompareTable,
    CorpusFile,
    compare_table,
    load_corpus,
    unknown_of,
)
from core.metrics.round_trip_share import RoundTripCount, lines_round_trip, round_trip_count
from core.metrics.ranking import COSTS, UNKNOWN_LIMIT, Extremes, extremes, row_order, unreliable
from core.metrics.sampling import exponent_shares, passes, temperature_curve, temperature_shares
from core.metrics.text_stats import TextStats, count_words, text_stats
from core.metrics.token_cost import fertility_cost, output_layer_cost
from core.metrics.unknown_cost import adjusted_tokens, utf8_lengths
from core.text.graphemes import grapheme_interior

__all__ = [
    "BYTE_FALLBACK_RE", "EncodingLike", "EncodingMetrics", "count_unknown", "count_words",
    "coverage", "covered_count", "unknown_of",
    "cutting_tokens", "encoding_metrics", "fertility", "grapheme_interior", "premium",
    "METRICS", "CompareTable", "CorpusFile", "compare_table", "load_corpus",
    "exponent_shares", "passes", "temperature_curve", "temperature_shares",
    "SpanDiff", "boundaries", "differing_boundaries", "span_diff",
    "fertility_cost", "output_layer_cost", "TextStats", "text_stats",
    "COSTS", "UNKNOWN_LIMIT", "Extremes", "extremes", "row_order", "unreliable",
    "adjusted_tokens", "utf8_lengths", "RoundTripCount", "lines_round_trip", "round_trip_count",
]
